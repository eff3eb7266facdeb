"""IRV211 unreachable-layer: no Result (or Assign) can be reached from the layer.

OpenVINO builds a model backwards from its Results and Assigns, so such a layer is dropped
without a word: never validated, never run.  Often a leftover of hand editing.  Parameters
are always kept and are not reported.

Passing::

    Parameter -> Relu -> Result

Failing::

    Parameter -> Relu -> Result,  Parameter -> Sigmoid   (the Sigmoid reaches no Result)
"""
from __future__ import annotations

from collections.abc import Iterator

from ..analysis.order import reaching
from ._common import Context
from .findings import Problem

CODE = "IRV211"
SLUG = "unreachable-layer"
LEVEL = "warning"
SUMMARY = "A layer reaches no Result, so OpenVINO silently drops it."

_SINKS = frozenset({"result", "assign"})


def check(ctx: Context) -> Iterator[Problem]:
    layers = ctx.analysis.layers
    sinks = [lid for lid, layer in layers.items() if layer.type.lower() in _SINKS]
    kept = reaching(sinks, ctx.analysis.edges.arcs())
    for lid, layer in layers.items():
        if lid not in kept and layer.type.lower() != "parameter":
            yield Problem(f"{layer.describe()} reaches no Result or Assign; OpenVINO drops it "
                          f"when it reads the model; connect it to a Result or delete it", at=layer,
                          layer=layer,
                          scope=ctx.graph.scope)
