"""IRV410 output-added: the new file has an output the old one did not: compatible (callers
that do not read it are not affected), said for the record.

Passing (old, then new: the same outputs)::

    <port id="0" precision="FP32" names="logits">
    <port id="0" precision="FP32" names="logits">

Failing, that is reported (old, then new: ``hidden_states`` added)::

    <port id="0" precision="FP32" names="logits">
    <port id="0" precision="FP32" names="logits"> ... <port id="0" precision="FP32" names="hidden_states">
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CompatContext, label, record
from .findings import Problem

CODE = "IRV410"
SLUG = "output-added"
LEVEL = "info"
SUMMARY = "A new output (compatible)."


def check(ctx: CompatContext) -> Iterator[Problem]:
    for new in ctx.outputs.added:
        yield Problem(f"output {label(new)} ({new.element_type}{new.shape_text}) is new",
                      line=new.line or None, layer=record(new, "Result"))
