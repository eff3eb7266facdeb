"""Slice-8 and StridedSlice-1: part of the input, by start/stop/step (and masks).

Each sliced dim is ``slice.make_dim`` of its bounds (shapes/slicing.py).  Start/stop (begin/end)
are read by bounds; step (strides) and axes are const-only.  Unknown values keep only each
sliced dim's maximum (``..max``): Slice without known axes (or without axes and an unknown
start) does so for every dim.  StridedSlice's masks: ``begin_mask``/``end_mask`` ignore a
bound, ``new_axis_mask`` inserts a 1, ``shrink_axis_mask`` drops a dim (its begin unchecked),
``ellipsis_mask`` stands for the dims not otherwise addressed.  Where begin or end has no
bounds here (a Parameter, a value the runtime does not evaluate), a sliced dim is ``..max``
unless masks ignore every unknown bound, the dim is an interval, the stride 1 and the slice
not static (measured: with a masked unknown begin, ``[:5]`` of ``3..9`` is ``3..5``, of 10
it is ``..10``, ``[:2]`` of ``3..9`` is ``..9`` and ``[:2:2]`` is ``..5``, where ``..max``
is looser, never tighter).  Every mask is empty or as long
as ``begin_mask`` and holds only 0 and 1.
SliceScatter-15 writes ``updates`` into the slice Slice-8 takes of ``data`` (the data's shape
stays); the updates must fit that slice.
Values are evaluated for 1-D shape values: Slice along axis 0; StridedSlice with masks.
"""
from __future__ import annotations

from collections.abc import Callable

from ..shapes import dims as shape_dims, values as vals
from ..shapes.arith import compatible_shapes
from ..shapes.dims import DYNAMIC, ONE, Dim, compatible, format_shape
from ..shapes.slicing import make_dim, slice_dim
from ..shapes.values import Tensor, Unresolved
from .support.attributes import Field, read
from .support.axes import normalize
from .support.evaluating import mask, origin, scalar, tensors
from .support.input_types import require_type
from .support.node import Node
from .support.shaping import ints_text, upper_only
from .support.spec import ARITY, ATTRIBUTE, INCOMPATIBLE, OpError, OpSpec, Result

_MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")
_FIELDS = tuple(Field(m, "ints", ()) for m in _MASKS)


def _bounds(node: Node, index: int) -> list[tuple[int, int]] | None:
    return _pairs(_bound_dims(node, index))


def _one_d(node: Node, index: int, what: str) -> Dim | None:
    """The length of a 1-D index input (refused at another rank); None when dynamic rank."""
    shape = node.inputs[index].shape
    if shape is None:
        return None
    if len(shape) != 1:
        raise OpError(INCOMPATIBLE, f"{what} (input {index}) must be a 1-D tensor, but has "
                                    f"shape {format_shape(shape)}")
    return shape[0]


# ---------------------------------------------------------------------------------- Slice-8

