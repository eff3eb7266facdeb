"""What the shape-moving ops (Reshape, Squeeze, Transpose, Gather, Slice, Split, Scatter...)
share: the words of their refusals (their axes: ``axes``; their input types: ``input_types``).
"""
from __future__ import annotations

from collections.abc import Sequence

from ...shapes.dims import Dim
from .spec import INCOMPATIBLE, OpError


def upper_only(d: Dim) -> Dim:
    """A dim whose slice is unknown: anything from 0 up to its maximum."""
    return Dim(0, d.hi)


def ints_text(values: Sequence[int]) -> str:
    return "[" + ",".join(str(v) for v in values[:16]) + (",..." if len(values) > 16 else "") + "]"


def refuse_unless(condition: bool, message: str) -> None:
    """An INCOMPATIBLE refusal with ``message`` unless ``condition`` holds."""
    if not condition:
        raise OpError(INCOMPATIBLE, message)
