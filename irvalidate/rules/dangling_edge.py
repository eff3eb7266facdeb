"""IRV202 dangling-edge: an edge names a layer or port that does not exist.

OpenVINO fails on some of these with a message that names no line, and silently accepts an
edge into a missing layer.

Passing::

    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>

Failing (there is no layer 99)::

    <edge from-layer="0" from-port="0" to-layer="99" to-port="0"/>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context
from .findings import Problem

CODE = "IRV202"
SLUG = "dangling-edge"
LEVEL = "error"
SUMMARY = "An edge names a layer or port that does not exist."


def check(ctx: Context) -> Iterator[Problem]:
    layers = ctx.analysis.layers
    for edge, reason in ctx.analysis.edges.dangling:
        layer = layers.get(edge.to_layer) or layers.get(edge.from_layer)
        yield Problem(f"edge {edge.from_layer}:{edge.from_port} -> {edge.to_layer}:{edge.to_port}: "
                      f"{reason}; delete the edge or restore what it names", at=edge, layer=layer,
                      scope=ctx.graph.scope)
