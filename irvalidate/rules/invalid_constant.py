"""IRV203 invalid-constant: a Const's offset, size, element type and shape disagree with
each other or with the ``.bin``.

Every Const is checked: its bytes must lie inside the ``.bin``, its ``size`` must cover
``shape`` x element type (sub-byte types packed; a larger size is read identically), and its
shape must be static.  Shared and overlapping byte ranges are legal: the serializer
deduplicates identical payloads.  OpenVINO refuses bytes outside the ``.bin`` ("Incorrect
weights in bin file!") and a size too small; it reads a larger size silently.

Passing::

    <layer id="1" type="Const" ...><data element_type="i64" shape="4" offset="0" size="32"/>

Failing (32 bytes are needed, 16 are declared)::

    <layer id="1" type="Const" ...><data element_type="i64" shape="4" offset="0" size="16"/>
"""
from __future__ import annotations

from typing import Iterator

from .. import ops
from ..binfile import const_problems
from ..findings import Problem
from ._common import Context

CODE = "IRV203"
SLUG = "invalid-constant"
LEVEL = "error"
SUMMARY = "A Const's offset, size, type and shape disagree with each other or the .bin length."


def check(ctx: Context) -> Iterator[Problem]:
    weights = ctx.analysis.weights
    size = None if weights.error else weights.size()
    for layer in ctx.analysis.layers.values():
        if layer.type.lower() not in ops.CONST_TYPES:
            continue
        for message in const_problems(dict(layer.data), size):
            yield Problem(f"{layer.describe()}: {message}", line=layer.line, layer=layer,
                          scope=ctx.graph.scope)
    seen = set()
    for inference in ctx.inferences():
        for const, error in inference.const_problems:
            # a target or axes list too long to be a shape; the rest is reported above
            if error.kind == "limit" and const.id not in seen:
                seen.add(const.id)
                yield Problem(f"{const.describe()}, read by {inference.layer.describe()}: {error}",
                              line=const.line, layer=const, scope=ctx.graph.scope)
