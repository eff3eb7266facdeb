"""What the shape-moving ops (Reshape, Squeeze, Transpose, Gather, Slice, Split, Scatter...)
share: element type checks on their index inputs, axes normalised as the runtime does it, and
the words of its refusals.
"""
from __future__ import annotations

from typing import Optional, Sequence

from ...ir import elements
from ...shapes import arith
from ...shapes.dims import Dim, format_shape
from .node import Node
from .spec import INCOMPATIBLE, TYPE, OpError


def integral(node: Node, index: int, what: str) -> None:
    """Note an input whose element type the runtime refuses because it is not an integer
    (a dynamic or unknown type passes, as it does at runtime)."""
    et = node.inputs[index].element_type if index < len(node.inputs) else None
    if elements.is_known(et) and et not in elements.INTEGRAL:
        node.note(TYPE, f"{what} (input {index}) must be an integer tensor, not {et}")


def axis(value: int, rank: int, what: str = "axis") -> int:
    """``value`` normalised against ``rank``, or the runtime's refusal."""
    found = arith.normalize_axis(value, rank)
    if found is None:
        raise OpError(INCOMPATIBLE, f"{what} {value} is out of the range [{-rank}, {rank - 1}] "
                                    f"of a rank-{rank} input")
    return found


def rank_at_most_one(node: Node, index: int, what: str) -> Optional[int]:
    """The rank of an axes-like input, refused above 1 (None: dynamic)."""
    shape = node.inputs[index].shape
    if shape is None:
        return None
    if len(shape) > 1:
        raise OpError(INCOMPATIBLE, f"{what} (input {index}) must be a scalar or a 1-D tensor, "
                                    f"but has rank {len(shape)} ({format_shape(shape)})")
    return len(shape)


def upper_only(d: Dim) -> Dim:
    """A dim whose slice is unknown: anything from 0 up to its maximum."""
    return Dim(0, d.hi)


def ints_text(values: Sequence[int]) -> str:
    return "[" + ",".join(str(v) for v in values[:16]) + (",..." if len(values) > 16 else "") + "]"




def refuse_unless(condition: bool, message: str) -> None:
    """An INCOMPATIBLE refusal with ``message`` unless ``condition`` holds."""
    if not condition:
        raise OpError(INCOMPATIBLE, message)
