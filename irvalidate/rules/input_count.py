"""IRV105 wrong-input-count: a layer with the wrong number of connected inputs.

Elementwise ops take 2, Select 3, FakeQuantize 5; Broadcast-3 takes 3 in explicit mode and 2
otherwise; Broadcast-1 takes 2 or 3 (3 in pdpd mode).  Inputs are counted as the runtime counts
them: by the edges that reach the layer's input ports.

Passing::

    <layer id="5" type="Select" ...><input><port id="0"/><port id="1"/><port id="2"/></input>...

Failing (a Broadcast-3 in numpy mode given axes_mapping)::

    <layer id="6" type="Broadcast" version="opset3"><data mode="numpy"/>
      <input><port id="0">...</port><port id="1">...</port><port id="2">...</port></input>
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ops.support.spec import ARITY
from ._common import Context
from .findings import Problem

CODE = "IRV105"
SLUG = "wrong-input-count"
LEVEL = "error"
SUMMARY = "A layer has the wrong number of inputs for its type and mode."


def check(ctx: Context) -> Iterator[Problem]:
    for inference in ctx.inferences():
        for problem in inference.of(ARITY):
            layer = inference.layer
            yield Problem(f"{layer.describe()}: {problem.message}", at=layer,
                          layer=layer, scope=ctx.graph.scope)
