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

from ._compat import CompatContext, at_new, label, where_old
from .findings import Problem

CODE = "IRV401"
SLUG = "input-removed"
LEVEL = "error"
SUMMARY = "An input is gone, or none of its tensor names is kept: callers feeding it break."


def check(ctx: CompatContext) -> Iterator[Problem]:
    for old, new in ctx.inputs.renamed:
        yield at_new(ctx, f"input {label(old)} renamed {label(new)}: none of its tensor names "
                     f"({', '.join(old.names) or 'none'}) is kept", old, new, "Parameter")
    for old in ctx.inputs.removed:
        names = f" (tensor names {', '.join(old.names)})" if old.names else ""
        yield Problem(f"input {label(old)}{names} is gone: no input of the new file has any "
                      f"of its names ({where_old(ctx, old)})")
