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

Columns (:func:`find_columns`) are not kept anywhere: once a finding's line is known, the
line's text is read and the element found on it by its tag and the attributes that tell it
from its neighbours (a layer's id, an edge's ends), so two layers on one line each get
their own column.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from xml.parsers import expat

from .records import BackEdge, Document, Edge, Graph, Layer, Port, PortMapEntry

#: libxml2 stores lines up to this one exactly; a larger value came from a neighbour
MAX_EXACT_LINE = 65534

Key = tuple
#: the key of a body's frame (a graph inside a layer), which no record has
_BODY: Key = ("graph",)
GraphPath = tuple

_BODY_TAGS = ("body", "then_body", "else_body")
_PORT_MAP_TAGS = ("port_map", "then_port_map", "else_port_map")


class _Done(Exception):
    """Every asked-for element has been met: stop reading the file."""


class _Frame:
    """One open element of the scan, with the counters its children need."""
    __slots__ = ("tag", "key", "path", "counts", "active", "graph")

    def __init__(self, tag: str, key: Key | None = None, path: GraphPath = (),
                 active: bool = False, graph: _Frame | None = None) -> None:
        self.tag = tag
        #: the record this element is (a layer, port, dim, edge...), if any
        self.key = key
        #: for a graph (net or body): its path; for a layer: the path of its graph
        self.path = path
        self.counts: dict[str, int] = {}
        #: for a layers/edges section: whether the parser reads it
        self.active = active
        #: for a layers/edges section: the graph frame it belongs to
        self.graph = graph

    def next(self, what: str) -> int:
        n = self.counts.get(what, 0)
        self.counts[what] = n + 1
        return n


class _Scan:
    def __init__(self, wanted: set[Key]) -> None:
        self.wanted = wanted
        self.found: dict[Key, int] = {}
        self.stack: list[_Frame] = []
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

    def _frame(self, tag: str, parent: _Frame | None) -> _Frame:
        if parent is None:
            return _Frame(tag, path=()) if tag == "net" else _Frame(tag)
        ptag = parent.tag
        if tag in ("layers", "edges") and (ptag == "net" and not self.stack[:-1] or
                                           ptag in _BODY_TAGS and parent.key == _BODY):
            # the model reads every section, a body only its first
            first = parent.next(tag) == 0
            return _Frame(tag, active=ptag == "net" or first, graph=parent)
        if ptag == "net" and len(self.stack) == 1:
            return _Frame(tag)
        graph = parent.graph  # (an active section's)
        if tag == "layer" and ptag == "layers" and parent.active and graph is not None:
            return _Frame(tag, key=("layer", graph.path, graph.next("layer")), path=graph.path)
        if tag == "edge" and ptag == "edges" and parent.active and graph is not None:
            return _Frame(tag, key=("edge", graph.path, graph.next("edge")))
        if ptag == "layer" and parent.key is not None:
            return self._in_layer(tag, parent)
        if tag == "port" and ptag in ("input", "output") and parent.key is not None:
            return _Frame(tag, key=("port",) + parent.key[1:] + (parent.next("port"),))
        if tag == "dim" and ptag == "port" and parent.key is not None:
            return _Frame(tag, key=("dim",) + parent.key[1:] + (parent.next("dim"),))
        # a section's key holds its layer's path and index: ("section", path, index, tag)
        if ptag in _PORT_MAP_TAGS and tag in ("input", "output") and parent.key is not None:
            layer = self.stack[-2]
            return _Frame(tag, key=("port_map",) + parent.key[1:3] + (layer.next("port_map"),))
        if ptag == "back_edges" and tag == "edge" and parent.key is not None:
            layer = self.stack[-2]
            return _Frame(tag, key=("back_edge",) + parent.key[1:3] + (layer.next("back_edge"),))
        return _Frame(tag)

    @staticmethod
    def _in_layer(tag: str, layer: _Frame) -> _Frame:
        assert layer.key is not None  # (the caller's test)
        _, path, index = layer.key
        if tag in ("input", "output"):
            return _Frame(tag, key=("section", path, index, tag))
        if tag in _BODY_TAGS:
            return _Frame(tag, key=_BODY, path=path + ((index, tag, layer.next(tag)),))
        if tag in _PORT_MAP_TAGS or tag == "back_edges":
            return _Frame(tag, key=("section", path, index, tag))
        if tag == "data":  # the parser keeps the last one, as a later key here overwrites
            return _Frame(tag, key=("data", path, index))
        return _Frame(tag)

    def run(self, path: str) -> dict[Key, int]:
        try:
            with open(path, "rb") as handle:
                self.parser.ParseFile(handle)
        except (_Done, expat.ExpatError, OSError, ValueError):
            pass  # lxml read the file; whatever expat refuses past this point stays unknown
        return self.found


def find_lines(path: str, wanted: Iterable[Key]) -> dict[Key, int]:
    """The line of every wanted element that the file holds."""
    wanted = set(wanted)
    return _Scan(wanted).run(path) if wanted else {}


class _SpanScan(_Scan):
    """Where each wanted element starts and ends, in bytes of the file (for --fix)."""

    def __init__(self, wanted: set[Key], data: bytes) -> None:
        super().__init__(wanted)
        self.data = data
        self.spans: dict[Key, tuple[int, int]] = {}
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
            self.spans[frame.key] = (frame.counts["start"], at)  # type: ignore[index]  # frames in spans have keys

    def spans_of(self) -> dict[Key, tuple[int, int]]:
        try:
            self.parser.Parse(self.data, True)
        except (_Done, expat.ExpatError, ValueError):
            pass
        return self.spans


