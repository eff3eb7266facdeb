"""DeformableConvolution-1 and -8 (deformable_convolution_shape_inference): a 2-D
convolution whose sampling points move by ``offsets`` (and, v8, are weighted by ``mask``).

Inputs: data ``[N, C_in, H, W]``, offsets ``[N, 2*dg*Kh*Kw, Ho, Wo]``, filters ``[C_out,
C_in/group, Kh, Kw]`` and (v8, optional) mask ``[N, dg*Kh*Kw, Ho, Wo]``; all rank 4.  ``k`` is
2 as soon as one of data, filters, offsets has a static rank; with none, the output is a
dynamic rank and nothing is checked.  ``group`` and ``deformable_group`` are 0 when missing,
which the runtime refuses (the specification says 1).

Output: ``[N, C_out, Ho, Wo]``: N is the data's batch merged with the offsets' batch, C_out
the filters' dim 0, the spatial dims as Convolution's; the offsets' (and mask's) spatial dims
must be compatible with them but never refine them.
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import DYNAMIC, Dim, Shape, format_dim, format_shape
from .convolution import CONV_FIELDS, NOT_NUMERIC, forward_spatial, merged_type, window
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_V1_FIELDS = CONV_FIELDS + (Field("group", "int", 0), Field("deformable_group", "int", 0))
_V8_FIELDS = _V1_FIELDS + (Field("bilinear_interpolation_pad", "bool", False),)
_LABELS = ("data", "offsets", "filters", "mask")


def _divisible(dim: Dim, by: int, label: str, shape: Shape, what: str) -> None:
    """``dim`` must hold a multiple of ``by`` (the runtime's Dimension division)."""
    if arith.divide(dim, by) is None:
        raise OpError(INCOMPATIBLE, f"{label} {format_shape(shape)} has {format_dim(dim)} "
                                    f"channels, not divisible by {what} {by}")


def _compatible(a: Dim, b: Dim) -> bool:
    return arith.merge(a, b) is not None


def _mask_checks(shapes, filters: Shape, dg: int) -> None:
    """v8: the mask's channels (dg x Kh x Kw) and batch, checked before everything else."""
    data, mask = shapes[0], shapes[3]
    if mask is None:
        return
    if len(mask) < 2:  # its rank is checked later, only when k is known
        raise OpError(INCOMPATIBLE, f"mask {format_shape(mask)} has no channel dim; the runtime "
                                    f"refuses to read past its end")
    if filters is not None and len(filters) == 4:
        want = arith.mul(arith.mul(filters[2], filters[3]), arith.from_int(dg))
        if not _compatible(mask[1], want):
            raise OpError(INCOMPATIBLE, f"mask {format_shape(mask)} has {format_dim(mask[1])} "
                                        f"channels where deformable_group {dg} x the filters' "
                                        f"{format_dim(filters[2])}x{format_dim(filters[3])} "
                                        f"window give {format_dim(want)}")
    if dg > 0:
        _divisible(mask[1], dg, "mask", mask, "deformable_group")
    if data is not None and len(data) > 0 and not _compatible(mask[0], data[0]):
        raise OpError(INCOMPATIBLE, f"mask {format_shape(mask)} has batch {format_dim(mask[0])} "
                                    f"where data {format_shape(data)} has {format_dim(data[0])}")


def _spatial_match(out, other: Shape, label: str) -> None:
    if other is not None and any(not _compatible(a, b) for a, b in zip(out[2:], other[2:])):
        raise OpError(INCOMPATIBLE, f"{label} {format_shape(other)} has spatial dims that cannot "
                                    f"be the output's {format_shape(out[2:])}")


def _infer_deformable(node: Node, v8: bool) -> Result:
    node.require_inputs((3, 4) if v8 else (3,))
    node.show(_LABELS[:len(node.inputs)])
    node.how = "deformable convolution"
    fields = _V8_FIELDS if v8 else _V1_FIELDS
    strides, dilations, pads_begin, pads_end, auto_pad, group, dg = read(
        node, "DeformableConvolution", fields)[:7]
    et = merged_type(node, _LABELS[:3])
    if v8 and len(node.inputs) == 4 and node.inputs[3].element_type in NOT_NUMERIC:
        node.note(TYPE, f"mask must hold numbers, not {node.inputs[3].element_type}")
    shapes = [v.shape for v in node.inputs]
    data, offsets, filters = shapes[:3]
    if v8 and len(shapes) == 4:
        _mask_checks(shapes, filters, dg)
    count = _spatial_count(data, filters, offsets)
    if count is None:
        return Result((None,), (et,))
    for label, shape in zip(_LABELS, shapes):
        if shape is not None and len(shape) != 4:
            raise OpError(INCOMPATIBLE, f"{label} {format_shape(shape)} must have rank 4")
    for name, value in (("group", group), ("deformable_group", dg)):
        if value < 1:
            raise OpError(ATTRIBUTE, f"attribute {name} is {value}; it must be 1 or more "
                                     f"(a missing {name} reads as 0)")
    win_ = window(count, strides, dilations, pads_begin, pads_end, auto_pad)
    batch = DYNAMIC
    if data is not None:
        _divisible(data[1], group, "data", data, "group")
        batch = data[0]
    if offsets is not None:
        _offsets_checks(data, offsets, filters, dg)
        merged: Dim | None = arith.merge(batch, offsets[0])
        if merged is None:
            raise OpError(INCOMPATIBLE, f"offsets {format_shape(offsets)} have batch "
                                        f"{format_dim(offsets[0])} where data has "
                                        f"{format_dim(batch)}")
        batch = merged
    channels = DYNAMIC
    if filters is not None:
        _divisible(filters[0], group, "filters", filters, "group")
        taken = arith.mul(filters[1], arith.from_int(group))
        if data is not None and not _compatible(data[1], taken):
            raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has {format_dim(data[1])} "
                                        f"channels where group {group} x filters "
                                        f"{format_shape(filters)} dim 1 take {format_dim(taken)}")
        channels = filters[0]
    out = (batch, channels) + forward_spatial(data, filters, win_)
    _spatial_match(out, offsets, "offsets")
    if v8 and len(shapes) == 4:
        _spatial_match(out, shapes[3], "mask")
    return Result((out,), (et,))


