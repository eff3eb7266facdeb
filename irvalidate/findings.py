"""Problems (what a rule yields) and findings (a problem the engine has coded and located)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from .ir.records import Layer
from .shapes.dims import Shape, format_dim


@dataclass(frozen=True, slots=True)
class LayerRef:
    id: str
    name: str
    type: str

    @classmethod
    def of(cls, layer: Optional[Layer]) -> Optional["LayerRef"]:
        return None if layer is None else cls(layer.id, layer.name, layer.type)


@dataclass(frozen=True, slots=True)
class TableRow:
    label: str
    #: formatted dims, or None for a dynamic rank
    dims: Optional[Tuple[str, ...]]
    #: first column; None means right-aligned
    offset: Optional[int] = None
    #: the layer the operand comes from: ``'x' (id 0)``
    source: Optional[str] = None

    @classmethod
    def of(cls, label: str, shape: Shape, offset: Optional[int] = None,
           source: Optional[Layer] = None) -> "TableRow":
        return cls(label, None if shape is None else tuple(format_dim(d) for d in shape), offset,
                   None if source is None else f"{source.name!r} (id {source.id})")


@dataclass(frozen=True, slots=True)
class ShapeTable:
    """The seeds' right-aligned table: operands, inferred result, declared; failing axes marked."""
    rows: Tuple[TableRow, ...]
    #: marked columns, counted from the left of the widest row
    marks: Tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Problem:
    """What a rule yields: what is wrong and where; the engine adds code and severity."""
    message: str
    line: Optional[int] = None
    layer: Optional[Layer] = None
    port: Optional[str] = None
    expected: Optional[str] = None
    declared: Optional[str] = None
    table: Optional[ShapeTable] = None
    #: the graph the layer lives in, when it is a nested body
    scope: str = ""
    #: the record the finding points at (a Layer, Port, Edge, port-map entry or back edge):
    #: its line is shown when ``line`` is not given, made exact by the engine where libxml2
    #: could not keep it (see irvalidate.ir.locate)
    at: object = None
    #: with a Port ``at``: point at its ``<dim>`` of this axis (the one dim that is wrong)
    axis: Optional[int] = None


@dataclass(frozen=True, slots=True)
class Finding:
    path: str
    line: Optional[int]
    code: str
    slug: str
    level: str
    message: str
    layer: Optional[LayerRef] = None
    port: Optional[str] = None
    expected: Optional[str] = None
    declared: Optional[str] = None
    table: Optional[ShapeTable] = None
    scope: str = ""

    def sort_key(self) -> tuple:
        return (self.path, self.line or 0, self.code)
