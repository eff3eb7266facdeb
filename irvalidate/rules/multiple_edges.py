"""IRV208 multiple-edges-into-port: two edges feed one input port.

An input has exactly one producer.  OpenVINO refuses the model ("has incorrect input with
index"), naming neither edge.

Passing::

    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>

Failing::

    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context, on_line
from .findings import Problem

CODE = "IRV208"
SLUG = "multiple-edges-into-port"
LEVEL = "error"
SUMMARY = "More than one edge feeds one input port."


def check(ctx: Context) -> Iterator[Problem]:
    layers = ctx.analysis.layers
    for (to_layer, to_port) in ctx.analysis.edges.extra_edges:
        edges = ctx.analysis.edges.edges_into((to_layer, to_port))
        layer = layers[to_layer]
        sources = ", ".join(f"{e.from_layer}:{e.from_port}{on_line(e, ' (line {})')}"
                            for e in edges[:5])
        if len(edges) > 5:
            sources += f" and {len(edges) - 5} more"
        yield Problem(f"{layer.describe()}: input port {to_port} is fed by {len(edges)} edges: "
                      f"{sources}; an input takes one edge: keep the one you mean", at=edges[1],
                      layer=layer, port=to_port,
                      scope=ctx.graph.scope)
