"""IRV204 missing-weights: the ``.bin`` is missing or unreadable.

Without it no Const can be checked against its bytes, and Broadcast layers with constant
target shapes are checked for rank only.  The ``.bin`` is looked for beside the XML with the
same stem (``--bin`` names another path).

Passing: ``model.xml`` with ``model.bin`` beside it.

Failing: ``model.xml`` alone, with Const layers in it.
"""
from __future__ import annotations

from typing import Iterator

from .. import ops
from ..findings import Problem
from ._common import Context

CODE = "IRV204"
SLUG = "missing-weights"
LEVEL = "warning"
SUMMARY = "The .bin is missing, so constants cannot be read or checked."


def check(ctx: Context) -> Iterator[Problem]:
    error = ctx.analysis.weights.error
    if not error or not ctx.is_model:
        return
    consts = [layer for graph in ctx.doc.graphs() for layer in graph.layers
              if layer.type.lower() in ops.CONST_TYPES]
    if consts:
        yield Problem(f"{error}: its {len(consts)} Const layer(s) cannot be checked, and Broadcast "
                      f"target shapes read from them are checked for rank only",
                      line=consts[0].line, layer=consts[0])
