"""LSTMStatesBroadcast, for an LSTMCell-4 of the model graph: a Const initial state (H0,
C0) whose dim 0 is 1 is broadcast to the batch of the cell's X, so the batch may change.
Not modelled: the same for an LSTMCell inside a TensorIterator body (whose states come
through the body's Parameters; the runtime finds the batch by tracking symbols), which is
then reported as plain re-inference sees it.
"""
from __future__ import annotations

from typing import List, Tuple

from ...ir.records import Layer
from ...ops.spec import Value
from ...shapes.dims import DYNAMIC
from .graph import GraphView, is_type


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

    def apply(lay: Layer, inputs: List[Value], _prop) -> Tuple[Layer, List[Value]]:
        new = list(inputs)
        x = inputs[0].shape if inputs else None
        batch = x[0] if x else DYNAMIC
        for index in states:
            if index < len(new) and new[index].shape:
                new[index] = Value((batch,) + tuple(new[index].shape[1:]), new[index].element_type)
        return lay, new
    names = " and ".join(("H0", "C0")[i - 1] for i in states)
    view.add(cell, "LSTMStatesBroadcast", f"the constant {names} of batch 1 are broadcast to "
                                          f"the batch of X", apply)
