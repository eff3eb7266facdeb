"""IRV103 dynamic-dim-declared: a declared ``-1`` where inference gives a static dim.

Not an error for the runtime, which ignores declared dims, but tools and people that read the
file see a dynamic dimension where the model has a fixed one; usually a sign of a stale IR.

Passing::

    <output><port id="2"><dim>1</dim><dim>3</dim></port></output>   <!-- inferred [1,3] -->

Failing::

    <output><port id="2"><dim>1</dim><dim>-1</dim></port></output>  <!-- inferred [1,3] -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir.records import declared_shape
from ..shapes.dims import format_shape
from ._common import Context, fix_dims, inferred_ports, shape_table
from ._fixes import dims_fix
from .findings import Problem

CODE = "IRV103"
SLUG = "dynamic-dim-declared"
LEVEL = "warning"
SUMMARY = "A declared -1 where inference gives a static dimension."


def check(ctx: Context) -> Iterator[Problem]:
    for inference, layer, port, inferred in inferred_ports(ctx):
        if -1 not in port.dims:
            continue  # (most ports)
        marks = tuple(i for i, (d, inf) in enumerate(zip(port.dims, inferred))
                      if d == -1 and inf.is_static)
        if not marks:
            continue
        declared = declared_shape(port)
        fix, axis = fix_dims(inferred, marks)
        yield Problem(
            f"{layer.describe()}: output port {port.id} declares {format_shape(declared)} "
            f"but axis {', '.join(map(str, marks))} is static: {format_shape(inferred)}; "
            f"{fix}", at=port, axis=axis, layer=layer, port=port.id,
            expected=format_shape(inferred),
            declared=format_shape(declared),
            table=shape_table(inference.operands, [("Result", inferred), ("Declared", declared)],
                              marks), scope=ctx.graph.scope, fix=dims_fix(ctx, layer, port))
