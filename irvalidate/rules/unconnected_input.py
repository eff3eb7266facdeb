"""IRV209 unconnected-input: an input port that no edge feeds.

OpenVINO counts a layer's inputs by its edges, so a declared port without an edge is no input
at all: the layer silently gets fewer inputs than its ports say (or fails to build).  A layer
with no incoming edge at all is reported once, as a whole.

Passing::

    <input><port id="0"/><port id="1"/></input>   <!-- edges into ports 0 and 1 -->

Failing::

    <input><port id="0"/><port id="1"/></input>   <!-- an edge into port 0 only -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context
from .findings import Problem

CODE = "IRV209"
SLUG = "unconnected-input"
LEVEL = "error"
SUMMARY = "An input port has no edge, so the layer gets fewer inputs than it declares."


def check(ctx: Context) -> Iterator[Problem]:
    incoming = ctx.analysis.edges.incoming
    for layer in ctx.analysis.layers.values():
        if not layer.inputs:
            continue
        loose = [p for p in layer.inputs if (layer.id, p.id) not in incoming]
        if not loose:
            continue
        if len(loose) == len(layer.inputs):
            yield Problem(f"{layer.describe()}: none of its {len(loose)} input port(s) has an "
                          f"edge; connect them with <edge>s, or delete the layer",
                          at=layer, layer=layer, scope=ctx.graph.scope)
            continue
        for port in loose:
            yield Problem(f"{layer.describe()}: input port {port.id} has no edge; connect it "
                          f"with an <edge> or remove the port",
                          at=port, layer=layer, port=port.id, scope=ctx.graph.scope)
