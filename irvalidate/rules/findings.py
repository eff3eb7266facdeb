"""Problems (what a rule yields) and findings (a problem the engine has coded and located).

Every class but :class:`Finding` (a named tuple) is a :class:`_Frozen` record written by
hand: creating a ``@dataclass(frozen=True, slots=True)`` costs ~0.8 ms at import, and
importing dataclasses ~10 ms, and ``irvalidate FILE`` on a small IR imports this module
before anything else it checks.  Each behaves as that dataclass would (keyword or
positional construction, equality with its own class only, hashing, repr, an
AttributeError on assignment, pickling for the ``-j`` workers).
"""
from __future__ import annotations

from typing import NamedTuple

from ..ir.records import Layer, Port
from ..shapes.dims import Shape, format_dim


class FrozenInstanceError(AttributeError):
    """An assignment to a field of a frozen record (as dataclasses' own, without importing
    dataclasses)."""


_set = object.__setattr__  # how __init__ writes a field past the frozen __setattr__


class _Frozen:
    """An immutable record whose fields are the subclass's ``__slots__``, in order; the
    subclass writes ``__init__``."""
    __slots__: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        type.__setattr__(cls, "__match_args__", cls.__slots__)  # mypy refuses an assignment

    def _values(self) -> tuple:
        return tuple([getattr(self, name) for name in self.__slots__])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Frozen) and other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self):
        return self.__class__, self._values()


class LayerRef(_Frozen):
    __slots__ = ("id", "name", "type")
    id: str
    name: str
    type: str

    def __init__(self, id: str, name: str, type: str) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "type", type)

    @classmethod
    def of(cls, layer: Layer | None) -> LayerRef | None:
        return None if layer is None else cls(layer.id, layer.name, layer.type)


class TableRow(_Frozen):
    #: label; formatted dims, or None for a dynamic rank; first column, None meaning
    #: right-aligned; the layer the operand comes from: ``'x' (id 0)``
    __slots__ = ("label", "dims", "offset", "source")
    label: str
    dims: tuple[str, ...] | None
    offset: int | None
    source: str | None

    def __init__(self, label: str, dims: tuple[str, ...] | None,
                 offset: int | None = None, source: str | None = None) -> None:
        _set(self, "label", label)
        _set(self, "dims", dims)
        _set(self, "offset", offset)
        _set(self, "source", source)

    @classmethod
    def of(cls, label: str, shape: Shape, offset: int | None = None,
           source: Layer | None = None) -> TableRow:
        return cls(label, None if shape is None else tuple(format_dim(d) for d in shape), offset,
                   None if source is None else f"{source.name!r} (id {source.id})")


class ShapeTable(_Frozen):
    """The seeds' right-aligned table: operands, inferred result, declared; failing axes marked
    (``marks``: columns counted from the left of the widest row)."""
    __slots__ = ("rows", "marks")
    rows: tuple[TableRow, ...]
    marks: tuple[int, ...]

    def __init__(self, rows: tuple[TableRow, ...], marks: tuple[int, ...] = ()) -> None:
        _set(self, "rows", rows)
        _set(self, "marks", marks)


class SetDims(_Frozen):
    """Write these dims on a port (static dims as numbers, every other dim as -1); ``layer``
    is the layer the port belongs to, and whether it is an input port (for messages)."""
    __slots__ = ("port", "dims", "layer")
    port: Port
    dims: tuple[int, ...]
    layer: Layer | None

    def __init__(self, port: Port, dims: tuple[int, ...], layer: Layer | None = None) -> None:
        _set(self, "port", port)
        _set(self, "dims", dims)
        _set(self, "layer", layer)


class SetPrecision(_Frozen):
    """Write this element type (canonical name) as the port's precision, in the spelling the
    file already uses."""
    __slots__ = ("port", "element_type", "layer")
    port: Port
    element_type: str
    layer: Layer | None

    def __init__(self, port: Port, element_type: str, layer: Layer | None = None) -> None:
        _set(self, "port", port)
        _set(self, "element_type", element_type)
        _set(self, "layer", layer)


