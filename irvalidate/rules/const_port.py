"""IRV215 const-port-mismatch: a Const's ``shape`` / ``element_type`` disagree with its port.

OpenVINO builds a Const from its ``shape`` and ``element_type`` and ignores the port; the
port's dims and precision are what readers of the file see.

Passing::

    <data element_type="i64" shape="2, 3" offset="0" size="48"/>
    <output><port id="0" precision="I64"><dim>2</dim><dim>3</dim></port></output>

Failing::

    <data element_type="i64" shape="2, 3" offset="0" size="48"/>
    <output><port id="0" precision="I64"><dim>3</dim><dim>2</dim></port></output>
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir.records import CONST_TYPES, declared_shape
from ..shapes.dims import format_shape, parse_shape
from ._common import Context, attribute_vs_port, element_type_vs_precision, output_site
from ._fixes import source_shape_fix
from .findings import Problem

CODE = "IRV215"
SLUG = "const-port-mismatch"
LEVEL = "error"
SUMMARY = "A Const's shape or element_type attribute disagrees with its port."


def check(ctx: Context) -> Iterator[Problem]:
    for layer in ctx.analysis.layers.values():
        if layer.type.lower() not in CONST_TYPES or len(layer.outputs) != 1:
            continue
        port = layer.outputs[0]
        try:
            shape = parse_shape(layer.data.get("shape", ""))
        except ValueError:
            shape = None
        if shape is not None:
            reason, axis = attribute_vs_port(shape, port.dims)
            if reason:
                yield Problem(f"{layer.describe()}: shape={layer.data.get('shape', '')!r} but the "
                              f"port declares {format_shape(declared_shape(port))}: {reason}",
                              at=port, axis=axis, layer=layer, port=port.id,
                              expected=format_shape(shape),
                              declared=format_shape(declared_shape(port)), scope=ctx.graph.scope,
                              fix=source_shape_fix(ctx, layer, port, shape,
                                                   layer.data.get("shape", ""), True),
                              site=output_site(layer, port))
        yield from element_type_vs_precision(ctx, layer, port)
