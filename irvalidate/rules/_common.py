"""What several rules share: the context they read and the shape tables they draw."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Sequence, Tuple

from ..analysis import GraphAnalysis
from ..dims import Shape, format_shape
from ..findings import Problem, ShapeTable, TableRow
from ..infer import Inference, Operand
from .. import elements
from ..ir import Document, Graph, Layer, Port


@dataclass(frozen=True)
class Context:
    """One graph of one file: the model itself, or a nested body."""
    doc: Document
    graph: Graph
    analysis: GraphAnalysis
    is_model: bool

    def inferences(self) -> Iterator[Inference]:
        return iter(self.analysis.inferences.values())


#: tables wider than this many dims are left out (the message still gives both shapes)
MAX_TABLE_RANK = 64


def shape_table(operands: Sequence[Operand], extra: Sequence[Tuple[str, Shape]] = (),
                marks: Tuple[int, ...] = ()) -> Optional[ShapeTable]:
    shapes = [op.shape for op in operands] + [shape for _, shape in extra]
    if any(s is not None and len(s) > MAX_TABLE_RANK for s in shapes):
        return None
    if any(op.offset is not None and op.offset > MAX_TABLE_RANK for op in operands):
        return None
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


def attribute_vs_port(shape: Shape, dims: Tuple[int, ...]) -> Optional[str]:
    """Why port dims cannot be how the serializer writes a shape attribute, or None.

    Ports write static dims as themselves and every other dim (``?``, intervals) as -1; a
    dynamic rank and a scalar both as no dims at all.
    """
    if None in dims:
        return None  # a <dim> malformed-ir already reported
    if shape is None:
        return None if not dims else "the attribute says dynamic rank (...), so the port has no <dim>"
    if len(shape) != len(dims):
        return f"rank {len(shape)} in the attribute, rank {len(dims)} on the port"
    bad = [i for i, (d, p) in enumerate(zip(shape, dims)) if (d.lo if d.is_static else -1) != p]
    if bad:
        return "they differ at axis " + ", ".join(map(str, bad))
    return None


def element_type_vs_precision(ctx: Context, layer: Layer, port: Port) -> Iterator[Problem]:
    """A Parameter's or Const's ``element_type`` against its port's ``precision``."""
    et = elements.from_element_type(layer.data.get("element_type"))
    precision = elements.from_precision(port.precision)
    if elements.is_known(et) and elements.is_known(precision) and et != precision:
        yield Problem(f"{layer.describe()}: element_type={layer.data['element_type']!r} but the "
                      f"port declares precision {port.precision}", line=port.line, layer=layer,
                      port=port.id, expected=et, declared=precision, scope=ctx.graph.scope)
