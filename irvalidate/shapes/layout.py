"""Bounded values moved around without arithmetic: gathered (batch_dims included), transposed,
split, scattered; what the runtime's bound evaluation does to each element's (lower, upper)
pair through these ops.  Values are small (``values.MAX_VALUE_ELEMENTS``), so the work is per
element; anything the runtime would not evaluate raises Unresolved.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from math import prod

from .dims import Dim
from .values import (
    COMPUTED_REALS,
    COMPUTED_TYPES,
    INDEX_TYPES,
    MAX_VALUE_ELEMENTS,
    MAX_VALUE_RANK,
    Origin,
    Tensor,
    Unresolved,
    axis_index,
    make_tensor,
)


def _strides(shape: Sequence[int]) -> list[int]:
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return out[::-1]


def _flat(index: Sequence[int], strides: Sequence[int]) -> int:
    return sum(i * s for i, s in zip(index, strides))


def gather_values(data: Tensor, indices: Tensor, axis: int, batch: int, origin: Origin) -> Tensor:
    """Gather along ``axis`` with ``batch`` leading batch dims; an index out of range reads 0
    (the runtime's bound evaluation; negative indices count from the end)."""
    if data.rank == 0:
        raise Unresolved("Gather of a scalar")
    if (data.et not in COMPUTED_TYPES and data.et not in COMPUTED_REALS) or \
            indices.et not in INDEX_TYPES:
        raise Unresolved("Gather of types the runtime does not evaluate")
    a = axis_index(axis, data.rank)
    b = batch + indices.rank if batch < 0 else batch
    if not 0 <= b <= min(a, indices.rank) or data.shape[:b] != indices.shape[:b]:
        raise Unresolved("Gather batch_dims that do not fit")
    picks = indices.static_values()
    shape = data.shape[:a] + indices.shape[b:] + data.shape[a + 1:]
    d_str, i_str = _strides(data.shape), _strides(indices.shape)
    n, ri = data.shape[a], indices.rank
    out = []
    for o in product(*(range(s) for s in shape)):
        pos = o[a:a + ri - b]
        k = picks[_flat(o[:b] + pos, i_str)]
        if not -n <= k < n:
            out.append(Dim(0, 0))
            continue
        where = o[:a] + (k % n,) + o[a + ri - b:]
        out.append(data.bounds[_flat(where, d_str)])
    return make_tensor(shape, out, data.et, origin)


def transpose_values(data: Tensor, order: Sequence[int], origin: Origin) -> Tensor:
    if sorted(order) != list(range(data.rank)):
        raise Unresolved("not a permutation")
    shape = tuple(data.shape[o] for o in order)
    strides = _strides(data.shape)
    out = []
    for o in product(*(range(s) for s in shape)):
        where = [0] * data.rank
        for k, src in enumerate(order):
            where[src] = o[k]
        out.append(data.bounds[_flat(where, strides)])
    return make_tensor(shape, out, data.et, origin)


def split_values(data: Tensor, axis: int, lengths: Sequence[int], index: int,
                 origin: Origin) -> Tensor:
    """Output ``index`` of a split of ``data`` along ``axis`` into ``lengths``."""
    a = axis_index(axis, data.rank)
    if sum(lengths) != data.shape[a] or any(n < 0 for n in lengths):
        raise Unresolved("split lengths that do not fit")
    start = sum(lengths[:index])
    shape = data.shape[:a] + (lengths[index],) + data.shape[a + 1:]
    strides = _strides(data.shape)
    out = []
    for o in product(*(range(s) for s in shape)):
        out.append(data.bounds[_flat(o[:a] + (o[a] + start,) + o[a + 1:], strides)])
    return make_tensor(shape, out, data.et, origin)


def scatter_rows(data: Tensor, indices: Sequence[int], updates: Tensor, axis: int,
                 origin: Origin) -> Tensor:
    """ScatterUpdate: the slices of ``data`` along ``axis`` at ``indices`` replaced by the
    matching slices of ``updates`` (shape ``data[:axis] + indices + data[axis+1:]``)."""
    a = axis_index(axis, data.rank)
    if data.et != updates.et:
        raise Unresolved("ScatterUpdate of different element types")
    n = data.shape[a]
    outer, inner = prod(data.shape[:a]), prod(data.shape[a + 1:])
    if updates.shape != data.shape[:a] + (len(indices),) + data.shape[a + 1:]:
        raise Unresolved("ScatterUpdate updates of another shape")
    bounds = list(data.bounds)
    for j, k in enumerate(indices):
        if not 0 <= k < n:
            raise Unresolved("ScatterUpdate index out of range")
        for o in range(outer):
            for i in range(inner):
                bounds[(o * n + k) * inner + i] = updates.bounds[(o * len(indices) + j) * inner + i]
    return make_tensor(data.shape, bounds, data.et, origin)


def _fits(shape: Sequence[int]) -> tuple[int, ...]:
    """A value shape within the caps, checked before any element is built."""
    if len(shape) > MAX_VALUE_RANK or any(d < 0 for d in shape) or prod(shape) > MAX_VALUE_ELEMENTS:
        raise Unresolved("a value too large to evaluate")
    return tuple(shape)


def numpy_shape(shapes: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Numpy broadcasting of value shapes (Unresolved where they do not broadcast)."""
    rank = max(len(s) for s in shapes)
    out = []
    for dims in zip(*((1,) * (rank - len(s)) + tuple(s) for s in shapes)):
        sizes = {d for d in dims if d != 1}
        if len(sizes) > 1:
            raise Unresolved("value shapes do not broadcast")
        out.append(sizes.pop() if sizes else 1)
    return _fits(out)


def broadcast_to(data: Tensor, shape: Sequence[int], axes: Sequence[int], origin: Origin) -> Tensor:
    """``data`` repeated to ``shape``, its axis ``i`` placed at output axis ``axes[i]`` (a dim
    of 1 repeats, any other must equal the output's): Broadcast's evaluation in every mode,
    and the operands of Select."""
    out_shape = _fits(shape)
    if len(axes) != data.rank or any(not 0 <= a < len(out_shape) for a in axes) or (
            list(axes) != sorted(set(axes))):
        raise Unresolved("axes that do not place the data")
    if any(d not in (1, out_shape[a]) for d, a in zip(data.shape, axes)):
        raise Unresolved("data that does not broadcast to the shape")
    strides = _strides(data.shape)
    out = []
    for o in product(*(range(n) for n in out_shape)):
        out.append(data.bounds[sum(o[a] * st for a, st, d in zip(axes, strides, data.shape) if d != 1)])
    return make_tensor(out_shape, out, data.et, origin)


def aligned(t: Tensor, shape: Sequence[int], origin: Origin) -> Tensor:
    """``t`` broadcast numpy-style (right-aligned) to ``shape``."""
    return broadcast_to(t, shape, range(len(shape) - t.rank, len(shape)), origin)


def select_values(cond: Tensor, then: Tensor, other: Tensor, origin: Origin) -> Tensor:
    """Select (the default bound evaluators, once the condition is exact): each bound taken
    from ``then`` where the condition holds, else from ``other``; numpy broadcasting."""
    if cond.et != "boolean" or then.et != other.et:
        raise Unresolved("Select of a condition that is not boolean, or of two types")
    cond.static_values()  # the runtime needs has_and_set_bound on the condition
    shape = numpy_shape([cond.shape, then.shape, other.shape])
    c, a, b = (aligned(t, shape, origin) for t in (cond, then, other))
    out = [x if k.lo else y for k, x, y in zip(c.bounds, a.bounds, b.bounds)]
    return make_tensor(shape, out, then.et, origin)


def tile_values(data: Tensor, repeats: Sequence[int], origin: Origin) -> Tensor:
    """Tile (once the repeats are exact): ``data`` (and the repeats) padded with leading 1s
    to a common rank, then repeated along each axis."""
    if any(r < 0 for r in repeats):
        raise Unresolved("a negative repeat")
    rank = max(data.rank, len(repeats))
    dims = (1,) * (rank - data.rank) + data.shape
    reps = (1,) * (rank - len(repeats)) + tuple(repeats)
    shape = _fits([d * r for d, r in zip(dims, reps)])
    strides = _strides(dims)
    out = [data.bounds[sum((i % d) * st for i, d, st in zip(o, dims, strides))]
           for o in product(*(range(n) for n in shape))]
    return make_tensor(shape, out, data.et, origin)


def pad_values(data: Tensor, begin: Sequence[int], end: Sequence[int], mode: str,
               fill: Dim | None, origin: Origin) -> Tensor:
    """Pad (once the pads are exact), as ``reference::pad`` moves elements: constant mode
    fills with ``fill`` (the pad value's bounds; 0 without one), edge repeats the border,
    reflect mirrors without it and symmetric with it; negative pads crop."""
    if len(begin) != data.rank or len(end) != data.rank:
        raise Unresolved("pads of another length than the data rank")
    shape = _fits([n + b + e for n, b, e in zip(data.shape, begin, end)])
    mirror = {"reflect": 0, "symmetric": 1}.get(mode)
    for n, b, e in zip(data.shape, begin, end):
        if mirror is not None and not (b - mirror < n and e - mirror < n):
            raise Unresolved(f"{mode} pads reaching past the data")
        if mode == "edge" and n == 0 < n + b + e:
            raise Unresolved("edge padding of an empty axis")

    def source(i: int, n: int, b: int) -> int | None:
        c = i - b
        if mode == "constant":
            return c if 0 <= c < n else None
        if mode == "edge":
            return min(max(c, 0), n - 1)
        front = c if c >= 0 else -c - mirror  # type: ignore[operator]  # mirror given for these modes
        return front if front < n else 2 * n - 2 - front + mirror  # type: ignore[operator]  # (as above)
    strides = _strides(data.shape)
    zero = Dim(0, 0) if fill is None else fill
    out = []
    for o in product(*(range(n) for n in shape)):
        where = [source(i, n, b) for i, n, b in zip(o, data.shape, begin)]
        if any(w is None for w in where):
            out.append(zero)
        else:
            out.append(data.bounds[sum(w * st for w, st in zip(where, strides))])  # type: ignore[operator, misc]  # no None in where here
    return make_tensor(shape, out, data.et, origin)
