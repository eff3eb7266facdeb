"""IRV416 model-file-unmatched: ``compat --against REV`` found an IR on one side only: a
model deleted since REV (its callers break), or one added (nothing to compare it with).
A rename git reports is followed, and then both files are compared.

Passing (``models/a.xml`` at REV and in the working tree)::

    git show REV:models/a.xml   # an IR
    cat models/a.xml            # an IR

Failing, that is reported (``models/a.xml`` deleted since REV)::

    git show REV:models/a.xml   # an IR
    cat models/a.xml            # No such file or directory
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CompatContext
from .findings import Problem

CODE = "IRV416"
SLUG = "model-file-unmatched"
LEVEL = "error"
SUMMARY = "An IR file exists on one side of the comparison only."


def check(ctx: CompatContext) -> Iterator[Problem]:
    if ctx.old is not None and ctx.new is None:
        yield Problem(f"the IR {ctx.old_name} is gone: its callers break")
    elif ctx.new is not None and ctx.old is None:
        yield Problem(f"this IR is new since {ctx.old_name}: there is nothing to compare it "
                      f"with")
