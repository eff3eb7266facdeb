"""IRV204 missing-weights: the ``.bin`` a rule needs is missing or unreadable.

Without it, Broadcast layers with constant target shapes can be checked for rank only.  The
``.bin`` is looked for beside the XML with the same stem (``--bin`` names another path).

Passing: ``model.xml`` with ``model.bin`` beside it.

Failing: ``model.xml`` alone, with a Broadcast whose target_shape is a Const.
"""
from __future__ import annotations

from typing import Iterator

from ..findings import Problem
from ._common import Context

CODE = "IRV204"
SLUG = "missing-weights"
LEVEL = "warning"
SUMMARY = "The .bin is missing, so constant target shapes cannot be checked."


def check(ctx: Context) -> Iterator[Problem]:
    error = ctx.analysis.weights.error
    if not error:
        return
    needing = [inf.layer for inf in ctx.inferences() if inf.const_problems]
    if needing:
        first = needing[0]
        yield Problem(f"{error}: {len(needing)} layer(s) read constants from it and were checked "
                      f"for rank only, the first {first.describe()}", line=first.line, layer=first,
                      scope=ctx.graph.scope)
