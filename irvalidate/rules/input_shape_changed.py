"""IRV405 input-shape-changed: an input's static dim has another size, or its rank changed:
what callers fed before is refused.

Passing (old, then new)::

    <layer id="0" name="image" type="Parameter" version="opset1"><data shape="1,3,224,224" .../>
    <layer id="0" name="image" type="Parameter" version="opset1"><data shape="1,3,224,224" .../>

Failing, that is reported (old, then new)::

    <layer id="0" name="image" type="Parameter" version="opset1"><data shape="1,3,224,224" .../>
    <layer id="0" name="image" type="Parameter" version="opset1"><data shape="1,3,256,256" .../>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CHANGED, CompatContext, shape_problems
from .findings import Problem

CODE = "IRV405"
SLUG = "input-shape-changed"
LEVEL = "error"
SUMMARY = "An input's static dim or rank changed."


def check(ctx: CompatContext) -> Iterator[Problem]:
    yield from shape_problems(ctx, ctx.inputs, (CHANGED,), "input", "Parameter")
