"""Squeeze and Unsqueeze: dims of size 1 removed or inserted at ``axes`` (input 1).

Their shape inference is not modelled yet; their values are evaluated (the value keeps its
elements, only its shape changes).  Squeeze without axes, or with an empty axes list, removes
every 1.
"""
from __future__ import annotations

from ..shapes import values as vals
from ..shapes.values import Tensor
from .evaluating import origin, tensors
from .node import Node
from .spec import OpSpec


def _squeeze(node: Node) -> Tensor:
    t = tensors(node, (1, 2))
    shape = vals.squeeze_shape(t[0].shape, t[1].static_values() if len(t) > 1 else None)
    return vals.reshaped(t[0], shape, origin(node.layer, t[:1]))


def _unsqueeze(node: Node) -> Tensor:
    t = tensors(node, (2,))
    shape = vals.unsqueeze_shape(t[0].shape, t[1].static_values())
    return vals.reshaped(t[0], shape, origin(node.layer, t[:1]))


SPECS = {"squeeze": (OpSpec("Squeeze", evaluate=_squeeze),),
         "unsqueeze": (OpSpec("Unsqueeze", evaluate=_unsqueeze),)}
