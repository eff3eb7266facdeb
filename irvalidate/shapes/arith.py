"""Arithmetic on interval dims, as OpenVINO's ``Dimension``/``Interval`` does it.

Bounds saturate: an unbounded upper bound (``INF``) stays unbounded, a lower bound never goes
below 0.  What the runtime does, measured on 2026.4.1 (ops notes, ``_common.md``):

* ``a + b`` adds the bounds; ``a - b`` is ``[a.lo -. b.hi, a.hi -. b.lo]`` where ``x -. y`` is
  0 when ``x <= y`` (``1..2 - 3`` is 0, ``? - 3`` is ``?``);
* ``a * b`` multiplies the bounds (``0 * INF`` is 0);
* an integer added to a dim becomes a dim first: ``n >= 0`` itself, ``-1`` is ``?``, anything
  below ``-1`` is 0 (:func:`from_int`);
* ``Dimension / n`` keeps the multiples of ``n`` inside the interval (``[ceil(lo/n),
  floor(hi/n)]``, ``?`` stays ``?``): an empty result means "not divisible" (:func:`divide`).
"""
from __future__ import annotations

import math
import struct
from collections.abc import Sequence

from . import dims as _dims
from .dims import DYNAMIC, INF, Dim, Shape, intersect


def _bound(value: int) -> int:
    return INF if value >= INF else value


def from_int(value: int) -> Dim:
    """An integer as the runtime turns it into a dim: -1 is ``?``, below that 0."""
    if value >= 0:
        return Dim(_bound(value), _bound(value))
    return DYNAMIC if value == -1 else Dim(0, 0)


def add(a: Dim, b: Dim) -> Dim:
    hi = INF if INF in (a.hi, b.hi) else _bound(a.hi + b.hi)
    if _dims.SYMBOLIC is not None:
        return _symbolic("add", a, b, Dim(_bound(a.lo + b.lo), hi))
    return Dim(_bound(a.lo + b.lo), hi)


def _minus(x: int, y: int) -> int:
    if x == INF:
        return INF
    return 0 if x <= y else x - y


def sub(a: Dim, b: Dim) -> Dim:
    if _dims.SYMBOLIC is not None:
        return _symbolic("sub", a, b, Dim(_minus(a.lo, b.hi), _minus(a.hi, b.lo)))
    return Dim(_minus(a.lo, b.hi), _minus(a.hi, b.lo))


def mul(a: Dim, b: Dim) -> Dim:
    def times(x: int, y: int) -> int:
        if x == 0 or y == 0:
            return 0
        return INF if INF in (x, y) else _bound(x * y)
    if _dims.SYMBOLIC is not None:
        return _symbolic("mul", a, b, Dim(times(a.lo, b.lo), times(a.hi, b.hi)))
    return Dim(times(a.lo, b.lo), times(a.hi, b.hi))


def scale(a: Dim, n: int) -> Dim:
    """``a * n`` for a non-negative integer."""
    return mul(a, Dim(n, n))


def floor_div(a: Dim, n: int) -> Dim:
    """Both bounds divided by ``n > 0``, rounded down (the conv/pool window count)."""
    if _dims.SYMBOLIC is not None:
        return _divided(a, n, Dim(a.lo // n, INF if a.hi == INF else a.hi // n), False)
    return Dim(a.lo // n, INF if a.hi == INF else a.hi // n)


def ceil_div(a: Dim, n: int) -> Dim:
    """Both bounds divided by ``n > 0``, rounded up (same_upper/same_lower, ceil rounding)."""
    if _dims.SYMBOLIC is not None:
        return _divided(a, n, Dim(-(-a.lo // n), INF if a.hi == INF else -(-a.hi // n)), True)
    return Dim(-(-a.lo // n), INF if a.hi == INF else -(-a.hi // n))


def divide(a: Dim, n: int) -> Dim | None:
    """``Dimension / n`` (``n > 0``): the multiples of ``n`` in ``a``, divided; None when there
    are none (a static 7 / 2: "not divisible").  ``?`` stays ``?`` and ``n == 1`` changes
    nothing; otherwise the runtime divides both bounds as doubles, so an unbounded upper bound
    becomes a finite one (``5.. / 2`` is ``3..4611686018427387904``, measured)."""
    if n == 1:
        return a
    if a == DYNAMIC:  # (a symbol dynamic now is still divided, its multiple of n recorded)
        return a if _dims.SYMBOLIC is None else _dims.SYMBOLIC.divisible(a, n, DYNAMIC)
    lo = math.ceil(float(a.lo) / n)
    hi = math.floor(float(a.hi) / n)
    if _dims.SYMBOLIC is not None and lo <= hi:
        return _dims.SYMBOLIC.divisible(a, n, Dim(lo, hi))
    return Dim(lo, hi) if lo <= hi else None


def _symbolic(op: str, a: Dim, b: Dim, result: Dim) -> Dim:
    """``result`` with the expression of ``a op b`` when a symbolic recording is active
    (shapes.symdims; imported late: only reshapeable records)."""
    from . import symdims
    return getattr(symdims, op)(a, b, result) if symdims.symbolic(a, b) else result


def _divided(a: Dim, n: int, result: Dim, up: bool) -> Dim:
    from . import symdims
    return symdims.divided(a, n, result, up) if symdims.symbolic(a) else result


def merge(a: Dim, b: Dim) -> Dim | None:
    """``Dimension::merge``: the intersection, None when the two cannot be equal."""
    return intersect(a, b)


def merge_shapes(a: Shape, b: Shape) -> Shape | None:
    """``PartialShape::merge_into`` without the target: None when ranks or a dim clash; a
    dynamic rank takes the other shape."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        return None
    out = []
    for x, y in zip(a, b):
        merged = intersect(x, y)
        if merged is None:
            return None
        out.append(merged)
    return tuple(out)


def merge_into(into: Shape, other: Shape) -> tuple[Shape, bool]:
    """``PartialShape::merge_into`` with its outcome: a dynamic rank takes the other shape;
    ranks that differ fail and keep ``into``; dims that clash fail and keep their first
    value, the others are merged."""
    if into is None:
        return other, True
    if other is None:
        return into, True
    if len(into) != len(other):
        return into, False
    out, ok = [], True
    for a, b in zip(into, other):
        merged = intersect(a, b)
        ok = ok and merged is not None
        out.append(a if merged is None else merged)
    return tuple(out), ok


def compatible_shapes(a: Shape, b: Shape) -> bool:
    """``PartialShape::compatible``: a dynamic rank fits anything; else the same rank, each
    pair of dims able to be equal."""
    return a is None or b is None or (
        len(a) == len(b) and all(intersect(x, y) is not None for x, y in zip(a, b)))


def f32(x: float) -> float:
    """``x`` rounded to float32, as the runtime stores a float attribute and rounds every
    step of float arithmetic; what rounds past the largest float32 is infinite, as in C++
    (struct refuses it)."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def normalize_axis(axis: int, rank: int) -> int | None:
    """A possibly negative axis of a tensor of ``rank``, or None when out of range."""
    return axis + rank if -rank <= axis < 0 else (axis if 0 <= axis < rank else None)


def product(dims: Sequence[Dim]) -> Dim:
    """The element count of a shape, as an interval."""
    out = Dim(1, 1)
    for d in dims:
        out = mul(out, d)
    return out
