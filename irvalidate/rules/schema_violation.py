"""IRV005 schema-violation: the file departs from the structural schema of IR XML.

Every file is checked against ``schemas/ir.rng`` (RELAX NG; IR versions 10 and 11) before the
rules run: which elements and attributes may appear where, nested bodies and port maps
included.  OpenVINO's reader ignores much of what the schema refuses, or fails on it with a
byte offset; this says which element, on which line, in plain words.

Passing::

    <layer id="3" name="add" type="Add" version="opset1">

Failing (no ``version``; a misspelt ``<ouput>``)::

    <layer id="3" name="add" type="Add">
      <ouput><port id="2"><dim>1</dim></port></ouput>
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir.locate import MAX_EXACT_LINE
from ._common import Context
from .findings import Problem

CODE = "IRV005"
SLUG = "schema-violation"
LEVEL = "error"
SUMMARY = "The XML departs from the structural schema of IR files (schemas/ir.rng)."
#: the file cannot be read as an IR at all: selected whatever ``select`` says
ALWAYS_SELECTED = True


def check(ctx: Context) -> Iterator[Problem]:
    if ctx.is_model:
        for problem in ctx.doc.schema:
            where = f"in {problem.layer.describe()}: " if problem.layer is not None else ""
            line, at = problem.line, None
            if line is not None and line > MAX_EXACT_LINE and problem.layer is not None:
                line, at = None, problem.layer  # libxml2 lost the element's line: its layer's
            yield Problem(where + problem.message, line=line, layer=problem.layer, at=at)
