"""Reading an op's value inputs as OpenVINO's shape inference reads them (``_conventions.md``).

* :func:`as_shape` is ``get_input_const_data_as_shape``: a Const's numbers (-1 is ``?``, other
  negative values 0, a real Const truncated), else the bounds a shape subgraph evaluates to
  (a negative bound refused), else None;
* :func:`exact_ints` is ``get_input_const_data_as``: a Const's numbers, or a computed value
  whose every element is known exactly, else None.
"""
from __future__ import annotations

import math
from typing import List, Optional, Tuple

from ..ir import elements
from ..ir.weights import REAL_TYPES
from ..shapes import arith
from ..shapes.dims import Dim
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


def const_numbers(node: Node, index: int) -> Optional[List[int]]:
    """A Const input's numbers; a real Const's are truncated towards zero, as the runtime
    casts them (``2.7`` is 2).  None for anything else, or a value no int64 holds."""
    found = node.const_ints(index)
    if found is not None or not is_const(node.inputs[index]):
        return found
    if node.inputs[index].element_type not in REAL_TYPES:
        return None
    reals = node.const_floats(index)
    if reals is None or not all(math.isfinite(r) and abs(r) < 2.0 ** 63 for r in reals):
        return None
    return [int(r) for r in reals]


def refuse_bufferless(node: Node, index: int) -> None:
    """An empty Const written with no bytes (size 0) gets no buffer from the reader; the ops
    that read a Const's buffer directly then fail ("ptr is Null": measured on Tile and
    ConvolutionBackpropData), while those that bound-evaluate it (Pad) do not."""
    value = node.inputs[index]
    if is_const(value) and value.producer.data.get("size", "").strip() == "0" and \
            value.shape is not None and any(d.hi == 0 for d in value.shape):
        raise OpError(INCOMPATIBLE, f"input {index} is an empty Const with no bytes (size 0): "
                                    f"the runtime fails reading its values (\"ptr is Null\")")


def as_shape(node: Node, index: int, what: str) -> Optional[Tuple[Dim, ...]]:
    """The dims a shape input gives, or None when its values are unknown."""
    found = const_numbers(node, index)
    if found is not None:
        return tuple(arith.from_int(v) for v in found)
    return node.computed_as_shape(index, what)


def exact_ints(node: Node, index: int) -> Optional[List[int]]:
    """The exact values of an input (a Const's, or a computed one known exactly), or None."""
    found = const_numbers(node, index)
    return found if found is not None else node.input_as_ints(index)
