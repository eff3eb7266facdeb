"""Range-1 (no output_type) and Range-4: ``start``, ``stop``, ``step`` as three scalar inputs.

Its shape inference is not modelled yet; its value is evaluated when the three are known.
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import values as vals
from ..shapes.values import Origin, Tensor
from .evaluating import label, scalar, tensors
from .node import Node
from .spec import OpSpec


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (3,))
    start, stop, step = (scalar(x, "a Range input") for x in t[:3])
    et = elements.from_element_type(node.layer.data.get("output_type")) or t[0].et
    return vals.arange(start, stop, step, et, Origin(label(node.layer, f"{start}, {stop}, {step}")))


SPECS = {"range": (OpSpec("Range", (1, 3), evaluate=_evaluate),
                   OpSpec("Range", (4, 16), evaluate=_evaluate))}
