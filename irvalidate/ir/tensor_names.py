"""The tensor names of the model's Parameters (``<port names="a,b">``), which the records do
not keep: only ``--reshape`` needs them, to find an input by any of its names, as
``Model.reshape`` does.  One streaming pass, as safe as the parser's.
"""
from __future__ import annotations

import re

from lxml import etree

from .parser import _Reader, parser_options


def split_names(text: str) -> list[str]:
    """``names`` as the reader splits it: on commas, a ``\\,`` being a comma of a name."""
    names, current, escaped = [], "", False
    for char in text:
        if escaped:
            current, escaped = current + char, False
        elif char == "\\":
            escaped = True
        elif char == ",":
            names.append(current.strip())
            current = ""
        else:
            current += char
    names.append(current.strip())
    return [n for n in names if n]


def parameter_names(path: str) -> dict[str, list[str]]:
    """Each top-level Parameter's output tensor names, by layer id ({} when unreadable)."""
    found: dict[str, list[str]] = {}
    try:
        with open(path, "rb") as handle:
            for _, elem in etree.iterparse(_Reader(handle), events=("end",),
                                           tag=("layer", "layers"), **parser_options()):
                parent = elem.getparent()
                if elem.tag == "layers":
                    if parent is not None and parent.getparent() is None:
                        break  # the model's layers end: the tree would keep every edge
                    continue   # after them (10^6 edges: ~1 GB)
                top = parent is not None and parent.getparent() is not None \
                    and parent.getparent().getparent() is None
                if top and (elem.get("type") or "").lower() == "parameter":
                    found[elem.get("id") or ""] = _output_names(elem)
                if top:
                    elem.clear()
    except (etree.XMLSyntaxError, OSError, ValueError):
        return found
    return found


#: a ``<layer .../>`` with no content, on one line
_EMPTY_LAYER = re.compile(rb"\s*<layer\b[^>]*/>")


def names_at(path: str, line: int) -> list[str]:
    """The output tensor names of the layer whose ``<layer`` starts on ``line`` (the
    scanner's exact line), read from that layer's own text; ValueError when that text is
    not one element (a streamed --reshape then reads the file whole)."""
    from itertools import islice
    with open(path, "rb") as handle:
        lines = []
        for text in islice(handle, line - 1, None):
            lines.append(text)
            if b"</layer>" in text or (len(lines) == 1 and _EMPTY_LAYER.match(text)):
                break
    try:
        elem = etree.fromstring(b"".join(lines).strip(), etree.XMLParser(**parser_options()))
    except etree.XMLSyntaxError as err:
        raise ValueError(f"the layer on line {line} is not one element") from err
    if elem.tag != "layer":
        raise ValueError(f"no layer starts on line {line}")
    return _output_names(elem)


def _output_names(layer: etree._Element) -> list[str]:
    """The tensor names of a layer element's output ports, in order."""
    names: list[str] = []
    for port in layer.iterfind("output/port"):
        names.extend(split_names(port.get("names") or ""))
    return names
