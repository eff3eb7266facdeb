"""The length of a slice of an interval dim by interval bounds, as OpenVINO's
``slice::make_dim`` computes it (shared by Slice-8 and StridedSlice-1).

Bounds are (lower, upper) pairs of int64 values; ``INF`` (int64 max) is both the unbounded
upper bound of a dim and the "to the end" stop.  With a static dim and constant bounds this is
Python's slicing, ``len(range(*slice(start, stop, step).indices(dim)))``.  Verified against
the runtime on thousands of random cases (tests/ops/test_slicing.py).
"""
from __future__ import annotations

from . import dims as _dims
from .dims import DYNAMIC, INF, Dim

INT64_MIN = -(1 << 63)
Bound = tuple[int, int]


def _trunc_div(x: int, y: int) -> int:
    """C++ integer division: rounds toward zero."""
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


def _count(n: int, a: int, b: int, step: int) -> int:
    """Elements from ``a`` to ``b`` by ``step`` in a dim of size ``n`` (-1: unbounded);
    -1 when the answer is unbounded."""
    rev = step < 0
    size = INF if n == -1 else n
    if size == INF and ((a < 0) != (b < 0) or a == INF or b == INF or a == INT64_MIN):
        lo_i = 0
        if rev:
            hi_i = -1 if (a < 0 or a == INF or b == INF) else -1 - a
        elif a < 0 and a != INT64_MIN:
            hi_i = -a if b == INF else b
        else:
            hi_i = -1
    else:
        def norm(x: int) -> int:
            return x + size if x < 0 else x
        lo_i = min(max(norm(a), 0), size - 1 if rev else size)
        hi_i = min(max(norm(b), -1 if rev else 0), size)
    if size == INF and lo_i == 0 and hi_i == -1:
        return -1
    length = min(0, hi_i - lo_i) if rev else max(0, hi_i - lo_i)
    if step == -1:
        return -length
    if length != 0 and step != 1:
        length = _trunc_div(length + (1 if rev else -1), step) + 1
    return length


def make_dim(d: Dim, start: Bound, stop: Bound, step: int) -> Dim:
    """The sliced dim; an empty interval (a negative step past a small dim) is ``?``."""
    found = slice_dim(d, start, stop, step)
    return DYNAMIC if found is None else found


def slice_dim(d: Dim, start: Bound, stop: Bound, step: int) -> Dim | None:
    """The sliced dim, or None where the runtime's interval is empty (it prints ``?``, but
    nothing can be equal to it: ``2..8`` sliced -2:2 is such a dim, measured)."""
    top = d.hi

    def fits_lo(x: int) -> bool:
        return top == INF or x + top >= 0

    def fits_hi(x: int) -> bool:
        return top == INF or x < top

    def crosses(b: Bound) -> bool:
        return b[0] < 0 <= b[1]

    s_lo = 0 if crosses(start) and fits_lo(start[0]) else start[0]
    s_hi = -1 if crosses(start) and fits_hi(start[1]) else start[1]
    e_lo = 0 if crosses(stop) and fits_lo(stop[0]) else stop[0]
    e_hi = -1 if crosses(stop) and fits_hi(stop[1]) else stop[1]
    n_max = -1 if top == INF else top
    if step > 0:
        lo, hi = _count(d.lo, s_hi, e_lo, step), _count(n_max, s_lo, e_hi, step)
    else:
        lo, hi = _count(d.lo, s_lo, e_hi, step), _count(n_max, s_hi, e_lo, step)
    hi = INF if hi in (-1, INF) else hi
    lo = max(lo, 0)
    if _dims.SYMBOLIC is not None and lo <= hi:
        return _dims.SYMBOLIC.sliced(d, start, stop, step, Dim(lo, hi))
    return Dim(lo, hi) if lo <= hi else None
