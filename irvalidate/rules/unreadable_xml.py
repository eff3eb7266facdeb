"""IRV001 unreadable-xml: The file is not well-formed XML or cannot be read.

Nothing else in the file is analysed when this fires.

Passing: any well-formed file.

Failing: a <net version="11"> with no closing tag (or an empty file).
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context, fatal_problems
from .findings import Problem

CODE = "IRV001"
SLUG = "unreadable-xml"
LEVEL = "error"
SUMMARY = "The file is not well-formed XML or cannot be read."
#: the file cannot be read as an IR at all: selected whatever ``select`` says
ALWAYS_SELECTED = True


def check(ctx: Context) -> Iterator[Problem]:
    yield from fatal_problems(ctx, "xml")
