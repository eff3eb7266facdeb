"""IRV102 incompatible-inputs: the input shapes of a layer are incompatible (they cannot
broadcast together, a shape input is not 1-D, a computed target can be negative).

The runtime refuses to load such a model ("Argument shapes are inconsistent", or one of the
Broadcast messages) and names no XML line.  This rule reports every such layer at once, with
the aligned shapes and the failing axis.  A Broadcast whose target_shape is computed
(``ShapeOf -> Gather -> Concat ...``) is checked on the values that subgraph evaluates to, and
a computed value that can be negative is reported too (the runtime refuses it); the message
then shows the chain.

Passing (numpy: ``[2,3]`` with ``[3]``)::

    <layer id="2" name="mul" type="Multiply" version="opset1">
      <data auto_broadcast="numpy"/>
      <input><port id="0"><dim>2</dim><dim>3</dim></port><port id="1"><dim>3</dim></port></input>
      <output><port id="2"><dim>2</dim><dim>3</dim></port></output>
    </layer>

Failing (3 and 2 differ and neither is 1)::

      <input><port id="0"><dim>3</dim></port><port id="1"><dim>2</dim></port></input>
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ops.support.spec import INCOMPATIBLE, Inferred, OpProblem
from ._common import Context, shape_table
from .findings import Problem

CODE = "IRV102"
SLUG = "incompatible-inputs"
LEVEL = "error"
SUMMARY = "The layer's input shapes are incompatible: OpenVINO refuses the model."


def check(ctx: Context) -> Iterator[Problem]:
    for inference in ctx.inferences():
        for failure in inference.of(INCOMPATIBLE):
            yield _problem(ctx, inference, failure)


def _problem(ctx: Context, inference: Inferred, failure: OpProblem) -> Problem:
    layer = inference.layer
    operands = list(inference.operands)
    if failure.offsets is not None:
        # pdpd places the operands where the failing merge put them
        operands[:2] = [op._replace(offset=off) for op, off in zip(operands, failure.offsets)]
    marks = (failure.column,) if failure.column is not None else ()
    chain = f" ({inference.computed})" if inference.computed else ""
    return Problem(f"{layer.describe()}: {failure.message}{chain}", at=layer, layer=layer,
                   table=shape_table(operands, marks=marks) if operands else None,
                   scope=ctx.graph.scope)
