"""GatherTree-1: beam-search paths; the output is ``step_ids [T, B, W]`` merged with
``parent_idx``, its B merged with ``max_seq_len [B]``.

``end_token`` is a scalar.  The four element types must merge into one (a dynamic one
merges with any), which must not be boolean; that type is the output's.
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import format_dim, format_shape
from .support.autobroadcast import merge_types
from .support.node import Node
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_NAMES = ("step_ids", "parent_idx", "max_seq_len", "end_token")


def _infer(node: Node) -> Result:
    node.require_inputs((4,))
    node.show(_NAMES)
    node.how = "step_ids merged with parent_idx"
    et = merge_types(node, _NAMES, [v.element_type for v in node.inputs])
    if et == "boolean":
        node.note(TYPE, "the inputs must be numbers, not boolean")
    steps, parents, lengths, end = (v.shape for v in node.inputs)
    out, ok = arith.merge_into(steps, parents)
    if not ok or (out is not None and len(out) != 3):
        raise OpError(INCOMPATIBLE, f"step_ids {format_shape(steps)} and parent_idx "
                                    f"{format_shape(parents)} must be one shape of rank 3")
    if lengths is not None and len(lengths) != 1:
        raise OpError(INCOMPATIBLE, f"max_seq_len {format_shape(lengths)} must be 1-D [BATCH]")
    if out is not None and lengths is not None:
        batch = arith.merge(out[1], lengths[0])
        if batch is None:
            raise OpError(INCOMPATIBLE, f"max_seq_len holds {format_dim(lengths[0])} values for a "
                                        f"batch of {format_dim(out[1])}", column=1)
        out = (out[0], batch, out[2])
    if end is not None and len(end) != 0:
        raise OpError(INCOMPATIBLE, f"end_token {format_shape(end)} must be a scalar")
    return Result((out,), (et,))


SPECS = {"gathertree": (OpSpec("GatherTree", (1, 16), frozenset(), infer=_infer),)}
