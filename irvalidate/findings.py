"""Problems (what a rule yields) and findings (a problem the engine has coded and located)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple, Union

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
class SetDims:
    """Write these dims on a port (static dims as numbers, every other dim as -1)."""
    port: object
    dims: Tuple[int, ...]
    #: the layer the port belongs to, and whether it is an input port (for messages)
    layer: Optional[Layer] = None


@dataclass(frozen=True, slots=True)
class SetPrecision:
    """Write this element type (canonical name) as the port's precision, in the spelling the
    file already uses."""
    port: object
    element_type: str
    layer: Optional[Layer] = None


@dataclass(frozen=True, slots=True)
class SetAttribute:
    """Write this text as the value of one attribute of a layer's ``<data>``."""
    layer: Layer
    name: str
    text: str


Change = Union[SetDims, SetPrecision, SetAttribute]


@dataclass(frozen=True, slots=True)
class Fix:
    """What would make a problem go away, as far as inference proves it.

    ``changes`` are written together.  When ``choices`` are given instead, exactly one of them
    is right and only trying each on the whole graph tells which (a Parameter's shape
    attribute against its port): irvalidate.fixing decides.  ``blocked`` says why nothing can
    be written (the value rests on declarations irvalidate does not infer, ...).
    """
    changes: Tuple[Change, ...] = ()
    choices: Tuple[Tuple[Change, ...], ...] = ()
    blocked: Optional[str] = None


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
    #: how --fix repairs it, or why it cannot
    fix: Optional[Fix] = None


@dataclass(frozen=True, slots=True)
class Edit:
    """One replacement in a file's text: bytes ``start:end`` (``old``) become ``new``;
    ``line`` and ``column`` (1-based, in characters) are where ``old`` starts."""
    start: int
    end: int
    old: str
    new: str
    line: int
    column: int
    end_line: int
    end_column: int
    #: the rule whose finding the edit fixes, and the layer's id
    rule: str = ""
    layer: Optional[str] = None


@dataclass(frozen=True, slots=True)
class FixInfo:
    """What a finding's fix writes (edits), or why it writes nothing (blocked)."""
    edits: Tuple[Edit, ...] = ()
    blocked: Optional[str] = None


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
    #: with edits asked for (--diff, --fix, the API's fix()): the edits, or why there are none
    fix: Optional[FixInfo] = None

    def sort_key(self) -> tuple:
        return (self.path, self.line or 0, self.code)


@dataclass(frozen=True, slots=True)
class FileFix:
    """What --diff or --fix did to one file."""
    #: the net edits, in the file as it was
    edits: Tuple[Edit, ...] = ()
    #: the edits were written to the file
    written: bool = False
    #: why edits were not written (the file has errors that forbid it, it is read-only...)
    refused: Optional[str] = None
    #: writing failed or was refused for a reason outside the file's content (exit 2)
    failed: bool = False
    #: findings the edits fix (the file's findings before less those after)
    fixed: int = 0
    #: the unified diff of the edits (bytes, for ``git apply``)
    diff: bytes = b""
