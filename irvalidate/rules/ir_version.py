"""IRV003 unsupported-ir-version: The IR version is not 10 or 11, the only ones OpenVINO reads.

Nothing else in the file is analysed when this fires.

Passing: <net name="m" version="11">.

Failing: <net name="m" version="7">.
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context, fatal_problems
from .findings import Problem

CODE = "IRV003"
SLUG = "unsupported-ir-version"
LEVEL = "error"
SUMMARY = "The IR version is not 10 or 11, the only ones OpenVINO reads."
#: the file cannot be read as an IR at all: selected whatever ``select`` says
ALWAYS_SELECTED = True


def check(ctx: Context) -> Iterator[Problem]:
    yield from fatal_problems(ctx, "version")
