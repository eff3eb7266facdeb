"""Check IR XML against the structural schema (``schemas/ir.rng``) while it streams.

The RELAX NG grammar describes the whole ``<net>``; to keep memory flat we validate each
top-level ``<layer>`` and ``<edge>`` on its own, with the grammar's start switched to that
pattern, and the ``<net>`` skeleton once the layers and edges have been read and freed.
libxml2's messages are terse ("Element layer failed to validate attributes"); we say the
same thing in plain words and keep the raw message in brackets.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from functools import cache

from lxml import etree

from ..data import data_path
from .records import Layer, ParseProblem

RNG_NS = "http://relaxng.org/ns/structure/1.0"
_PORT_MAP = ("external_port_id", "internal_layer_id"), (
    "internal_port_id", "axis", "start", "end", "stride", "part_size", "purpose")
#: (parent, element) -> (required attributes, optional attributes); None: any attributes
_ATTRIBUTES: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]] | None] = {
    ("", "net"): (("version",), ("name", "batch")),
    ("layers", "layer"): (("id", "type", "version"), ("name", "output_names")),
    ("input", "port"): (("id",), ("precision", "names")),
    ("output", "port"): (("id",), ("precision", "names")),
    ("edges", "edge"): (("from-layer", "from-port", "to-layer", "to-port"), ()),
    ("back_edges", "edge"): (("from-layer", "to-layer"), ("from-port", "to-port")),
    ("port_map", "input"): _PORT_MAP, ("port_map", "output"): _PORT_MAP,
    ("then_port_map", "input"): _PORT_MAP, ("then_port_map", "output"): _PORT_MAP,
    ("else_port_map", "input"): _PORT_MAP, ("else_port_map", "output"): _PORT_MAP,
    ("layer", "data"): None,
}
_BODY = frozenset({"layers", "edges", "rt_info"})
#: element -> the children it may have (elements not listed here may have none)
_CHILDREN: dict[str, frozenset] = {
    "net": frozenset({"layers", "edges", "rt_info", "meta_data", "quantization_parameters",
                      "statistics"}),
    "layers": frozenset({"layer"}), "edges": frozenset({"edge"}),
    "layer": frozenset({"data", "input", "output", "rt_info", "port_map", "back_edges", "body",
                        "then_port_map", "else_port_map", "then_body", "else_body"}),
    "input": frozenset({"port"}), "output": frozenset({"port"}), "port": frozenset({"dim", "rt_info"}),
    "body": _BODY, "then_body": _BODY, "else_body": _BODY, "back_edges": frozenset({"edge"}),
    "port_map": frozenset({"input", "output"}), "then_port_map": frozenset({"input", "output"}),
    "else_port_map": frozenset({"input", "output"}),
}
#: elements whose content is free (information for people and tools, not the graph)
_FREE = frozenset({"rt_info", "meta_data", "quantization_parameters", "statistics"})
_REQUIRED_CHILDREN = {"net": ("layers", "edges"), "body": ("layers", "edges"),
                      "then_body": ("layers", "edges"), "else_body": ("layers", "edges")}
#: summary lines libxml2 adds after the specific one
_SUMMARIES = re.compile(r"failed to validate content|Invalid sequence in interleave|"
                        r"Extra element \S+ in interleave|Element \S+ has extra content")


@cache
def _grammar() -> etree._ElementTree:
    with open(data_path("ir.rng"), "rb") as handle:
        return etree.parse(handle, etree.XMLParser(resolve_entities=False, no_network=True))


@cache
def validator(start: str) -> etree.RelaxNG:
    """The schema with its start switched to the named pattern (net, layer or edge)."""
    tree = copy.deepcopy(_grammar())
    start_elem = tree.getroot().find(f"{{{RNG_NS}}}start")
    for child in list(start_elem):
        start_elem.remove(child)
    etree.SubElement(start_elem, f"{{{RNG_NS}}}ref", name=start)
    return etree.RelaxNG(tree)


def _attribute_words(elem: etree._Element, spec: tuple[tuple[str, ...], tuple[str, ...]]) -> str | None:
    required, optional = spec
    names = set(elem.attrib)
    missing = [a for a in required if a not in names]
    unexpected = sorted(names - set(required) - set(optional))
    parts = []
    if missing:
        parts.append("lacks the required attribute" + ("s " if len(missing) > 1 else " ")
                     + ", ".join(repr(a) for a in missing))
    if unexpected:
        parts.append("has the attribute" + ("s " if len(unexpected) > 1 else " ")
                     + ", ".join(repr(a) for a in unexpected) + ", which IR files do not use")
    return f"<{elem.tag}> " + " and ".join(parts) if parts else None


def diagnose(root: etree._Element) -> list[tuple[int, str]]:
    """Where a subtree the schema refused departs from it, in plain words (no recursion)."""
    found: list[tuple[int, str]] = []
    pending = [root]
    while pending:
        elem = pending.pop()
        if not isinstance(elem.tag, str) or elem.tag in _FREE:
            continue
        parent = elem.getparent()
        spec = _ATTRIBUTES.get((parent.tag if parent is not None else "", elem.tag), ((), ()))
        if spec is not None:
            words = _attribute_words(elem, spec)
            if words:
                found.append((elem.sourceline or 0, words))
        allowed = _CHILDREN.get(elem.tag, frozenset())
        children = [c for c in elem if isinstance(c.tag, str)]
        for child in children:
            if child.tag not in allowed:
                where = f"<{elem.tag}>"
                found.append((child.sourceline or 0, f"<{child.tag}> is not allowed in {where}"
                              + (f" (allowed: {', '.join(sorted(allowed))})" if allowed else "")))
        for tag in _REQUIRED_CHILDREN.get(elem.tag, ()):
            if not any(c.tag == tag for c in children):
                found.append((elem.sourceline or 0, f"<{elem.tag}> lacks its <{tag}>"))
        if elem.tag == "dim" and children:
            found.append((elem.sourceline or 0, "<dim> holds elements instead of a number"))
        pending.extend(reversed([c for c in children if c.tag in allowed]))
    return sorted(found)


def explain(message: str, root: etree._Element, line: int) -> list[tuple[int, str]]:
    """libxml2's RELAX NG message in plain words (the raw one follows in brackets)."""
    line = line or root.sourceline or 0
    plain: str | None = None
    raw = f" [schema: {message.strip()}]"
    if match := re.match(r"Element (\S+) failed to validate attributes", message):
        plain = f"<{match.group(1)}> has a missing or unexpected attribute"
    elif match := re.match(r"Invalid attribute (\S+) for element (\S+)", message):
        plain = f"<{match.group(2)}> does not take the attribute {match.group(1)!r}"
    elif match := re.match(r"Expecting element (\S+), got (\S+)", message):
        plain = f"<{match.group(2)}> stands where <{match.group(1)}> belongs"
    elif match := re.match(r"Did not expect element (\S+) there", message):
        plain = f"<{match.group(1)}> is not allowed at this place in an IR file"
    elif match := re.match(r"Expecting an element (\S+), got nothing", message):
        plain = f"a required <{match.group(1)}> element is missing"
    elif match := re.match(r"Element (\S+) has extra content: (\S+)", message):
        plain = f"<{match.group(1)}> contains <{match.group(2)}>, which is not allowed there"
    elif match := re.match(r"Datatype element \S+ has child elements|Element (\S+) has child", message):
        plain = "an element that holds a value contains other elements"
    elif "Expecting no content" in message or "Did not expect text" in message:
        plain = "text where the schema allows none"
    return [(line, (plain or "the structure does not match the IR schema") + raw)]


