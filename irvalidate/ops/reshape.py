"""Reshape-1: the input's elements in the shape ``target`` (input 1) gives.

Its shape inference is not modelled yet; its value is evaluated: ``special_zero`` copies the
input's dim where the pattern says 0, one -1 takes what is left.
"""
from __future__ import annotations

from ..shapes import values as vals
from ..shapes.values import Tensor
from .evaluating import bool_attr, origin, tensors
from .node import Node
from .spec import OpSpec


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (2,))
    shape = vals.reshape_target(t[0], t[1].static_values(),
                                bool_attr(node.layer, "special_zero", False))
    return vals.reshaped(t[0], shape, origin(node.layer, t[:1]))


SPECS = {"reshape": (OpSpec("Reshape", evaluate=_evaluate),)}
