"""IRV106 element-type-mismatch: element types a broadcasting layer does not accept or produce.

The runtime requires equal input types (arithmetic: not boolean; logical: boolean; bitwise:
integer or boolean; shifts: integer), a boolean Select condition and integer Broadcast
target_shape / axes_mapping.  A declared output ``precision`` that differs from the type the
layer produces (comparisons and logical ops produce boolean) is reported too: the runtime
ignores it, readers of the file do not.  So is the precision of a body Parameter whose Loop
or If sets its element type to another through the port map.

Passing::

    <layer id="3" type="Less" ...>... <output><port id="2" precision="BOOL">...</port></output>

Failing::

    <layer id="3" type="Less" ...>... <output><port id="2" precision="FP32">...</port></output>
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir import elements
from ..ops.support.spec import TYPE
from ._common import Context
from ._fixes import output_value, precision_fix, type_unproven
from .findings import Fix, Problem

CODE = "IRV106"
SLUG = "element-type-mismatch"
LEVEL = "error"
SUMMARY = "An input or declared output element type breaks the layer's type rules."


def check(ctx: Context) -> Iterator[Problem]:
    for inference in ctx.inferences():
        layer = inference.layer
        for problem in inference.of(TYPE):
            yield Problem(f"{layer.describe()}: {problem.message}", at=layer, layer=layer,
                          scope=ctx.graph.scope)
        for port, produced in zip(layer.outputs, inference.output_types):
            declared = elements.from_precision(port.precision)
            if elements.is_known(produced) and elements.is_known(declared) and declared != produced:
                reason = type_unproven(ctx, output_value(ctx, layer, port))
                fix = Fix(blocked=reason) if reason else \
                    precision_fix(ctx, layer, port, produced, output=True)
                yield Problem(f"{layer.describe()}: output port {port.id} declares precision "
                              f"{port.precision} but the layer produces {produced}",
                              at=port, layer=layer, port=port.id, expected=produced,
                              declared=declared, scope=ctx.graph.scope, fix=fix)
