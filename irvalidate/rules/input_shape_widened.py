"""IRV406 input-shape-widened: an input takes every size it took and more (a static dim
made dynamic, an interval widened, a dynamic rank): compatible, said for the record.

Passing (old, then new)::

    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,?" .../>
    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,?" .../>

Failing, that is reported (old, then new)::

    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,128" .../>
    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,?" .../>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import WIDENED, CompatContext, shape_problems
from .findings import Problem

CODE = "IRV406"
SLUG = "input-shape-widened"
LEVEL = "info"
SUMMARY = "An input takes more sizes than before (static to dynamic, an interval widened)."


def check(ctx: CompatContext) -> Iterator[Problem]:
    yield from shape_problems(ctx, ctx.inputs, (WIDENED,), "input", "Parameter")
