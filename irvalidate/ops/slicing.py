"""Slice-8 and StridedSlice-1: part of the input, by start/stop/step (and masks).

Their shape inference is not modelled yet.  Their values are evaluated for 1-D shape values:
Slice along axis 0; StridedSlice with begin/end masks (a set bit ignores that bound, except
that a shrunk axis keeps its begin), new axes (a 1 inserted) and shrunk axes (one element).
"""
from __future__ import annotations

from typing import List

from ..shapes import values as vals
from ..shapes.values import Tensor, Unresolved
from .evaluating import mask, origin, scalar, tensors
from .node import Node
from .spec import OpSpec

_MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")


def _slice(node: Node) -> Tensor:
    t = tensors(node, (4, 5))
    start, stop, step = (scalar(x, "a Slice bound") for x in t[1:4])
    if len(t) == 5 and scalar(t[4], "the Slice axes") not in (0, -1):
        raise Unresolved("Slice along another axis")
    return vals.slice_1d(t[0], start, stop, step, origin(node.layer, t[:1], f"{start}:{stop}:{step}"))


def _strided_slice(node: Node) -> Tensor:
    """StridedSlice of a 1-D value: one position slices (or shrinks) it, new axes add 1s."""
    t = tensors(node, (3, 4))
    if t[0].rank != 1:
        raise Unresolved("StridedSlice of a value that is not 1-D")
    begin, end = t[1].static_values(), t[2].static_values()
    strides = t[3].static_values() if len(t) == 4 else [1] * len(begin)
    if not len(begin) == len(end) == len(strides):
        raise Unresolved("StridedSlice bounds of different lengths")
    masks = {m: mask(node.layer, m) for m in _MASKS}

    def bit(name: str, i: int) -> bool:
        return i < len(masks[name]) and masks[name][i] == 1

    n, part, detail = t[0].shape[0], None, ""
    out: List[int] = []
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


SPECS = {"slice": (OpSpec("Slice", evaluate=_slice),),
         "stridedslice": (OpSpec("StridedSlice", evaluate=_strided_slice),)}
