"""IRV203 invalid-constant: a Const that a rule needs cannot be read from the ``.bin``.

A Broadcast's target_shape and axes_mapping come from Const layers.  Their bytes must lie
inside the ``.bin``, their ``size`` must cover ``shape`` x element type (sub-byte types packed),
and they must be integers.  OpenVINO refuses such a model ("Incorrect weights in bin file!").

Passing::

    <layer id="1" type="Const" ...><data element_type="i64" shape="4" offset="0" size="32"/>

Failing (32 bytes are needed, 16 are declared)::

    <layer id="1" type="Const" ...><data element_type="i64" shape="4" offset="0" size="16"/>
"""
from __future__ import annotations

from typing import Iterator

from ..findings import Problem
from ._common import Context

CODE = "IRV203"
SLUG = "invalid-constant"
LEVEL = "error"
SUMMARY = "A Const needed by a rule lies outside the .bin or disagrees with its shape and type."


def check(ctx: Context) -> Iterator[Problem]:
    if ctx.analysis.weights.error:
        return  # reported once as missing-weights
    seen = set()
    for inference in ctx.inferences():
        for const, reason in inference.const_problems:
            if const.id in seen:
                continue
            seen.add(const.id)
            yield Problem(f"{const.describe()}: cannot decode the constant that "
                          f"{inference.layer.describe()} reads: {reason}", line=const.line,
                          layer=const, scope=ctx.graph.scope)
