"""Building small openvino models for the per-op tests: shapes written as lists, layers made
with NodeFactory (any attribute, any version), and a model gathered from its outputs.

    x = param([2, (1, 8), -1])                      # [2,1..8,?] f32; None is a dynamic rank
    op = make("opset8", "PriorBox", [const([19, 19]), const([300, 300])], {...}, "pb")
    opcheck.compare(model(op), tmp_path, ["PriorBox"])

``accepted`` builds a layer and gives None when openvino refuses it (random tests draw
configurations and keep those the runtime accepts).
"""
from __future__ import annotations

from typing import Iterable, List, Optional, Sequence

import numpy as np
import openvino as ov
import openvino.opset8 as o8
from openvino.utils.node_factory import NodeFactory

_FACTORIES = {}


def shape(spec) -> ov.PartialShape:
    if spec is None:
        return ov.PartialShape.dynamic()
    return ov.PartialShape([ov.Dimension(*d) if isinstance(d, tuple) else ov.Dimension(d)
                            for d in spec])


def param(spec, et=np.float32, name: Optional[str] = None):
    return o8.parameter(shape(spec), et, name=name)


def const(values, et=np.int64):
    return o8.constant(np.array(values, dtype=et))


def make(opset: str, type_: str, inputs: Sequence, attrs: dict, name: str = "op"):
    factory = _FACTORIES.get(opset)
    if factory is None:
        factory = _FACTORIES[opset] = NodeFactory(opset)
    node = factory.create(type_, [i.output(0) if hasattr(i, "output") else i for i in inputs],
                          attrs)
    node.set_friendly_name(name)
    return node


def accepted(build):
    """``build()``, or None when openvino refuses what it builds."""
    try:
        return build()
    except RuntimeError:
        return None


def _parameters(outputs: Iterable) -> List:
    found, seen, stack = [], set(), [o.get_node() for o in outputs]
    while stack:
        node = stack.pop()
        key = node.get_name()  # unique per node (python wrappers are not)
        if key in seen:
            continue
        seen.add(key)
        if node.get_type_name() == "Parameter":
            found.append(node)
        stack.extend(i.get_source_output().get_node() for i in node.inputs())
    return sorted(found, key=lambda p: p.get_friendly_name())


def model(*nodes) -> ov.Model:
    """A model whose results are every output of ``nodes`` (its Parameters found upstream)."""
    outputs = [out for node in nodes for out in node.outputs()]
    return ov.Model([o8.result(out) for out in outputs], _parameters(outputs), "m")
