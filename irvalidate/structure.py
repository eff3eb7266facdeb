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
from functools import lru_cache
from importlib import resources
from typing import Dict, Iterable, List, Optional, Tuple

from lxml import etree

from .ir import ParseProblem

RNG_NS = "http://relaxng.org/ns/structure/1.0"
#: required and optional attributes of the elements whose attribute errors we explain
_ATTRIBUTES: Dict[str, Tuple[Tuple[str, ...], Tuple[str, ...]]] = {
    "net": (("version",), ("name", "batch")),
    "layer": (("id", "type", "version"), ("name", "output_names")),
    "port": (("id",), ("precision", "names")),
    "edge": (("from-layer", "from-port", "to-layer", "to-port"), ()),
}
#: summary lines libxml2 adds after the specific one
_SUMMARIES = re.compile(r"failed to validate content|Invalid sequence in interleave|"
                        r"Extra element \S+ in interleave|Element \S+ has extra content")


@lru_cache(maxsize=None)
def _grammar() -> etree._ElementTree:
    with resources.files("irvalidate.data").joinpath("ir.rng").open("rb") as handle:
        return etree.parse(handle, etree.XMLParser(resolve_entities=False, no_network=True))


@lru_cache(maxsize=None)
def validator(start: str) -> etree.RelaxNG:
    """The schema with its start switched to the named pattern (net, layer or edge)."""
    tree = copy.deepcopy(_grammar())
    start_elem = tree.getroot().find(f"{{{RNG_NS}}}start")
    for child in list(start_elem):
        start_elem.remove(child)
    etree.SubElement(start_elem, f"{{{RNG_NS}}}ref", name=start)
    return etree.RelaxNG(tree)


def _attributes_problem(elem: etree._Element, tag: str) -> Optional[str]:
    if tag not in _ATTRIBUTES:
        return None
    required, optional = _ATTRIBUTES[tag]
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
    return f"<{tag}> " + " and ".join(parts) if parts else None


def _attribute_offenders(root: etree._Element, tag: str, line: int) -> List[Tuple[int, str]]:
    """(line, plain message) of every element of ``tag`` whose attributes are wrong.

    libxml2 gives line 0 when it validates a subtree, so we look for the culprits ourselves.
    """
    found = []
    for elem in root.iter(tag):
        if line and elem.sourceline != line:
            continue
        problem = _attributes_problem(elem, tag)
        if problem:
            found.append((elem.sourceline or line, problem))
    return found


def explain(message: str, root: etree._Element, line: int) -> List[Tuple[int, str]]:
    """libxml2's RELAX NG message in plain words (the raw one follows in brackets)."""
    line = line or root.sourceline or 0
    plain: Optional[str] = None
    raw = f" [schema: {message.strip()}]"
    if match := re.match(r"Element (\S+) failed to validate attributes", message):
        offenders = _attribute_offenders(root, match.group(1), line if line != root.sourceline else 0)
        if offenders:
            return [(at, text + raw) for at, text in offenders]
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


def check(elem: etree._Element, start: str) -> List[ParseProblem]:
    """Schema problems of one element (a top-level layer or edge, or the net skeleton)."""
    schema = validator(start)
    if schema.validate(elem):
        return []
    entries = list(schema.error_log)
    specific = [e for e in entries if not _SUMMARIES.search(e.message)] or entries[:1]
    found: List[ParseProblem] = []
    seen = set()
    for entry in specific:
        for line, message in explain(entry.message, elem, entry.line):
            if (line, message) not in seen:
                seen.add((line, message))
                found.append(ParseProblem(line, message, kind="schema"))
    return found


def strip_streamed(root: etree._Element, sections: Iterable[str] = ("layers", "edges")) -> None:
    """Empty the top-level sections whose children were validated as they streamed."""
    for child in root:
        if child.tag in sections:
            for grandchild in list(child):
                child.remove(grandchild)
