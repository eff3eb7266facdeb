"""IRV203 invalid-constant: a Const's offset, size, element type and shape disagree with
each other or with the ``.bin``.

Every Const is checked: its bytes must lie inside the ``.bin``, its ``size`` must cover
``shape`` x element type (sub-byte types packed; a larger size is read identically), and its
shape must be static.  Shared and overlapping byte ranges are legal: the serializer
deduplicates identical payloads.  OpenVINO refuses bytes outside the ``.bin`` ("Incorrect
weights in bin file!") and a size too small; it reads a larger size silently.  When many
Consts read past the end, the ``.bin`` is truncated or belongs to another export: that is
said once, by IRV218 weights-mismatch, not once per Const.

Passing::

    <layer id="1" type="Const" ...><data element_type="i64" shape="4" offset="0" size="32"/>

Failing (32 bytes are needed, 16 are declared)::

    <layer id="1" type="Const" ...><data element_type="i64" shape="4" offset="0" size="16"/>
"""
from __future__ import annotations

import os
from collections.abc import Iterator

from ..ir.records import CONST_TYPES, Layer
from ..ir.weights import bytes_past_end, const_problems
from ..ops.support.spec import CONSTANT
from ._common import Context
from .findings import Problem

CODE = "IRV203"
SLUG = "invalid-constant"
LEVEL = "error"
SUMMARY = "A Const's offset, size, type and shape disagree with each other or the .bin length."

#: more Consts past the end than this are one finding about the .bin
_ONE_BY_ONE = 3  # (weights_mismatch.PAST_END_MANY)


def check(ctx: Context) -> Iterator[Problem]:
    weights = ctx.analysis.weights
    size = None if weights.error else weights.size()
    past: list[tuple[Layer, int]] = []
    for layer in ctx.analysis.layers.values():
        if layer.type.lower() not in CONST_TYPES:
            continue
        for message in const_problems(layer.data):
            yield Problem(f"{layer.describe()}: {message}; fix its <data> attributes or "
                          f"re-export the model", at=layer, layer=layer,
                          scope=ctx.graph.scope)
        end = None if size is None else bytes_past_end(layer.data, size)
        if end is not None:
            past.append((layer, end))
    yield from _past_end(ctx, past, size)
    seen = set()
    for inference in ctx.inferences():
        # a target or axes list too long to be a shape (the rest is reported above)
        for problem in inference.of(CONSTANT):
            const = problem.const
            if const is not None and const.id not in seen:
                seen.add(const.id)
                yield Problem(f"{const.describe()}, read by {inference.layer.describe()}: "
                              f"{problem.message}", at=const, layer=const, scope=ctx.graph.scope)


def _past_end(ctx: Context, past: list[tuple[Layer, int]], size) -> Iterator[Problem]:
    name = os.path.basename(ctx.analysis.weights.path or "") or "the .bin"
    if len(past) <= _ONE_BY_ONE:
        for layer, end in past:
            yield Problem(f"{layer.describe()}: its bytes {end - int(layer.data.get('size', 0) or 0)}"
                          f"..{end} lie outside {name} ({size:,} bytes); fix offset/size or "
                          f"re-export the model", at=layer, layer=layer,
                          scope=ctx.graph.scope)
        return
    if ctx.is_model:  # more say the .bin is not the model's: IRV218 weights-mismatch says it
        return
    furthest = max(end for _, end in past)
    first = past[0][0]
    names = ", ".join(repr(layer.name) for layer, _ in past[:3])
    yield Problem(f"{name} holds {size:,} bytes, but {len(past):,} Const layers read past its end "
                  f"(up to byte {furthest:,}; {names}, ...): it is truncated or belongs to another "
                  f"export; restore it or re-export the model", at=first, layer=first,
                  scope=ctx.graph.scope)
