"""IRV213 precision-mismatch: the ports at the two ends of an edge declare different precisions.

One tensor has one element type.  OpenVINO ignores declared precisions and uses the
producer's real type, so the file tells readers two stories about one tensor.  Legacy and
canonical spellings (``FP32`` and ``f32``) are the same precision.

Passing::

    producer <port id="0" precision="FP32">  ->  consumer <port id="1" precision="FP32">

Failing::

    producer <port id="0" precision="FP32">  ->  consumer <port id="1" precision="I64">
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir import elements
from ._common import Context
from ._fixes import output_value, type_unproven
from .findings import Fix, Problem, SetPrecision

CODE = "IRV213"
SLUG = "precision-mismatch"
LEVEL = "error"
SUMMARY = "The two ports of an edge declare different precisions."


def check(ctx: Context) -> Iterator[Problem]:
    for edge, producer, source, consumer, target in ctx.analysis.edges.edge_ports():
        a, b = elements.from_precision(source.precision), elements.from_precision(target.precision)
        if a and b and a != b:
            value = output_value(ctx, producer, source)
            reason = type_unproven(ctx, value)
            fix = Fix(blocked=reason) if reason else \
                Fix((SetPrecision(target, value.element_type, consumer),))  # type: ignore[union-attr,arg-type]  # proven: a value with a type
            yield Problem(f"{consumer.describe()}: input port {edge.to_port} declares precision "
                          f"{target.precision} but its producer {producer.describe()} declares "
                          f"{source.precision} on output port {edge.from_port}; the runtime uses the "
                          f"producer's: make the input port say {source.precision}",
                          at=edge, layer=consumer, port=edge.to_port, expected=a,
                          declared=b, scope=ctx.graph.scope, fix=fix)
