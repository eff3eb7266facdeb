"""IRV004 malformed-ir: part of the IR cannot be modelled as OpenVINO would read it.

A ``<dim>`` that is not an integer >= -1, a layer without ``id``/``type``/``version``, a
``shape`` attribute that does not parse, a DTD, bodies nested too deep.  The rest of the file
is still analysed.

Passing::

    <port id="0"><dim>1</dim><dim>-1</dim></port>

Failing::

    <port id="0"><dim>1</dim><dim>-2</dim></port>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context
from .findings import Problem

CODE = "IRV004"
SLUG = "malformed-ir"
LEVEL = "error"
SUMMARY = "A part of the IR cannot be read as OpenVINO reads it (bad dim, missing attribute...)."
#: the file cannot be read as an IR at all: selected whatever ``select`` says
ALWAYS_SELECTED = True


def check(ctx: Context) -> Iterator[Problem]:
    for problem in list(ctx.graph.problems) + ctx.analysis.problems:
        yield Problem(problem.message, line=problem.line, layer=problem.layer,
                      port=problem.port, scope=ctx.graph.scope, at=problem.at, axis=problem.axis)
