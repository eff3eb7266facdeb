"""Building blocks for the per-op tests built with the openvino API: shapes with intervals,
and value inputs computed by a shape subgraph (ShapeOf of a Parameter -> Gather -> Add) the
way real models compute sizes, pads and repeats."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import openvino as ov
from openvino import opset1, opset3, opset8


def shape(spec) -> ov.PartialShape:
    """``None`` is a dynamic rank; a dim is an int (-1 is ``?``) or a (lo, hi) pair."""
    if spec is None:
        return ov.PartialShape.dynamic()
    return ov.PartialShape([ov.Dimension(*d) if isinstance(d, tuple) else ov.Dimension(d)
                            for d in spec])


def parameter(spec, et=np.float32, name: str | None = None) -> ov.Node:
    return opset1.parameter(shape(spec), et, name=name)


def computed(dims, indices: Sequence[int], add: Sequence[int] | None = None,
             et: str = "i64") -> tuple[ov.Node, ov.Node]:
    """(the Parameter, a 1-D value computed from its shape): ``ShapeOf(p)[indices] (+ add)``."""
    source = parameter(dims, name="source")
    value = opset8.gather(opset3.shape_of(source, et), np.array(indices, dtype=np.int64),
                          np.int64(0))
    if add is not None:
        value = opset1.add(value, np.array(add, dtype={"i64": np.int64, "i32": np.int32}[et]))
    return source, value
