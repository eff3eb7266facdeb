"""ReorgYolo-2 (``version="opset1"`` is read as opset2's) and RegionYolo-1 on ``[N, C, H, W]``.

ReorgYolo: ``[N, C*s*s, H/s, W/s]`` with ``s`` the first ``stride`` (required), a static C
at least ``s*s``.  ``H/s`` is
``Dimension / s`` as OpenVINO computes it, in doubles: ``[ceil(lo/s), floor(hi/s)]``, ``?``
staying ``?`` (an unbounded ``9..`` gives ``3..2305843009213693952`` for 4); a division
with no whole value inside is refused as "not divisible".  A stride of 0 divides by zero (the
runtime's result is undefined), one past int64 is negative: both are refused.

RegionYolo: with ``do_softmax`` (false when missing) the dims ``axis`` to ``end_axis`` (both 0
when missing, checked against rank 4) are flattened into their product (nothing when
``end_axis`` comes first); without it the output is ``[N, (classes + coords + 1) * len(mask),
H, W]``, that count read as the runtime reads an integer as a dim (-1 is ``?``, below 0).
Floating-point data only.
"""
from __future__ import annotations

import math

from ..ir import elements
from ..shapes import arith
from ..shapes.dims import DYNAMIC, INF, Dim, format_dim, format_shape
from .support.attributes import Field, read
from .support.axes import normalize
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_REORG = (Field("stride", "uints", ()),)
_REGION = (Field("coords", "int", 0), Field("classes", "int", 0), Field("num", "int", 0),
           Field("do_softmax", "bool", False), Field("mask", "ints", ()), Field("axis", "int", 0),
           Field("end_axis", "int", 0), Field("anchors", "floats", ()))


def dimension_divide(d: Dim, s: int) -> Dim:
    """OpenVINO's ``Dimension / s`` for ``s >= 1``, in doubles as it computes it (the result may
    be empty: ``lo > hi``)."""
    if s == 1 or d == DYNAMIC:
        return d
    lo = math.ceil(float(d.lo) / s)
    hi = math.floor(float(d.hi) / s)
    return Dim(lo, hi)


def _require_rank_4(node: Node) -> tuple:
    data = node.inputs[0].shape
    if len(data) != 4:  # type: ignore[arg-type]  # callers pass a ranked input
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} must be [N, C, H, W] (rank 4), "
                                    f"not rank {len(data)}")  # type: ignore[arg-type]  # (as above)
    return data  # type: ignore[return-value]  # (as above)


def _reorg(node: Node) -> Result:
    node.require_inputs((1,))
    (stride,) = read(node, "ReorgYolo", _REORG)
    node.show(("data",))
    et = node.inputs[0].element_type
    if not stride:
        raise OpError(ATTRIBUTE, "attribute stride is missing or empty: ReorgYolo requires it")
    s = stride[0]
    node.how = f"reorganisation by stride {s}"
    if node.inputs[0].shape is None:
        return Result((None,), (et,))
    n, c, h, w = _require_rank_4(node)
    if s >= 1 << 63:
        raise OpError(ATTRIBUTE, f"attribute stride {s - (1 << 64)} is negative")
    if s == 0:
        raise OpError(ATTRIBUTE, "attribute stride is 0: the runtime divides H and W by zero "
                                 "(undefined behaviour; 2026.4 gives zero dims)")
    square = s * s
    if square >= INF:
        raise OpError(ATTRIBUTE, f"attribute stride {s}: the runtime's stride * stride overflows")
    if c.is_static and c.lo < square:
        raise OpError(INCOMPATIBLE, f"C = {c.lo} is smaller than stride * stride = {square}",
                      column=1)
    out = []
    for what, dim in (("H", h), ("W", w)):
        divided = dimension_divide(dim, s)
        if divided.lo > divided.hi:
            raise OpError(INCOMPATIBLE, f"{what} = {format_dim(dim)} is not divisible by stride {s}",
                          column=2 if what == "H" else 3)
        out.append(divided)
    return Result(((n, arith.scale(c, square), *out),), (et,))


def _region(node: Node) -> Result:
    node.require_inputs((1,))
    coords, classes, _, do_softmax, mask, axis, end_axis, _ = read(node, "RegionYolo", _REGION)
    node.show(("data",))
    et = node.inputs[0].element_type
    if elements.is_known(et) and not (et in ("f16", "f32", "f64", "bf16") or et.startswith("f8")):
        node.note(TYPE, f"RegionYolo needs floating-point data, not {et}")
    if node.inputs[0].shape is None:
        node.how = "region detection"
        return Result((None,), (et,))
    data = _require_rank_4(node)
    if not do_softmax:
        count = (classes + coords + 1) * len(mask)
        node.how = f"region detection: (classes + coords + 1) * len(mask) = {count} channels"
        return Result(((data[0], arith.from_int(count), data[2], data[3]),), (et,))
    first, last = normalize(axis, 4, "axis"), normalize(end_axis, 4, "end_axis")
    node.how = f"region detection, dims {first} to {last} flattened"
    if last < first:
        return Result((data,), (et,))
    flat = arith.product(data[first:last + 1])
    if flat.lo >= INF:  # the product overflows int64: the runtime has no bound for it
        flat = DYNAMIC
    return Result((data[:first] + (flat,) + data[last + 1:],), (et,))


SPECS = {
    "reorgyolo": (OpSpec("ReorgYolo", (1, 16), fields=_REORG, infer=_reorg),),
    "regionyolo": (OpSpec("RegionYolo", (1, 16), fields=_REGION, infer=_region),),
}
