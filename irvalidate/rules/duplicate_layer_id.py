"""IRV205 duplicate-layer-id: two layers of one graph (or one body) share an id.

OpenVINO keeps the last layer of a duplicated id and drops the others without a word, so
edges meant for one silently reach the other.  Each body has its own id space.

Passing::

    <layer id="1" name="a" .../>  <layer id="2" name="b" .../>

Failing::

    <layer id="1" name="a" .../>  <layer id="1" name="b" .../>
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir.records import Layer
from ._common import Context, on_line
from .findings import Problem

CODE = "IRV205"
SLUG = "duplicate-layer-id"
LEVEL = "error"
SUMMARY = "Two layers of one graph share an id; OpenVINO silently keeps only the last."


def check(ctx: Context) -> Iterator[Problem]:
    first: dict[str, Layer] = {}
    for layer in ctx.graph.layers:
        if layer.id not in first:
            first[layer.id] = layer
            continue
        earlier = first[layer.id]
        yield Problem(f"{layer.describe()} reuses the id of {earlier.describe()}"
                      f"{on_line(earlier)}; OpenVINO keeps only the last layer with an id: give "
                      f"it an id of its own (and update its edges)",
                      at=layer, layer=layer, scope=ctx.graph.scope)
