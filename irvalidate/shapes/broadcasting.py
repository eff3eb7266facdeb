"""The broadcast rules of OpenVINO 2026.4, as its shape inference implements them.

Pure functions over :mod:`irvalidate.shapes.dims` shapes; no XML here.  Every function returns an
:class:`Outcome` or raises :class:`BroadcastError`, whose ``column`` names the failing output
axis so a report can mark it, and whose ``offsets`` say where each operand sits in the table
(``None`` means right-aligned, as numpy aligns; pdpd places B at its axis).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from . import dims as _dims
from .dims import (
    DYNAMIC,
    ONE,
    Dim,
    Shape,
    broadcast_merge,
    compatible,
    format_dim,
    intersect,
    relies_on_leniency,
)


class Outcome(NamedTuple):
    shape: Shape
    #: (column, dim, dim) pairs that merged only because an interval contains 1
    lenient: tuple[tuple[int, Dim, Dim], ...] = ()


class BroadcastError(ValueError):
    def __init__(self, message: str, column: int | None = None,
                 offsets: tuple[int | None, ...] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column
        self.offsets = offsets


def _pad(shape: tuple[Dim, ...], rank: int) -> tuple[Dim, ...]:
    return (ONE,) * (rank - len(shape)) + shape


def none_merge(a: Shape, b: Shape) -> Outcome:
    """auto_broadcast none: same rank, each pair of dims must intersect (``merge_into``)."""
    if a is None:
        return Outcome(b)
    if b is None:
        return Outcome(a)
    if len(a) != len(b):
        raise BroadcastError(f"ranks differ ({len(a)} and {len(b)}) and auto_broadcast is none")
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        merged = intersect(x, y)
        if merged is None:
            raise BroadcastError(f"dimension {format_dim(x)} does not match {format_dim(y)} "
                                 f"at axis {i} and auto_broadcast is none", column=i)
        out.append(merged)
    return Outcome(tuple(out))


def numpy_merge(a: Shape, b: Shape) -> Outcome:
    """auto_broadcast numpy: right-align, pad with 1, ``broadcast_merge`` each pair."""
    if a is None or b is None:
        return Outcome(None)
    rank = max(len(a), len(b))
    pa, pb = _pad(a, rank), _pad(b, rank)
    out, lenient = [], []
    for i, (x, y) in enumerate(zip(pa, pb)):
        merged = broadcast_merge(x, y)
        if merged is None:
            raise BroadcastError(f"dimension {format_dim(x)} cannot broadcast with {format_dim(y)} "
                                 f"at axis {i}: they differ and neither is 1", column=i)
        if relies_on_leniency(x, y):
            lenient.append((i, x, y))
        out.append(merged)
    return Outcome(tuple(out), tuple(lenient))


def pdpd_merge(a: Shape, b: Shape, axis: int) -> Outcome:
    """auto_broadcast pdpd, one way: B is placed into A at ``axis`` (-1: ``rank(A)-rank(B)``).

    Unlike the written rule, the runtime does not strip B's trailing 1s.
    """
    if a is None or b is None:
        return Outcome(None)
    ra, rb = len(a), len(b)
    if rb > ra:
        raise BroadcastError(f"pdpd needs rank(B) <= rank(A), got {rb} > {ra}")
    if axis < -1:
        raise BroadcastError(f"pdpd axis {axis} is less than -1")
    start = ra - rb if axis == -1 else axis
    offsets = (0, start)
    if rb + start > ra:
        raise BroadcastError(f"pdpd B of rank {rb} placed at axis {start} overruns A of rank {ra}",
                             offsets=offsets)
    out, lenient = list(a), []
    for i, y in enumerate(b):
        col = start + i
        x = a[col]
        if x.is_static and y.is_static and y.lo > x.lo:
            raise BroadcastError(f"B dimension {format_dim(y)} is larger than A dimension "
                                 f"{format_dim(x)} at axis {col}; pdpd broadcasts B into A only",
                                 column=col, offsets=offsets)
        if _dims.SYMBOLIC is not None:
            _dims.SYMBOLIC.at_most(y, x)
        merged = broadcast_merge(x, y)
        if merged is None:
            raise BroadcastError(f"dimension {format_dim(x)} cannot broadcast with {format_dim(y)} "
                                 f"at axis {col}", column=col, offsets=offsets)
        if relies_on_leniency(x, y):
            lenient.append((col, x, y))
        out[col] = merged
    return Outcome(tuple(out), tuple(lenient))


def pdpd_spec_merge(a: Shape, b: Shape, axis: int) -> Outcome:
    """The pdpd rule as the specification words it: trailing 1s of B are ignored.

    Kept only to tell users when a model depends on the point where the document and the
    runtime disagree; the axis is resolved before the 1s are stripped, as the reference
    kernel does.
    """
    if a is None or b is None:
        return Outcome(None)
    start = len(a) - len(b) if axis == -1 else axis
    trimmed = list(b)
    while trimmed and trimmed[-1] == ONE:
        trimmed.pop()
    if axis < -1 or start < 0 or start + len(trimmed) > len(a):
        raise BroadcastError("B is not a subsequence of A at the given axis")
    for i, y in enumerate(trimmed):
        x = a[start + i]
        if not (y == ONE or compatible(x, y)):
            raise BroadcastError(f"B dimension {format_dim(y)} does not match A dimension "
                                 f"{format_dim(x)} at axis {start + i}", column=start + i)
    return Outcome(a)


def eltwise(a: Shape, b: Shape, mode: str, axis: int = -1) -> Outcome:
    if mode == "none":
        return none_merge(a, b)
    if mode == "numpy":
        return numpy_merge(a, b)
    return pdpd_merge(a, b, axis)


def _fold(acc: Outcome, nxt: Outcome) -> Outcome:
    return Outcome(nxt.shape, acc.lenient + tuple(p for p in nxt.lenient if p not in acc.lenient))


def select(cond: Shape, then: Shape, else_: Shape, mode: str, axis: int = -1) -> Outcome:
    """Select-1: numpy merges all three; pdpd fits else, then cond, into ``then``."""
    if mode == "pdpd":
        try:
            out = pdpd_merge(then, else_, axis)
        except BroadcastError as err:
            raise BroadcastError(f"'Else' tensor shape is not broadcastable: {err.message}",
                                 err.column, err.offsets) from None
        try:
            return _fold(out, pdpd_merge(out.shape, cond, axis))
        except BroadcastError as err:
            raise BroadcastError(f"'Cond' tensor shape is not broadcastable: {err.message}",
                                 err.column, err.offsets) from None
    out = eltwise(else_, then, mode, axis)
    return _fold(out, eltwise(out.shape, cond, mode, axis))


def fake_quantize(shapes: Sequence[Shape], mode: str, axis: int = -1) -> Outcome:
    """FakeQuantize: all five inputs must broadcast together; the output is input 0 unchanged."""
    acc = Outcome(shapes[0])
    for other in shapes[1:]:
        acc = _fold(acc, eltwise(acc.shape, other, mode, axis))
    return Outcome(shapes[0], acc.lenient)


def target_from_values(values: Sequence[int]) -> tuple[Dim, ...]:
    """A constant target_shape: -1 means ``?``, other negative values become 0."""
    return tuple(DYNAMIC if v == -1 else Dim(max(v, 0), max(v, 0)) for v in values)


def _unknown_target(target_len: int | None) -> Shape:
    return None if target_len is None else (DYNAMIC,) * target_len


def broadcast_numpy(data: Shape, target: Shape, target_len: int | None) -> Outcome:
    """Broadcast numpy mode: the output is the target, never refined by the data."""
    if target is None:
        return Outcome(_unknown_target(target_len))
    if data is not None:
        if len(target) < len(data):
            raise BroadcastError(f"target_shape has smaller rank {len(target)} than the data "
                                 f"rank {len(data)}")
        start = len(target) - len(data)
        for i, d in enumerate(data):
            t = target[start + i]
            if _dims.SYMBOLIC is not None:  # (checked at every static size: 1 or the target)
                _dims.SYMBOLIC.to_target(d, t)
            if d.is_static and t.is_static and d.lo != 1 and d.lo != t.lo:
                allowed = "1" if t.lo == 1 else f"1 or {t.lo}"
                raise BroadcastError(f"data dimension {format_dim(d)} cannot be broadcast (numpy "
                                     f"mode) to {format_dim(t)}; allowed: {allowed}",
                                     column=start + i)
    return Outcome(target)


def broadcast_explicit(data: Shape, target: Shape, target_len: int | None,
                       axes: Sequence[int] | None, axes_len: int | None) -> Outcome:
    """Broadcast explicit (none) mode with axes_mapping."""
    out = target if target is not None else _unknown_target(target_len)
    if data is None or target_len is None or axes_len is None:
        return Outcome(out)
    data_rank = 1 if (len(data) == 0 and axes_len > 0) else len(data)
    if axes_len != data_rank:
        raise BroadcastError(f"axes_mapping has {axes_len} elements but the data rank is "
                             f"{data_rank}")
    if target is None or axes is None:
        return Outcome(out)
    if list(axes) != sorted(axes):
        raise BroadcastError(f"axes_mapping {list(axes)} is not sorted; Broadcast does not "
                             f"permit transposes")
    for i, ax in enumerate(axes):
        if not 0 <= ax < len(target):
            raise BroadcastError(f"axes_mapping[{i}] = {ax} exceeds the target rank {len(target)}")
        if not data:
            # scalar data: the mapped target dim must admit 1
            if i == 0 and not compatible(target[ax], ONE):
                raise BroadcastError(f"target[axes_mapping[0]] is {format_dim(target[ax])}, "
                                     f"expected 1 for scalar data", column=ax)
            continue
        d = data[i]
        if _dims.SYMBOLIC is not None:
            _dims.SYMBOLIC.to_target(d, target[ax])
        if not (compatible(target[ax], d) or compatible(d, ONE)):
            raise BroadcastError(f"target[axes_mapping[{i}]] is {format_dim(target[ax])}, "
                                 f"expected {format_dim(d)} (data axis {i})", column=ax)
    return Outcome(out)


def broadcast_bidirectional(data: Shape, target: Shape, target_len: int | None) -> Outcome:
    """Broadcast-3 bidirectional: numpy-style merge of data and target in both directions."""
    if target is None:
        if data is None or target_len is None:
            return Outcome(None)
        return numpy_merge((DYNAMIC,) * target_len, data)
    if data is None:
        return Outcome(None)
    try:
        return numpy_merge(data, target)
    except BroadcastError as err:
        rank = max(len(data), len(target))
        d, t = _pad(data, rank)[err.column], _pad(target, rank)[err.column]  # type: ignore[index]  # numpy_merge names the column
        raise BroadcastError(f"incorrect target shape at axis {err.column}: expecting 1 or "
                             f"{format_dim(d)}, got {format_dim(t)}", err.column) from None


def broadcast_pdpd(data: Shape, target: Shape, target_len: int | None, axis: int) -> Outcome:
    """Broadcast pdpd mode: data placed into the target at ``axis`` (-1: right-aligned)."""
    if target is None:
        return Outcome(_unknown_target(target_len))
    if data is None:
        return Outcome((DYNAMIC,) * len(target))
    start = len(target) - len(data) if axis == -1 else axis
    offsets = (start, 0)
    if start < 0:
        raise BroadcastError(f"pdpd start axis {start} is negative")
    out = list(target)
    for i in range(start, len(target)):
        if i - start >= len(data):
            raise BroadcastError(f"data of rank {len(data)} placed at axis {start} does not "
                                 f"reach target axis {i} (the runtime fails with "
                                 f"'Accessing out-of-range dimension')", column=i, offsets=offsets)
        d, t = data[i - start], target[i]
        if _dims.SYMBOLIC is not None and _dims.SYMBOLIC.to_target(d, t, one_takes_any=True):
            continue  # (a data size 1 or the target's: the target's dim, a condition recorded)
        if d == ONE:
            continue
        if t == ONE:
            out[i] = d
            continue
        merged = intersect(d, t)
        if merged is None:
            raise BroadcastError(f"incorrect target shape at axis {i}: expecting 1 or "
                                 f"{format_dim(d)}, got {format_dim(t)}", column=i, offsets=offsets)
        out[i] = merged
    return Outcome(tuple(out))

