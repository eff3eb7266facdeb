"""IRV402 input-added: the new file has an input the old one did not (by tensor names):
every caller must now feed it.

Passing (old, then new: the same inputs)::

    <layer id="0" name="input_ids" type="Parameter" version="opset1"> ...
    <layer id="0" name="input_ids" type="Parameter" version="opset1"> ...

Failing, that is reported (old, then new: ``attention_mask`` added)::

    <layer id="0" name="input_ids" type="Parameter" version="opset1"> ...
    <layer id="0" name="input_ids" type="Parameter" version="opset1"> ...
    <layer id="1" name="attention_mask" type="Parameter" version="opset1"> ...
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CompatContext, label, record
from .findings import Problem

CODE = "IRV402"
SLUG = "input-added"
LEVEL = "error"
SUMMARY = "A new input: every caller must now feed it."


def check(ctx: CompatContext) -> Iterator[Problem]:
    for new in ctx.inputs.added:
        yield Problem(f"input {label(new)} ({new.element_type}{new.shape_text}) is new: "
                      f"callers must feed it", line=new.line or None,
                      layer=record(new, "Parameter"))
