"""Convolution-1, GroupConvolution-1 and BinaryConvolution-1 (convolution_shape_inference),
and what the other convolutions share with them.

The number of spatial axes ``k`` is the data rank - 2, else the filters rank - 2 (- 3 for
GroupConvolution), else the length of the first non-empty of strides, dilations, pads_begin,
pads_end; with none of them the output is a dynamic rank and nothing is checked.  Empty
strides/dilations are 1s and empty pads 0s; each list must then hold ``k`` values, and no
stride or dilation may be 0.  The data has rank 3, 4 or 5 (BinaryConvolution: 4).

Output: ``[N, C_out, spatial...]`` with ``N`` the data's batch, ``C_out`` the filters' dim 0
(GroupConvolution: groups x filters dim 1, the group count merged with data channels /
filters dim 2), and each spatial dim from :func:`~irvalidate.shapes.windows.conv_dim` over the
last ``k`` dims of data and filters (``?`` where a rank is dynamic).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..shapes import arith, dims as shape_dims, windows as win
from ..shapes.dims import DYNAMIC, Dim, Shape, format_dim, format_shape
from .support.attributes import Field, read
from .support.autobroadcast import merge_types
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

PAD_TYPES = ("explicit", "same_upper", "same_lower", "valid")
SAME = ("same_upper", "same_lower")
#: the attributes every convolution reads, with the reader's defaults
CONV_FIELDS = (Field("strides", "uints", ()), Field("dilations", "uints", ()),
               Field("pads_begin", "ints", ()), Field("pads_end", "ints", ()),
               Field("auto_pad", "enum", "explicit", PAD_TYPES))
_BINARY_FIELDS = CONV_FIELDS + (Field("mode", "enum", "xnor-popcount", ("xnor-popcount",)),
                                Field("pad_value", "float", 0.0))
#: the element types the convolutions refuse as "not numeric" (measured: a string passes)
NOT_NUMERIC = ("boolean",)


class Window(NamedTuple):
    """A convolution's window attributes once ``k`` is known: every list holds ``k`` values."""
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    auto_pad: str


def spatial_count(data: Shape, filters: Shape, filter_lead: int, lists: Sequence[tuple[int, ...]],
                  more: int | None = None) -> int | None:
    """``k``, or None when it is undefined (the output is then a dynamic rank).

    The runtime subtracts in size_t: a rank one short of the lead dims wraps to its
    "undefined" marker and the next source is asked; a rank two or more short wraps to a
    huge count, which it cannot allocate (refused here).  ``more`` (the backprop ops: the
    length of a known output_shape) is asked before the attribute lists."""
    for label, shape, lead in (("data", data, 2), ("filters", filters, filter_lead)):
        if shape is None:
            continue
        count = len(shape) - lead
        if count < -1:
            raise OpError(INCOMPATIBLE, f"{label} {format_shape(shape)} has rank {len(shape)}: "
                                        f"the runtime computes {count} spatial axes in unsigned "
                                        f"arithmetic and fails")
        if count >= 0:
            return count
        break  # one short: "undefined", and the shapes say no more
    if more:
        return more
    return next((len(v) for v in lists if v), None)


def window(count: int, strides, dilations, pads_begin, pads_end, auto_pad,
           extra: Sequence[tuple[str, tuple[int, ...]]] = ()) -> Window:
    """The attributes resized and checked against ``count`` spatial axes, as the runtime
    does (``extra``: further lists that must hold ``count`` values, named)."""
    strides = strides or (1,) * count
    dilations = dilations or (1,) * count
    pads_begin = pads_begin or (0,) * count
    pads_end = pads_end or (0,) * count
    check_lengths((("strides", strides), ("dilations", dilations), ("pads_begin", pads_begin),
                   ("pads_end", pads_end), *extra), count, f"{count} spatial axes")
    for name, values in (("strides", strides), ("dilations", dilations)):
        if 0 in values:
            raise OpError(ATTRIBUTE, f"attribute {name} ({_list(values)}) holds a 0")
    return Window(strides, dilations, pads_begin, pads_end, auto_pad)


