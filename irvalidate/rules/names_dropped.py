"""IRV403 names-dropped: an input or output keeps some of its tensor names and loses
others; a caller using a name dropped no longer finds it.

Passing (old, then new: every name kept)::

    <port id="0" precision="FP32" names="logits,output">
    <port id="0" precision="FP32" names="logits,output">

Failing, that is reported (old, then new: ``output`` dropped)::

    <port id="0" precision="FP32" names="logits,output">
    <port id="0" precision="FP32" names="logits">
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CompatContext, at_new, label
from .findings import Problem

CODE = "IRV403"
SLUG = "names-dropped"
LEVEL = "warning"
SUMMARY = "An input or output lost some of its tensor names (others are kept)."


def check(ctx: CompatContext) -> Iterator[Problem]:
    for what, matching, kind in ctx.sides():
        for old, new in matching.kept:
            dropped = [name for name in old.names if name not in new.names]
            if dropped:
                yield at_new(ctx, f"{what} {label(new)} lost tensor name"
                             f"{'s' if len(dropped) > 1 else ''} {', '.join(dropped)} (kept: "
                             f"{', '.join(n for n in old.names if n in new.names)})",
                             old, new, kind)
