"""IRV411 output-shape-changed: an output's static dim has another size, its rank changed,
or it became dynamic or wider: consumers relying on its shape break.

Passing (old, then new)::

    <port id="0" precision="FP32" names="logits"><dim>1</dim><dim>1000</dim></port>
    <port id="0" precision="FP32" names="logits"><dim>1</dim><dim>1000</dim></port>

Failing, that is reported (old, then new: the batch made dynamic)::

    <port id="0" precision="FP32" names="logits"><dim>1</dim><dim>1000</dim></port>
    <port id="0" precision="FP32" names="logits"><dim>-1</dim><dim>1000</dim></port>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CHANGED, MOVED, WIDENED, CompatContext, shape_problems
from .findings import Problem

CODE = "IRV411"
SLUG = "output-shape-changed"
LEVEL = "error"
SUMMARY = "An output's static dim or rank changed, or it became dynamic: consumers rely on it."


def check(ctx: CompatContext) -> Iterator[Problem]:
    yield from shape_problems(ctx, ctx.outputs, (CHANGED, WIDENED, MOVED), "output", "Result")
