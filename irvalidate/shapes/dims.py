"""Dimensions as integer intervals, exactly as OpenVINO's ``ov::Dimension`` models them.

A dimension is ``Dim(lo, hi)``: ``Dim(5, 5)`` is static, ``Dim(0, INF)`` is ``?`` and
``Dim(1, 8)`` is ``1..8``.  A shape is a tuple of dims, or ``None`` for a dynamic rank.
Nothing here knows about XML.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, NamedTuple

#: The upper bound of an unbounded interval (OpenVINO uses int64 max the same way).
INF = (1 << 63) - 1


class Dim(NamedTuple):
    lo: int
    hi: int

    @property
    def is_static(self) -> bool:
        return self.lo == self.hi

    def contains(self, value: int) -> bool:
        return self.lo <= value <= self.hi

    def __str__(self) -> str:
        return format_dim(self)


Shape = tuple[Dim, ...] | None

DYNAMIC = Dim(0, INF)
ONE = Dim(1, 1)


#: static dims are immutable values; sharing the common ones saves an allocation per dim
#: (257 of them: making 4,097 cost 1.5 ms of every start-up)
_STATIC = tuple(Dim(n, n) for n in range(257))


def static(value: int) -> Dim:
    return _STATIC[value] if 0 <= value < len(_STATIC) else Dim(value, value)


def from_declared(value: int | None) -> Dim:
    """A port ``<dim>``: ``-1`` is ``?`` (ports cannot write intervals); so is one that could
    not be read (None), for inference downstream; rules skip such a port."""
    return DYNAMIC if value is None or value == -1 else static(value)


def format_dim(d: Dim) -> str:
    if d.lo == d.hi:
        return str(d.lo)
    if d.hi >= INF:
        return "?" if d.lo == 0 else f"{d.lo}.."
    return f"..{d.hi}" if d.lo == 0 else f"{d.lo}..{d.hi}"


#: shapes longer than this are shown with their middle elided (messages stay short)
SHOWN_DIMS = 32


def format_shape(shape: Shape, elide: bool = True) -> str:
    """As OpenVINO prints a PartialShape; past SHOWN_DIMS dims the middle is elided unless
    ``elide`` is False."""
    if shape is None:
        return "[...]"
    if elide and len(shape) > SHOWN_DIMS:
        half = SHOWN_DIMS // 2
        return ("[" + ",".join(format_dim(d) for d in shape[:half]) + f",...{len(shape) - SHOWN_DIMS} "
                f"more...," + ",".join(format_dim(d) for d in shape[-half:]) + "]")
    return "[" + ",".join(format_dim(d) for d in shape) + "]"


_INTEGER = re.compile(r"\s*[+-]?[0-9]{1,40}\s*", re.ASCII)


def parse_decimal(text: str) -> int:
    """A decimal integer written with ASCII digits only, as OpenVINO's reader accepts.

    Python's ``int()`` would also take ``1_0``, fullwidth and Arabic-Indic digits, and
    thousands of digits; the reader takes none of them.  More than 40 digits is refused
    before any conversion.
    """
    if text.isdigit() and text.isascii() and len(text) <= 40:
        return int(text)  # the common case, without the regular expression
    if not _INTEGER.fullmatch(text):
        raise ValueError(f"{text[:40]!r} is not a decimal integer")
    return int(text)


def _bound(token: str) -> int:
    value = parse_decimal(token)
    if value < 0:
        raise ValueError(f"negative bound {token!r}")
    return min(value, INF)


def parse_dim(token: str) -> Dim:
    """Parse ``5``, ``-1``, ``?``, ``a..b``, ``..b`` or ``a..`` (OpenVINO's accepted forms)."""
    token = token.strip()
    if token in ("?", "-1"):
        return DYNAMIC
    if ".." in token:
        low, _, high = token.partition("..")
        lo = _bound(low) if low.strip() else 0
        hi = _bound(high) if high.strip() else INF
        return Dim(lo, hi)
    value = parse_decimal(token)
    if value < 0:
        # OpenVINO turns other negative values into 0 when it builds a shape from a list.
        return static(0)
    return static(min(value, INF))


@lru_cache(maxsize=4096)  # a model repeats a few hundred shapes; the result is immutable
def parse_shape(text: str) -> Shape:
    """Parse a Parameter/Const ``shape`` attribute: ``...`` is dynamic rank, ``""`` a scalar."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1].strip()
    if text == "...":
        return None
    if not text:
        return ()
    return tuple(parse_dim(t) for t in text.split(","))


#: the symbolic recording (shapes.symdims.Recording) while reshapeable infers with symbols
SYMBOLIC: Any = None


def intersect(a: Dim, b: Dim) -> Dim | None:
    """``Dimension::merge``: the interval intersection, ``None`` when it is empty."""
    lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
    if SYMBOLIC is not None:
        return SYMBOLIC.merged(a, b, Dim(lo, hi) if lo <= hi else None)
    return Dim(lo, hi) if lo <= hi else None


def compatible(a: Dim, b: Dim) -> bool:
    return max(a.lo, b.lo) <= min(a.hi, b.hi)


def broadcast_merge(a: Dim, b: Dim) -> Dim | None:
    """``Dimension::broadcast_merge``: lenient, an interval containing 1 never conflicts."""
    a_has_one, b_has_one = a.lo <= 1 <= a.hi, b.lo <= 1 <= b.hi
    if a_has_one and b_has_one:
        found: Dim | None = Dim(min(a.lo, b.lo), max(a.hi, b.hi))
    elif a_has_one or b_has_one:
        found = b if a_has_one else a
    else:
        lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
        found = Dim(lo, hi) if lo <= hi else None
    # (one test of a global on the hot path: a second call would cost every merge)
    return found if SYMBOLIC is None else SYMBOLIC.broadcast(a, b, found)


def relies_on_leniency(a: Dim, b: Dim) -> bool:
    """True when ``broadcast_merge`` accepts a pair only because an interval contains 1.

    The runtime accepts ``1..8`` against ``10``; by the written rule, every value of the
    interval except 1 fails at inference.  We flag a merge that succeeded through the
    "contains 1" branch while the two intervals share no value: the only value that works is
    an exact 1, yet the file admits others.
    """
    if a.is_static and b.is_static:
        return False
    a_has_one, b_has_one = a.lo <= 1 <= a.hi, b.lo <= 1 <= b.hi
    if not (a_has_one or b_has_one):
        return False
    return not compatible(a, b) and not (a == ONE or b == ONE)
