"""What a Broadcast reads from its shape inputs: constant values, computed values, lengths.

The target_shape is resolved as OpenVINO resolves it (ov_semantics.md §3.2): a Const's
values (-1 is ``?``), else the bounds a shape subgraph evaluates to (see :mod:`values`),
else the Concat fallback, else only the length of the 1-D input.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, List, Optional, Tuple

from ..shapes import broadcasting as bc
from . import kinds as ops
from ..ir.weights import ConstError
from ..shapes.dims import Dim, format_dim, format_shape
from ..ir.records import Layer
from ..shapes.values import NegativeTarget, Unresolved, as_target, describe

if TYPE_CHECKING:
    from .infer import Inference, Value

#: decodes an integer Const layer, raising ConstError
ConstReader = Callable[[Layer], List[int]]

#: the largest tensor rank irvalidate will build a shape for
MAX_RANK = 4096


def const_values(result: Inference, value: Value, read_const: ConstReader) -> Optional[List[int]]:
    producer = value.producer
    if producer is None or producer.type.lower() not in ops.CONST_TYPES:
        return None
    try:
        return read_const(producer)
    except ConstError as err:
        result.add_const_problem(producer, err)
        return None


def one_dim_length(result: Inference, value: Value, what: str) -> Tuple[bool, Optional[int]]:
    """(ok, static length) of a 1-D shape input; records a failure when its rank is not 1."""
    shape = value.shape
    if shape is None:
        return True, None
    if len(shape) != 1:
        result.failure = bc.BroadcastError(f"{what} must be a 1-D tensor, but has rank {len(shape)} "
                                           f"({format_shape(shape)})")
        return False, None
    if shape[0].lo > MAX_RANK:
        # the output would have that rank; no shape of it is ever built here
        result.failure = bc.BroadcastError(f"{what} has {shape[0].lo} elements: an output of that "
                                           f"rank is not a plausible tensor (irvalidate checks up "
                                           f"to rank {MAX_RANK})")
        return False, None
    return True, shape[0].lo if shape[0].is_static else None


def computed_target(result: Inference, value: Value) -> Optional[Tuple[Dim, ...]]:
    """A target_shape computed by a shape subgraph, as OpenVINO's bound evaluation reads it."""
    tensor = value.tensor
    if tensor is not None and tensor.rank == 1:
        try:
            target = as_target(tensor)
        except NegativeTarget as neg:
            result.failure = bc.BroadcastError(
                f"target_shape element {neg.index} evaluates to {format_dim(neg.dim)}, computed as "
                f"{describe(tensor.origin)}; OpenVINO refuses a value that can be negative (\"Value for partial "
                f"shape evaluation can't be lower than zero\")")
            return None
        except Unresolved:  # a wrapped interval: what the runtime makes of it is not followed
            return None
        result.target_source = tensor.origin
        return target
    if value.fallback is not None:
        result.target_source = ("Concat whose values OpenVINO cannot bound: each Constant input gives "
                               "its first value, every other input '?'")
        return value.fallback
    return None


def computed_axes(value: Value) -> Optional[List[int]]:
    """An axes_mapping a shape subgraph computes, when every value is known exactly."""
    tensor = value.tensor
    if tensor is None or tensor.rank != 1:
        return None
    try:
        return tensor.static_values()
    except Unresolved:
        return None
