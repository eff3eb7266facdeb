"""IRV401 input-removed: an input of the old file is gone from the new one, or none of its
tensor names is kept (a rename: ``input_ids`` became ``input_ids:0``).  A caller that feeds
it by name fails to load or run the new model.

Inputs are matched by tensor name (a name kept is the same input); an old input that keeps
no name, and a new one at its position that has none of the old names either, are
reported once, here, as a rename.

Passing (old, then new: the tensor name kept, another added)::

    <layer id="0" name="input_ids" type="Parameter" version="opset1">
      <output><port id="0" precision="I64" names="input_ids">...
    <layer id="0" name="input_ids" type="Parameter" version="opset1">
      <output><port id="0" precision="I64" names="input_ids,tokens">...

Failing, that is reported (old, then new: renamed)::

    <layer id="0" name="input_ids" type="Parameter" version="opset1">
      <output><port id="0" precision="I64" names="input_ids">...
    <layer id="0" name="input_ids" type="Parameter" version="opset1">
      <output><port id="0" precision="I64" names="input_ids:0">...
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CompatContext, gone
from .findings import Problem

CODE = "IRV401"
SLUG = "input-removed"
LEVEL = "error"
SUMMARY = "An input is gone, or none of its tensor names is kept: callers feeding it break."


def check(ctx: CompatContext) -> Iterator[Problem]:
    yield from gone(ctx, ctx.inputs, "input", "Parameter")
