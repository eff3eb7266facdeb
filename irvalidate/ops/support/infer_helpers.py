"""Small pieces the detection, sequence and control-flow ops share: a dim of a shape that may
be of dynamic rank, merges and rank checks that stop with the runtime's reason, element type
families.  Value inputs are read by the node (``Node.as_shape``, ``Node.exact_values``).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from ...shapes import arith
from ...shapes.dims import DYNAMIC, Dim, Shape, format_dim, format_shape
from .spec import INCOMPATIBLE, OpError

#: floating-point element types (``element::Type::is_real``)
REAL = frozenset({"bf16", "f16", "f32", "f64", "f8e4m3", "f8e5m2", "f8e8m0", "f4e2m1", "nf4"})


_F32_MIN_NORMAL = 1.1754943508222875e-38


def positive_normal(x: float) -> bool:
    """``std::isnormal(x) && !std::signbit(x)`` for a float32 attribute."""
    x = arith.f32(x)
    return math.isfinite(x) and x >= _F32_MIN_NORMAL


def dim(shape: Shape, index: int) -> Dim:
    """``shape[index]``, or ``?`` when the rank is dynamic."""
    return DYNAMIC if shape is None else shape[index]


def require_rank(shape: Shape, ranks: Sequence[int], message: str) -> None:
    """Stop (incompatible) unless the rank is dynamic or one of ``ranks``."""
    if shape is not None and len(shape) not in ranks:
        raise OpError(INCOMPATIBLE, message)


def merge(a: Dim, b: Dim, message: str) -> Dim:
    """``Dimension::merge``: the intersection, or stop with ``message``."""
    found = arith.merge(a, b)
    if found is None:
        raise OpError(INCOMPATIBLE, message)
    return found


def text(value: object) -> str:
    """A dim or shape as OpenVINO prints it."""
    if isinstance(value, Dim):
        return format_dim(value)
    return format_shape(value)  # type: ignore[arg-type]  # a shape, not a Dim


def is_real(et: str | None) -> bool:
    return et in REAL
