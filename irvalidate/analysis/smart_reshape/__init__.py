"""SmartReshape, as ``Model.reshape`` runs it (OpenVINO 2026.4) before it sets new input
shapes: rewrites matched on the graph *as read*, each one a :class:`~.what_if.Rewrite`.

Modelled, in the runtime's order:

* ReshapeTo1D: a Reshape with a Const target and a rank-1 output gets the target ``[-1]``.
* TransposeMatMul: a Transpose swapping the last two axes (Const order) into a MatMul input
  is folded into the MatMul's ``transpose_a``/``transpose_b``.
* ReshapeAMatMul / ReshapeBMatMul: a Reshape with a rank-2 output and one consumer, a
  MatMul, whose other operand has a static rank and does not come from a Transpose or a
  Reshape, gets the target ``[-1, K]`` (or ``[K, -1]``), K read from the other operand's
  shape when the model is re-inferred: a flatten before a classifier follows the batch.

The others (SqueezeStridedSlice, StridedSliceSqueeze, BroadcastConstRangeReplacement,
LSTMStatesBroadcast, ReshapeSinkingMatMul, Proposal1Scales/Proposal4Scales) are not modelled
yet: a model that reshapes only through them is reported as the plain re-inference sees it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, List, Optional, Tuple

from ..ir.records import CONST_TYPES, Layer
from ..ir.weights import ConstError
from ..ops.spec import Value
from ..shapes.dims import DYNAMIC, Dim, format_shape
from ..shapes.values import Origin, make_tensor
from .what_if import Rewrite


def _is(layer: Optional[Layer], kind: str) -> bool:
    return layer is not None and layer.type.lower() == kind


def _target(values: List[Dim], why: str) -> Value:
    """A shape input whose value is ``values`` (bounds), as the rewritten subgraph gives it."""
    tensor = make_tensor((len(values),), values, "i64", Origin(why))
    return Value((Dim(len(values), len(values)),), "i64", tensor=tensor)


class _Planner:
    def __init__(self, analysis) -> None:
        self.analysis = analysis
        self.edges = analysis.edges
        self.layers: Dict[str, Layer] = analysis.layers
        self.outputs = analysis.propagation.outputs
        self.rewrites: Dict[str, Rewrite] = {}

    def producer(self, layer: Layer, index: int) -> Optional[Tuple[Layer, Tuple[str, str]]]:
        if index >= len(layer.inputs):
            return None
        edge = self.edges.incoming.get((layer.id, layer.inputs[index].id))
        if edge is None or edge.from_layer not in self.layers:
            return None
        return self.layers[edge.from_layer], (edge.from_layer, edge.from_port)

    def const_values(self, layer: Layer, index: int) -> Optional[List[int]]:
        found = self.producer(layer, index)
        if found is None or found[0].type.lower() not in CONST_TYPES:
            return None
        try:
            return self.analysis.propagation.read_const(found[0])
        except ConstError:
            return None

    def shape_out(self, layer: Layer) -> Optional[tuple]:
        value = self.outputs.get((layer.id, layer.outputs[0].id)) if layer.outputs else None
        return None if value is None else value.shape

    # -- ReshapeTo1D ---------------------------------------------------------------------
    def reshape_to_1d(self, layer: Layer) -> None:
        shape = self.shape_out(layer)
        old = self.const_values(layer, 1)
        if old is None or shape is None or len(shape) != 1:
            return

        def apply(lay: Layer, inputs: List[Value], _prop) -> Tuple[Layer, List[Value]]:
            return lay, inputs[:1] + [_target([Dim(-1, -1)], "ReshapeTo1D")] + inputs[2:]
        self.rewrites[layer.id] = Rewrite(layer, "ReshapeTo1D", f"the target {old} becomes [-1]",
                                          apply)

    # -- TransposeMatMul and ReshapeA/BMatMul ---------------------------------------------
    def swap_transpose(self, matmul: Layer, index: int) -> Optional[Layer]:
        """The Transpose feeding input ``index`` that TransposeMatMul folds, if any."""
        found = self.producer(matmul, index)
        if found is None or not _is(found[0], "transpose"):
            return None
        shape = self.shape_out(found[0])
        order = self.const_values(found[0], 1)
        if shape is None or len(shape) < 2 or order is None:
            return None
        rank = len(shape)
        return found[0] if order == list(range(rank - 2)) + [rank - 1, rank - 2] else None

    def matmul(self, layer: Layer) -> None:
        if len(layer.inputs) != 2:
            return
        flags = [layer.data.get(k, "false").strip().lower() == "true"
                 for k in ("transpose_a", "transpose_b")]
        folded = [self.swap_transpose(layer, i) for i in (0, 1)]
        for i, transpose in enumerate(folded):
            if transpose is not None:
                flags[i] = not flags[i]
        # the operands the rewritten MatMul reads: (layer, port key)
        operands = [self.producer(t, 0) if t is not None else self.producer(layer, i)
                    for i, t in enumerate(folded)]
        if any(t is not None for t in folded):
            self._fold(layer, folded, flags)
        for side in (0, 1):
            self._flatten(layer, side, operands, flags)

    def _fold(self, layer: Layer, folded: List[Optional[Layer]], flags: List[bool]) -> None:
        names = ", ".join(t.name for t in folded if t is not None)
        data = dict(layer.data)
        data["transpose_a"], data["transpose_b"] = (str(f).lower() for f in flags)

        def apply(lay: Layer, inputs: List[Value], prop) -> Tuple[Layer, List[Value]]:
            new = list(inputs)
            for i, transpose in enumerate(folded):
                if transpose is not None and i < len(new):
                    below = prop.input_values(transpose)
                    if below:
                        new[i] = below[0]
            return replace(lay, data=data), new
        self.rewrites[layer.id] = Rewrite(layer, "TransposeMatMul",
                                          f"the Transpose {names} is folded into transpose_a="
                                          f"{data['transpose_a']}, transpose_b={data['transpose_b']}",
                                          apply)

    def _flatten(self, matmul: Layer, side: int, operands, flags: List[bool]) -> None:
        mine, other = operands[side], operands[1 - side]
        if mine is None or other is None:
            return
        reshape, key = mine
        if not _is(reshape, "reshape"):
            return
        shape = self.shape_out(reshape)
        if shape is None or len(shape) != 2 or len(self.edges.consumers(key)) != 1:
            return
        other_layer, other_key = other
        other_shape = self.outputs.get(other_key, Value(None, None)).shape
        if other_shape is None or _is(other_layer, "transpose") or _is(other_layer, "reshape"):
            return
        if len(other_shape) == 1:
            idx = -1
        elif side == 0:
            idx = -1 if flags[1] else -2
        else:
            idx = -2 if flags[0] else -1
        k_first = flags[0] if side == 0 else not flags[1]
        name = "ReshapeAMatMul" if side == 0 else "ReshapeBMatMul"

        def apply(lay: Layer, inputs: List[Value], prop) -> Tuple[Layer, List[Value]]:
            value = prop.outputs.get(other_key) or self.outputs.get(other_key)
            dims = value.shape if value is not None else None
            k = dims[idx] if dims is not None and len(dims) >= -idx else DYNAMIC
            pattern = [k, Dim(-1, -1)] if k_first else [Dim(-1, -1), k]
            return lay, inputs[:1] + [_target(pattern, name)] + inputs[2:]
        k_text = format_shape(other_shape)[1:-1].split(",")[idx] if other_shape else "K"
        target = f"[{k_text},-1]" if k_first else f"[-1,{k_text}]"
        self.rewrites[reshape.id] = Rewrite(
            reshape, name, f"the target of this rank-2 Reshape into MatMul {matmul.name} becomes "
                           f"{target}, K taken from the shape of {other_layer.name}", apply)


def plan(analysis) -> List[Rewrite]:
    """The rewrites Model.reshape would make on this graph (read as the file declares it)."""
    planner = _Planner(analysis)
    for layer in analysis.propagation._order:
        if _is(layer, "reshape"):
            planner.reshape_to_1d(layer)
    for layer in analysis.propagation._order:
        if _is(layer, "matmul"):
            planner.matmul(layer)
    return list(planner.rewrites.values())
