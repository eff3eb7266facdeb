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

from ...analysis.what_if import Rewrite
from . import broadcast_range, lstm_states, proposal_scales, reshape_matmul, sinking, squeeze_slice
from .graph import GraphView, is_type

#: the passes in the runtime's order: (layer type, Squeeze-0 only, the matcher)
PASSES = (
    ("reshape", False, reshape_matmul.reshape_to_1d),
    ("proposal", False, proposal_scales.proposal),
    ("stridedslice", False, squeeze_slice.squeeze_then_slice),
    ("squeeze", True, squeeze_slice.slice_then_squeeze),
    ("broadcast", False, broadcast_range.broadcast),
    ("lstmcell", False, lstm_states.lstm_cell),
    ("tensoriterator", False, lstm_states.tensor_iterator),
    ("reshape", False, sinking.sink),
    ("matmul", False, reshape_matmul.matmul),  # TransposeMatMul, then ReshapeA/BMatMul
)


def plan(analysis) -> list[Rewrite]:
    """The rewrites Model.reshape would make on this graph (read as the file declares it)."""
    view = GraphView(analysis)
    for kind, first_class, match in PASSES:
        for layer in view.order:
            if is_type(layer, kind, opset1_only=first_class):
                match(view, layer)
    return list(view.rewrites.values())
