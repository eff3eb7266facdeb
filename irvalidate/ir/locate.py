"""Exact source lines for the records a finding points at, found when a finding needs one.

libxml2 keeps an element's line in 16 bits: past line 65,534 lxml answers with the line of a
neighbouring text node, which after streaming (elements are freed as they pass) is off by
one for layers and ports and anywhere at all for edges.  A ``<dim>``'s line is not kept in the
records either (it would cost memory on every port of a 100k-layer IR).  So when a finding
points at a ``<dim>``, or at a record whose line libxml2 could not store, the engine asks
this module: one pass of expat (the standard library's parser, whose line counter has no
such limit) over the file, stopping as soon as every asked-for element has been met.

Elements are named by *where* they are, the way the parser records them (see
:func:`record_keys`): the i-th ``<layer>`` of a graph, the j-th ``<port>`` of its input or
output section, the k-th ``<dim>`` of that port, the e-th ``<edge>``; a body is named by the
layer that holds it.  The scan applies the parser's own choices: every ``<layers>`` and
``<edges>`` section of the model counts, only the first of a body; a later ``<input>`` or
``<output>`` section of a layer replaces an earlier one.
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Set, Tuple
from xml.parsers import expat

from .records import Document, Graph, Layer

#: libxml2 stores lines up to this one exactly; a larger value came from a neighbour
MAX_EXACT_LINE = 65534

Key = Tuple
GraphPath = Tuple

_BODY_TAGS = ("body", "then_body", "else_body")
_PORT_MAP_TAGS = ("port_map", "then_port_map", "else_port_map")


class _Done(Exception):
    """Every asked-for element has been met: stop reading the file."""


class _Frame:
    """One open element of the scan, with the counters its children need."""
    __slots__ = ("tag", "key", "path", "counts", "active", "graph")

    def __init__(self, tag: str, key: Optional[Key] = None, path: GraphPath = (),
                 active: bool = False, graph: Optional["_Frame"] = None) -> None:
        self.tag = tag
        #: the record this element is (a layer, port, dim, edge...), if any
        self.key = key
        #: for a graph (net or body): its path; for a layer: the path of its graph
        self.path = path
        self.counts: Dict[str, int] = {}
        #: for a layers/edges section: whether the parser reads it
        self.active = active
        #: for a layers/edges section: the graph frame it belongs to
        self.graph = graph

    def next(self, what: str) -> int:
        n = self.counts.get(what, 0)
        self.counts[what] = n + 1
        return n


class _Scan:
    def __init__(self, wanted: Set[Key]) -> None:
        self.wanted = wanted
        self.found: Dict[Key, int] = {}
        self.stack: List[_Frame] = []
        self.parser = expat.ParserCreate()
        self.parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end

    def start(self, tag: str, attrs: dict) -> None:
        if len(self.found) == len(self.wanted) and tag in ("layer", "edge"):
            # all met, and the layer of the last one has ended (a later <input> or <output>
            # section of it would have replaced its ports, as it does in the parser)
            raise _Done
        frame = self._frame(tag, self.stack[-1] if self.stack else None)
        self.stack.append(frame)
        if frame.key is not None and frame.key in self.wanted:
            self.found[frame.key] = self.parser.CurrentLineNumber

    def end(self, tag: str) -> None:
        self.stack.pop()

    def _frame(self, tag: str, parent: Optional[_Frame]) -> _Frame:
        if parent is None:
            return _Frame(tag, path=()) if tag == "net" else _Frame(tag)
        ptag = parent.tag
        if tag in ("layers", "edges") and (ptag == "net" and not self.stack[:-1] or
                                           ptag in _BODY_TAGS and parent.key == "graph"):
            # the model reads every section, a body only its first
            first = parent.next(tag) == 0
            return _Frame(tag, active=ptag == "net" or first, graph=parent)
        if ptag == "net" and len(self.stack) == 1:
            return _Frame(tag)
        if tag == "layer" and ptag == "layers" and parent.active:
            graph = parent.graph
            return _Frame(tag, key=("layer", graph.path, graph.next("layer")), path=graph.path)
        if tag == "edge" and ptag == "edges" and parent.active:
            graph = parent.graph
            return _Frame(tag, key=("edge", graph.path, graph.next("edge")))
        if ptag == "layer" and parent.key is not None:
            return self._in_layer(tag, parent)
        if tag == "port" and ptag in ("input", "output") and parent.key is not None:
            return _Frame(tag, key=("port",) + parent.key[1:] + (parent.next("port"),))
        if tag == "dim" and ptag == "port" and parent.key is not None:
            return _Frame(tag, key=("dim",) + parent.key[1:] + (parent.next("dim"),))
        if ptag in _PORT_MAP_TAGS and tag in ("input", "output") and parent.key is not None:
            layer = self.stack[-2]
            return _Frame(tag, key=("port_map",) + layer.key[1:] + (layer.next("port_map"),))
        if ptag == "back_edges" and tag == "edge" and parent.key is not None:
            layer = self.stack[-2]
            return _Frame(tag, key=("back_edge",) + layer.key[1:] + (layer.next("back_edge"),))
        return _Frame(tag)

    @staticmethod
    def _in_layer(tag: str, layer: _Frame) -> _Frame:
        _, path, index = layer.key
        if tag in ("input", "output"):
            return _Frame(tag, key=("section", path, index, tag))
        if tag in _BODY_TAGS:
            return _Frame(tag, key="graph", path=path + ((index, tag, layer.next(tag)),))
        if tag in _PORT_MAP_TAGS or tag == "back_edges":
            return _Frame(tag, key=("section", path, index, tag))
        if tag == "data":  # the parser keeps the last one, as a later key here overwrites
            return _Frame(tag, key=("data", path, index))
        return _Frame(tag)

    def run(self, path: str) -> Dict[Key, int]:
        try:
            with open(path, "rb") as handle:
                self.parser.ParseFile(handle)
        except (_Done, expat.ExpatError, OSError, ValueError):
            pass  # lxml read the file; whatever expat refuses past this point stays unknown
        return self.found


def find_lines(path: str, wanted: Iterable[Key]) -> Dict[Key, int]:
    """The line of every wanted element that the file holds."""
    wanted = set(wanted)
    return _Scan(wanted).run(path) if wanted else {}


class _SpanScan(_Scan):
    """Where each wanted element starts and ends, in bytes of the file (for --fix)."""

    def __init__(self, wanted: Set[Key], data: bytes) -> None:
        super().__init__(wanted)
        self.data = data
        self.spans: Dict[Key, Tuple[int, int]] = {}
        self.found_lines = self.found
        self.found = {}  # lines are not wanted here: only spans decide when to stop

    def start(self, tag: str, attrs: dict) -> None:
        if len(self.spans) == len(self.wanted) and tag in ("layer", "edge"):
            raise _Done
        frame = self._frame(tag, self.stack[-1] if self.stack else None)
        self.stack.append(frame)
        if frame.key is not None and frame.key in self.wanted:
            frame.counts["start"] = self.parser.CurrentByteIndex

    def end(self, tag: str) -> None:
        frame = self.stack.pop()
        if "start" in frame.counts:
            at = self.parser.CurrentByteIndex
            if self.data.startswith(b"</", at):  # an end tag: the element ends after its '>'
                at = self.data.index(b">", at) + 1
            self.spans[frame.key] = (frame.counts["start"], at)  # type: ignore[index]

    def spans_of(self) -> Dict[Key, Tuple[int, int]]:
        try:
            self.parser.Parse(self.data, True)
        except (_Done, expat.ExpatError, ValueError):
            pass
        return self.spans


def find_spans(data: bytes, wanted: Iterable[Key]) -> Dict[Key, Tuple[int, int]]:
    """The byte span (start of the start tag, end of the end tag) of every wanted element
    in the file's bytes ``data``; a ``("data",) + layer key`` names a layer's ``<data>``."""
    wanted = set(wanted)
    return _SpanScan(wanted, data).spans_of() if wanted else {}


def record_keys(doc: Document, records: Iterable[object]) -> Dict[int, Key]:
    """``id(record) -> key`` for the given layers, ports, edges, port-map entries and back
    edges of ``doc`` (records not found in it are left out)."""
    wanted = {id(r) for r in records}
    keys: Dict[int, Key] = {}
    for graph in doc.graphs():
        _graph_keys(graph, wanted, keys)
        if len(keys) == len(wanted):
            break
    return keys


def _graph_keys(graph: Graph, wanted: Set[int], keys: Dict[int, Key]) -> None:
    path = graph.path
    for e, edge in enumerate(graph.edges):
        if id(edge) in wanted:
            keys[id(edge)] = ("edge", path, e)
    for i, layer in enumerate(graph.layers):
        layer_keys(layer, path, i, wanted, keys)


def layer_keys(layer: Layer, path: GraphPath, i: int, wanted: Set[int],
                keys: Dict[int, Key]) -> None:
    if id(layer) in wanted:
        keys[id(layer)] = ("layer", path, i)
    for section, ports in (("input", layer.inputs), ("output", layer.outputs)):
        for j, port in enumerate(ports):
            if id(port) in wanted:
                keys[id(port)] = ("port", path, i, section, j)
    for m, entry in enumerate(layer.port_maps):
        if id(entry) in wanted:
            keys[id(entry)] = ("port_map", path, i, m)
    for b, back in enumerate(layer.back_edges):
        if id(back) in wanted:
            keys[id(back)] = ("back_edge", path, i, b)


def dim_key(port_key: Key, axis: int) -> Key:
    """The key of the ``axis``-th ``<dim>`` of the port ``port_key`` names."""
    return ("dim",) + port_key[1:] + (axis,)
