"""The parsed IR: layers, ports and edges with their source lines.

These are plain records (named tuples where there are many) rather than pydantic models on
purpose: a 100k-layer IR builds ~400k of them and validation would double the parse cost
(measured: 5.0 us vs 2.8 us per layer).  The values that need validating, the ``<data>``
attributes of the layers the ops read, are pydantic models built by each op module.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import NamedTuple

from ..shapes.dims import Shape, from_declared

#: the IR versions OpenVINO reads
SUPPORTED_VERSIONS = ("10", "11")
#: the type names the reader reads as a Constant (``Const`` is the serializer's alias)
CONST_TYPES = frozenset({"const", "constant"})


class Port(NamedTuple):
    id: str
    #: declared ``<dim>`` values; -1 is a dynamic dimension, None one that could not be read
    #: (IRV004 reports it; rules that compare declared dims skip such a port: see ``readable``)
    dims: tuple[int | None, ...]
    precision: str | None
    line: int

    @property
    def readable(self) -> bool:
        """Whether every ``<dim>`` could be read (else the malformed-ir rule said so)."""
        return None not in self.dims


#: up to this many ports, a port is found by scanning (cheaper than a dict to keep)
_SCAN_PORTS = 8
#: port id -> position (first id wins) of the port tuples of layers with many ports (a
#: layer may have thousands; a dict on each of 100k layers would cost ~250 bytes each),
#: kept with the tuple itself so that its id stays its own
_INDEXES: dict[int, tuple[tuple, dict[str, int]]] = {}


def _find(ports: tuple[Port, ...], port_id: str) -> int | None:
    if len(ports) <= _SCAN_PORTS:
        for index, port in enumerate(ports):
            if port.id == port_id:
                return index
        return None
    found = _INDEXES.get(id(ports))
    if found is None:
        if len(_INDEXES) >= 4096:
            _INDEXES.clear()
        index_of: dict[str, int] = {}
        for index, port in enumerate(ports):
            index_of.setdefault(port.id, index)
        found = _INDEXES[id(ports)] = (ports, index_of)
    return found[1].get(port_id)


class Layer(NamedTuple):
    """One ``<layer>``.  (A named tuple, not a dataclass: a 100k-layer IR builds 100k of
    them, and a frozen dataclass costs five times as much to build.)"""
    id: str
    name: str
    type: str
    version: str
    line: int
    data: Mapping[str, str]
    inputs: tuple[Port, ...]
    outputs: tuple[Port, ...]
    bodies: tuple[Graph, ...] = ()
    port_maps: tuple[PortMapEntry, ...] = ()
    back_edges: tuple[BackEdge, ...] = ()

    def body(self, kind: str) -> Graph | None:
        for graph in self.bodies:
            if graph.kind == kind:
                return graph
        return None

    def input_index(self, port_id: str) -> int | None:
        return _find(self.inputs, port_id)

    def output_index(self, port_id: str) -> int | None:
        return _find(self.outputs, port_id)

    def describe(self) -> str:
        return f"{self.type} '{self.name}' (id={self.id})"


class PortMapEntry(NamedTuple):
    """One ``<input>``/``<output>`` of a TensorIterator/Loop/If port map."""
    #: port_map, then_port_map or else_port_map
    section: str
    #: input or output
    direction: str
    external_port_id: str
    internal_layer_id: str
    purpose: str | None
    line: int
    #: the slicing attributes as written (axis, start, end, stride, part_size), if any
    slicing: Mapping[str, str] = {}


#: the slicing attributes a port map entry may have
SLICING = ("axis", "start", "end", "stride", "part_size")


class BackEdge(NamedTuple):
    from_layer: str
    to_layer: str
    line: int


class Edge(NamedTuple):
    from_layer: str
    from_port: str
    to_layer: str
    to_port: str
    line: int


class ParseProblem(NamedTuple):
    """Something the parser could not model; the ``malformed-ir`` rule reports it."""
    line: int | None
    message: str
    layer: Layer | None = None
    #: xml (unreadable), not-ir, version, or malformed (anything else the parser refused)
    kind: str = "malformed"
    port: str | None = None
    #: the record the problem is about (a Port, ...), whose line the finding shows; with
    #: ``axis``, that port's <dim> at this axis
    at: object = None
    axis: int | None = None


class _Record:
    """A mutable record with ``__slots__`` for fields: compared and shown field by field.
    (Not a dataclass: importing dataclasses and making one cost ~10 ms of each start.)"""
    __slots__: tuple[str, ...] = ()

    def __eq__(self, other: object):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # (mutable, as a dataclass would be)

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{self.__class__.__qualname__}({shown})"


class Graph(_Record):
    __slots__ = ("layers", "edges", "problems", "scope", "kind", "path")

    def __init__(self, layers: list[Layer] | None = None, edges: list[Edge] | None = None,
                 problems: list[ParseProblem] | None = None, scope: str = "", kind: str = "",
                 path: tuple = ()) -> None:
        self.layers: list[Layer] = [] if layers is None else layers
        self.edges: list[Edge] = [] if edges is None else edges
        self.problems: list[ParseProblem] = [] if problems is None else problems
        #: where this graph sits: "" for the model, else e.g. "body of Loop 'loop' (id=3)"
        self.scope = scope
        #: "" for the model, else the element it came from: body, then_body or else_body
        self.kind = kind
        #: () for the model; a body adds (index of its layer in the parent graph, its tag,
        #: how many bodies of that tag came before it in the layer): see irvalidate.ir.locate
        self.path = path

    def layers_by_id(self) -> dict[str, Layer]:
        # The runtime keeps the last layer of a duplicated id (std::map overwrite).
        return {layer.id: layer for layer in self.layers}


class Document(_Record):
    __slots__ = ("path", "version", "graph", "fatal", "lines", "schema")

    def __init__(self, path: str, version: str | None, graph: Graph,
                 fatal: list[ParseProblem] | None = None, lines: int = 0,
                 schema: list[ParseProblem] | None = None) -> None:
        self.path = path
        self.version = version
        self.graph = graph
        #: problems that stop analysis of the whole file (unreadable, not an IR, bad XML)
        self.fatal: list[ParseProblem] = [] if fatal is None else fatal
        #: how many lines the file has (past 65,534, lxml's lines are not exact: see locate)
        self.lines = lines
        #: where the file departs from the structural schema (schemas/ir.rng)
        self.schema: list[ParseProblem] = [] if schema is None else schema

    def graphs(self) -> list[Graph]:
        """The model graph followed by every nested body, outermost first."""
        found, pending = [], deque([self.graph])
        while pending:
            graph = pending.popleft()
            found.append(graph)
            for layer in graph.layers:
                pending.extend(layer.bodies)
        return found


def declared_shape(port: Port) -> Shape:
    """The shape a port's ``<dim>``s declare (-1, or a dim that could not be read, is ``?``)."""
    return tuple(from_declared(d) for d in port.dims)