#: more attributes than this on one element is refused before the schema engine sees it
MAX_ATTRIBUTES = 256


def _crowded(root: etree._Element) -> etree._Element | None:
    # <data> is the only element whose attribute names are free (rt_info is emptied first);
    # attributes with fixed names are checked in linear time
    for elem in root.iter("data", "net"):
        if len(elem.attrib) > MAX_ATTRIBUTES:
            return elem
    return None


_EDGE_ATTRIBUTES = frozenset({"from-layer", "from-port", "to-layer", "to-port"})


def plain_edge(elem: etree._Element) -> bool:
    """True for an edge the grammar's ``edge`` pattern accepts: its four attributes, nothing
    inside.  Edges are a third of a file; this spares libxml2 a call for each (the schema
    still judges, and words, every other edge)."""
    return (len(elem) == 0 and frozenset(elem.keys()) == _EDGE_ATTRIBUTES
            and (elem.text is None or not elem.text.strip()))


def check(elem: etree._Element, start: str, layer: Layer | None = None) -> list[ParseProblem]:
    """Schema problems of one element (a top-level layer or edge, or the net skeleton);
    ``layer`` is the parsed top-level layer the element is, or holds the problem."""
    for free in elem.iter(*_FREE):
        # the schema lets these hold anything, so their content cannot fail it; libxml2 would
        # still spend quadratic time on it.  Our records of this element are already built.
        free.clear(keep_tail=True)
    crowded = _crowded(elem)
    if crowded is not None:
        # libxml2 checks "any attribute" patterns in quadratic time and memory: refuse first
        return [ParseProblem(crowded.sourceline or elem.sourceline,
                             f"<{crowded.tag}> has {len(crowded.attrib)} attributes, more than the "
                             f"{MAX_ATTRIBUTES} any IR element needs; this element was not checked "
                             f"against the schema", layer, kind="schema")]
    schema = validator(start)
    if schema.validate(elem):
        return []
    entries = list(schema.error_log)
    raw = "; ".join(dict.fromkeys(e.message.strip() for e in entries))
    diagnosed = diagnose(elem)
    if diagnosed:
        # the schema said no; our own walk says where and why
        return [ParseProblem(line or elem.sourceline, f"{text} [schema: {raw}]", layer, kind="schema")
                for line, text in dict.fromkeys(diagnosed)]
    specific = [e for e in entries if not _SUMMARIES.search(e.message)] or entries[:1]
    found: list[ParseProblem] = []
    seen = set()
    for entry in specific:
        for line, message in explain(entry.message, elem, entry.line):
            if (line, message) not in seen:
                seen.add((line, message))
                found.append(ParseProblem(line, message, layer, kind="schema"))
    return found


def strip_streamed(root: etree._Element, sections: Iterable[str] = ("layers", "edges")) -> None:
    """Empty the top-level sections whose children were validated as they streamed."""
    for child in root:
        if child.tag in sections:
            for grandchild in list(child):
                child.remove(grandchild)