def _list(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values)


def require_rank(shape: Shape, label: str, ranks: tuple[int, ...]) -> None:
    """A static rank must be one of ``ranks``."""
    if shape is not None and len(shape) not in ranks:
        words = " or ".join(str(r) for r in ranks)
        raise OpError(INCOMPATIBLE, f"{label} {format_shape(shape)} has rank {len(shape)}; it "
                                    f"must have rank {words.replace(' or ', ', ', len(ranks) - 2)}")


def tail(shape: Shape, count: int, label: str = "filters") -> tuple[Dim, ...]:
    """The last ``count`` dims of a shape, or ``count`` x ``?`` for a dynamic rank."""
    if shape is None:
        return (DYNAMIC,) * count
    if count > len(shape):  # only a shape whose rank gave no count can be that short
        raise OpError(INCOMPATIBLE, f"{label} {format_shape(shape)} has fewer dims than the "
                                    f"{count} spatial axes the attributes give; the runtime "
                                    f"reads before its first dim")
    return tuple(shape[len(shape) - count:])


def dim_at(shape: Shape, index: int, label: str) -> Dim:
    """``shape[index]`` (``?`` for a dynamic rank); the runtime refuses an index past the end
    ("Accessing out-of-range dimension")."""
    if shape is None:
        return DYNAMIC
    if index >= len(shape):
        raise OpError(INCOMPATIBLE, f"{label} {format_shape(shape)} has no dim {index}; the "
                                    f"runtime refuses to read past its end")
    return shape[index]


def lead(shape: Shape, index: int) -> Dim:
    """A leading dim (batch, channels) of a shape whose rank was checked, ``?`` if dynamic."""
    return DYNAMIC if shape is None else shape[index]


def forward_spatial(data: Shape, filters: Shape, win_: Window) -> tuple[Dim, ...]:
    """The spatial output dims of a forward convolution (data and filters may be dynamic rank)."""
    count = len(win_.strides)
    same = win_.auto_pad in SAME
    explicit = win_.auto_pad == "explicit"
    out = []
    for axis, (d, k) in enumerate(zip(tail(data, count, "data"), tail(filters, count))):
        pads = win_.pads_begin[axis] + win_.pads_end[axis] if explicit else 0
        try:
            out.append(win.conv_dim(d, k, win_.strides[axis], win_.dilations[axis], pads, same, axis))
        except win.WindowError as err:
            raise OpError(INCOMPATIBLE, str(err)) from None
    return tuple(out)


def merged_type(node: Node, names: Sequence[str]) -> str | None:
    """The one element type of the first inputs (a mismatch or a non-number is noted)."""
    merged = merge_types(node, names, [v.element_type for v in node.inputs[:len(names)]])
    if merged in NOT_NUMERIC:
        node.note(TYPE, f"the element type must be a number, not {merged}")
    return merged


def check_lengths(lists: Sequence[tuple[str, Sequence[int]]], count: int, what: str) -> None:
    """Each named attribute list must hold ``count`` values (``what``: of what, in words)."""
    for name, values in lists:
        if len(values) != count:
            raise OpError(ATTRIBUTE, f"attribute {name} has {len(values)} value"
                                     f"{'' if len(values) == 1 else 's'} ({_list(values)}) for "
                                     f"{what}")


def check_channels(data: Shape, filters: Shape, at: int) -> None:
    """Data channels (dim 1) against the filters' input channels (dim ``at``)."""
    if data is None or filters is None:
        return
    if len(data) < 2 or len(filters) <= at:  # the runtime reads past the shape's end
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} and filters "
                                    f"{format_shape(filters)} have no channel dims; the runtime "
                                    f"reads past their end")
    if arith.merge(data[1], filters[at]) is None:
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has {format_dim(data[1])} channels "
                                    f"where filters {format_shape(filters)} take "
                                    f"{format_dim(filters[at])} (dim {at})")


