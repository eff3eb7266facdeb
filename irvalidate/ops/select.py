"""Select-1: ``cond ? then : else``, the three inputs broadcast by ``auto_broadcast``.

numpy merges all three; pdpd fits ``else``, then ``cond``, into ``then`` (select_shape_inference).
The condition must be boolean; ``then`` and ``else`` share the output's element type.
Value: once the condition is exact (the runtime's ``has_and_set_bound``), each bound is
picked from ``then`` or ``else`` (:func:`irvalidate.shapes.layout.select_values`).
"""
from __future__ import annotations

from collections.abc import Callable

from ..ir import elements
from ..shapes import broadcasting as bc, layout
from ..shapes.dims import Shape
from ..shapes.values import Tensor, Unresolved
from .support import autobroadcast as ab
from .support.evaluating import origin, tensors
from .support.node import Node
from .support.spec import TYPE, OpSpec, Result

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


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (3,), reals=(1, 2))
    if ab.read(node).mode == "pdpd":
        raise Unresolved("Select of values broadcast the pdpd way")
    return layout.select_values(t[0], t[1], t[2], origin(node.layer, t))


SPECS = {"select": (OpSpec("Select", attributes=ab.ATTRIBUTES, symbolic=True, infer=_infer, evaluate=_evaluate,
                           arity=(3,)),)}
