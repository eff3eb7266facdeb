"""Read an IR written the way OpenVINO's serializer writes it, without building XML trees.

Why: the lxml parser (``parser.py``) turns every element into a tree node and a Python
object before irvalidate reads it; on a 100k-layer IR that alone costs more than OpenVINO's
whole reader.  Serializer output is a small, regular subset of XML, so this module matches
each top-level ``<layer>`` with one regular expression (run by ``re``'s C engine) and reads
its ports from a cache keyed by the text of the port section, which repeats across a model.

It is exact or it declines.  A layer the pattern does not match (a body, an entity
reference, a ``<blobs>`` section, an unusual attribute) is handed to lxml on its own text,
through the parser's own per-layer code, so its records and schema problems are the same.
Anything outside the subset at the file level (a DTD, a comment between layers, bytes that
are not UTF-8, a control character, a carriage return alone, several ``<layers>``
sections, an edge with other attributes) raises :class:`NotPlain`, and the caller reads
the file with lxml.  Together these guarantee the document the lxml parser would give:
``tests/test_scanner.py`` compares the two on every file it can find.

Lines follow libxml2's convention (an element's line is that of the ``>`` closing its start
tag) but are exact past line 65,534, where libxml2's are not.
"""
from __future__ import annotations

import codecs
from collections.abc import Iterator
from itertools import count

from . import plain
from .plain import EDGE, EDGE_LINES, EDGE_VALUES, HEAD, LAYER_TAG, NO_DATA, PROLOG, SPACE, Rest
from .records import Document, Edge, Graph, Layer, Port

#: what a chunk of the file is read in (the text of a chunk is held three times over at
#: once: a larger one costs memory and saves no time)
CHUNK = 1 << 18
#: a layer longer than this is read by lxml (whose limits then apply, as in the parser)
MAX_PLAIN_LAYER = 1 << 20
#: a layer with bodies longer than this is left to lxml with the whole file
MAX_COMPLEX_LAYER = 64 << 20
#: port sections and <data> remembered by their text (a 100k-layer LLM IR has a few hundred
#: port sections; a Const's <data> is its own, but the Consts read by other layers are
#: read soon after it)
MAX_CACHED = 4096
#: Consts' <data> remembered (those read by other layers are read soon after them)
MAX_CONSTS = 1024

class NotPlain(Exception):
    """The file is outside the subset this module reads exactly; read it with lxml."""


