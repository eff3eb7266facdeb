"""Ops that scan or reorder elements along axes, the output keeping the data's shape:
CumSum-3, Roll-7, Reverse-1, ReverseSequence-1 and ShuffleChannels-1.

What each checks, as OpenVINO 2026.4.1 does (notes/ops/*.md, re-measured):

* CumSum: the axis input must be i32 or i64; its value and rank are never checked.
* Roll: shift and axes of rank 0 or 1, i32 or i64; unless shift is a static scalar, the two
  shapes must be compatible; exact axes values in ``[-r, r-1]`` (a scalar counts as rank 1).
* Reverse (``mode`` index, the default, or mask): a 1-D axes input; index mode takes integer
  axes, the exact non-negative ones below the rank (a negative one always passes, except on a
  scalar, where every axis is refused); mask mode takes booleans, as many as the data has dims.
* ReverseSequence: data of rank >= 2, 1-D numeric ``seq_lengths``; ``batch_axis`` (0 when
  missing) and ``seq_axis`` (1) in range, a negative ``seq_axis`` refused on a dynamic rank;
  the batch dim is merged with the lengths' count (``batch_axis`` is checked only then: when
  seq_lengths has a dynamic rank it is never read).
* ShuffleChannels: ``group`` (1) >= 1; data of rank >= 1 with ``axis`` (1) in range, whose dim,
  when static, ``group`` divides.
"""
from __future__ import annotations

from ..shapes.dims import format_dim, format_shape, intersect
from .support.attributes import Field, read
from .support.axes import (
    check_in_range,
    normalize,
    require_1d,
    require_rank_at_most_one,
)
from .support.evaluating import short
from .support.input_types import INDEX_TYPES, require_type
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_CUMSUM = (Field("exclusive", "bool", False), Field("reverse", "bool", False))
_REVERSE = (Field("mode", "enum", "index", ("index", "mask")),)
_REVERSE_SEQUENCE = (Field("batch_axis", "int", 0), Field("seq_axis", "int", 1))
_SHUFFLE = (Field("axis", "int", 1), Field("group", "int", 1))


def _start(node: Node, name: str, fields, labels) -> tuple:
    node.require_inputs((len(labels),))
    values = read(node, name, fields) if fields else ()
    node.show(labels)
    node.how = f"{name} (the output keeps the data's shape)"
    return values


def _result(node: Node, shape=None) -> Result:
    data = node.inputs[0]
    return Result((data.shape if shape is None else shape,), (data.element_type,))


def _cumsum(node: Node) -> Result:
    _start(node, "CumSum", _CUMSUM, ("data", "axis"))
    require_type(node, 1, "axis", INDEX_TYPES)
    return _result(node)


def _roll(node: Node) -> Result:
    _start(node, "Roll", (), ("data", "shift", "axes"))
    data, shift, axes = (v.shape for v in node.inputs)
    require_type(node, 1, "shift", INDEX_TYPES)
    require_type(node, 2, "axes", INDEX_TYPES)
    require_rank_at_most_one(node, 1, "shift")
    require_rank_at_most_one(node, 2, "axes")
    static_scalar = shift == ()
    if not static_scalar and shift is not None and axes is not None and (
            len(shift) != len(axes) or any(intersect(a, b) is None for a, b in zip(shift, axes))):
        raise OpError(INCOMPATIBLE, f"shift {format_shape(shift)} and axes {format_shape(axes)} "
                                    f"must have the same shape when shift is not a scalar")
    check_in_range(node.exact_values(2), data)
    return _result(node)


def _reverse(node: Node) -> Result:
    (mode,) = _start(node, "Reverse", _REVERSE, ("data", "reversed_axes"))
    data, axes = node.inputs[0].shape, node.inputs[1].shape
    et = node.inputs[1].element_type
    require_1d(axes, "reversed_axes (input 1)")
    if mode == "mask":
        if et is not None and et != "boolean":
            node.note(TYPE, f"reversed_axes (input 1) must be boolean in mask mode, not {et}")
        if data is not None and axes is not None and axes[0].is_static and axes[0].lo != len(data):
            raise OpError(INCOMPATIBLE, f"reversed_axes holds {axes[0].lo} flags but data "
                                        f"{format_shape(data)} has {len(data)} dims (mask mode)")
        return _result(node)
    require_type(node, 1, "reversed_axes", words="an integer tensor in index mode")
    values = node.exact_values(1)
    if data is not None and values is not None:
        rank = len(data)
        # a negative axis is counted from the end and never refused, even one still negative
        # then; on a scalar every axis is out of range
        wrong = sorted(set(values) if rank == 0 else {a for a in values if a >= rank})
        if wrong:
            raise OpError(INCOMPATIBLE, f"reversed_axes {short(wrong)} are out of range for "
                                        f"data {format_shape(data)}")
    return _result(node)


def _reverse_sequence(node: Node) -> Result:
    batch_axis, seq_axis = _start(node, "ReverseSequence", _REVERSE_SEQUENCE,
                                  ("data", "seq_lengths"))
    data, lengths = node.inputs[0].shape, node.inputs[1].shape
    if node.inputs[1].element_type == "boolean":
        node.note(TYPE, "seq_lengths (input 1) must be numeric, not boolean")
    require_1d(lengths, "seq_lengths (input 1)")
    if data is None:
        if seq_axis < 0:  # (a negative batch_axis is let through)
            raise OpError(INCOMPATIBLE, f"seq_axis {seq_axis} is negative and data has a dynamic "
                                        f"rank: the runtime cannot count it from the end")
        return _result(node)
    if len(data) < 2:
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} must have rank 2 or more")
    normalize(seq_axis, len(data), "seq_axis")
    if lengths is None:  # batch_axis is read only to merge with the lengths' count
        return _result(node)
    batch = normalize(batch_axis, len(data), "batch_axis")
    merged = intersect(data[batch], lengths[0])
    if merged is None:
        raise OpError(INCOMPATIBLE, f"seq_lengths holds {format_dim(lengths[0])} lengths but the "
                                    f"batch dim {batch} of data {format_shape(data)} is "
                                    f"{format_dim(data[batch])}", column=batch)
    return _result(node, data[:batch] + (merged,) + data[batch + 1:])


def _shuffle_channels(node: Node) -> Result:
    axis, group = _start(node, "ShuffleChannels", _SHUFFLE, ("data",))
    data = node.inputs[0].shape
    if group < 1:
        raise OpError(ATTRIBUTE, f"attribute group is {group}: it must be 1 or more")
    if data is None:
        return _result(node)
    if not data:
        raise OpError(INCOMPATIBLE, "data is a scalar: ShuffleChannels needs rank 1 or more")
    where = normalize(axis, len(data), "axis")
    dim = data[where]
    if dim.is_static and dim.lo % group:
        raise OpError(INCOMPATIBLE, f"dim {where} of data {format_shape(data)} is {dim.lo}, "
                                    f"which group {group} does not divide", column=where)
    return _result(node)


SPECS = {
    "cumsum": (OpSpec("CumSum", (3, 16), fields=_CUMSUM, infer=_cumsum),),
    "roll": (OpSpec("Roll", (7, 16), frozenset(), value_inputs=(2,), infer=_roll),),
    "reverse": (OpSpec("Reverse", (1, 1), fields=_REVERSE, value_inputs=(1,), infer=_reverse),),
    "reversesequence": (OpSpec("ReverseSequence", (1, 16), fields=_REVERSE_SEQUENCE,
                               infer=_reverse_sequence),),
    "shufflechannels": (OpSpec("ShuffleChannels", (1, 16), fields=_SHUFFLE,
                               infer=_shuffle_channels),),
}
