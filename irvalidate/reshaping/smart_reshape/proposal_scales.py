"""Proposal1Scales / Proposal4Scales: an ``im_info`` Parameter of shape ``[N, 3]`` or
``[N, 4]`` (static rank 2, static last dim), maybe through a Convert, flattened by a Reshape
with a Const target into Proposal's input 2: the runtime slices the first 3 (or 4) values
out of the flattened tensor, so the batch may change (``[2, 3]`` flattens to 6 values, of
which Proposal reads 3).
"""
from __future__ import annotations

from ...ir.records import Layer
from ...ops.support.spec import Value
from ...shapes.dims import INF, Dim
from .graph import GraphView, is_type


def proposal(view: GraphView, layer: Layer) -> None:
    if not is_type(layer, "proposal") or len(layer.inputs) < 3:
        return
    found = view.producer(layer, 2)
    if found is None or not is_type(found[0], "reshape") or view.const_values(found[0], 1) is None:
        return
    reshape = found[0]
    out = view.shape_out(reshape)
    source = view.producer(reshape, 0)
    if out is None or len(out) != 1 or source is None:
        return
    if is_type(source[0], "convert"):
        source = view.producer(source[0], 0)
    if source is None or not is_type(source[0], "parameter"):
        return
    shape = view.shape_out(source[0])
    if shape is None or len(shape) != 2 or not shape[1].is_static or shape[1].lo not in (3, 4):
        return
    keep = shape[1].lo

    def apply(lay: Layer, inputs: list[Value], _prop) -> tuple[Layer, list[Value]]:
        new = list(inputs)
        flat = new[2].shape if len(new) > 2 else None
        if flat is not None and len(flat) == 1:
            d = flat[0]
            dim = Dim(min(d.lo, keep), keep if d.hi == INF else min(d.hi, keep))
            new[2] = Value((dim,), new[2].element_type)
        return lay, new
    name = "Proposal4Scales" if layer.version.lower() not in ("opset1", "opset2", "opset3") \
        else "Proposal1Scales"
    view.add(layer, name, f"the first {keep} values of the flattened {source[0].name} are "
                          f"sliced out for its input 2", apply)
