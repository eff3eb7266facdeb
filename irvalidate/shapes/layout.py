"""Bounded values moved around without arithmetic: gathered (batch_dims included), transposed,
split, scattered; what the runtime's bound evaluation does to each element's (lower, upper)
pair through these ops.  Values are small (``values.MAX_VALUE_ELEMENTS``), so the work is per
element; anything the runtime would not evaluate raises Unresolved.
"""
from __future__ import annotations

from itertools import product
from math import prod
from typing import List, Sequence, Tuple

from .dims import Dim
from .values import COMPUTED_TYPES, INDEX_TYPES, Origin, Tensor, Unresolved, make_tensor


def _strides(shape: Sequence[int]) -> List[int]:
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return out[::-1]


def _flat(index: Sequence[int], strides: Sequence[int]) -> int:
    return sum(i * s for i, s in zip(index, strides))


def _norm(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise Unresolved(f"axis {axis} is out of range for rank {rank}")
    return axis % rank


def gather_values(data: Tensor, indices: Tensor, axis: int, batch: int, origin: Origin) -> Tensor:
    """Gather along ``axis`` with ``batch`` leading batch dims; an index out of range reads 0
    (the runtime's bound evaluation; negative indices count from the end)."""
    if data.rank == 0:
        raise Unresolved("Gather of a scalar")
    if data.et not in COMPUTED_TYPES or indices.et not in INDEX_TYPES:
        raise Unresolved("Gather of types the runtime does not evaluate")
    a = _norm(axis, data.rank)
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
    a = _norm(axis, data.rank)
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
    a = _norm(axis, data.rank)
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


def flat_shape(shape: Tuple[int, ...]) -> int:
    return prod(shape)