def _slice(node: Node) -> Result:
    if len(node.inputs) == 3:
        raise OpError(ARITY, "Slice takes 4 or 5 inputs, but 3 are connected (without step, "
                             "the runtime reads past its inputs: undefined behaviour)")
    node.require_inputs((4, 5))
    names = ["data", "start", "stop", "step", "axes"]
    node.show(names)
    node.how = "slice"
    data = node.inputs[0].shape
    et = node.inputs[0].element_type
    for i in range(1, len(node.inputs)):
        require_type(node, i, names[i])
    if data is None:
        return Result((None,), (et,))
    rank = len(data)
    if rank == 0:
        raise OpError(INCOMPATIBLE, "data (input 0) must not be a scalar")
    lengths = [_one_d(node, i, names[i]) for i in range(1, len(node.inputs))]
    for i, n in enumerate(lengths, 1):
        if n is not None and n.lo > rank:
            raise OpError(INCOMPATIBLE, f"{names[i]} holds {n} values, more than the rank "
                                        f"{rank} of data")
    known = [n for n in lengths[:3] if n is not None]
    if any(not compatible(a, b) for a in known for b in known):
        raise OpError(INCOMPATIBLE, "start, stop and step must have the same length")
    if len(lengths) == 4 and lengths[3] is not None and lengths[0] is not None and \
            not compatible(lengths[3], lengths[0]):
        raise OpError(INCOMPATIBLE, "axes must have as many values as start, stop and step")
    start_dims, stop_dims = _bound_dims(node, 1), _bound_dims(node, 2)
    start, stop = _pairs(start_dims), _pairs(stop_dims)
    step = node.exact_values(3)
    axes: list[int] | None = None
    if len(node.inputs) == 5:
        found = node.exact_values(4)
        if found is not None:
            axes = [normalize(a, rank, scalar_as_1d=False) for a in found]
            if len(set(axes)) != len(axes):
                raise OpError(INCOMPATIBLE, f"axes {ints_text(found)} repeat an axis")
    elif start is not None:
        axes = list(range(len(start)))
    if axes is None:
        return Result((tuple(upper_only(d) for d in data),), (et,))
    values = start is not None and stop is not None and step is not None and \
        len(start) == len(stop) == len(step) == len(axes)
    if values and 0 in step:  # type: ignore[operator]  # values: step is known
        raise OpError(INCOMPATIBLE, "a step of 0")
    out = list(data)
    for i, k in enumerate(axes):
        out[k] = make_dim(data[k], start[i], stop[i], step[i]) if values else upper_only(data[k])  # type: ignore[index]  # values: all known
    if values and shape_dims.SYMBOLIC is not None:  # reshapeable: bounds read from sizes
        _symbolic_lengths(node, shape_dims.SYMBOLIC, data, out, axes,
                          (start_dims, stop_dims, step))
    return Result((tuple(out),), (et,))


def _symbolic_lengths(node: Node, recording, data, out: list[Dim], axes: list[int],
                      bounds) -> None:
    """The sliced lengths where a start or stop is a size read from an input axis (the
    step and axes, read as numbers, must not be: those are not followed)."""
    start, stop, step = bounds
    for index in range(3, len(node.inputs)):
        for b in _bound_dims(node, index) or ():
            recording.unsure(b)
    for i, k in enumerate(axes):
        out[k] = recording.sliced_by(data[k], start[i], stop[i], step[i], out[k])


def _bound_dims(node: Node, index: int) -> list[Dim] | None:
    return node.input_bounds(index) if index < len(node.inputs) else None


def _pairs(found: list[Dim] | None) -> list[tuple[int, int]] | None:
    return None if found is None else [(b.lo, b.hi) for b in found]


# ---------------------------------------------------------------------------- SliceScatter-15