class SetAttribute(_Frozen):
    """Write this text as the value of one attribute of a layer's ``<data>``."""
    __slots__ = ("layer", "name", "text")
    layer: Layer
    name: str
    text: str

    def __init__(self, layer: Layer, name: str, text: str) -> None:
        _set(self, "layer", layer)
        _set(self, "name", name)
        _set(self, "text", text)


Change = SetDims | SetPrecision | SetAttribute


class Fix(_Frozen):
    """What would make a problem go away, as far as inference proves it.

    ``changes`` are written together.  When ``choices`` are given instead, exactly one of them
    is right and only trying each on the whole graph tells which (a Parameter's shape
    attribute against its port): irvalidate.fixing.run decides.  ``blocked`` says why nothing can
    be written (the value rests on declarations irvalidate does not infer, ...).
    """
    __slots__ = ("changes", "choices", "blocked")
    changes: tuple[Change, ...]
    choices: tuple[tuple[Change, ...], ...]
    blocked: str | None

    def __init__(self, changes: tuple[Change, ...] = (),
                 choices: tuple[tuple[Change, ...], ...] = (),
                 blocked: str | None = None) -> None:
        _set(self, "changes", changes)
        _set(self, "choices", choices)
        _set(self, "blocked", blocked)


class Problem(_Frozen):
    """What a rule yields: what is wrong and where; the engine adds code and severity.

    ``scope``: the graph the layer lives in, when it is a nested body.  ``at``: the record
    the finding points at (a Layer, Port, Edge, port-map entry or back edge): its line is
    shown when ``line`` is not given, made exact by the engine where libxml2 could not keep
    it (see irvalidate.ir.locate).  ``axis``: with a Port ``at``, point at its ``<dim>`` of
    this axis (the one dim that is wrong).  ``fix``: how --fix repairs it, or why it cannot.
    ``site``: the declaration it finds contradicted, a :data:`Site` (``("out", layer id, port
    id)`` or ``("in", ...)``); ``after``: the sites upstream of it whose contradiction would
    make it a consequence (irvalidate.engine.linking).
    """
    __slots__ = ("message", "line", "layer", "port", "expected", "declared", "table", "scope",
                 "at", "axis", "fix", "site", "after")
    message: str
    line: int | None
    layer: Layer | None
    port: str | None
    expected: str | None
    declared: str | None
    table: ShapeTable | None
    scope: str
    at: object
    axis: int | None
    fix: Fix | None
    site: Site | None
    after: tuple[Site, ...]

    def __init__(self, message: str, line: int | None = None, layer: Layer | None = None,
                 port: str | None = None, expected: str | None = None,
                 declared: str | None = None, table: ShapeTable | None = None,
                 scope: str = "", at: object = None, axis: int | None = None,
                 fix: Fix | None = None, site: Site | None = None,
                 after: tuple[Site, ...] = ()) -> None:
        _set(self, "message", message)
        _set(self, "line", line)
        _set(self, "layer", layer)
        _set(self, "port", port)
        _set(self, "expected", expected)
        _set(self, "declared", declared)
        _set(self, "table", table)
        _set(self, "scope", scope)
        _set(self, "at", at)
        _set(self, "axis", axis)
        _set(self, "fix", fix)
        _set(self, "site", site)
        _set(self, "after", after)


#: a declared port a problem is about: ``("out" | "in", layer id, port id)``
Site = tuple[str, str, str]


class Cause(_Frozen):
    """The root finding a consequence follows from: its rule's code, its layer, its port and
    its line (irvalidate.engine.linking)."""
    __slots__ = ("code", "layer", "port", "line")
    code: str
    layer: LayerRef | None
    port: str | None
    line: int | None

    def __init__(self, code: str, layer: LayerRef | None, port: str | None,
                 line: int | None) -> None:
        _set(self, "code", code)
        _set(self, "layer", layer)
        _set(self, "port", port)
        _set(self, "line", line)


