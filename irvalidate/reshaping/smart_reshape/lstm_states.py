"""LSTMStatesBroadcast, for an LSTMCell-4 of the model graph: a Const initial state (H0,
C0) whose dim 0 is 1 is broadcast to the batch of the cell's X, so the batch may change.
The same through a TensorIterator whose body holds the cell, its states coming through body
Parameters from outer Consts of batch 1: the runtime finds which outer input carries the
batch by tracking symbols through the body; here every body Parameter dim is given a
distinct marker value, and the marker that reaches X's batch names it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...ir.records import Layer
from ...ops.support.spec import Value
from ...shapes.dims import DYNAMIC, Dim
from .graph import GraphView, is_type

if TYPE_CHECKING:
    from ...ops.support.node import ParameterValue


def lstm_cell(view: GraphView, cell: Layer) -> None:
    if not is_type(cell, "lstmcell") or cell.version.lower() in ("opset1", "opset2", "opset3"):
        return
    states = []
    for index in (1, 2):
        found = view.producer(cell, index)
        shape = view.shape_out(found[0]) if found else None
        if found and found[0].type.lower() in ("const", "constant") and shape and \
                len(shape) >= 1 and shape[0].is_static and shape[0].lo == 1:
            states.append(index)
    if not states:
        return

    def apply(lay: Layer, inputs: list[Value], _prop) -> tuple[Layer, list[Value]]:
        new = list(inputs)
        x = inputs[0].shape if inputs else None
        batch = x[0] if x else DYNAMIC
        for index in states:
            shape = new[index].shape if index < len(new) else None
            if shape:
                new[index] = Value((batch,) + tuple(shape[1:]), new[index].element_type)
        return lay, new
    names = " and ".join(("H0", "C0")[i - 1] for i in states)
    view.add(cell, "LSTMStatesBroadcast", f"the constant {names} of batch 1 are broadcast to "
                                          f"the batch of X", apply)


#: distinct values no real dim takes, given to a body's Parameter dims to find which of them
#: reaches a cell's batch (the runtime tracks symbols through the body the same way)
_MARK = 1_000_003


def _marked(params: dict[str, Layer]) -> tuple[dict[str, ParameterValue],
                                               dict[int, tuple[str, int]]]:
    """Each body Parameter with a mark for every dim (a static dim no model has), and the
    Parameter and axis each mark stands for."""
    marks: dict[str, ParameterValue] = {}
    owner: dict[int, tuple[str, int]] = {}
    next_mark = _MARK
    for pid, layer in params.items():
        dims = tuple(int(d) for d in (layer.data.get("shape") or "").split(",") if d.strip())
        marked = []
        for axis in range(len(dims)):
            owner[next_mark] = (pid, axis)
            marked.append(Dim(next_mark, next_mark))
            next_mark += 2
        marks[pid] = (tuple(marked), None)
    return marks, owner


def tensor_iterator(view: GraphView, ti: Layer) -> None:
    """LSTMStatesBroadcast through a TensorIterator: an outer Const state of batch 1 feeding a
    body Parameter that is an LSTMCell-4's H0 or C0 is broadcast to the batch of the cell's
    X, found by marking every body Parameter dim and inferring the body."""
    from ...analysis import GraphAnalysis  # the analysis package imports this one's planner
    body = ti.body("body")
    if body is None or not is_type(ti, "tensoriterator"):
        return
    params = {layer.id: layer for layer in body.layers if layer.type.lower() == "parameter"}
    inputs = {e.internal_layer_id: e for e in ti.port_maps
              if e.direction == "input" and e.internal_layer_id in params}
    by_port = {port.id: i for i, port in enumerate(ti.inputs)}
    marks, owner = _marked(params)
    try:
        inner = GraphAnalysis(body, view.analysis.weights, marks)
    except Exception:  # noqa: BLE001 - a body irvalidate cannot analyse is left as it is
        return
    states: dict[int, int] = {}  # outer input index -> outer index of X, whose dim gives batch
    batch_at: dict[int, int] = {}
    for cell in body.layers:
        if not is_type(cell, "lstmcell") or cell.version.lower() in ("opset1", "opset2", "opset3"):
            continue
        x = inner.propagation.input_values(cell)
        d0 = x[0].shape[0] if x and x[0].shape else None
        source = owner.get(d0.lo) if d0 is not None and d0.is_static else None
        if source is None or source[0] not in inputs or inputs[source[0]].slicing.get("axis") == \
                str(source[1]):
            continue
        x_outer = by_port.get(inputs[source[0]].external_port_id)
        for index in (1, 2):
            edge = inner.edges.incoming.get((cell.id, cell.inputs[index].id)) \
                if index < len(cell.inputs) else None
            entry = inputs.get(edge.from_layer) if edge is not None else None
            outer = by_port.get(entry.external_port_id) if entry is not None else None
            found = view.producer(ti, outer) if outer is not None else None
            shape = view.shape_out(found[0]) if found else None
            if found and outer is not None and x_outer is not None \
                    and found[0].type.lower() in ("const", "constant") \
                    and shape and shape[0].is_static and shape[0].lo == 1:
                states[outer], batch_at[outer] = x_outer, source[1]
    if not states:
        return

    def apply(lay: Layer, values: list[Value], _prop) -> tuple[Layer, list[Value]]:
        new = list(values)
        for outer, x_outer in states.items():
            x = new[x_outer].shape if x_outer < len(new) else None
            batch = x[batch_at[outer]] if x and batch_at[outer] < len(x) else DYNAMIC
            shape = new[outer].shape if outer < len(new) else None
            if shape:
                new[outer] = Value((batch,) + tuple(shape[1:]), new[outer].element_type)
        return lay, new
    view.add(ti, "LSTMStatesBroadcast", "the constant initial states of batch 1 of its LSTMCell "
                                        "are broadcast to the batch of the cell's X", apply)
