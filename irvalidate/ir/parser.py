"""Read an IR XML file into :mod:`irvalidate.ir.records` records, safely and in one streaming pass.

The parser never expands entities, never loads a DTD and never touches the network.  It
streams the top-level ``<layer>`` and ``<edge>`` elements and frees each one once it has been
turned into a compact record, so memory follows the graph, not the XML text.
"""
from __future__ import annotations

import os
from typing import Any

from lxml import etree

from ..shapes.dims import parse_decimal
from . import schema as structure
from .encoding import unmarked_utf16
from .lfs import MAX_POINTER_BYTES, describe_lfs_pointer, lfs_pointer_size
from .records import (
    SLICING,
    SUPPORTED_VERSIONS,
    BackEdge,
    Document,
    Edge,
    Graph,
    Layer,
    ParseProblem,
    Port,
    PortMapEntry,
)

BODY_TAGS = ("body", "then_body", "else_body")
PORT_MAP_TAGS = ("port_map", "then_port_map", "else_port_map")
#: deeper nesting than this is refused rather than followed (bodies inside bodies)
MAX_BODY_DEPTH = 64
_MAX_DIM = (1 << 63) - 1


def parser_options() -> dict:
    return dict(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                remove_comments=True, remove_pis=True)


def sniff_root(path: str) -> str | None:
    """The root tag's local name, or None when the file is not well-formed XML at the start.

    The local name, so a ``<net xmlns=...>`` is not skipped quietly: OpenVINO ignores the
    namespace, and the parser reports what it cannot read.
    """
    try:
        with open(path, "rb") as handle:
            for _, elem in etree.iterparse(_Reader(handle), events=("start",), **parser_options()):
                return etree.QName(elem).localname if isinstance(elem.tag, str) else None
    except (etree.XMLSyntaxError, OSError, ValueError):
        return None
    return None


#: equal values met while parsing one file share one object: port ids, precisions, dims
#: tuples and <data> dicts repeat across most of a 100k-layer IR (cleared after each file)
_shared: dict[object, object] = {}


def _share(value):
    return _shared.setdefault(value, value)


def clear_shared() -> None:
    """Forget the shared values of the file just read."""
    _shared.clear()


def _shared_data(elem: etree._Element) -> dict:
    """The <data> attributes as a dict, one dict for all layers with the same attributes
    (never modified after parsing)."""
    key = ("data",) + tuple(elem.attrib.items())
    found = _shared.get(key)
    if found is None:
        found = _shared[key] = dict(elem.attrib)
    return found  # type: ignore[return-value]  # lxml's attrib: str to str


#: a <dim> this parser could not read; the port is skipped by the shape rules (see ir.Port)
BAD_DIM = None

#: a layer's unreadable <dim>s: (line, port id or its Port record, axis, what is wrong); the
#: record replaces the id once the port is built, and the layer reports them once it is
BadDims = list[tuple[int, Any, int, str]]


def _parse_dims(port: etree._Element, bad: BadDims) -> tuple[int | None, ...]:
    dims: list[int | None] = []
    for child in port:
        if child.tag != "dim":
            continue
        text = (child.text or "").strip()
        value: int | None
        try:
            value = parse_decimal(text)
        except ValueError:
            hint = (": ports cannot hold intervals (write -1; the Parameter's shape attribute "
                    "keeps the interval), and OpenVINO would read only its first number"
                    if ".." in text else "")
            bad.append((child.sourceline, None, len(dims), f"<dim> value {text[:40]!r} is not "
                        f"an integer{hint}"))
            value = BAD_DIM
        else:
            if value < -1 or value > _MAX_DIM:
                bad.append((child.sourceline, None, len(dims), f"<dim> value {text} is out of "
                            f"range (must be -1 or a non-negative int64)"))
                value = BAD_DIM
        dims.append(value)
    return _share(tuple(dims))


def _parse_ports(section: etree._Element, bad: BadDims) -> tuple[Port, ...]:
    ports = []
    for port in section:
        if port.tag != "port":
            continue
        precision = port.get("precision")
        first_bad = len(bad)
        record = Port(_share(port.get("id", "")), _parse_dims(port, bad),
                      None if precision is None else _share(precision), port.sourceline or 0)
        bad[first_bad:] = [(line, record, axis, what) for line, _, axis, what in bad[first_bad:]]
        ports.append(record)
    return tuple(ports)


#: (body element, the Graph to fill, nesting depth), bodies still to be read
Pending = list[tuple[etree._Element, Graph, int]]


