"""FakeQuantize-1: its five inputs must broadcast together; the output is input 0 unchanged.

The ranges (input_low/high, output_low/high) broadcast with the data by ``auto_broadcast``,
yet the output keeps the data's shape even when they would broadcast it wider (the runtime's
shape inference does so).  ``levels`` does not change the shape.
"""
from __future__ import annotations

from collections.abc import Callable

from ..shapes import broadcasting as bc
from ..shapes.dims import Shape
from .support import autobroadcast as ab
from .support.node import Node
from .support.spec import OpSpec, Result

_LABELS = ("data", "input_low", "input_high", "output_low", "output_high")


def _infer(node: Node) -> Result:
    node.require_inputs((5,))
    label = ab.mode_label(node)
    node.how = f"{label} broadcast"
    spec = ab.read(node)
    node.show(_LABELS)
    shapes = [v.shape for v in node.inputs]
    try:
        ab.run(node, lambda: bc.fake_quantize(shapes, spec.mode, spec.axis), label)
    finally:
        if spec.mode == "pdpd":
            def fold(merge: Callable[[Shape, Shape], bc.Outcome]) -> bc.Outcome:
                acc = bc.Outcome(shapes[0])
                for other in shapes[1:]:
                    acc = merge(acc.shape, other)
                return acc
            ab.pdpd_divergence(node, spec, shapes[1:], fold)
    return Result((shapes[0],), (node.inputs[0].element_type,))


SPECS = {"fakequantize": (OpSpec("FakeQuantize", attributes=ab.ATTRIBUTES | {"levels"},
                                  symbolic=True, infer=_infer),)}
