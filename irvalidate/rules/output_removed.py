"""IRV409 output-removed: an output of the old file is gone from the new one, or none of its
tensor names is kept (a rename): consumers reading it break.

Outputs are matched as inputs are (IRV401): by tensor name; a rename is reported once.

Passing (old, then new)::

    <port id="0" precision="FP32" names="logits">   <!-- the Result's input -->
    <port id="0" precision="FP32" names="logits">

Failing, that is reported (old, then new: the output ``present.0.key`` gone)::

    <port id="0" precision="FP32" names="logits"> ... <port id="0" precision="FP32" names="present.0.key">
    <port id="0" precision="FP32" names="logits">
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CompatContext, gone
from .findings import Problem

CODE = "IRV409"
SLUG = "output-removed"
LEVEL = "error"
SUMMARY = "An output is gone, or none of its tensor names is kept."


def check(ctx: CompatContext) -> Iterator[Problem]:
    yield from gone(ctx, ctx.outputs, "output", "Result")
