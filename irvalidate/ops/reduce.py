"""ReduceProd-1 over all the elements of a shape value (``keep_dims`` keeps a 1-D result).

Its shape inference is not modelled yet; its value is evaluated for values of rank 0 or 1
reduced over axis 0, multiplying the lower and the upper bounds.
"""
from __future__ import annotations

from ..shapes import bounds
from ..shapes.values import Tensor, Unresolved
from .evaluating import bool_attr, origin, tensors
from .node import Node
from .spec import OpSpec


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (2,))
    axes = t[1].static_values()
    if any(a not in (0, -1) for a in axes) or t[0].rank > 1:
        raise Unresolved("ReduceProd over other axes")
    if not axes and t[0].rank == 1:
        raise Unresolved("ReduceProd with no axes")
    return bounds.reduce_prod(t[0], bool_attr(node.layer, "keep_dims", False), origin(node.layer, t[:1]))


SPECS = {"reduceprod": (OpSpec("ReduceProd", evaluate=_evaluate),)}
