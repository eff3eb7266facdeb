"""IRV207 reversed-edge: an edge leaves an input port or enters an output port.

Data flows from an output port to an input port.  OpenVINO fails on such an edge with "Can
not find output port" and no line; usually from-port and to-port were swapped by hand.

Passing::

    <edge from-layer="0" from-port="0" to-layer="2" to-port="1"/>   <!-- 0 is an output of 0 -->

Failing::

    <edge from-layer="2" from-port="1" to-layer="3" to-port="0"/>   <!-- 1 is an input of 2 -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context
from .findings import Problem

CODE = "IRV207"
SLUG = "reversed-edge"
LEVEL = "error"
SUMMARY = "An edge leaves an input port or enters an output port."


def check(ctx: Context) -> Iterator[Problem]:
    layers = ctx.analysis.layers
    for edge, reason in ctx.analysis.edges.reversed:
        yield Problem(f"edge {edge.from_layer}:{edge.from_port} -> {edge.to_layer}:{edge.to_port} "
                      f"runs the wrong way: {reason}; an edge goes from an output port to "
                      f"an input port: swap its ends or delete it", at=edge,
                      layer=layers.get(edge.to_layer), scope=ctx.graph.scope)