def _slice_scatter(node: Node) -> Result:
    """``updates`` written into the slice of ``data`` that Slice-8 would take: the output is
    the data's shape (a dynamic data rank takes the updates' rank, all ``?``), and the
    updates must fit that slice's shape."""
    node.require_inputs((5, 6))
    names = ["data", "updates", "start", "stop", "step", "axes"]
    node.show(names[:len(node.inputs)])
    node.how = "the data's shape (updates written into its slice)"
    data, updates = node.inputs[0].shape, node.inputs[1].shape
    if data is not None and updates is not None and len(data) != len(updates):
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} and updates {format_shape(updates)} "
                                    f"must have one rank")
    out = data if data is not None else None if updates is None else (DYNAMIC,) * len(updates)
    if out is not None and not out:
        raise OpError(INCOMPATIBLE, "data and updates must not be scalars")
    for i in range(2, len(node.inputs)):
        require_type(node, i, names[i])
        n = _one_d(node, i, names[i])
        if n is not None and out is not None and n.lo > len(out):
            raise OpError(INCOMPATIBLE, f"{names[i]} holds {n} values, more than the rank {len(out)} "
                                        f"of data")
    lengths = [node.inputs[i].shape for i in range(2, len(node.inputs))]
    if not all(compatible_shapes(a, b) for a in lengths[:3] for b in lengths[:3]):
        raise OpError(INCOMPATIBLE, "start, stop and step must have the same length")
    start, stop, step = _bounds(node, 2), _bounds(node, 3), node.exact_values(4)
    if step is not None and lengths[2] is not None and lengths[2][0].is_static and 0 in step:
        raise OpError(INCOMPATIBLE, "a step of 0")
    axes: list[int] | None = None
    if len(node.inputs) == 6:
        if not compatible_shapes(lengths[3], lengths[0]):
            raise OpError(INCOMPATIBLE, "axes must have as many values as start, stop and step")
        found = node.exact_values(5)
        if found is not None and data is not None:
            axes = [normalize(a, len(data), scalar_as_1d=False) for a in found]
            if len(set(axes)) != len(axes):
                raise OpError(INCOMPATIBLE, f"axes {ints_text(found)} repeat an axis")
    elif start is not None:
        axes = list(range(len(start)))
    if out is None:
        return Result((None,), (node.inputs[0].element_type,))
    expected: list[Dim | None] = [d if axes is not None else upper_only(d) for d in out]
    values = start is not None and stop is not None and step is not None
    for i, k in sorted(((i, k) for i, k in enumerate(axes or ()) if k < len(out)), key=lambda p: p[1]):
        expected[k] = slice_dim(out[k], start[i], stop[i], step[i]) if values else upper_only(out[k])  # type: ignore[index]  # values: all known
    if None in expected and updates is not None:
        k = expected.index(None)
        raise OpError(INCOMPATIBLE, f"the slice of data {format_shape(data)} along axis {k} is an "
                                    f"empty interval in the runtime's arithmetic (no length fits "
                                    f"it, though it prints as ?): no updates fit it")
    if not compatible_shapes(updates, tuple(expected)):  # type: ignore[arg-type]  # no None: above
        raise OpError(INCOMPATIBLE, f"updates {format_shape(updates)} do not fit the slice "
                                    f"{format_shape(tuple(expected))} of data {format_shape(data)}")  # type: ignore[arg-type]  # (as above)
    return Result((out,), (node.inputs[0].element_type,))


# ---------------------------------------------------------------------------- StridedSlice-1

def _masks(node: Node) -> tuple[tuple[int, ...], ...]:
    masks = read(node, "StridedSlice", _FIELDS)
    if any(v not in (0, 1) for m in masks for v in m):
        raise OpError(ATTRIBUTE, "every mask element must be 0 or 1")
    if any(m and len(m) != len(masks[0]) for m in masks[1:]):
        raise OpError(ATTRIBUTE, f"every mask must be empty or as long as begin_mask "
                                 f"({len(masks[0])} values)")
    if sum(masks[4]) > 1:
        raise OpError(ATTRIBUTE, "ellipsis_mask sets more than one ellipsis")
    return masks


def _sliced(d: Dim, start: tuple[int, int] | None, stop: tuple[int, int] | None,
            step: int, unknown: bool) -> Dim:
    """One sliced dim of StridedSlice: ``start``/``stop`` bounds, None where a mask ignores
    them; ``unknown`` when begin or end has no bounds here (masked on this axis)."""
    if unknown and (d.is_static or step != 1):
        # measured: the runtime gives ..N for a static dim, masks or not, and [:2:2] of
        # 3..9 is ..5, not 1
        return upper_only(d)
    top = d.hi
    if start is None:
        start = (top, top) if step < 0 else (0, 0)
    if stop is None:
        stop = (-1 - top, -1 - top) if step < 0 else (top, top)
    sliced = make_dim(d, start, stop, step)
    # (an unknown masked bound and a static slice: measured, [:2] of 3..9 is then ..9)
    return upper_only(d) if unknown and sliced.is_static else sliced


