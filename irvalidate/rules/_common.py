"""What several rules share: the context they read and the shape tables they draw."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Sequence, Tuple

from ..analysis import GraphAnalysis
from ..dims import Shape, format_shape
from ..findings import Problem, ShapeTable, TableRow
from ..infer import Inference, Operand
from ..ir import Document, Graph


@dataclass(frozen=True)
class Context:
    """One graph of one file: the model itself, or a nested body."""
    doc: Document
    graph: Graph
    analysis: GraphAnalysis
    is_model: bool

    def inferences(self) -> Iterator[Inference]:
        return iter(self.analysis.inferences.values())


def shape_table(operands: Sequence[Operand], extra: Sequence[Tuple[str, Shape]] = (),
                marks: Tuple[int, ...] = ()) -> ShapeTable:
    rows = [TableRow.of(op.label, op.shape, op.offset) for op in operands]
    rows += [TableRow.of(label, shape) for label, shape in extra]
    return ShapeTable(tuple(rows), marks)


def mode_of(inference: Inference) -> str:
    data = inference.layer.data
    if inference.family == "broadcast":
        return str(data.get("mode", "default")).lower()
    return str(data.get("auto_broadcast", "numpy")).lower()


def shape_text(shape: Optional[Shape]) -> str:
    return format_shape(shape)


def fatal_problems(ctx: Context, kind: str) -> Iterator[Problem]:
    """The parser's fatal problems of one kind, reported once per file."""
    if ctx.is_model:
        for problem in ctx.doc.fatal:
            if problem.kind == kind:
                yield Problem(problem.message, line=problem.line)
