"""IRV302 reshape-rewrite: ``Model.reshape`` rewrites this layer before it sets the new input
shapes (OpenVINO's SmartReshape), and irvalidate infers the rewritten graph, as the runtime
does; ``--no-smart-reshape`` infers without it.

For example, a Reshape with a constant rank-2 target feeding a MatMul gets the target
``[-1,K]`` (ReshapeAMatMul), so a classifier head follows a new batch; a flatten to rank 1
gets ``[-1]`` (ReshapeTo1D).  A model that reshapes only thanks to such a rewrite works
with ``Model.reshape`` but not when the Parameters' shapes are set one by one.

Passing (nothing to rewrite: the target is computed from ``ShapeOf``)::

    <layer id="3" name="flat" type="Reshape" version="opset1"/>   <!-- target Concat(...) -->

Failing, that is reported (a constant target ``[1,64]`` into a MatMul with ``[64,10]`` weights)::

    <layer id="3" name="flat" type="Reshape" version="opset1"/>   <!-- target [1,64] -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context
from .findings import Problem

CODE = "IRV302"
SLUG = "reshape-rewrite"
LEVEL = "info"
SUMMARY = "Model.reshape rewrites this layer first (SmartReshape); irvalidate follows it."


def check(ctx: Context) -> Iterator[Problem]:
    if ctx.reshape is None or not ctx.is_model:
        return
    for rewrite in ctx.reshape.rewrites:
        if not rewrite.shown:
            continue
        layer = rewrite.layer
        yield Problem(f"{layer.describe()}: {rewrite.transformation}: {rewrite.detail}",
                      at=layer, layer=layer)
