"""IRV201 edge-shape-mismatch: an edge joins ports that declare different dims.

The runtime takes the producer's shape and ignores what the consumer declares; the file then
tells readers two different stories about one tensor.

Passing::

    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>  <!-- both ports [1,3] -->

Failing::

    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>  <!-- [1,3] into [1,4] -->
"""
from __future__ import annotations

from typing import Iterator

from ..findings import Problem, ShapeTable, TableRow
from ..ir.records import declared_shape
from ..shapes.dims import format_shape
from ._common import Context
from ._fixes import input_dims_fix

CODE = "IRV201"
SLUG = "edge-shape-mismatch"
LEVEL = "error"
SUMMARY = "The producer's output dims differ from the consumer's input dims across an edge."
#: streaming.py may run it on each batch of layers: it reads an edge and the two ports it joins
STREAMING = "batch"


def check(ctx: Context) -> Iterator[Problem]:
    for edge, producer, source, consumer, target in ctx.analysis.edges.edge_ports():
        if source.dims == target.dims or not (source.readable and target.readable):
            continue  # equal, or a <dim> malformed-ir already reported
        out, inp = declared_shape(source), declared_shape(target)
        marks: tuple = ()
        if len(source.dims) == len(target.dims):
            marks = tuple(i for i, (a, b) in enumerate(zip(source.dims, target.dims)) if a != b)
        table = ShapeTable((TableRow.of("from", out), TableRow.of("to", inp)), marks) \
            if max(len(source.dims), len(target.dims)) <= 64 else None
        yield Problem(
            f"{consumer.describe()}: input port {edge.to_port} declares {format_shape(inp)} but "
            f"its producer {producer.describe()} declares {format_shape(out)} on output port "
            f"{edge.from_port}; the runtime uses the producer's, so make the input port say "
            f"{format_shape(out)}, or fix the producer", at=edge, layer=consumer, port=edge.to_port,
            expected=format_shape(out), declared=format_shape(inp), table=table,
            scope=ctx.graph.scope, fix=input_dims_fix(ctx, producer, source, consumer, target))