def find_spans(data: bytes, wanted: Iterable[Key]) -> dict[Key, tuple[int, int]]:
    """The byte span (start of the start tag, end of the end tag) of every wanted element
    in the file's bytes ``data``; a ``("data",) + layer key`` names a layer's ``<data>``."""
    wanted = set(wanted)
    return _SpanScan(wanted, data).spans_of() if wanted else {}


def record_keys(doc: Document, records: Iterable[object]) -> dict[int, Key]:
    """``id(record) -> key`` for the given layers, ports, edges, port-map entries and back
    edges of ``doc`` (records not found in it are left out)."""
    wanted = {id(r) for r in records}
    keys: dict[int, Key] = {}
    for graph in doc.graphs():
        _graph_keys(graph, wanted, keys)
        if len(keys) == len(wanted):
            break
    return keys


def _graph_keys(graph: Graph, wanted: set[int], keys: dict[int, Key]) -> None:
    path = graph.path
    for e, edge in enumerate(graph.edges):
        if id(edge) in wanted:
            keys[id(edge)] = ("edge", path, e)
    for i, layer in enumerate(graph.layers):
        layer_keys(layer, path, i, wanted, keys)


def layer_keys(layer: Layer, path: GraphPath, i: int, wanted: set[int],
                keys: dict[int, Key]) -> None:
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


#: what identifies a record's start tag on its line: the tag, and attributes it must carry
Mark = tuple[str, tuple[tuple[str, str], ...]]


def mark_of(record: object) -> Mark | None:
    """The start tag a record was read from, and the attribute values that tell it from
    another element of its kind on the same line; None for a record of no element."""
    if isinstance(record, Layer):
        return "layer", (("id", record.id),)
    if isinstance(record, Port):
        return "port", (("id", record.id),)
    if isinstance(record, Edge):
        return "edge", (("from-layer", record.from_layer), ("from-port", record.from_port),
                        ("to-layer", record.to_layer), ("to-port", record.to_port))
    if isinstance(record, BackEdge):
        return "edge", (("from-layer", record.from_layer), ("to-layer", record.to_layer))
    if isinstance(record, PortMapEntry):
        return record.direction, (("external_port_id", record.external_port_id),
                                  ("internal_layer_id", record.internal_layer_id))
    return None


def _tag_start(text: str, mark: Mark, begin: int = 0) -> int:
    """Where the start tag ``mark`` describes begins in ``text``, or -1."""
    tag, attributes = mark
    for found in re.finditer(rf"<{tag}(?=[\s/>])", text[begin:]):
        start = begin + found.start()
        end = text.find(">", start)
        head = text[start:end if end >= 0 else len(text)]
        if all(re.search(rf"""(?<![\w-]){re.escape(name)}\s*=\s*(["']){re.escape(value)}\1""",
                         head) for name, value in attributes):
            return start
    return -1


def _lines_of(path: str, wanted: set[int]) -> dict[int, str]:
    """The text of the wanted lines (1-based), read up to the last of them only; a chunk
    holding none of them is only counted (a finding near the end of a 100 MB IR)."""
    found: dict[int, str] = {}
    last, first_line, carry = max(wanted), 1, b""
    with open(path, "rb") as handle:
        while first_line <= last:
            chunk = handle.read(1 << 20)
            if not chunk:
                break
            data = carry + chunk
            cut = data.rfind(b"\n") + 1  # whole lines only; the rest waits for the next chunk
            whole, carry = (data[:cut], data[cut:]) if cut else (b"", data)
            count = whole.count(b"\n")
            if any(first_line <= n < first_line + count for n in wanted):
                for offset, raw in enumerate(whole.split(b"\n")[:count]):
                    if first_line + offset in wanted:
                        found[first_line + offset] = raw.decode("utf-8", "replace").rstrip("\r")
            first_line += count
    if carry and first_line in wanted:  # the last line, without a newline
        found[first_line] = carry.decode("utf-8", "replace").rstrip("\r")
    return found


#: a column asked for: the record's line and mark; for a ``<dim>``, also its axis in the port
#: and its own line
Ask = tuple[int, Mark, int | None, int | None]


def find_columns(path: str, asks: Sequence[Ask | None]) -> list[int | None]:
    """The 1-based column, in characters, where each asked-for element starts (a record's
    start tag on its line, or the ``axis``-th ``<dim>`` after its port's start tag); None
    where the text does not show it (an element written by hand across lines, ...)."""
    wanted: set[int] = set()
    for ask in asks:
        if ask is not None:
            line, _, _, dim_line = ask
            wanted.update(range(line, (dim_line or line) + 1))
    if not wanted:
        return [None] * len(asks)
    try:
        texts = _lines_of(path, wanted)
    except OSError:
        return [None] * len(asks)
    return [None if ask is None else _column(texts, *ask) for ask in asks]


def _column(texts: dict[int, str], line: int, mark: Mark, axis: int | None,
            dim_line: int | None) -> int | None:
    text = texts.get(line)
    start = -1 if text is None else _tag_start(text, mark)
    if start < 0 or axis is None:
        return None if start < 0 else start + 1
    # the axis-th <dim> after the port's start tag, counted over the lines down to its own
    count, at, number = 0, start, line
    while number <= (dim_line or line) and text is not None:
        for found in re.finditer(r"<dim(?=[\s/>])", text[at:]):
            if count == axis:
                return at + found.start() + 1 if number == (dim_line or number) else None
            count += 1
        number, at = number + 1, 0
        text = texts.get(number)
    return None
