"""SmartReshape, as ``Model.reshape`` runs it (OpenVINO 2026.4) before it sets new input
shapes: rewrites matched on the graph *as read*, each one a :class:`~..what_if.Rewrite`
that changes what reaches a layer (an input's value, the layer's attributes or type) when
the graph is inferred again.

The runtime's order: ReshapeTo1D, Proposal1Scales/Proposal4Scales, SharedOpOptimization,
SqueezeStridedSlice, StridedSliceSqueeze, ReshapeTo1D, TransposeMatMul,
BroadcastConstRangeReplacement, LSTMStatesBroadcast, ReshapeSinkingMatMul, then
ReshapeAMatMul, ReshapeBMatMul.  Modelled (one module each): ReshapeTo1D, TransposeMatMul
and ReshapeA/BMatMul (``reshape_matmul``), the two Squeeze/StridedSlice fusions
(``squeeze_slice``), BroadcastConstRangeReplacement (``broadcast_range``),
LSTMStatesBroadcast for cells of the model graph and of TensorIterator bodies
(``lstm_states``), ReshapeSinkingMatMul (``sinking``), Proposal1Scales/Proposal4Scales
(``proposal_scales``); SharedOpOptimization only as what it does to consumer counts
(``graph``).
"""
from __future__ import annotations

from typing import List

from ..what_if import Rewrite
from . import broadcast_range, lstm_states, proposal_scales, reshape_matmul, sinking, squeeze_slice
from .graph import GraphView, is_type


def plan(analysis) -> List[Rewrite]:
    """The rewrites Model.reshape would make on this graph (read as the file declares it)."""
    view = GraphView(analysis)
    for layer in view.order:
        if is_type(layer, "reshape"):
            reshape_matmul.reshape_to_1d(view, layer)
    for layer in view.order:
        if is_type(layer, "proposal"):
            proposal_scales.proposal(view, layer)
    for layer in view.order:
        if is_type(layer, "stridedslice"):
            squeeze_slice.squeeze_then_slice(view, layer)
    for layer in view.order:
        if is_type(layer, "squeeze", opset1_only=True):
            squeeze_slice.slice_then_squeeze(view, layer)
    for layer in view.order:
        if is_type(layer, "broadcast"):
            broadcast_range.broadcast(view, layer)
    for layer in view.order:
        if is_type(layer, "lstmcell"):
            lstm_states.lstm_cell(view, layer)
        elif is_type(layer, "tensoriterator"):
            lstm_states.tensor_iterator(view, layer)
    for layer in view.order:
        if is_type(layer, "reshape"):
            sinking.sink(view, layer)
    for layer in view.order:
        if is_type(layer, "matmul"):
            reshape_matmul.matmul(view, layer)
    return list(view.rewrites.values())
