"""What the records leave out, for a few top-level layers and the model: the tensor names of
their output ports, a Result's ``output_names``, their ``rt_info`` (a layout is kept on a
port), and the model's ``<rt_info>``, ``<meta_data>`` and ``<quantization_parameters>``.
``inspect`` needs them for the inputs and outputs only.

Two ways, one answer.  A file the scanner read has each layer's start tag on the line its
record gives, so only the text of those lines up to ``</layer>``, and the text after the
last ``</edges>``, are handed to lxml (a 100k-layer file: ~0.1 s against ~1.2 s for an
lxml pass over it all).  Any surprise there (no single ``<layer`` on the line, another id,
text lxml refuses) and every other file get that lxml pass, as safe as the parser's.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from lxml import etree

from .encoding import unmarked_utf16
from .parser import _Reader, parser_options
from .tensor_names import split_names

#: the chunk the fast path reads in
_CHUNK = 1 << 20
#: the model-level sections kept, flattened (``<rt_info>``; the legacy two when it is absent)
_SECTIONS = ("rt_info", "meta_data", "quantization_parameters")


class LayerDetails(NamedTuple):
    #: the ``<layer>`` element's own attributes (``output_names`` among them)
    attributes: dict[str, str]
    #: output port id -> its tensor names, as the reader splits ``names``
    names: dict[str, list[str]]
    #: output port id -> its rt_info, attribute name -> value
    port_info: dict[str, dict[str, str]]
    #: the layer's rt_info, attribute name -> value
    info: dict[str, str]


class Details(NamedTuple):
    #: by layer id, for the layers asked about that were found
    layers: dict[str, LayerDetails]
    #: section -> flattened path -> value (``{"rt_info": {"conversion_parameters/framework": ...}}``)
    sections: dict[str, dict[str, str]]


class _Unexpected(Exception):
    """The fast path met something it does not read exactly: the lxml pass reads the file."""


def read(path: str, lines: dict[int, str], plain: bool, ids: set[str] | None = None) -> Details:
    """The details of the top-level layers ``ids`` (by default those ``lines`` names: start
    line -> layer id) and of the model; ``plain``: the scanner read the file (its lines are
    exact).  Layers that share a line (``lines`` keeps one of them) are read by the lxml
    pass.  OSError and etree.XMLSyntaxError pass through (the parser has read the file
    first)."""
    wanted = set(lines.values()) if ids is None else ids
    if plain and wanted <= set(lines.values()):
        try:
            return _by_lines(path, lines)
        except (_Unexpected, etree.XMLSyntaxError, UnicodeDecodeError):
            pass
    return _whole(path, wanted)


# ---------------------------------------------------------------------------- one element

def _rt_info(element) -> dict[str, str]:
    """An element's ``<rt_info>`` attributes: name -> value (the ``value`` attribute, else
    the one named after it, as ``layout="[N,C]"``, else the first other)."""
    found: dict[str, str] = {}
    for attribute in element.iterfind("rt_info/attribute"):
        name = attribute.get("name") or ""
        others = {k: v for k, v in attribute.attrib.items() if k not in ("name", "version")}
        value = others.get("value", others.get(name, next(iter(others.values()), "")))
        found[name] = value
    return found


def layer_details(element) -> LayerDetails:
    names: dict[str, list[str]] = {}
    port_info: dict[str, dict[str, str]] = {}
    for port in element.iterfind("output/port"):
        port_id = port.get("id") or ""
        names[port_id] = split_names(port.get("names") or "")
        port_info[port_id] = _rt_info(port)
    return LayerDetails(dict(element.attrib), names, port_info, _rt_info(element))


def flattened(element) -> dict[str, str]:
    """A model-level section as path -> value: a child's name is its tag, or its ``name``
    for ``<info name=...>``; a leaf without ``value`` is "" (present).  (A stack, not
    recursion: nothing follows a file's structure by recursion.)"""
    found: dict[str, str] = {}
    pending = [("", child) for child in reversed(element)]
    while pending:
        prefix, child = pending.pop()
        if not isinstance(child.tag, str):
            continue
        key = child.get("name", child.tag) if child.tag == "info" else child.tag
        path = f"{prefix}{key}"
        if len(child):
            pending += [(path + "/", grandchild) for grandchild in reversed(child)]
        else:
            found[path] = child.get("value", "")
    return found


def _sections(root) -> dict[str, dict[str, str]]:
    return {child.tag: flattened(child) for child in root
            if isinstance(child.tag, str) and child.tag in _SECTIONS}


# ---------------------------------------------------------------------------- by lines

def _chunks(path: str) -> Iterable[tuple[int, bytes]]:
    """(the number of the first line, whole lines of text) for the whole file."""
    with open(path, "rb") as handle:
        line, carry = 1, b""
        while True:
            block = handle.read(_CHUNK)
            if not block:
                if carry:
                    yield line, carry
                return
            block = carry + block
            cut = block.rfind(b"\n") + 1
            carry = block[cut:]
            if cut:
                yield line, block[:cut]
                line += block.count(b"\n", 0, cut)


def _by_lines(path: str, lines: dict[int, str]) -> Details:
    wanted = sorted(lines)
    texts: dict[int, list[bytes]] = {}  # (joined at the end: a body may be many chunks)
    open_at: int | None = None  # the start line of a layer whose end is not read yet
    depth = 0  # how many <layer> are open in it
    tail: bytes | None = None
    for first, block in _chunks(path):
        if open_at is not None:
            open_at, depth = _continue(texts[open_at], open_at, block, depth)
        last = first + block.count(b"\n")
        line, offset = first, 0  # (a cursor: the lines asked about come in order)
        while wanted and wanted[0] < last:
            if open_at is not None:
                raise _Unexpected("a layer asked about inside another")
            start = wanted.pop(0)
            for _ in range(start - line):
                offset = block.index(b"\n", offset) + 1
            line = start
            text = block[offset:block.find(b"\n", offset) + 1]
            if text.count(b"<layer") != 1:
                raise _Unexpected("not one layer on its line")
            texts[start] = []
            open_at, depth = _continue(texts[start], start,
                                       block[offset + text.index(b"<layer"):], 0)
        edges = block.rfind(b"</edges>")
        if edges >= 0:
            tail = block[edges + len(b"</edges>"):]
        elif tail is not None:
            tail += block
    if open_at is not None or tail is None or wanted:
        raise _Unexpected("the file ended early")
    layers = {}
    for start, parts in texts.items():
        element = etree.fromstring(b"".join(parts), etree.XMLParser(**parser_options()))
        if element.tag != "layer" or element.get("id") != lines[start]:
            raise _Unexpected("another layer than the record's")
        layers[lines[start]] = layer_details(element)
    root = etree.fromstring(b"<net>" + tail, etree.XMLParser(**parser_options()))
    return Details(layers, _sections(root))


_LAYER_TAG = re.compile(rb"<layer[\s>]|</layer>")


def _continue(text: list[bytes], start: int, block: bytes, depth: int) -> tuple[int | None, int]:
    """Add ``block`` to the layer text begun at ``start`` up to its own ``</layer>`` (a
    TensorIterator's, Loop's or If's holds its bodies' layers), ``depth`` of its <layer> tags
    open before it: the start line while it is still open, else None, and the depth then.
    (Only the new block is read: a chunk ends at a line's end, so no tag is cut.)"""
    for tag in _LAYER_TAG.finditer(block):
        depth += 1 if tag.group() != b"</layer>" else -1
        if depth == 0:
            text.append(block[:tag.end()])
            return None, 0
    text.append(block)
    return start, depth


# ---------------------------------------------------------------------------- lxml, whole

def _whole(path: str, ids: set[str]) -> Details:
    """One lxml pass over the file, forgetting each top-level layer once read."""
    layers: dict[str, LayerDetails] = {}
    with open(path, "rb") as handle:
        encoding = unmarked_utf16(handle.read(4))
        handle.seek(0)
        options = parser_options()
        if encoding:
            options["encoding"] = encoding
        root = None
        for _, element in etree.iterparse(_Reader(handle), events=("end",),
                                          tag=("layer", "layers", "edges"), **options):
            parent = element.getparent()
            top = parent is not None and parent.getparent() is not None \
                and parent.getparent().getparent() is None
            if element.tag == "layer" and top:
                if element.get("id") in ids:
                    layers[element.get("id") or ""] = layer_details(element)
                element.clear()
            elif element.tag in ("layers", "edges") and parent is not None \
                    and parent.getparent() is None:
                root = parent
                element.clear()
    return Details(layers, _sections(root) if root is not None else {})