def _spatial_count(data: Shape, filters: Shape, offsets: Shape) -> int | None:
    """2, unless no input tells it (every rank dynamic, or one short and the rest dynamic)."""
    for shape in (data, filters):
        if shape is not None:
            if len(shape) < 1:
                raise OpError(INCOMPATIBLE, f"{format_shape(shape)} is a scalar: the runtime "
                                            f"computes -2 spatial axes in unsigned arithmetic "
                                            f"and fails")
            if len(shape) >= 2:
                return len(shape) - 2
            break
    return 2 if offsets is not None else None


def _offsets_checks(data: Shape, offsets: tuple[Dim, ...], filters: Shape, dg: int) -> None:
    if filters is not None:
        want = arith.mul(arith.mul(arith.mul(filters[2], filters[3]), Dim(2, 2)),
                         arith.from_int(dg))
        if not _compatible(offsets[1], want):
            raise OpError(INCOMPATIBLE, f"offsets {format_shape(offsets)} have "
                                        f"{format_dim(offsets[1])} channels where 2 x "
                                        f"deformable_group {dg} x the filters' "
                                        f"{format_dim(filters[2])}x{format_dim(filters[3])} "
                                        f"window give {format_dim(want)}")
    _divisible(offsets[1], dg, "offsets", offsets, "deformable_group")


SPECS = {"deformableconvolution": (
    OpSpec("DeformableConvolution", (1, 7), fields=_V1_FIELDS,
           infer=lambda node: _infer_deformable(node, False)),
    OpSpec("DeformableConvolution", (8, 16), fields=_V8_FIELDS,
           infer=lambda node: _infer_deformable(node, True)),
)}
