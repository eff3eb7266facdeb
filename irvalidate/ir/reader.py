"""Read an IR file into a :class:`~irvalidate.ir.records.Document`: the fast scanner where the
file is plain serializer output, the lxml parser for anything else; the same records either
way (``tests/test_scanner.py`` compares them)."""
from __future__ import annotations

import sys

from . import plain
from .records import SUPPORTED_VERSIONS, Document, Graph, Layer
from .scanner import NotPlain, Scanner


def parse(path: str) -> Document:
    """Parse ``path``; problems become ParseProblems, never exceptions."""
    doc = scan(path)
    if doc is not None:
        return doc
    from . import parser  # lxml, imported only for the files the scanner does not read
    return parser.parse(path)


def net_or_broken(path: str) -> bool:
    """Whether a directory walk checks ``path``: its root is ``<net>``, or it is not even
    well-formed up to its root (a broken IR is reported, not skipped).  A file that starts
    as serializer output is told by its first bytes, without lxml (~1 ms a file)."""
    try:
        with open(path, "rb") as handle:
            if plain.NET_START.match(handle.read(4096)):
                return True
    except OSError:
        return True  # as sniff_root: what cannot be read is reported
    from .parser import sniff_root
    return sniff_root(path) in ("net", None)


def scan(path: str) -> Document | None:
    """The document, read by the scanner; None when the file is not plain (or cannot be
    opened: the lxml parser then says why, in its words)."""
    doc = Document(path=path, version=None, graph=Graph())
    try:
        scanner = Scanner(path, doc)
    except OSError:
        return None
    try:
        net = scanner.head()
        if net.get("version") not in SUPPORTED_VERSIONS:
            return None  # the parser words what is wrong
        graph = doc.graph
        layers = graph.layers
        for layer in scanner.layers(lambda text, line: _layer_text(text, line, doc)):
            layers.append(layer)
        scanner.edges(graph)
        rest = scanner.rest()
        if not check_skeleton(scanner.head_text, rest, doc, net["version"]):
            return None
        doc.lines = scanner.newlines + rest.count("\n") + 1
    except (NotPlain, OSError, RecursionError, MemoryError):
        return None
    finally:
        scanner.close()
        if "irvalidate.ir.parser" in sys.modules:
            sys.modules["irvalidate.ir.parser"].clear_shared()
    return doc


#: lines past this one are not kept exactly by libxml2 (irvalidate.ir.locate)
_MAX_EXACT_PREFIX = 65535


def _layer_text(text: str, line: int, doc: Document) -> Layer:
    """A top-level layer the scanner does not read, read by lxml from its own text (which
    starts on ``line``) as the parser reads it in the whole file; NotPlain when it is not
    well-formed (nor then is the file)."""
    from lxml import etree

    from . import parser
    # newlines first give libxml2's own lines (past 65,534 they are only known to be past
    # it, as in the whole file, and the engine finds the exact ones)
    source = "\n" * min(line - 1, _MAX_EXACT_PREFIX) + "<layers>" + text + "</layers>"
    try:
        elem = etree.fromstring(source.encode("utf-8"), etree.XMLParser(**parser.parser_options()))
    except etree.XMLSyntaxError:
        raise NotPlain("a layer that is not well-formed") from None
    return parser.read_top_layer(elem[0], doc)


def check_skeleton(head: str, rest: str, doc: Document, version: str) -> bool:
    """The checks the parser makes of ``<net>``, given its start tag (``head``: the file up
    to it, checked by the scanner) and what follows ``</edges>``; False when they find
    anything (the caller then reads the file with lxml, which words it).  A plain end is
    told without lxml."""
    if plain.plain_tail(rest):
        doc.version = version
        return True
    from lxml import etree

    from . import parser, schema as structure
    try:
        root = etree.fromstring((head + "<layers/><edges/>" + rest).encode("utf-8"),
                                etree.XMLParser(**parser.parser_options()))
    except etree.XMLSyntaxError:
        return False
    probe = Document(doc.path, None, Graph())
    if not parser.check_root(root, probe) or probe.graph.problems or probe.fatal:
        return False
    doc.version = probe.version
    return not structure.check(root, "net")
