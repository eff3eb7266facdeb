"""Axis attributes and axes inputs, as OpenVINO checks and normalises them.

``ov::util::normalize_axis`` accepts ``[-r, r-1]`` of a tensor of rank ``r``, and a scalar
counts as rank 1 there (``[-1, 0]``); the refusal reads "Axis 3 out of the tensor rank range
[-3, 2]".  Axes inputs are read "const-only" by most ops (``get_input_const_data_as``,
``Node.exact_values``): a Const's values, or a computed value whose every element is exact,
scalar or 1-D.
"""
from __future__ import annotations

from typing import Optional, Sequence

from ...ir import elements
from ...shapes.dims import Shape, format_shape
from .node import Node
from .spec import INCOMPATIBLE, TYPE, OpError


def rank_range(rank: int) -> str:
    r = max(rank, 1)
    return f"[{-r}, {r - 1}]"


def normalize(axis: int, rank: int, what: str) -> int:
    """``axis`` of a tensor of ``rank`` counted from 0 (a negative one from the end); a value
    out of range stops inference as the runtime refuses it."""
    r = max(rank, 1)
    if not -r <= axis < r:
        raise OpError(INCOMPATIBLE, f"{what} {axis} is out of the range {rank_range(rank)} of "
                                    f"a tensor of rank {rank}")
    return axis + r if axis < 0 else axis




def rank_at_most_one(shape: Shape) -> bool:
    """Whether a shape can be a scalar or a 1-D tensor (a dynamic rank can)."""
    return shape is None or len(shape) <= 1


def require_integers(node: Node, index: int, what: str, allowed: Sequence[str] = ()) -> None:
    """Note an element type the runtime refuses for an integer input (``allowed``: the only
    types it takes, when it names them; any integer type otherwise; dynamic always passes)."""
    et = node.inputs[index].element_type
    if not elements.is_known(et):
        return
    if allowed and et not in allowed:
        node.note(TYPE, f"{what} must be {' or '.join(allowed)}, not {et}")
    elif not allowed and et not in elements.INTEGRAL:
        node.note(TYPE, f"{what} must be an integer tensor, not {et}")


def require_rank_at_most_one(shape: Shape, what: str) -> None:
    """Stop unless a shape can be a scalar or 1-D (an axes input, a shift...)."""
    if not rank_at_most_one(shape):
        raise OpError(INCOMPATIBLE, f"{what} must be a scalar or 1-D, but has shape "
                                    f"{format_shape(shape)}")


def require_1d(shape: Shape, what: str) -> None:
    """Stop unless a shape can be 1-D."""
    if shape is not None and len(shape) != 1:
        raise OpError(INCOMPATIBLE, f"{what} must be 1-D, but has shape {format_shape(shape)}")


def require_count_within(count: Optional[int], data: Shape, what: str) -> None:
    """Stop when an axes input holds more axes than data has dims (both known)."""
    if data is not None and count is not None and count > len(data):
        raise OpError(INCOMPATIBLE, f"{what} holds {count} axes, more than the {len(data)} dims "
                                    f"of data {format_shape(data)}")


def check_in_range(values: Optional[Sequence[int]], data: Shape, what: str = "axis") -> None:
    """Every known axis in ``[-r, r-1]`` of data of known rank (a scalar counts as rank 1)."""
    if data is not None and values is not None:
        for axis in values:
            normalize(axis, len(data), what)
