"""IRV404 element-type-changed: an input or output has another element type (``i64`` became
``i32``): a caller's buffers, or a consumer's reading, no longer fit.

Passing (old, then new)::

    <layer id="0" name="input_ids" type="Parameter" version="opset1"><data element_type="i64" .../>
    <layer id="0" name="input_ids" type="Parameter" version="opset1"><data element_type="i64" .../>

Failing, that is reported (old, then new)::

    <layer id="0" name="input_ids" type="Parameter" version="opset1"><data element_type="i64" .../>
    <layer id="0" name="input_ids" type="Parameter" version="opset1"><data element_type="i32" .../>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CompatContext, at_new, label
from .findings import Problem

CODE = "IRV404"
SLUG = "element-type-changed"
LEVEL = "error"
SUMMARY = "An input's or output's element type changed."


def check(ctx: CompatContext) -> Iterator[Problem]:
    for what, matching, kind in ctx.sides():
        for old, new in matching.pairs():
            if old.element_type != new.element_type:
                yield at_new(ctx, f"{what} {label(new)}: element type was {old.element_type}, "
                             f"now {new.element_type}", old, new, kind)
