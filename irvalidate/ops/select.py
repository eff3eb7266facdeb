"""Select-1: ``cond ? then : else``, the three inputs broadcast by ``auto_broadcast``.

numpy merges all three; pdpd fits ``else``, then ``cond``, into ``then`` (select_shape_inference).
The condition must be boolean; ``then`` and ``else`` share the output's element type.
"""
from __future__ import annotations

from typing import Callable

from ..ir import elements
from ..shapes import broadcasting as bc
from ..shapes.dims import Shape
from . import autobroadcast as ab
from .node import Node
from .spec import TYPE, OpSpec, Result

_LABELS = ("cond", "then", "else")


def _infer(node: Node) -> Result:
    node.require_inputs((3,))
    label = ab.mode_label(node)
    node.how = f"{label} broadcast"
    spec = ab.read(node)
    node.show(_LABELS)
    cond, then, else_ = (v.shape for v in node.inputs)
    cond_type = node.inputs[0].element_type
    if elements.is_known(cond_type) and cond_type != "boolean":
        node.note(TYPE, f"the condition (input 0) must be boolean, not {cond_type}")
    et = ab.merge_types(node, _LABELS[1:], [v.element_type for v in node.inputs[1:]])
    try:
        outcome = ab.run(node, lambda: bc.select(cond, then, else_, spec.mode, spec.axis), label)
    finally:
        if spec.mode == "pdpd":
            def fold(merge: Callable[[Shape, Shape], bc.Outcome]) -> bc.Outcome:
                return merge(merge(then, else_).shape, cond)
            ab.pdpd_divergence(node, spec, [else_, cond], fold)
    return Result((outcome.shape,), (et,))


SPECS = {"select": (OpSpec("Select", attributes=ab.ATTRIBUTES, infer=_infer),)}
