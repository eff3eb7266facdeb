"""IRV301 reshape-incompatible: with the new input shapes of ``--reshape``, OpenVINO refuses
this layer (``Model.reshape`` fails).

The runtime stops at the first layer that fails, in its own order, and names it; the cause
is often upstream: a constant that pins a dim the new shapes would change (a Reshape's
target, Slice or StridedSlice bounds, Interpolate sizes, a Broadcast target, a constant
operand of baked shape).  This rule reports every layer the reshape breaks, with the shape
table, and names the Const that pins the dim and its line when there is one (it is found by
inferring again with that Const's value, or shape, unknown: the layer then passes).

Passing (``--reshape 'x[4,64]'``: the Reshape's target follows the batch)::

    <layer id="1" name="flat" type="Reshape" version="opset1">
      <data special_zero="true"/>
      <input><port id="0"><dim>1</dim><dim>64</dim></port><port id="1"><dim>2</dim></port></input>
      <output><port id="2"><dim>1</dim><dim>64</dim></port></output>
    </layer>   <!-- target [0,-1] -->

Failing (the same layer with the constant target ``[1,64]`` and a batch of 4: 256 elements
cannot become ``[1,64]``; the Const holding ``[1,64]`` is named as the cause)::

    <layer id="1" name="flat" type="Reshape" version="opset1">   <!-- target [1,64] -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ops.support.spec import ARITY, ATTRIBUTE, INCOMPATIBLE, TYPE
from ._common import Context, shape_table
from .findings import Problem

CODE = "IRV301"
SLUG = "reshape-incompatible"
LEVEL = "error"
SUMMARY = "With the new input shapes (--reshape), OpenVINO refuses this layer."


def _values(ctx: Context, const) -> str:
    try:
        values = ctx.reshape.before.propagation.read_const(const)  # type: ignore[union-attr]  # a --reshape rule: the run is set
    except Exception:  # noqa: BLE001 - a Const irvalidate cannot read is named without values
        return ""
    if len(values) > 16:
        return ""
    return " = [" + ",".join(map(str, values)) + "]"


def _cause(ctx: Context, layer) -> str:
    run = ctx.reshape
    if not run.newly_refused(layer, ctx.graph):  # type: ignore[union-attr]  # (as above)
        return " (the runtime refuses it as the file is, before any reshape)"
    pins = run.pins(layer) if ctx.is_model else []  # type: ignore[union-attr]  # (as above)
    if not pins:
        return ""
    consumer = pins[0].consumer
    what = "value" if pins[0].by_value else "shape"
    consts = " or ".join(f"input {p.port} (Const {p.const.name!r}{_values(ctx, p.const)}, line "
                         f"{p.const.line})" for p in pins)
    whose = "its" if consumer.id == layer.id else f"{consumer.describe()} (line {consumer.line}):"
    return (f"; the {what} of a constant pins it: {whose} {consts}; with that {what} unknown, "
            f"this layer passes")


def check(ctx: Context) -> Iterator[Problem]:
    if ctx.reshape is None:
        return
    for inference in ctx.inferences():
        for failure in inference.problems:
            if failure.kind not in (INCOMPATIBLE, ARITY, ATTRIBUTE, TYPE):
                continue
            layer = inference.layer
            operands = list(inference.operands)
            marks = (failure.column,) if failure.column is not None else ()
            yield Problem(f"{layer.describe()}: {failure.message}{_cause(ctx, layer)}",
                          at=layer, layer=layer, scope=ctx.graph.scope,
                          table=shape_table(operands, marks=marks) if operands else None)
            break
