"""IRV101 output-shape-mismatch: a declared output rank or dim contradicts inference.

OpenVINO re-infers every output shape and ignores the ``<dim>``s an IR declares, so a stale
or hand-edited dim loads silently, yet every tool and person that reads the file is misled.
A declared ``-1`` never contradicts (ports cannot write intervals); a static dim contradicts
when the inferred interval does not contain it.  A body Parameter that its TensorIterator,
Loop or If sets through the port map is checked the same way against the shape it is set to:
the runtime replaces its own and writes that one (the inner side of the port map follows the
outer).

Passing (numpy: ``[2,1,5]`` with ``[4,1]`` gives ``[2,4,5]``)::

    <layer id="2" name="add" type="Add" version="opset1">
      <input><port id="0"><dim>2</dim><dim>1</dim><dim>5</dim></port>
             <port id="1"><dim>4</dim><dim>1</dim></port></input>
      <output><port id="2"><dim>2</dim><dim>4</dim><dim>5</dim></port></output>
    </layer>

Failing (the output declares 6 where the inputs give 5)::

      <output><port id="2"><dim>2</dim><dim>4</dim><dim>6</dim></port></output>
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir.records import declared_shape
from ..shapes.dims import format_shape
from ._common import Context, fix_dims, output_site, shape_table, upstream_sites
from ._fixes import dims_fix
from .findings import Problem

CODE = "IRV101"
SLUG = "output-shape-mismatch"
LEVEL = "error"
SUMMARY = "A declared output rank or dim contradicts the shape the runtime infers."


def check(ctx: Context) -> Iterator[Problem]:
    for inference in ctx.inferences():
        if inference.outputs is None:
            continue
        layer = inference.layer
        for port, inferred in zip(layer.outputs, inference.outputs):
            if inferred is None or not port.readable:
                continue  # dynamic rank: any declaration is consistent (or IRV004 spoke)
            found = _contradiction(port, inferred)
            if found is None:
                continue
            origin = inference.how
            if inference.computed:
                origin += f", with {inference.computed}"
            yield _problem(ctx, layer, port, inferred, found, f"inferred from {origin}",
                           inference.operands)


def _contradiction(port, inferred) -> tuple[str, tuple] | None:
    """What of a port's declared dims contradicts the inferred shape (and the axes), or None."""
    if len(port.dims) != len(inferred):
        return f"rank {len(port.dims)}", ()
    for declared, (low, high) in zip(port.dims, inferred):  # (most ports agree: told fast)
        if declared != -1 and not low <= declared <= high:
            break
    else:
        return None
    marks = tuple(i for i, (d, inf) in enumerate(zip(port.dims, inferred))
                  if d != -1 and not inf.contains(d))
    if not marks:
        return None
    # "whose dims at axes 2, 3 contradict", "whose dim at axis 2 contradicts"
    return ("dims at axes " if len(marks) > 1 else "dim at axis ") + \
        ", ".join(str(m) for m in marks), marks


def _problem(ctx: Context, layer, port, inferred, found, source: str, operands) -> Problem:
    what, marks = found
    fix, axis = fix_dims(inferred, marks)
    declared = declared_shape(port)
    verb = "contradict" if len(marks) > 1 else "contradicts"
    return Problem(
        f"{layer.describe()}: output port {port.id} declares {format_shape(declared)}, "
        f"whose {what} {verb} {format_shape(inferred)} {source}; "
        f"{fix}, or re-export the model", at=port, axis=axis, layer=layer, port=port.id,
        expected=format_shape(inferred),
        declared=format_shape(declared),
        table=shape_table(operands, [("Result", inferred), ("Declared", declared)], marks),
        scope=ctx.graph.scope, fix=dims_fix(ctx, layer, port),
        site=output_site(layer, port), after=upstream_sites(ctx, layer))
