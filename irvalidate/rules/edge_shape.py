"""IRV201 edge-shape-mismatch: an edge joins ports that declare different dims.

The runtime infers the tensor an edge carries and ignores what both ports declare; the file
then tells readers two different stories about one tensor.  The finding says which side
inference proves (the producer's, the consumer's, or neither) and points at the port to
change: the input port, or the producer's output port when that one is stale.

Passing::

    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>  <!-- both ports [1,3] -->

Failing::

    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>  <!-- [1,3] into [1,4] -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir.records import Layer, Port, declared_shape
from ..shapes.dims import Shape, format_shape
from ._common import Context, input_site, port_dim
from ._fixes import input_dims_fix, output_value, why_unproven
from .findings import Problem, ShapeTable, TableRow

CODE = "IRV201"
SLUG = "edge-shape-mismatch"
LEVEL = "error"
SUMMARY = "The producer's output dims differ from the consumer's input dims across an edge."


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
        advice, at, axis = _advice(ctx, producer, source, target)
        yield Problem(
            f"{consumer.describe()}: input port {edge.to_port} declares {format_shape(inp)} but "
            f"its producer {producer.describe()} declares {format_shape(out)} on output port "
            f"{edge.from_port}; {advice}", at=at, axis=axis, layer=consumer, port=edge.to_port,
            expected=format_shape(out), declared=format_shape(inp), table=table,
            scope=ctx.graph.scope, fix=input_dims_fix(ctx, producer, source, consumer, target),
            site=input_site(consumer, target), after=(("out", producer.id, source.id),))


def _advice(ctx: Context, producer: Layer, source: Port,
            target: Port) -> tuple[str, Port, int | None]:
    """What to write and where (the port to change, and its one wrong axis), from the side
    inference proves; when it proves neither, the runtime's own rule: the producer's."""
    value = output_value(ctx, producer, source)
    if value is None or why_unproven(ctx, value) is not None:
        return (f"the runtime uses the producer's, so make the input port say "
                f"{format_shape(declared_shape(source))}, or fix the producer"), target, None
    inferred = value.shape
    proven = "[" + ",".join(port_dim(d) for d in inferred) + "]"  # type: ignore[union-attr]  # proven: a shape
    producer_right, consumer_right = _agrees(source, inferred), _agrees(target, inferred)
    if consumer_right and not producer_right:
        return (f"inference proves the input port's, so the producer's output port is stale: "
                f"declare {proven} there"), source, None
    where = ("both allow what inference proves, so declare on both ports" if consumer_right
             else "inference proves the producer's, so make the input port say" if producer_right
             else "inference proves neither, so declare on both ports")
    return f"{where} {proven}", target, _one_wrong_axis(target, inferred)


def _agrees(port: Port, inferred: Shape) -> bool:
    """Whether a port's declaration holds for the inferred shape (a -1 holds for any dim)."""
    return inferred is not None and len(port.dims) == len(inferred) and all(
        d == -1 or dim.contains(d) for d, dim in zip(port.dims, inferred))  # type: ignore[arg-type]  # readable ports: no None dim


def _one_wrong_axis(port: Port, inferred: Shape) -> int | None:
    """The axis of the port's one contradicted ``<dim>``, to point at it; None otherwise."""
    if inferred is None or len(port.dims) != len(inferred):
        return None
    wrong = [i for i, (d, dim) in enumerate(zip(port.dims, inferred))
             if d != -1 and not dim.contains(d)]  # type: ignore[arg-type]  # readable ports: no None dim
    return wrong[0] if len(wrong) == 1 else None