def _parse_layer(elem: etree._Element, problems: list[ParseProblem], scope: str,
                 depth: int, pending: Pending, path: tuple = (), index: int = 0) -> Layer:
    """``path`` is the graph's path (see Graph.path), ``index`` the layer's place in it."""
    data: dict = {}
    inputs: tuple[Port, ...] = ()
    outputs: tuple[Port, ...] = ()
    port_maps: list[PortMapEntry] = []
    back_edges: list[BackEdge] = []
    body_elems: list[etree._Element] = []
    bad: BadDims = []
    for child in elem:  # one pass over the children: this runs once per layer
        tag = child.tag
        if tag == "data":
            data = _shared_data(child)
        elif tag == "input":
            inputs = _parse_ports(child, bad)
        elif tag == "output":
            outputs = _parse_ports(child, bad)
        elif tag in BODY_TAGS:
            body_elems.append(child)
        elif tag in PORT_MAP_TAGS:
            port_maps.extend(
                PortMapEntry(tag, e.tag, e.get("external_port_id", ""), e.get("internal_layer_id", ""),
                             e.get("purpose"), e.sourceline or 0,
                             {k: e.get(k) for k in SLICING if e.get(k) is not None})
                for e in child if e.tag in ("input", "output"))
        elif tag == "back_edges":
            back_edges.extend(BackEdge(e.get("from-layer", ""), e.get("to-layer", ""),
                                       e.sourceline or 0) for e in child if e.tag == "edge")
    # the id is shared with the edges that name it; types and versions repeat everywhere
    layer = Layer(id=_share(elem.get("id", "")), name=elem.get("name", ""),
                  type=_share(elem.get("type", "")), version=_share(elem.get("version", "")),
                  line=elem.sourceline or 0, data=data,
                  inputs=inputs, outputs=outputs)
    for line, port, axis, what in bad:
        problems.append(ParseProblem(line, f"{layer.describe()}: port {port.id}: {what}; the "
                                     f"shape rules skip this port", layer, port=port.id,
                                     at=port, axis=axis))
    if not (body_elems or port_maps or back_edges):
        return layer
    return _with_bodies(layer, body_elems, port_maps, back_edges, problems, scope, depth,
                        pending, path, index)


def _with_bodies(layer: Layer, body_elems: list[etree._Element], port_maps: list[PortMapEntry],
                 back_edges: list[BackEdge], problems: list[ParseProblem], scope: str,
                 depth: int, pending: Pending, path: tuple, index: int) -> Layer:
    """A layer with its bodies (each to be read later: ``pending``), port maps and back
    edges; a body nested too deep is a problem and is left unread."""
    bodies = []
    seen: dict[str, int] = {}
    for body in body_elems:  # document order, as irvalidate.ir.locate counts them
        tag = body.tag
        nth = seen[tag] = seen.get(tag, -1) + 1
        where = f"{tag.replace('_', ' ')} of {layer.describe()}"
        if scope:  # name the parent body, and only the depth beyond it (messages stay short)
            where += f" in {scope}" if depth <= 2 else f" ({depth} bodies deep)"
        if depth >= MAX_BODY_DEPTH:
            problems.append(ParseProblem(body.sourceline, f"{where} is nested more than "
                                         f"{MAX_BODY_DEPTH} levels deep, irvalidate's limit "
                                         f"(OpenVINO reads deeper): it and what it holds are "
                                         f"not checked", layer))
            continue
        # the body is read later, by the loop in _read_bodies: no recursion follows the file
        graph = Graph(scope=where, kind=tag, path=path + ((index, tag, nth),))
        pending.append((body, graph, depth + 1))
        bodies.append(graph)
    bodies.sort(key=lambda g: BODY_TAGS.index(g.kind))
    if depth >= MAX_BODY_DEPTH:  # no body read: its port maps would be said to lack one
        port_maps, back_edges = [], []
    return Layer(layer.id, layer.name, layer.type, layer.version, layer.line, layer.data,
                 layer.inputs, layer.outputs, tuple(bodies), tuple(port_maps), tuple(back_edges))


def read_top_layer(elem: etree._Element, doc: Document) -> Layer:
    """A top-level ``<layer>`` element as the parser reads it: its record (its bodies read
    too) and its schema problems."""
    graph = doc.graph
    pending: Pending = []
    layer = _parse_layer(elem, graph.problems, "", 1, pending, (), len(graph.layers))
    _read_bodies(pending)
    doc.schema.extend(structure.check(elem, "layer", layer))
    return layer


def _parse_edge(elem: etree._Element) -> Edge:
    return Edge(_share(elem.get("from-layer", "")), _share(elem.get("from-port", "")),
                _share(elem.get("to-layer", "")), _share(elem.get("to-port", "")), elem.sourceline or 0)


def _read_bodies(pending: Pending) -> None:
    """Fill the nested bodies a top-level layer holds (already in memory with it)."""
    while pending:
        container, graph, depth = pending.pop()
        layers = container.find("layers")
        for elem in layers if layers is not None else ():
            if elem.tag == "layer":
                graph.layers.append(_parse_layer(elem, graph.problems, graph.scope, depth, pending,
                                                 graph.path, len(graph.layers)))
        edges = container.find("edges")
        for elem in edges if edges is not None else ():
            if elem.tag == "edge":
                graph.edges.append(_parse_edge(elem))


def _free(elem: etree._Element) -> None:
    elem.clear(keep_tail=False)
    parent = elem.getparent()
    if parent is not None:
        while elem.getprevious() is not None:
            del parent[0]


