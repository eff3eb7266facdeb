"""IRV109 static-dim-declared: a declared static dim where the runtime infers a dynamic one.

The runtime infers ``?`` or an interval such as ``3..8`` there, and the file promises one
value.  The value fits the interval, so nothing contradicts (IRV101 stays silent), but tools
and people that read the file may rely on a dimension the model does not guarantee.
OpenVINO's serializer writes such a dim as ``-1``, and so does ``--fix``.

Passing (the Parameter is ``shape="1,?"``)::

    <output><port id="2"><dim>1</dim><dim>-1</dim></port></output>   <!-- inferred [1,?] -->

Failing::

    <output><port id="2"><dim>1</dim><dim>5</dim></port></output>    <!-- inferred [1,?] -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir.records import declared_shape
from ..shapes.dims import format_dim, format_shape
from ._common import Context, fix_dims, inferred_ports, shape_table
from ._fixes import dims_fix
from .findings import Problem

CODE = "IRV109"
SLUG = "static-dim-declared"
LEVEL = "warning"
SUMMARY = "A declared static dim where the runtime infers a dynamic or interval dimension."


def check(ctx: Context) -> Iterator[Problem]:
    if ctx.analysis.propagation.unread_const is not None:
        return  # a dim may be dynamic only because a constant's values are missing
    for inference, layer, port, inferred in inferred_ports(ctx):
        if all(low == high for low, high in inferred):
            continue  # (most ports: a static dim is no interval)
        marks = tuple(i for i, (d, inf) in enumerate(zip(port.dims, inferred))
                      if d != -1 and not inf.is_static and inf.contains(d))
        if not marks:
            continue
        value = ctx.analysis.propagation.outputs.get((layer.id, port.id))
        if value is not None and value.loose is not None:
            continue  # irvalidate's ? may be wider than the runtime's here
        declared = declared_shape(port)
        fix, axis = fix_dims(inferred, marks)
        dims = ", ".join(f"axis {m} is {format_dim(inferred[m])}" for m in marks)
        yield Problem(
            f"{layer.describe()}: output port {port.id} declares {format_shape(declared)} "
            f"but the runtime infers {format_shape(inferred)} ({dims}): the model does not "
            f"guarantee the declared value; {fix}", at=port, axis=axis, layer=layer,
            port=port.id, expected=format_shape(inferred), declared=format_shape(declared),
            table=shape_table(inference.operands, [("Result", inferred), ("Declared", declared)],
                              marks), scope=ctx.graph.scope, fix=dims_fix(ctx, layer, port))
