"""Convert: the shape of its input, the element type ``destination_type``; its values are cast.

Bound evaluation casts each bound like C++ (two's complement wrap-around): see
:func:`irvalidate.shapes.values.convert` for what happens to unbounded values.
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import values as vals
from ..shapes.values import Tensor
from .support.evaluating import origin, tensors
from .support.node import Node
from .support.spec import OpSpec, Result
from .unary import same_shape


def _infer(node: Node) -> Result | None:
    return same_shape(node, elements.from_element_type(node.layer.data.get("destination_type")))


def _evaluate(node: Node) -> Tensor:
    et = elements.from_element_type(node.layer.data.get("destination_type")) or "?"
    if et in vals.FLOAT_TYPES and not vals.holds_value(node.inputs[0].shape, et):
        # no real value has that many numbers: said before the input is decoded (a u8
        # weight's decompression Convert), and from its shape alone, so the layer stays pure
        raise vals.Unresolved("too many real elements")
    t = tensors(node, (1,))
    return vals.convert(t[0], et, origin(node.layer, t, et))


SPECS = {"convert": (OpSpec("Convert", attributes=frozenset({"destination_type"}), symbolic=True, infer=_infer,
                             symbolic_values=True, evaluate=_evaluate, arity=(1,), own_types=(0,)),)}