class Scanner:
    """One pass over a file: the prolog and ``<net>``, the layers, the edges, the end."""

    def __init__(self, path: str, doc: Document) -> None:
        self.doc = doc
        self._file = open(path, "rb")
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.buf = ""
        self.pos = 0
        #: newlines before ``buf[pos]`` in the file
        self.newlines = 0
        #: whether a layer starts on the line where another ends (or a layer is not plain):
        #: findings of one rule on one line keep the order they were made in
        self.shared_lines = False
        self._last_line = 0
        #: the object the last layer's port sections were read into (shared by every layer
        #: whose port sections have the same text), or None
        self.parts: Rest | None = None
        self._eof = False
        #: bytes read from the file, and whether all were ASCII (each then one character)
        self._bytes, self._ascii = 0, True
        self._rests: dict[str, Rest] = {}
        self._data: dict[str, dict[str, str]] = {}
        self._const_data: dict[str, dict[str, str]] = {}

    def close(self) -> None:
        self._file.close()

    # ------------------------------------------------------------------ buffer

    def _more(self) -> bool:
        """Append the next chunk; False at the end of the file."""
        if self._eof:
            return False
        raw = self._file.read(CHUNK)
        if raw.endswith(b"\r"):  # keep a CR LF pair in one chunk
            raw += self._file.read(1)
        self._eof = not raw
        self._bytes += len(raw)
        if self._ascii and not raw.isascii():
            self._ascii = False
        if len(raw.translate(None, plain.CONTROLS)) != len(raw):
            raise NotPlain("a control character")
        try:
            text = self._decoder.decode(raw, final=self._eof)
        except UnicodeDecodeError:
            raise NotPlain("not UTF-8") from None
        if ("\r" in text and plain.LONE_CR.search(text)) or (
                not raw.isascii() and ("\ufffe" in text or "\uffff" in text)):
            raise NotPlain("a carriage return alone, or a non-character")
        self.buf = self.buf[self.pos:] + text
        self.pos = 0
        return bool(raw)

    def _advance(self, end: int) -> None:
        self.newlines += self.buf.count("\n", self.pos, end)
        self.pos = end

    def _skip_space(self) -> None:
        self._advance(SPACE.match(self.buf, self.pos).end())  # type: ignore[union-attr]  # \s* matches

    def _line(self, index: int) -> int:
        return self.newlines + self.buf.count("\n", self.pos, index) + 1

    # ------------------------------------------------------------------ the head

    def head(self) -> dict[str, str]:
        """The ``<net>`` attributes; the scanner then stands at the first layer."""
        while True:
            match = PROLOG.match(self.buf, self.pos)
            if match is not None:
                break
            if len(self.buf) - self.pos > max(CHUNK, 1 << 16) or not self._more():
                raise NotPlain("the file does not start as serializer output does")
        self.head_text = self.buf[self.pos:match.end(1) + 1]
        attributes = plain.attributes(match.group(1), frozenset({"name", "version", "batch"}))
        if attributes is None or "version" not in attributes:
            raise NotPlain("unusual <net> attributes")
        self._advance(match.end())
        return attributes

    # ------------------------------------------------------------------ layers

    def layers(self, complex_layer) -> Iterator[Layer]:
        """Every top-level layer, in file order; ``complex_layer(text, line)`` reads one
        this module does not (through lxml) and returns its record."""
        while True:
            self._skip_space()
            buf, pos = self.buf, self.pos
            last = buf.rfind("</layer>", pos)
            if last < 0:
                if buf.startswith("</layers>", pos):
                    self._advance(pos + len("</layers>"))
                    return
                if len(buf) - pos > MAX_PLAIN_LAYER or not self._more():
                    raise NotPlain("the file ends inside <layers>, or a layer is too long")
                continue
            # every complete layer of the buffer at once; the first that is not plain stops
            # the run, and is read from its own text
            yield from self._plain_run(buf[pos:last].split("</layer>"))
            if self.pos == last + len("</layer>"):
                continue
            self._skip_space()
            if self.buf.startswith("</layers>", self.pos):
                self._advance(self.pos + len("</layers>"))
                return
            if not self.buf.startswith("<layer", self.pos):
                raise NotPlain("something other than a layer in <layers>")
            stop = self._layer_end()
            self.parts = None
            self.shared_lines = True  # (not known, and not asked of these rarer files)
            layer = complex_layer(self.buf[self.pos:stop], self._line(self.pos))
            self._advance(stop)
            yield layer

    def _plain_run(self, pieces: list[str]) -> Iterator[Layer]:
        """The layers of ``pieces`` (each the text up to a ``</layer>``) up to the first
        that is not plain; ``pos`` and ``newlines`` then stand before it.  (One loop with
        local names: this runs once per layer of the file; the text of a <data> or of port
        sections met for the first time is read by _new_data and _new_rest.)"""
        newlines, pos, last_line = self.newlines, self.pos, self._last_line
        head, rest_of = HEAD.match, self._rests.get
        data_of, const_data_of = self._data.get, self._const_data.get
        if len(plain.SHARED) >= plain.MAX_SHARED:
            plain.SHARED.clear()  # (bounded chunk by chunk: the loop adds without counting)
        shared = plain.SHARED.setdefault  # (types and versions, one string each)
        # (a named tuple's own __new__ is a Python function; every field is passed, in order:
        # tests/test_fast_records.py counts them)
        new = tuple.__new__
        try:
            for piece in pieces:
                match = head(piece)
                if match is None:
                    return
                lead, lid, name, kind, version, data_lead, data_text = match.groups()
                kind, version = shared(kind, kind), shared(version, version)
                lines = lead.count("\n")
                line = newlines + lines + 1
                if line == last_line:
                    self.shared_lines = True
                data, base = NO_DATA, line
                if data_text is not None:
                    found = data_of(data_text)
                    if found is None:
                        found = const_data_of(data_text)
                    if found is None:
                        found = self._new_data(data_text)
                        if found is None:
                            return
                    data = found
                    data_lines = data_lead.count("\n")
                    lines += data_lines
                    base += data_lines
                rest = piece[match.end():]
                parts = rest_of(rest)
                if parts is None:
                    parts = self._new_rest(rest)
                    if parts is None:
                        return
                inputs, outputs, rest_lines = parts
                self.parts = parts
                newlines += lines + rest_lines  # (HEAD allows no newline in the start tag)
                last_line = newlines + 1  # (where its end tag is)
                pos += len(piece) + 8  # len("</layer>")
                yield new(Layer, (lid, name, kind, version, line, data,
                                  tuple([new(Port, (pid, dims, precision, base + rel))
                                         for pid, dims, precision, rel in inputs]) if inputs else (),
                                  tuple([new(Port, (pid, dims, precision, base + rel))
                                         for pid, dims, precision, rel in outputs]) if outputs else (),
                                  (), (), ()))
        finally:
            self.newlines, self.pos, self._last_line = newlines, pos, last_line

    def _new_data(self, text: str) -> dict[str, str] | None:
        """A <data> met for the first time, read and remembered; None when it is not plain."""
        data = plain.data(text)
        if data is None:
            return None
        # a Const's <data> is its own (its offset): kept apart, so that the others (which
        # ops.memo names by identity) stay shared
        if "offset" in data:
            self._remember(self._const_data, text, data, MAX_CONSTS)
        else:
            self._remember(self._data, text, data)
        return data

    def _new_rest(self, text: str) -> Rest | None:
        """Port sections met for the first time, read and remembered; None unless plain."""
        parts = plain.rest(text)
        if parts is not None:
            self._remember(self._rests, text, parts)
        return parts

    @staticmethod
    def _remember(cache: dict, key: str, value: object, limit: int = MAX_CACHED) -> None:
        if len(cache) >= limit:
            cache.clear()
        cache[key] = value

    def _layer_end(self) -> int:
        """Where the layer starting at ``pos`` ends (just past its end tag), the layers of
        its bodies counted.  A comment or CDATA section that fools the count leaves a cut
        that lxml refuses, and the file is then read by lxml whole."""
        depth, scan = 0, self.pos
        while True:
            found = LAYER_TAG.search(self.buf, scan)
            if found is None:
                if len(self.buf) - self.pos > MAX_COMPLEX_LAYER or not self._more():
                    raise NotPlain("a layer that does not end, or is too long")
                depth, scan = 0, self.pos  # (the buffer moved: count again)
                continue
            if found.group(1):  # </layer>
                depth -= 1
            elif not found.group(2):  # <layer ...>, not <layer .../>
                depth += 1
            if depth <= 0:
                return found.end()
            scan = found.end()

    # ------------------------------------------------------------------ edges and the end

    def edges(self, graph: Graph) -> None:
        """The ``<edges>`` section; the scanner then stands past ``</edges>``."""
        self._skip_space()
        while not self.buf.startswith("<edges>", self.pos):
            if len(self.buf) - self.pos >= len("<edges>") or not self._more():
                raise NotPlain("no <edges> section after the layers")
        self._advance(self.pos + len("<edges>"))
        while True:
            buf, pos = self.buf, self.pos
            close = buf.find("</edges>", pos)
            stop = close if close >= 0 else buf.rfind("/>", pos) + 2
            # the canonical layout, one edge per line, all of the buffer's edges at once
            if stop > pos and EDGE_LINES.fullmatch(buf, pos, stop):
                first = self.newlines + 2
                graph.edges.extend([Edge(a, b, c, d, line) for (a, b, c, d), line in
                                    zip(EDGE_VALUES.findall(buf, pos, stop), count(first))])
                self._advance(stop)
            else:
                self._edges_one_by_one(graph, stop)
            if close >= 0:
                self._skip_space()
                if not self.buf.startswith("</edges>", self.pos):
                    raise NotPlain("an edge this reader does not read")
                self._advance(self.pos + len("</edges>"))
                return
            if not self._more():
                raise NotPlain("the file ends inside <edges>")

    def _edges_one_by_one(self, graph: Graph, stop: int) -> None:
        while True:
            match = EDGE.match(self.buf, self.pos, stop)
            if match is None:
                break
            graph.edges.append(Edge(match.group(1), match.group(2), match.group(3),
                                    match.group(4), self._line(match.end())))
            self._advance(match.end())
        self._skip_space()
        if self.pos < stop:
            raise NotPlain("an edge this reader does not read")

    def skip_edges(self) -> tuple[int, int]:
        """Pass over the ``<edges>`` section (read before, by ``edge_table``): the line it
        starts on, and how many ``<edge`` it holds."""
        self._skip_space()
        while not self.buf.startswith("<edges>", self.pos):
            if len(self.buf) - self.pos >= len("<edges>") or not self._more():
                raise NotPlain("no <edges> section after the layers")
        line, count = self.newlines + 1, 0
        while True:
            close = self.buf.find("</edges>", self.pos)
            if close >= 0:
                count += self.buf.count("<edge ", self.pos, close)
                self._advance(close + len("</edges>"))
                return line, count
            # a tag may straddle two chunks: the last 7 characters wait for the next one,
            # and the edges starting before them are counted now (whole, they fit before
            # the end of the buffer)
            stop = max(self.pos, len(self.buf) - len("</edges>") + 1)
            count += self.buf.count("<edge ", self.pos, stop + len("<edge ") - 1)
            self._advance(stop)
            if not self._more():
                raise NotPlain("the file ends inside <edges>")

    def jump_edges(self, start: int, end: int, newlines: int) -> int | None:
        """Pass over the ``<edges>`` section that ``edge_table`` read (at byte ``start``, up
        to byte ``end``, holding ``newlines``) by seeking past it; the line it starts on.
        None, the scanner unmoved, when it cannot tell that section is the one here (a
        file with other than ASCII before it): ``skip_edges`` then reads through it."""
        self._skip_space()
        while len(self.buf) - self.pos < len("<edges>") and self._more():
            pass
        here = self._bytes - (len(self.buf) - self.pos)
        if not (self._ascii and here == start and self.buf.startswith("<edges>", self.pos)):
            return None
        line = self.newlines + 1
        self._file.seek(end)
        self._decoder.reset()
        self._bytes, self._eof = end, False
        self.buf, self.pos = "", 0
        self.newlines += newlines
        return line

    def offset(self) -> int:
        """The byte of the file the scanner stands at."""
        if self._ascii:
            return self._bytes - (len(self.buf) - self.pos)
        pending = len(self._decoder.getstate()[0])  # (a character cut by the chunk's end)
        return self._bytes - len(self.buf[self.pos:].encode("utf-8")) - pending

    def resume(self, offset: int, newlines: int, last_line: int, ascii: bool) -> None:
        """Stand at byte ``offset``, where another scanner of the file stopped (after
        ``newlines`` newlines, its last layer ending on ``last_line``)."""
        self._file.seek(offset)
        self._decoder.reset()
        self._bytes, self._eof, self._ascii = offset, False, self._ascii and ascii
        self.buf, self.pos = "", 0
        self.newlines, self._last_line = newlines, last_line
        self._more()  # (what follows is read as the buffer stands: the space before <edges>)

    def rest(self) -> str:
        """Everything after ``</edges>`` (the end of the file is near)."""
        while self._more():
            if len(self.buf) - self.pos > (16 << 20):
                raise NotPlain("a long tail after the edges")
        return self.buf[self.pos:]


