"""IRV407 input-shape-narrowed: an input refuses sizes it took (a dynamic dim made static,
an interval narrowed or moved, a dynamic rank made static).

Passing (old, then new: widened, IRV406's)::

    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,1..4096" .../>
    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,?" .../>

Failing, that is reported (old, then new: the sequence pinned at 128)::

    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,?" .../>
    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,128" .../>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import MOVED, NARROWED, CompatContext, shape_problems
from .findings import Problem

CODE = "IRV407"
SLUG = "input-shape-narrowed"
LEVEL = "error"
SUMMARY = "An input refuses sizes it took (dynamic to static, an interval narrowed)."


def check(ctx: CompatContext) -> Iterator[Problem]:
    yield from shape_problems(ctx, ctx.inputs, (NARROWED, MOVED), "input", "Parameter")
