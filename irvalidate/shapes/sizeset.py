"""Sets of sizes s >= 1 that are eventually periodic, and the contract that describes them.

A :class:`SizeSet` is exact: below ``start`` each size is listed (bit s of ``prefix``), from
``start`` on a size works when its residue modulo ``period`` does (bit ``s % period`` of
``residues``). Bits live in Python integers, so intersecting two sets of a million sizes is a
few machine-word loops in C, not a Python loop per size. Every set is kept in its smallest
form (the least period, then the least start), so equal sets compare equal.

:func:`summarise` turns a set into the issue's contract (``min``, ``max``, ``multiple_of``,
``offset``, ``values``): exact when the set has that form, else the smallest superset of that
form, with the reason in words.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

#: the largest period and start a set may have; past them a solver coarsens and says so
PERIOD_CAP = 1 << 16
START_CAP = 1 << 20
#: the most sizes a contract lists as values
MAX_VALUES = 16


def _mask(lo: int, hi: int) -> int:
    """Bits lo..hi-1 set."""
    return ((1 << hi) - 1) ^ ((1 << lo) - 1) if hi > lo else 0


def repeat(bits: int, width: int, count: int) -> int:
    """``bits`` (narrower than ``width``) laid ``count`` times side by side, by doubling."""
    out, have = bits, 1
    while have < count:
        out |= out << (have * width)
        have *= 2
    return out & ((1 << (count * width)) - 1)


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


class SizeSet:
    """The sizes s >= 1 in ``prefix`` (s < start) or with ``residues`` bit ``s % period``."""

    __slots__ = ("start", "prefix", "period", "residues")

    def __init__(self, start: int, prefix: int, period: int, residues: int) -> None:
        self.start, self.period = max(start, 1), period
        self.prefix = prefix & _mask(1, self.start)
        self.residues = residues & _mask(0, period)
        self._normalise()

    @staticmethod
    def everything() -> SizeSet:
        return SizeSet(1, 0, 1, 1)

    @staticmethod
    def nothing() -> SizeSet:
        return SizeSet(1, 0, 1, 0)

    @staticmethod
    def of(values: list[int] | tuple[int, ...] | set[int]) -> SizeSet:
        """Exactly these sizes (those below 1 are not sizes)."""
        bits = 0
        for value in values:
            if value >= 1:
                bits |= 1 << value
        return SizeSet(bits.bit_length(), bits, 1, 0)

    @staticmethod
    def progression(lo: int, hi: int | None, step: int = 1, offset: int = 0) -> SizeSet:
        """The sizes s with lo <= s (<= hi) and s % step == offset % step."""
        lo = max(lo, 1)
        if hi is not None:
            return SizeSet(max(hi + 1, lo), _every(step, offset, lo, hi + 1), 1, 0)
        return SizeSet(lo, 0, step, 1 << (offset % step))

    def _normalise(self) -> None:
        for divisor in _divisors(self.period):
            low = self.residues & _mask(0, divisor)
            if repeat(low, divisor, self.period // divisor) == self.residues:
                self.period, self.residues = divisor, low
                break
        differs = (self._extension(self.start) ^ self.prefix) & _mask(1, self.start)
        self.start = max(differs.bit_length(), 1)
        self.prefix &= _mask(1, self.start)

    def _extension(self, end: int) -> int:
        """The periodic part's bits for the sizes below ``end`` (as if it began at 0)."""
        return repeat(self.residues, self.period, -(-end // self.period))

    def bits_below(self, end: int) -> int:
        """Bit s set for each member s < end."""
        periodic = self._extension(end) & _mask(self.start, end)
        return (self.prefix | periodic) & _mask(1, end)

    def __contains__(self, size: object) -> bool:
        if not isinstance(size, int) or size < 1:
            return False
        if size < self.start:
            return bool(self.prefix >> size & 1)
        return bool(self.residues >> (size % self.period) & 1)

    def _combine(self, other: SizeSet, both: bool) -> SizeSet:
        period = math.lcm(self.period, other.period)
        if period > PERIOD_CAP:
            raise OverflowError(f"a period of {period} (over {PERIOD_CAP})")
        start = max(self.start, other.start)
        mine = repeat(self.residues, self.period, period // self.period)
        theirs = repeat(other.residues, other.period, period // other.period)
        low, high = self.bits_below(start), other.bits_below(start)
        if both:
            return SizeSet(start, low & high, period, mine & theirs)
        return SizeSet(start, low | high, period, mine | theirs)

    def __and__(self, other: SizeSet) -> SizeSet:
        """The sizes in both; OverflowError when the periods' lcm is over PERIOD_CAP."""
        return self._combine(other, True)

    def __or__(self, other: SizeSet) -> SizeSet:
        """The sizes in either; OverflowError when the periods' lcm is over PERIOD_CAP."""
        return self._combine(other, False)

    @property
    def is_empty(self) -> bool:
        return self.prefix == 0 and self.residues == 0

    @property
    def is_everything(self) -> bool:
        return self.start == 1 and self.period == 1 and self.residues == 1

    @property
    def is_finite(self) -> bool:
        return self.residues == 0

    def _key(self) -> tuple[int, int, int, int]:
        return (self.start, self.prefix, self.period, self.residues)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SizeSet) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        listed = _members(self.prefix, self.start)[:8]
        tail = [r for r in range(min(self.period, 64)) if self.residues >> r & 1]
        return (f"SizeSet(below {self.start}: {listed}{'...' if self.prefix.bit_count() > 8 else ''};"
                f" from {self.start}: s % {self.period} in {tail})")


def _every(step: int, offset: int, lo: int, end: int) -> int:
    """Bits of the sizes s in lo..end-1 with s % step == offset % step."""
    first = lo + (offset - lo) % step
    if first >= end:
        return 0
    return repeat(1, step, (end - first + step - 1) // step) << first


def _members(bits: int, end: int, limit: int | None = None) -> list[int]:
    """The set bits of ``bits`` below ``end``, in order (at most ``limit`` of them)."""
    text = bin(bits & _mask(0, end))[:1:-1]
    found: list[int] = []
    at = text.find("1")
    while at >= 0 and (limit is None or len(found) < limit):
        found.append(at)
        at = text.find("1", at + 1)
    return found


@dataclass(frozen=True, eq=False)
class Constraint:
    """A size s works when (values is None or s in values), min <= s, (max is None or
    s <= max) and (s - offset) % multiple_of == 0: all of ``sizes`` when ``exact``, else a
    superset of it (every size it excludes is truly excluded), ``why_inexact`` saying why."""

    sizes: SizeSet
    min: int
    max: int | None
    multiple_of: int
    offset: int
    values: list[int] | None
    exact: bool
    why_inexact: str
    #: where the only thing inexact is the form (several residue classes): the sizes exactly,
    #: as (period, the residues that work), with min and max; else None
    residues: tuple[int, tuple[int, ...]] | None = None

    def admits(self, size: int) -> bool:
        """The contract's verdict on one size."""
        return ((self.values is None or size in self.values) and size >= self.min
                and (self.max is None or size <= self.max)
                and (size - self.offset) % self.multiple_of == 0)

    def describe(self) -> str:
        """A few words: "multiple of 32", "min 7", "max 512", "only 224", "one of 1, 64"."""
        if self.values is not None:
            if not self.values:
                return "no size"
            listed = ", ".join(str(v) for v in self.values)
            return f"only {listed}" if len(self.values) == 1 else f"one of {listed}"
        parts = []
        step, offset = self.multiple_of, self.offset
        if step > 1:
            parts.append(f"multiple of {step}" if offset == 0 else f"{offset} mod {step}")
        if self.min > (offset if offset > 0 else step):  # not implied by the residue class
            parts.append(f"min {self.min}")
        if self.max is not None:
            parts.append(f"max {self.max}")
        return ", ".join(parts) or "any size"


def summarise(sizes: SizeSet, why_inexact: str = "") -> Constraint:
    """The contract of ``sizes``: exact when it has that form, else the smallest superset of
    that form. ``why_inexact`` (the solver's own reason) makes it inexact whatever the form."""
    if sizes.is_empty:
        return Constraint(sizes, 1, None, 1, 0, [], not why_inexact, why_inexact)
    lo = _smallest(sizes)
    horizon = sizes.start + (0 if sizes.is_finite else sizes.period)
    step = _step(sizes.bits_below(horizon), lo, 0 if sizes.is_finite else sizes.period)
    if not sizes.is_finite:
        return _finish(sizes, SizeSet.progression(lo, None, step, lo), lo, None, step, why_inexact)
    hi = sizes.prefix.bit_length() - 1
    members = sizes.prefix.bit_count()
    ranged = SizeSet.progression(lo, hi, step, lo)
    if members > 2 or (members == 2 and step == 1):
        if ranged == sizes or members > MAX_VALUES:
            return _finish(sizes, ranged, lo, hi, step, why_inexact)
    return Constraint(sizes, lo, hi, step, lo % step, _members(sizes.prefix, hi + 1),
                      not why_inexact, why_inexact)


def _finish(sizes: SizeSet, form: SizeSet, lo: int, hi: int | None, step: int,
            why_inexact: str) -> Constraint:
    """The contract ``form`` (lo, hi, step) of ``sizes``, exact when the two are equal."""
    if form == sizes:
        return Constraint(sizes, lo, hi, step, lo % step, None, not why_inexact, why_inexact)
    reason = _why_not(sizes, form)
    return Constraint(sizes, lo, hi, step, lo % step, None, False,
                      f"{why_inexact}; {reason}" if why_inexact else reason,
                      None if why_inexact else _residues(sizes, lo, hi))


def _residues(sizes: SizeSet, lo: int, hi: int | None) -> tuple[int, tuple[int, ...]] | None:
    """``sizes`` as "from ``lo`` (to ``hi``), the residues R modulo P": (P, R) when that
    states it exactly (no size below ``lo`` and no hole of another kind), else None."""
    if hi is not None:
        return None
    classes = tuple(r for r in range(sizes.period) if sizes.residues >> r & 1)
    stated = SizeSet(lo, 0, sizes.period, sizes.residues)
    return (sizes.period, classes) if stated == sizes else None


def _smallest(sizes: SizeSet) -> int:
    if sizes.prefix:
        return (sizes.prefix & -sizes.prefix).bit_length() - 1
    return next(s for s in range(sizes.start, sizes.start + sizes.period) if s in sizes)


def _step(bits: int, lo: int, step: int) -> int:
    """The gcd of ``step`` and every member's distance from ``lo`` (1 as soon as it is)."""
    text = bin(bits)[:1:-1]
    at = text.find("1", lo + 1)
    while at >= 0 and step != 1:
        step = math.gcd(step, at - lo)
        at = text.find("1", at + 1)
    return step or 1


def _why_not(sizes: SizeSet, form: SizeSet) -> str:
    """In words, why ``sizes`` is not the contract-shaped ``form`` that holds it."""
    missing = sizes.bits_below(max(sizes.start, form.start) + form.period * sizes.period)
    wanted = form.bits_below(max(sizes.start, form.start) + form.period * sizes.period)
    holes = _members(wanted & ~missing, wanted.bit_length(), 3)
    if sizes.is_finite:
        return (f"{sizes.prefix.bit_count()} sizes from {_smallest(sizes)} to "
                f"{sizes.prefix.bit_length() - 1} work but not all of that progression "
                f"(e.g. {', '.join(map(str, holes))} fail)")
    if holes and holes[0] < sizes.start:
        return f"size {holes[0]} fails between sizes that work: a hole"
    classes = [r for r in range(sizes.period) if sizes.residues >> r & 1]
    shown = ", ".join(map(str, classes[:8])) + (", ..." if len(classes) > 8 else "")
    return f"sizes {shown} mod {sizes.period} all work: not one residue class"
