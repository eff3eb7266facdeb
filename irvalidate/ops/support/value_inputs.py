"""What the convolution, pooling, padding and resizing ops check of their value inputs: integer
element types as the runtime accepts them, and an empty Const the reader gives no buffer.
The values themselves are read by the node (``Node.as_shape``, ``Node.exact_values``).
"""
from __future__ import annotations

from ...ir import elements
from .node import Node, is_const
from .spec import INCOMPATIBLE, TYPE, OpError

#: the types the runtime's ``is_integral_number`` accepts (measured: ``string`` passes too);
#: ``is_integral`` (Tile's repeats) also takes ``boolean``
INTEGER_LIKE = elements.INTEGRAL | {"string"}


def integer_input(node: Node, index: int, what: str, boolean: bool = False) -> None:
    """Note an input whose element type the runtime refuses where it wants integers."""
    et = node.inputs[index].element_type
    if elements.is_known(et) and et not in INTEGER_LIKE and not (boolean and et == "boolean"):
        node.note(TYPE, f"{what} (input {index}) must be an integer tensor, not {et}")


def refuse_bufferless(node: Node, index: int) -> None:
    """An empty Const written with no bytes (size 0) gets no buffer from the reader; the ops
    that read a Const's buffer directly then fail ("ptr is Null": measured on Tile and
    ConvolutionBackpropData), while those that bound-evaluate it (Pad) do not."""
    value = node.inputs[index]
    if is_const(value):
        node.read.append(index)  # (a Const's own attribute is read: its data names it)
    if (is_const(value) and value.producer.data.get("size", "").strip() == "0"  # type: ignore[union-attr]  # a Const's producer
            and value.shape is not None and any(d.hi == 0 for d in value.shape)):
        raise OpError(INCOMPATIBLE, f"input {index} is an empty Const with no bytes (size 0): "
                                    f"the runtime fails reading its values (\"ptr is Null\")")

