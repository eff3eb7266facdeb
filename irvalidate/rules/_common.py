"""What several rules share: the context they read and the shape tables they draw."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..analysis import GraphAnalysis
from ..ir import elements
from ..ir.locate import MAX_EXACT_LINE
from ..ir.records import Document, Graph, Layer, Port
from ..ops.support.spec import Inferred, Operand
from ..shapes.dims import Dim, Shape
from ._fixes import source_type_fix
from .findings import Problem, ShapeTable, Site, TableRow

if TYPE_CHECKING:  # the type only: the run is made above the rules, and handed down
    from ..analysis.what_if import NotApplicable
    from ..reshaping.reshaped import ReshapeRun


class Context(NamedTuple):
    """One graph of one file: the model itself, or a nested body."""
    doc: Document
    graph: Graph
    analysis: GraphAnalysis
    is_model: bool
    #: --reshape: the what-if run (analysis.reshaped.ReshapeRun); ``analysis`` is then its
    #: re-inferred graph
    reshape: ReshapeRun | None = None
    #: --reshape: the requests that do not fit the file (IRV303), on the model's context
    not_applicable: tuple[NotApplicable, ...] = ()

    def inferences(self) -> Iterator[Inferred]:
        return iter(self.analysis.inferences.values())


def inferred_ports(ctx: Context) -> Iterator[tuple[Inferred, Layer, Port, tuple]]:
    """Every output port with a readable declaration of the rank its layer's inference gives:
    what the declared-dims rules compare dim by dim."""
    for inference in ctx.inferences():
        if inference.outputs is None:
            continue
        layer = inference.layer
        for port, inferred in zip(layer.outputs, inference.outputs):
            if inferred is not None and len(port.dims) == len(inferred) and port.readable:
                yield inference, layer, port, inferred


def output_site(layer: Layer, port: Port) -> Site:
    """Where a problem about an output port's declaration sits (irvalidate.engine.linking)."""
    return ("out", layer.id, port.id)


def input_site(layer: Layer, port: Port) -> Site:
    return ("in", layer.id, port.id)


def upstream_sites(ctx: Context, layer: Layer) -> tuple[Site, ...]:
    """The sites whose contradiction makes a problem of this layer's outputs a consequence:
    each input port's declaration, and the producer's output port feeding it."""
    sites = []
    for port in layer.inputs:
        sites.append(input_site(layer, port))
        edge = ctx.analysis.edges.incoming.get((layer.id, port.id))
        if edge is not None:
            sites.append(("out", edge.from_layer, edge.from_port))
    return tuple(sites)


#: tables wider than this many dims are left out (the message still gives both shapes)
MAX_TABLE_RANK = 64


def shape_table(operands: Sequence[Operand], extra: Sequence[tuple[str, Shape]] = (),
                marks: tuple[int, ...] = ()) -> ShapeTable | None:
    shapes = [op.shape for op in operands] + [shape for _, shape in extra]
    if any(s is not None and len(s) > MAX_TABLE_RANK for s in shapes):
        return None
    if any(op.offset is not None and op.offset > MAX_TABLE_RANK for op in operands):
        return None
    rows = [TableRow.of(op.label, op.shape, op.offset, op.source) for op in operands]
    rows += [TableRow.of(label, shape) for label, shape in extra]
    return ShapeTable(tuple(rows), marks)


def on_line(record, template: str = " on line {}") -> str:
    """`` on line N`` for a record's line when libxml2 kept it exactly, else nothing (a
    finding's own line is made exact by the engine; a line inside a message is not)."""
    line = getattr(record, "line", 0)
    return template.format(line) if 0 < line <= MAX_EXACT_LINE else ""


def port_dim(dim) -> str:
    """How a port writes an inferred dim: a static value as itself, anything else as -1."""
    return str(dim.lo) if dim.is_static else "-1"


def fix_dims(inferred: tuple[Dim, ...], marks: tuple[int, ...]) -> tuple[str, int | None]:
    """What to write instead, and the axis to point at when one dim is wrong."""
    if len(marks) == 1:
        return f"set this <dim> to {port_dim(inferred[marks[0]])}", marks[0]
    return "declare [" + ",".join(port_dim(d) for d in inferred) + "] on this port", None


def fatal_problems(ctx: Context, kind: str) -> Iterator[Problem]:
    """The parser's fatal problems of one kind, reported once per file."""
    if ctx.is_model:
        for problem in ctx.doc.fatal:
            if problem.kind == kind:
                yield Problem(problem.message, line=problem.line)


def attribute_vs_port(shape: Shape,
                      dims: tuple[int | None, ...]) -> tuple[str | None, int | None]:
    """Why port dims cannot be how the serializer writes a shape attribute (or None), and the
    axis to point at when one dim differs.

    Ports write static dims as themselves and every other dim (``?``, intervals) as -1; a
    dynamic rank and a scalar both as no dims at all.
    """
    if None in dims:
        return None, None  # a <dim> malformed-ir already reported
    if shape is None:
        return (None if not dims else "the attribute says dynamic rank (...), so the port has "
                "no <dim>; remove them"), None
    if len(shape) != len(dims):
        return (f"rank {len(shape)} in the attribute, rank {len(dims)} on the port; "
                f"{fix_dims(shape, ())[0]}, or fix the attribute"), None
    bad = tuple(i for i, (d, p) in enumerate(zip(shape, dims)) if (d.lo if d.is_static else -1) != p)
    if bad:
        fix, axis = fix_dims(shape, bad)
        return f"they differ at axis {', '.join(map(str, bad))}; {fix}, or fix the attribute", axis
    return None, None


def element_type_vs_precision(ctx: Context, layer: Layer, port: Port) -> Iterator[Problem]:
    """A Parameter's or Const's ``element_type`` against its port's ``precision``."""
    et = elements.from_element_type(layer.data.get("element_type"))
    precision = elements.from_precision(port.precision)
    if elements.is_known(et) and elements.is_known(precision) and et != precision:
        yield Problem(f"{layer.describe()}: element_type={layer.data['element_type']!r} but the "
                      f"port declares precision {port.precision}", at=port, layer=layer,
                      port=port.id, expected=et, declared=precision, scope=ctx.graph.scope,
                      fix=source_type_fix(ctx, layer, port, et, precision))