class Edit(_Frozen):
    """One replacement in a file's text: bytes ``start:end`` (``old``) become ``new``;
    ``line`` and ``column`` (1-based, in characters) are where ``old`` starts; ``rule`` and
    ``layer`` are the rule whose finding the edit fixes, and the layer's id."""
    __slots__ = ("start", "end", "old", "new", "line", "column", "end_line", "end_column",
                 "rule", "layer")
    start: int
    end: int
    old: str
    new: str
    line: int
    column: int
    end_line: int
    end_column: int
    rule: str
    layer: str | None

    def __init__(self, start: int, end: int, old: str, new: str, line: int, column: int,
                 end_line: int, end_column: int, rule: str = "",
                 layer: str | None = None) -> None:
        _set(self, "start", start)
        _set(self, "end", end)
        _set(self, "old", old)
        _set(self, "new", new)
        _set(self, "line", line)
        _set(self, "column", column)
        _set(self, "end_line", end_line)
        _set(self, "end_column", end_column)
        _set(self, "rule", rule)
        _set(self, "layer", layer)


class FixInfo(_Frozen):
    """What a finding's fix writes (edits), or why it writes nothing (blocked)."""
    __slots__ = ("edits", "blocked")
    edits: tuple[Edit, ...]
    blocked: str | None

    def __init__(self, edits: tuple[Edit, ...] = (), blocked: str | None = None) -> None:
        _set(self, "edits", edits)
        _set(self, "blocked", blocked)


class Finding(NamedTuple):
    """A problem with its rule's code, slug and level, and where it is.  (A named tuple: the
    engine attaches fixes with ``_replace``.)"""
    path: str
    line: int | None
    code: str
    slug: str
    level: str
    message: str
    layer: LayerRef | None = None
    port: str | None = None
    expected: str | None = None
    declared: str | None = None
    table: ShapeTable | None = None
    scope: str = ""
    #: with edits asked for (--diff, --fix, the API's fix()): the edits, or why there are none
    fix: FixInfo | None = None
    #: a consequence: the root finding it follows from (irvalidate.engine.linking); None for a root
    caused_by: Cause | None = None
    #: 1-based, in characters: where the element the finding names starts on its line (the
    #: ``<dim>``, the port, the layer, the edge); None when unknown
    column: int | None = None
    #: with several --reshape requests: the request the finding belongs to (``x[1,3,8,8]``);
    #: None for one about the file whatever the request
    request: str | None = None

    def sort_key(self) -> tuple:
        return (self.path, self.line or 0, self.code)


class FileFix(_Frozen):
    """What --diff or --fix did to one file: the net edits, in the file as it was; whether
    they were ``written`` to the file; why they were ``refused`` (the file has errors that
    forbid it, it is read-only...); whether writing ``failed`` or was refused for a reason
    outside the file's content (exit 2); how many findings the edits ``fixed`` (the file's
    findings before less those after); the unified ``diff`` (bytes, for ``git apply``); the
    errors that ``remain`` once the edits are made (or, refused, that the file keeps), each
    with its own FixInfo saying why it is not fixed."""
    __slots__ = ("edits", "written", "refused", "failed", "fixed", "diff", "remain")
    edits: tuple[Edit, ...]
    written: bool
    refused: str | None
    failed: bool
    fixed: int
    diff: bytes
    remain: tuple[Finding, ...]

    def __init__(self, edits: tuple[Edit, ...] = (), written: bool = False,
                 refused: str | None = None, failed: bool = False, fixed: int = 0,
                 diff: bytes = b"", remain: tuple[Finding, ...] = ()) -> None:
        _set(self, "edits", edits)
        _set(self, "written", written)
        _set(self, "refused", refused)
        _set(self, "failed", failed)
        _set(self, "fixed", fixed)
        _set(self, "diff", diff)
        _set(self, "remain", remain)