def check_root(root: etree._Element, doc: Document) -> bool:
    if root.tag != "net":
        qname = etree.QName(root)
        message = (f"root element is <{root.tag[:60]}>, not <net>: this is not an OpenVINO IR file"
                   if qname.localname != "net" else
                   f"the <net> element is in the XML namespace {qname.namespace[:60]!r}; IR files "
                   f"use no namespace (OpenVINO ignores it, irvalidate cannot check the file)")
        doc.fatal.append(ParseProblem(root.sourceline, message, kind="not-ir"))
        return False
    doc.version = root.get("version")
    if doc.version not in SUPPORTED_VERSIONS:
        doc.fatal.append(ParseProblem(root.sourceline, f"IR version {str(doc.version)[:20]!r} is not "
                                      f"supported; OpenVINO reads only versions 10 and 11: convert the "
                                      f"original model again with a current OpenVINO (ovc, "
                                      f"or openvino.save_model)", kind="version"))
        return False
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None:
        doc.graph.problems.append(ParseProblem(
            1, "the file declares a DTD (<!DOCTYPE>); IR files have none, and its entities "
               "were not expanded"))
    return True


class _Reader:
    """Only ``read``: lxml takes a file object's ``name`` as the document URL and fails on a
    name that is not UTF-8; without one it reads any file.  Counts the lines it hands over
    (libxml2 cannot tell lines past 65,534 apart; the count says whether a file has any)."""

    def __init__(self, handle) -> None:
        self._read = handle.read
        self.newlines = 0

    def read(self, size: int = -1) -> bytes:
        data = self._read(size)
        self.newlines += data.count(b"\n")
        return data


def _stream(path: str, doc: Document) -> None:
    with open(path, "rb") as handle:
        # UTF-16 without a byte order mark: OpenVINO reads it, libxml2 only when named
        encoding = unmarked_utf16(handle.read(4))
        handle.seek(0)
        reader = _Reader(handle)
        try:
            _stream_from(reader, doc, encoding)
        finally:
            doc.lines = reader.newlines + 1


def _stream_from(handle, doc: Document, encoding: str | None = None) -> None:
    events = etree.iterparse(handle, events=("start", "end"), tag=("net", "layer", "edge"),
                                       encoding=encoding, **parser_options())
    graph = doc.graph
    root = None
    for event, elem in events:
        if root is None:
            # the first streamed element need not be the root (tags are filtered)
            root = elem.getroottree().getroot()
            if not check_root(root, doc):
                return
            if elem is root:
                continue
        if event != "end" or elem.tag == "net":
            continue
        section = elem.getparent()
        if section is None or section.getparent() is not root:
            continue  # inside a body: handled with its enclosing layer
        if elem.tag == "layer" and section.tag == "layers":
            graph.layers.append(read_top_layer(elem, doc))
        elif elem.tag == "edge" and section.tag == "edges":
            if not structure.plain_edge(elem):
                doc.schema.extend(structure.check(elem, "edge"))
            graph.edges.append(_parse_edge(elem))
        _free(elem)
    if root is None and getattr(events, "root", None) is not None:
        check_root(events.root, doc)  # the root matched none of the streamed tags
    elif root is not None:
        structure.strip_streamed(root)
        doc.schema.extend(structure.check(root, "net"))


def _not_xml(path: str) -> str | None:
    """Why a file that is not XML is not: a Git LFS pointer, or UTF-32 (which pugixml, in
    OpenVINO, reads and libxml2 here cannot), told by its first bytes; else None."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(MAX_POINTER_BYTES)
    except OSError:
        return None
    size = lfs_pointer_size(head)
    if size is not None:
        return describe_lfs_pointer(os.path.basename(path), size)
    if head[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        return ("the file is UTF-32-encoded, which OpenVINO reads but irvalidate's XML parser "
                "(libxml2) does not; save it as UTF-8 to have it checked")
    return None


def _depth_limit(message: str) -> str | None:
    """libxml2's depth limit, said plainly: the runtime's reader has none (400 nested Loops,
    1,200 elements deep, load), but irvalidate keeps libxml2's guard against depth bombs."""
    if "Excessive depth in document" not in message:
        return None
    return ("XML syntax error: the elements nest deeper than 256, the limit of irvalidate's "
            "XML parser (libxml2 without XML_PARSE_HUGE; about 84 levels of bodies), and the "
            f"file is not checked; OpenVINO reads deeper. {message}")


def parse(path: str) -> Document:
    """Parse ``path``; problems become ParseProblems, never exceptions."""
    doc = Document(path=path, version=None, graph=Graph())
    _shared.clear()
    try:
        _stream(path, doc)
    except etree.XMLSyntaxError as err:
        line = err.lineno if err.lineno else None
        reason = _not_xml(path) or _depth_limit(err.msg)
        doc.fatal.append(ParseProblem(line if reason is None or reason.startswith("XML") else
                                      None, reason or f"XML syntax error: {err.msg}", kind="xml"))
    except OSError as err:
        doc.fatal.append(ParseProblem(None, f"cannot read the file: {err.strerror or err}",
                                      kind="xml"))
    finally:
        _shared.clear()
    return doc
