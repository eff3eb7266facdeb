"""Transpose-1: the dims of ``arg`` in the order ``input_order`` (input 1) gives.

Shape (transpose_shape_inference): the order is const-only and must be a permutation of
``0..r-1`` (negative values are refused); an empty order reverses the dims.  The order's
length must be compatible with the rank, or 0.  Unknown order: ``[?]*r`` (dynamic rank for a
dynamic-rank arg); a known order on a dynamic-rank arg gives ``[?]*len(order)`` (an empty order
there gives a scalar, as the runtime does).
Value: evaluated (the bounds move with their elements).
"""
from __future__ import annotations

from ..shapes.dims import DYNAMIC, compatible, format_shape, static
from ..shapes.layout import transpose_values
from ..shapes.values import Tensor, Unresolved
from .support.evaluating import origin, short, tensors
from .support.input_types import require_type
from .support.node import Node
from .support.shaping import ints_text
from .support.spec import INCOMPATIBLE, OpError, OpSpec, Result


def _infer(node: Node) -> Result:
    node.require_inputs((2,))
    node.show(["arg", "input_order"])
    node.how = "transpose"
    arg, order_in = (v.shape for v in node.inputs)
    et = node.inputs[0].element_type
    require_type(node, 1, "input_order")
    if order_in is not None:
        if len(order_in) != 1:
            raise OpError(INCOMPATIBLE, f"input_order (input 1) must be a 1-D tensor, but has "
                                        f"shape {format_shape(order_in)}")
        if arg is not None and not (compatible(order_in[0], static(len(arg)))
                                    or order_in[0] == static(0)):
            raise OpError(INCOMPATIBLE, f"input_order holds {order_in[0]} values, but arg "
                                        f"{format_shape(arg)} has rank {len(arg)}")
    order = node.exact_values(1)
    if order is None:
        return Result((None if arg is None else (DYNAMIC,) * len(arg),), (et,))
    if arg is None:
        return Result(((DYNAMIC,) * len(order),), (et,))
    rank = len(arg)
    if not order:
        order = list(range(rank - 1, -1, -1))
    if sorted(order) != list(range(rank)):
        raise OpError(INCOMPATIBLE, f"input_order {ints_text(order)} is not a permutation of the "
                                    f"{rank} axes of arg {format_shape(arg)} (negative axes "
                                    f"are refused)")
    node.how = f"transpose {ints_text(order)}"
    return Result((tuple(arg[o] for o in order),), (et,))


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (2,))
    order = t[1].static_values() or list(range(t[0].rank - 1, -1, -1))
    if t[1].rank != 1:
        raise Unresolved("an order that is not 1-D")
    return transpose_values(t[0], order, origin(node.layer, t[:1], f"order {short(order)}"))


SPECS = {"transpose": (OpSpec("Transpose", (1, 16), frozenset(), value_inputs=(1,), symbolic=True, infer=_infer,
                              evaluate=_evaluate),)}
