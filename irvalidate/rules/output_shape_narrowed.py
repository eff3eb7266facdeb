"""IRV412 output-shape-narrowed: an output's dynamic dim became static, or an interval
narrowed: compatible (what consumers read is among what it gave before).

Passing (old, then new)::

    <port id="0" precision="FP32" names="logits"><dim>-1</dim><dim>1000</dim></port>
    <port id="0" precision="FP32" names="logits"><dim>-1</dim><dim>1000</dim></port>

Failing, that is reported (old, then new)::

    <port id="0" precision="FP32" names="logits"><dim>-1</dim><dim>1000</dim></port>
    <port id="0" precision="FP32" names="logits"><dim>1</dim><dim>1000</dim></port>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import NARROWED, CompatContext, shape_problems
from .findings import Problem

CODE = "IRV412"
SLUG = "output-shape-narrowed"
LEVEL = "info"
SUMMARY = "An output's dynamic dim became static, or an interval narrowed (compatible)."


def check(ctx: CompatContext) -> Iterator[Problem]:
    yield from shape_problems(ctx, ctx.outputs, (NARROWED,), "output", "Result")