def check_ranks(data: Shape, filters: Shape, extra: int) -> None:
    """The filters' rank must be the data's (+ 1 for the grouped convolutions)."""
    if data is not None and filters is not None and len(filters) - extra != len(data):
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has rank {len(data)}, so filters "
                                    f"must have rank {len(data) + extra}, but "
                                    f"{format_shape(filters)} has rank {len(filters)}")


def _infer_forward(node: Node, kind: str) -> Result:
    node.require_inputs((2,))
    node.show(("data", "filters"))
    fields = _BINARY_FIELDS if kind == "binary" else CONV_FIELDS
    strides, dilations, pads_begin, pads_end, auto_pad = read(node, node.layer.type, fields)[:5]
    node.how = "group convolution" if kind == "group" else "convolution"
    if kind == "binary":
        et = node.inputs[0].element_type
        if et in NOT_NUMERIC:
            node.note(TYPE, f"data must hold numbers, not {et}")
    else:
        et = merged_type(node, ("data", "filters"))
    data, filters = node.inputs[0].shape, node.inputs[1].shape
    filter_lead = 3 if kind == "group" else 2
    count = spatial_count(data, filters, filter_lead, (strides, dilations, pads_begin, pads_end))
    if count is None:
        return Result((None,), (et,))
    if kind == "group":
        require_rank(data, "data", (3, 4, 5))
        check_ranks(data, filters, 1)
    else:
        check_ranks(data, filters, 0)
        check_channels(data, filters, 1)
        require_rank(data, "data", (4,) if kind == "binary" else (3, 4, 5))
    win_ = window(count, strides, dilations, pads_begin, pads_end, auto_pad)
    if kind == "group":
        channels = group_channels(data, filters, 2, 1)
    else:
        channels = lead(filters, 0)
    out = (lead(data, 0), channels) + forward_spatial(data, filters, win_)
    return Result((out,), (et,))


def group_channels(data: Shape, filters: Shape, per_group: int, out_at: int) -> Dim:
    """Output channels of a grouped convolution: groups (filters dim 0, merged with the data
    channels / filters dim ``per_group`` when both are known) x filters dim ``out_at``."""
    if filters is None:
        return DYNAMIC
    groups = filters[0]
    if data is not None and shape_dims.SYMBOLIC is not None:  # reshapeable: channels = g * c
        grouped = shape_dims.SYMBOLIC.grouped(data[1], groups, dim_at(filters, per_group, "filters"))
        if grouped is not None:
            return arith.mul(grouped, dim_at(filters, out_at, "filters"))
    if data is not None and dim_at(filters, per_group, "filters").is_static:
        size = filters[per_group].lo
        if size == 0:  # a division by zero the runtime does in doubles: 0 unless `?`
            quotient: Dim | None = data[1] if data[1] == DYNAMIC else Dim(0, 0)
        else:
            quotient = arith.divide(data[1], size)
        merged = None if quotient is None else arith.merge(groups, quotient)
        if merged is None:
            raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has {format_dim(data[1])} "
                                        f"channels, which are not {format_dim(groups)} groups of "
                                        f"{size} (filters {format_shape(filters)}, dims 0 and "
                                        f"{per_group})")
        groups = merged
    return arith.mul(groups, dim_at(filters, out_at, "filters"))


def _infer(kind: str):
    return lambda node: _infer_forward(node, kind)


SPECS = {
    "convolution": (OpSpec("Convolution", (1, 16), fields=CONV_FIELDS, symbolic=True, infer=_infer("plain")),),
    "groupconvolution": (OpSpec("GroupConvolution", (1, 16), fields=CONV_FIELDS,
                                symbolic=True, infer=_infer("group")),),
    "binaryconvolution": (OpSpec("BinaryConvolution", (1, 16),
                                 fields=_BINARY_FIELDS, symbolic=True, infer=_infer("binary")),),
}
