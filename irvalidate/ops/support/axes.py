"""Axis attributes and axes inputs, as OpenVINO checks and normalises them.

``ov::util::normalize_axis`` accepts ``[-r, r-1]`` of a tensor of rank ``r``, and a scalar
counts as rank 1 there (``[-1, 0]``); the refusal reads "Axis 3 out of the tensor rank range
[-3, 2]".  Axes inputs are read "const-only" by most ops (``get_input_const_data_as``,
``Node.exact_values``): a Const's values, or a computed value whose every element is exact,
scalar or 1-D.
"""
from __future__ import annotations

from collections.abc import Sequence

from ...shapes import arith
from ...shapes.dims import Shape, format_shape
from .node import Node
from .spec import INCOMPATIBLE, OpError


def normalize(axis: int, rank: int, what: str = "axis", scalar_as_1d: bool = True) -> int:
    """``axis`` of a tensor of ``rank`` counted from 0 (a negative one from the end); a value
    out of range stops inference as the runtime refuses it.  ``scalar_as_1d=False`` refuses
    every axis of a scalar, for an op that goes on to index the dims (a scalar has none)."""
    r = max(rank, 1) if scalar_as_1d else rank
    found = arith.normalize_axis(axis, r)
    if found is None:
        raise OpError(INCOMPATIBLE, f"{what} {axis} is out of the range [{-r}, {r - 1}] of "
                                    f"a tensor of rank {rank}")
    return found


def require_rank_at_most_one(node: Node, index: int, what: str) -> int | None:
    """The rank of an axes-like input (axes, a shift...), stopping unless it can be a scalar
    or 1-D (None: a dynamic rank)."""
    shape = node.inputs[index].shape
    if shape is None:
        return None
    if len(shape) > 1:
        raise OpError(INCOMPATIBLE, f"{what} (input {index}) must be a scalar or 1-D, but has "
                                    f"rank {len(shape)} ({format_shape(shape)})")
    return len(shape)


def require_1d(shape: Shape, what: str) -> None:
    """Stop unless a shape can be 1-D."""
    if shape is not None and len(shape) != 1:
        raise OpError(INCOMPATIBLE, f"{what} must be 1-D, but has shape {format_shape(shape)}")


def require_count_within(count: int | None, data: Shape, what: str) -> None:
    """Stop when an axes input holds more axes than data has dims (both known)."""
    if data is not None and count is not None and count > len(data):
        raise OpError(INCOMPATIBLE, f"{what} holds {count} axes, more than the {len(data)} dims "
                                    f"of data {format_shape(data)}")


def check_in_range(values: Sequence[int] | None, data: Shape, what: str = "axis") -> None:
    """Every known axis in ``[-r, r-1]`` of data of known rank (a scalar counts as rank 1)."""
    if data is not None and values is not None:
        for axis in values:
            normalize(axis, len(data), what)