def _strided_slice(node: Node) -> Result:
    node.require_inputs((3, 4))
    names = ["data", "begin", "end", "strides"]
    node.show(names)
    node.how = "strided slice"
    begin_mask, end_mask, new_axis, shrink, ellipsis = _masks(node)
    data = node.inputs[0].shape
    et = node.inputs[0].element_type
    require_type(node, 1, "begin")
    require_type(node, 2, "end")
    lengths = [_one_d(node, i, names[i]) for i in range(1, len(node.inputs))]
    if data is None:
        return Result((None,), (et,))
    begin, end = _bounds(node, 1), _bounds(node, 2)
    strides = node.exact_values(3) if len(node.inputs) == 4 else None
    static = [n.lo if n is not None and n.is_static else None for n in lengths]
    if static[0] is not None and static[1] is not None and static[0] != static[1]:
        raise OpError(INCOMPATIBLE, f"begin and end hold {static[0]} and {static[1]} values")
    count = static[0] if static[0] is not None else static[1]
    if len(node.inputs) == 3:
        strides = None if count is None else [1] * count  # the default strides, all 1
    elif count is not None and static[2] is not None and static[2] != count:
        raise OpError(INCOMPATIBLE, f"strides hold {static[2]} values, begin and end {count}")
    if count is None:
        count = len(strides) if strides is not None else None
    if count is None:
        return Result((None,), (et,))
    masks = (begin_mask, end_mask, new_axis, shrink, ellipsis)
    return Result((_strided_dims(data, count, begin, end, strides, masks),), (et,))


def _bit(m: tuple[int, ...], i: int) -> bool:
    return i < len(m) and m[i] == 1


def _strided_dims(data: tuple[Dim, ...], count: int, begin: list[tuple[int, int]] | None,
                  end: list[tuple[int, int]] | None, strides: list[int] | None,
                  masks: tuple[tuple[int, ...], ...]) -> tuple[Dim, ...]:
    """The output of StridedSlice: ``count`` begin/end/stride entries walked over the data's
    dims with the masks (begin, end, new axis, shrink axis, ellipsis)."""
    begin_mask, end_mask, new_axis, shrink, ellipsis = masks
    rank = len(data)
    if 1 not in ellipsis and rank + sum(new_axis) < count:
        raise OpError(INCOMPATIBLE, f"{count} begin/end values address more dims than the "
                                    f"input's rank {rank} plus the new axes")
    out: list[Dim] = []
    k = 0

    def dim_at(k: int) -> Dim:
        if k >= rank:
            raise OpError(INCOMPATIBLE, f"the masks address dim {k} of a rank-{rank} input")
        return data[k]

    for i in range(count):
        if _bit(ellipsis, i):
            before = sum(1 for j in range(i) if not _bit(new_axis, j))
            after = sum(1 for j in range(i + 1, len(begin) if begin is not None else 0)
                        if _bit(new_axis, j))
            hidden = rank - (count - i - 1 - after) - before
            for _ in range(hidden):
                out.append(dim_at(k))
                k += 1
        elif _bit(new_axis, i):
            out.append(ONE)
        elif _bit(shrink, i):
            dim_at(k)
            k += 1
        elif strides is not None and (begin is not None or _bit(begin_mask, i)) and (
                end is not None or _bit(end_mask, i)):
            step = strides[i] if i < len(strides) else 1
            if step == 0:
                raise OpError(INCOMPATIBLE, f"stride {i} is 0")
            start = None if _bit(begin_mask, i) else begin[i]  # type: ignore[index]  # begin given (above)
            stop = None if _bit(end_mask, i) else end[i]  # type: ignore[index]  # end given (above)
            out.append(_sliced(dim_at(k), start, stop, step, begin is None or end is None))
            k += 1
        else:
            out.append(upper_only(dim_at(k)))
            k += 1
    out.extend(data[k:])
    return tuple(out)


# ---------------------------------------------------------------------------------- values

