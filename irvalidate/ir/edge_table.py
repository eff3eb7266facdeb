"""The ``<edges>`` section of a plain IR as integer arrays, read before its layers.

Why: irvalidate's streaming check (``engine_stream``) infers each layer as it is read and
forgets it once its consumers are done; for that it must know, before the first layer,
which edges enter each layer and how many leave it.  The section is at the end of the file,
so it is found by reading backwards, and kept as arrays of integers (20 bytes an edge, not
the ~300 of a record), indexed by consumer through one sorted array.

Only the canonical form is read: one ``<edge>`` a line, its four attributes in the
serializer's order, each a plain decimal integer.  Anything else raises NotPlain.
"""
from __future__ import annotations

import re
from array import array
from itertools import accumulate

from .plain import S
from .scanner import CHUNK, NotPlain

_END = re.compile(rf"{S}*</edges>".encode())


#: the edges are read in smaller chunks: each is split into ~25 objects a line
_EDGE_CHUNK = 1 << 18


class EdgeTable:
    """Every edge of the model graph: from-layer, from-port, to-layer and to-port; edge
    ``i`` is on the ``i + 1``-th line after ``<edges>`` (one a line)."""

    def __init__(self) -> None:
        self.from_layer = array("i")
        self.from_port = array("H")  # (a port id past 65,535 declines the stream)
        self.to_layer = array("i")
        self.to_port = array("H")
        self.order = array("i")
        self.starts = array("i")
        #: the byte offsets of ``<edges>`` and of the end of ``</edges>``, and the newlines
        #: between them
        self.start = self.end = self.newlines = 0
        self._leaving: array | None = None

    def __len__(self) -> int:
        return len(self.from_layer)

    def into(self, layer: int) -> array:
        """The indices of the edges entering a layer (an id below ``top``), in file order:
        ``order[starts[layer]:starts[layer + 1]]``."""
        starts = self.starts
        return self.order[starts[layer]:starts[layer + 1]]

    def leaving(self) -> array:
        """How many edges leave each layer id (the array is as long as the largest id + 1;
        NotPlain when ids are far sparser than the serializer's, which count from 0): a
        copy of its own for each caller (the stream counts it down, a what-if's watch
        reads it), counted and indexed once."""
        if self._leaving is None:
            top = max(max(self.from_layer, default=0), max(self.to_layer, default=0))
            if top > 4 * len(self) + 4096:
                raise NotPlain("layer ids far apart")
            counts = array("i", bytes(4 * (top + 1)))
            for source in self.from_layer:
                counts[source] += 1
            self._index(top)
            self._leaving = counts
        return array("i", self._leaving)

    def _index(self, top: int) -> None:
        """The edges sorted by consumer, file order kept within one (a stable sort, in C:
        its list of Python ints is ~16 MB on 200k edges for a moment, before any layer
        is read), and where each consumer's start, so that ``into`` is two lookups."""
        starts = array("i", bytes(4 * (top + 2)))
        for target in self.to_layer:
            starts[target + 1] += 1
        self.starts = array("i", accumulate(starts))
        self.order = array("i", sorted(range(len(self)), key=self.to_layer.__getitem__))


def read(path: str) -> EdgeTable:
    """The edge table of a file, or NotPlain."""
    table = EdgeTable()
    with open(path, "rb") as handle:
        table.start = _find_edges(handle)
        handle.seek(table.start + len(b"<edges>"))
        _parse(handle, table)
    return table


def _find_edges(handle) -> int:
    """The byte offset of the last ``<edges>`` of the file, read backwards by chunks."""
    end = handle.seek(0, 2)
    tail = b""
    while end > 0:
        start = max(0, end - CHUNK)
        handle.seek(start)
        block = handle.read(end - start) + tail[:len(b"<edges>") - 1]
        found = block.rfind(b"<edges>")
        if found >= 0:
            return start + found
        tail, end = block, start
    raise NotPlain("no <edges> section")


def _parse(handle, table: EdgeTable) -> None:
    pending = b""
    while True:
        block = handle.read(_EDGE_CHUNK)
        data = pending + block
        close = data.find(b"</edges>")
        limit = close if close >= 0 else len(data)
        stop = data.rfind(b"/>", 0, limit) + 2 if b"/>" in data[:limit] else 0
        _add(table, data[:stop])
        if close >= 0:
            if not _END.fullmatch(data, stop, close + len(b"</edges>")):
                raise NotPlain("something else than an edge in <edges>")
            table.end = handle.tell() - len(data) + close + len(b"</edges>")
            table.newlines = len(table) + data.count(b"\n", stop, close)
            return
        pending = data[stop:]
        if not block or len(pending) > 4096:
            raise NotPlain("the <edges> section does not end as the serializer ends it")


_FIRST = re.compile(rb"\r?\n[ \t]*<edge from-layer=")
_BETWEEN = re.compile(rb" ?/>\r?\n[ \t]*<edge from-layer=")
_LAST = re.compile(rb" ?/>")
_LEADING_ZERO = re.compile(rb'"0[0-9]')
_DIGITS = b"0123456789"
_PORTS = {str(n).encode(): n for n in range(256)}


def _same(pieces: list[bytes], text: bytes) -> bool:
    return pieces.count(text) == len(pieces)


def _canonical(texts: list[bytes]) -> bool:
    """Whether the text around the quoted values is the serializer's, edge after edge."""
    between = texts[4:-1:4]
    return (bool(_FIRST.fullmatch(texts[0])) and bool(_LAST.fullmatch(texts[-1]))
            and _same(texts[1::4], b" from-port=") and _same(texts[2::4], b" to-layer=")
            and _same(texts[3::4], b" to-port=")
            and all(_BETWEEN.fullmatch(t) for t in (set(between) if between and not
                                                     _same(between, between[0]) else between[:1])))


def _add(table: EdgeTable, text: bytes) -> None:
    """The edges of ``text`` (whole edges, each after a newline), checked to be in the
    canonical form by the pieces between their quotes."""
    if not text:
        return
    parts = text.split(b'"')
    count = len(parts) // 8
    texts, values = parts[0::2], parts[1::2]
    if len(parts) != 8 * count + 1 or not _canonical(texts):
        raise NotPlain("an edge not written one a line, as the serializer writes it")
    # the values are plain decimals: only digits (the text around them has none), none
    # empty, none with a leading zero
    digits = len(text) - len(text.translate(None, _DIGITS))
    if digits != len(text) - sum(map(len, texts)) - (len(parts) - 1) or \
            b'""' in text or _LEADING_ZERO.search(text):
        raise NotPlain("an edge attribute that is not a plain decimal number")
    ports = _PORTS
    try:
        table.from_layer.extend(map(int, values[0::4]))
        table.to_layer.extend(map(int, values[2::4]))
        for source, target in ((values[1::4], table.from_port), (values[3::4], table.to_port)):
            try:
                target.extend([ports[v] for v in source])
            except KeyError:
                target.extend(map(int, source))
    except OverflowError:
        raise NotPlain("an id too large") from None
