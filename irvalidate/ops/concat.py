"""Concat-1: its inputs joined along ``axis``.

Its shape inference is not modelled yet.  Its value is evaluated for 1-D shape values (the
common ``Concat(Gather(ShapeOf(x)), Const)`` of a computed target); a Broadcast reading a
Concat it cannot evaluate has its own fallback (see broadcast.py).
"""
from __future__ import annotations

from ..shapes import values as vals
from ..shapes.values import Tensor, Unresolved
from .evaluating import int_attr, origin
from .node import Node
from .spec import OpSpec


def _evaluate(node: Node) -> Tensor:
    t = node.tensors()
    if t is None:
        raise Unresolved("an input has no value")
    return vals.concat(t, int_attr(node.layer, "axis", 0), origin(node.layer, t))


SPECS = {"concat": (OpSpec("Concat", evaluate=_evaluate),)}
