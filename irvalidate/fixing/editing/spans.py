"""Turn the changes a fix asks for into byte replacements of the file's own text.

Only the text that must change changes: a dim's number, a precision's value, an attribute's
value.  A port that gains or loses ``<dim>`` elements gets them formatted like the dims it
already has (or, when it had none, indented one step deeper than the port, with the file's
line ending).  Everything else, attribute order, quotes, comments, entities, whitespace,
stays byte for byte.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from ...ir import elements
from ...ir.locate import Key, dim_key, find_spans, record_keys
from ...ir.records import Document
from ...rules.findings import Change, SetAttribute, SetDims, SetPrecision

#: (start, end, new bytes)
Replacement = tuple[int, int, bytes]

#: a start tag, attributes and all: quoted values may hold ``>``
_START_TAG = re.compile(rb"""<[^\s/>]+(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(/?)>""")
_SPACE = b" \t\r\n"


class Unlocatable(Exception):
    """The text a change needs cannot be found in the file (it changed since it was read)."""


def _attribute(name: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"""(?<=[\s])""" + re.escape(name) + rb"""\s*=\s*(["'])(.*?)\1""", re.S)


def start_tag(data: bytes, start: int) -> tuple[int, bool]:
    """Where the start tag at ``start`` ends (after its ``>``) and whether it is ``<x/>``."""
    match = _START_TAG.match(data, start)
    if match is None:
        raise Unlocatable(f"no start tag at byte {start}")
    return match.end(), bool(match.group(1))


def _indent(data: bytes, at: int) -> bytes | None:
    """The whitespace that starts the line of ``at``, or None when text precedes it."""
    line = data.rfind(b"\n", 0, at) + 1
    lead = data[line:at]
    return lead if not lead.strip(_SPACE) else None


def _space_before(data: bytes, at: int) -> int:
    """How many whitespace bytes come right before ``at``."""
    i = at
    while i > 0 and data[i - 1] in _SPACE:
        i -= 1
    return at - i


def _newline(data: bytes, at: int) -> bytes:
    line = data.rfind(b"\n", 0, at)
    return b"\r\n" if line > 0 and data[line - 1:line] == b"\r" else b"\n"


class SpanMap:
    """The spans of the elements a set of changes touches, found in one scan of the file."""

    def __init__(self, doc: Document, data: bytes, changes: Sequence[Change]) -> None:
        self.data = data
        records = [c.layer if isinstance(c, SetAttribute) else c.port for c in changes]
        self.keys = record_keys(doc, records)
        wanted: list[Key] = []
        for change in changes:
            key = self.keys.get(id(change.layer if isinstance(change, SetAttribute) else change.port))
            if key is None:
                continue
            if isinstance(change, SetAttribute):
                wanted.append(("data",) + key[1:])
                continue
            wanted.append(key)
            if isinstance(change, SetDims):
                wanted += [dim_key(key, axis) for axis in range(len(change.port.dims))]
                wanted.append(("section",) + key[1:4])
        self.spans: dict[Key, tuple[int, int]] = find_spans(data, wanted)

    def span(self, key: Key) -> tuple[int, int]:
        found = self.spans.get(key)
        if found is None:
            raise Unlocatable(f"element {key} not found")
        return found

    def key_of(self, record: object) -> Key:
        key = self.keys.get(id(record))
        if key is None:
            raise Unlocatable("record not in the document")
        return key

    def replacements(self, change: Change) -> list[Replacement]:
        if isinstance(change, SetDims):
            return self._dims(change)
        if isinstance(change, SetPrecision):
            return self._precision(change)
        return self._data_attribute(change)

    # -- dims ---------------------------------------------------------------------------------

    def _dims(self, change: SetDims) -> list[Replacement]:
        key = self.key_of(change.port)
        old, new = change.port.dims, change.dims
        dims = [self.span(dim_key(key, axis)) for axis in range(len(old))]
        if len(old) == len(new):
            edits = []
            for (start, end), was, value in zip(dims, old, new):
                if was != value:
                    inner = start_tag(self.data, start)[0]
                    close = self.data.rfind(b"</", start, end)
                    edits += _dim_text_edits(self.data, inner, close, str(value).encode())
            return edits
        if dims:
            return [self._respell_dims(dims, new)]
        return [self._first_dims(key, new)]

    def _respell_dims(self, dims: list[tuple[int, int]], new: tuple[int, ...]) -> Replacement:
        """Replace every ``<dim>`` at once, separated as the existing ones are."""
        data = self.data
        first, last = dims[0][0], dims[-1][1]
        lead = _space_before(data, first)
        separator = data[dims[0][1]:dims[1][0]] if len(dims) > 1 else data[first - lead:first]
        if not new:
            return (first - lead, last, b"")
        text = separator.join(b"<dim>%d</dim>" % v for v in new)
        return (first, last, text)

    def _first_dims(self, key: Key, new: tuple[int, ...]) -> Replacement:
        """Dims for a port that has none: one per line, a step deeper than the port."""
        data = self.data
        start, end = self.span(key)
        tag_end, empty = start_tag(data, start)
        dims = [b"<dim>%d</dim>" % v for v in new]
        port_indent = _indent(data, start)
        if port_indent is None:  # everything on one line: keep it so
            text = b"".join(dims)
            if empty:
                return (tag_end - 2, tag_end, b">" + text + b"</port>")
            return (tag_end, tag_end, text)
        newline = _newline(data, start)
        child = port_indent + self._step(key, port_indent)
        text = b"".join(newline + child + d for d in dims)
        if empty:
            return (tag_end - 2, tag_end, b">" + text + newline + port_indent + b"</port>")
        inline = b"\n" not in data[tag_end:end]  # <port ...></port> on one line
        return (tag_end, tag_end, text + (newline + port_indent if inline else b""))

    def _step(self, key: Key, port_indent: bytes) -> bytes:
        """One step of indentation: the port's indent less its section's, else a tab."""
        section = self.spans.get(("section",) + key[1:4])
        outer = _indent(self.data, section[0]) if section else None
        if outer is not None and port_indent.startswith(outer) and len(port_indent) > len(outer):
            return port_indent[len(outer):]
        return b"\t" if b"\t" in port_indent or not port_indent else b"    "

    # -- attributes ---------------------------------------------------------------------------

    def _precision(self, change: SetPrecision) -> list[Replacement]:
        start = self.span(self.key_of(change.port))[0]
        end = start_tag(self.data, start)[0]
        match = _attribute(b"precision").search(self.data, start, end)
        if match is None:
            raise Unlocatable("the port has no precision attribute")
        old = match.group(2).decode("utf-8", "replace")
        return [(match.start(2), match.end(2), spell_precision(change.element_type, old).encode())]

    def _data_attribute(self, change: SetAttribute) -> list[Replacement]:
        key = ("data",) + self.key_of(change.layer)[1:]
        start = self.span(key)[0]
        end, empty = start_tag(self.data, start)
        value = escape_attribute(change.text)
        match = _attribute(change.name.encode()).search(self.data, start, end)
        if match is not None:
            return [(match.start(2), match.end(2), value.encode())]
        at = end - (2 if empty else 1)
        return [(at, at, b' %s="%s"' % (change.name.encode(), value.encode()))]


def escape_attribute(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def spell_precision(element_type: str, like: str) -> str:
    """``element_type`` in the spelling of ``like``: legacy upper case (``FP32``, ``I64``,
    ``BOOL``) when the file uses it there, else the canonical name (``f32``)."""
    if like != like.upper():
        return element_type
    legacy = elements.legacy_precision(element_type)
    return legacy if legacy is not None else element_type.upper()


#: markup inside a ``<dim>`` that is not its number: a comment, a processing instruction
_DIM_MARKUP = re.compile(rb"<!--.*?-->|<\?.*?\?>", re.S)


def _dim_text_edits(data: bytes, inner: int, close: int, value: bytes) -> list[Replacement]:
    """A ``<dim>``'s number replaced where it is written, its comments and processing
    instructions kept: the first piece of text between them gets the number, any other loses
    its characters (whitespace around them stays)."""
    pieces, at = [], inner
    for markup in _DIM_MARKUP.finditer(data, inner, close):
        pieces.append((at, markup.start()))
        at = markup.end()
    pieces.append((at, close))
    texts = [(s + _lead(data, s, e), e - _trail(data, s, e)) for s, e in pieces]
    texts = [(s, e) for s, e in texts if s < e]
    if not texts:
        return [(inner, inner, value)]
    return [(texts[0][0], texts[0][1], value)] + [(s, e, b"") for s, e in texts[1:]]


def _lead(data: bytes, start: int, end: int) -> int:
    return len(data[start:end]) - len(data[start:end].lstrip())


def _trail(data: bytes, start: int, end: int) -> int:
    return len(data[start:end]) - len(data[start:end].rstrip())
