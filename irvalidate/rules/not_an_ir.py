"""IRV002 not-an-ir: The root element is not <net>: the file is not an OpenVINO IR.

Nothing else in the file is analysed when this fires.

Passing: <net name="m" version="11">.

Failing: <project>...</project> given explicitly (a directory scan skips such XML quietly).
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context, fatal_problems
from .findings import Problem

CODE = "IRV002"
SLUG = "not-an-ir"
LEVEL = "error"
SUMMARY = "The root element is not <net>: the file is not an OpenVINO IR."
#: the file cannot be read as an IR at all: selected whatever ``select`` says
ALWAYS_SELECTED = True


def check(ctx: Context) -> Iterator[Problem]:
    yield from fatal_problems(ctx, "not-ir")
