"""IRV210 graph-cycle: the edges form a cycle.

An IR graph is acyclic (loops live in Loop/TensorIterator bodies and their back edges).
OpenVINO fails on a cycle with "Attempt to access node that not in graph"; this names every
layer on it.

Passing::

    0 -> 1 -> 2

Failing::

    1 -> 2 -> 1
"""
from __future__ import annotations

from collections.abc import Iterator

from ..analysis.order import find_cycles
from ._common import Context
from .findings import Problem

CODE = "IRV210"
SLUG = "graph-cycle"
LEVEL = "error"
SUMMARY = "The edges form a cycle (the layers on it are named)."


def check(ctx: Context) -> Iterator[Problem]:
    analysis = ctx.analysis
    if not analysis.leftover:
        return
    for cycle in find_cycles(analysis.leftover, analysis.edges.arcs()):
        layers = [analysis.layers[lid] for lid in cycle]
        shown = layers if len(layers) <= 12 else layers[:10]
        path = " -> ".join(layer.describe() for layer in shown + layers[:1])
        if len(shown) < len(layers):
            skipped = f" -> ... {len(layers) - 10} more ... -> "
            path = path.rsplit(" -> ", 1)[0] + skipped + layers[0].describe()
        first = min(layers, key=lambda layer: layer.line)
        yield Problem(f"the edges form a cycle of {len(layers)} layer(s): {path}; a model is "
                      f"acyclic (loops live in Loop/TensorIterator bodies): remove an edge of it",
                      at=first, layer=first, scope=ctx.graph.scope)
