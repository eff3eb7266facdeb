"""IRV107 spec-runtime-divergence: the model depends on a point where the specification and
OpenVINO 2026.4 disagree.

Known points: pdpd without an axis attribute (the runtime reads 0, the specification -1);
pdpd with trailing 1s in B (the specification ignores them, the runtime does not); interval
dims such as ``1..8`` against ``10``, which the runtime accepts because the interval contains
1 while only an exact 1 would work; Pad-1's negative pads (its specification forbids them,
the runtime crops with them); and shapes the runtime reads although no input can run them
(it checks only static dims, or not at all): MatMul's inner dims as disjoint intervals,
VariadicSplit lengths that take more than the dim, TopK's k above the dim, an RNN's X and W
of different input sizes.  The warning names both readings.  With ``--reshape`` it keeps
the runtime's verdict: the reshape works, and the warning says the model cannot run.

Passing (the axis is explicit, both readings agree)::

    <data auto_broadcast="pdpd" auto_broadcast.auto_broadcast_axis="-1"/>  <!-- [2,3,4,5] + [5] -->

Failing (no axis: the specification accepts, the runtime refuses)::

    <data auto_broadcast="pdpd"/>                                         <!-- [2,3,4,5] + [5] -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ops.support.spec import DIVERGENCE
from ._common import Context
from .findings import Problem

CODE = "IRV107"
SLUG = "spec-runtime-divergence"
LEVEL = "warning"
SUMMARY = "The model relies on a point where the specification and the runtime disagree."


def check(ctx: Context) -> Iterator[Problem]:
    for inference in ctx.inferences():
        layer = inference.layer
        for problem in inference.of(DIVERGENCE):
            yield Problem(f"{layer.describe()}: {problem.message}", at=layer, layer=layer,
                          scope=ctx.graph.scope)