def _slice_value(node: Node) -> Tensor:
    t = tensors(node, (4, 5))
    recording = shape_dims.SYMBOLIC
    if recording is not None and any(recording.carries(b) for x in t[1:] for b in x.bounds):
        # reshapeable: how many elements it keeps depends on the symbols, which the value
        # cannot say; without one, its readers are not followed
        raise Unresolved("a Slice whose bounds are sizes of the inputs")
    start, stop, step = (scalar(x, "a Slice bound") for x in t[1:4])
    if len(t) == 5 and scalar(t[4], "the Slice axes") not in (0, -1):
        raise Unresolved("Slice along another axis")
    return vals.slice_1d(t[0], start, stop, step, origin(node.layer, t[:1], f"{start}:{stop}:{step}"))


def _strided_slice_value(node: Node) -> Tensor:
    """StridedSlice of a 1-D value: one position slices (or shrinks) it, new axes add 1s."""
    t = tensors(node, (3, 4))
    if t[0].rank != 1:
        raise Unresolved("StridedSlice of a value that is not 1-D")
    masks = {m: mask(node.layer, m) for m in _MASKS}

    def bit(name: str, i: int) -> bool:
        return i < len(masks[name]) and masks[name][i] == 1

    def exact(value: Tensor, ignored: Callable[[int], bool]) -> list[int | None]:
        # the runtime wants exact begin/end elements only where no mask ignores them
        if any(b.lo != b.hi and not ignored(i) for i, b in enumerate(value.bounds)):
            raise Unresolved("StridedSlice with bounds that are not known exactly")
        return [b.lo if b.lo == b.hi else None for b in value.bounds]
    begin = exact(t[1], lambda i: bit("begin_mask", i) and not bit("shrink_axis_mask", i))
    end = exact(t[2], lambda i: bit("end_mask", i))
    strides = t[3].static_values() if len(t) == 4 else [1] * len(begin)
    if not len(begin) == len(end) == len(strides):
        raise Unresolved("StridedSlice bounds of different lengths")

    n, part, detail = t[0].shape[0], None, ""
    out: list[int] = []
    for i, step in enumerate(strides):
        if bit("ellipsis_mask", i):
            raise Unresolved("StridedSlice with an ellipsis")
        if bit("new_axis_mask", i):
            out.append(1)
            continue
        if part is not None or step == 0:
            raise Unresolved("StridedSlice over more axes than the value has")
        shrink = bit("shrink_axis_mask", i)
        # a set begin/end mask bit means "ignore this bound" (but a shrunk axis keeps begin)
        start = None if bit("begin_mask", i) and not shrink else begin[i]
        stop = None if bit("end_mask", i) else end[i]
        lo = (0 if step > 0 else n - 1) if start is None else start
        hi = (n if step > 0 else -n - 1) if stop is None else stop
        detail = f"{'' if start is None else start}:{'' if stop is None else stop}:{step}"
        part = vals.slice_1d(t[0], lo, hi, step, t[0].origin, shrink=shrink)
        if part.shape:
            out.append(part.shape[0])
    if part is None:
        part = t[0]
        out.append(n)
    return vals.reshaped(part, out, origin(node.layer, t[:1], detail))


SPECS = {"slice": (OpSpec("Slice", (8, 16), frozenset(),
                          dim_inputs=(1, 2, 3), value_inputs=(4,), symbolic=True,
                          symbolic_reads=True,
                          infer=_slice, symbolic_values=True, evaluate=_slice_value),),
         "slicescatter": (OpSpec("SliceScatter", (15, 16), frozenset(),
                                 value_inputs=(2, 3, 4, 5), infer=_slice_scatter),),
         "stridedslice": (OpSpec("StridedSlice", (1, 16), frozenset(_MASKS),
                                 dim_inputs=(1, 2, 3), infer=_strided_slice,
                                 symbolic_values=True, evaluate=_strided_slice_value),)}
