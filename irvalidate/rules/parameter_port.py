"""IRV214 parameter-port-mismatch: a Parameter's ``shape`` / ``element_type`` disagree with its port.

OpenVINO takes a Parameter's shape from the ``shape`` attribute (a missing one means a
scalar) and ignores the port; tools that read ports see another model.  The port writes every
non-static dim, intervals included, as -1.

Passing::

    <data shape="1,1..8,3" element_type="f32"/>
    <output><port id="0" precision="FP32"><dim>1</dim><dim>-1</dim><dim>3</dim></port></output>

Failing::

    <data shape="1,16,3" element_type="f32"/>
    <output><port id="0" precision="FP32"><dim>1</dim><dim>8</dim><dim>3</dim></port></output>
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir.records import declared_shape
from ..shapes.dims import format_shape, parse_shape
from ._common import Context, attribute_vs_port, element_type_vs_precision, output_site
from ._fixes import source_shape_fix
from .findings import Problem

CODE = "IRV214"
SLUG = "parameter-port-mismatch"
LEVEL = "error"
SUMMARY = "A Parameter's shape or element_type attribute disagrees with its port."


def check(ctx: Context) -> Iterator[Problem]:
    for layer in ctx.analysis.layers.values():
        if layer.type.lower() != "parameter" or len(layer.outputs) != 1:
            continue
        port = layer.outputs[0]
        text = layer.data.get("shape")
        try:
            shape = parse_shape(text) if text is not None else ()
        except ValueError:
            continue  # malformed-ir reports it
        reason, axis = attribute_vs_port(shape, port.dims)
        if reason:
            said = f"shape={text!r}" if text is not None else "no shape attribute (read as a scalar)"
            yield Problem(f"{layer.describe()}: {said} but the port declares "
                          f"{format_shape(declared_shape(port))}: {reason}", at=port, axis=axis,
                          layer=layer, port=port.id, expected=format_shape(shape),
                          declared=format_shape(declared_shape(port)), scope=ctx.graph.scope,
                          fix=source_shape_fix(ctx, layer, port, shape, text or "", False),
                          site=output_site(layer, port))
        yield from element_type_vs_precision(ctx, layer, port)
