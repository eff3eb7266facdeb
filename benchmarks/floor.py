#!/usr/bin/env python3
"""The floor for a Python IR validator: one lxml iterparse pass that reads every ``<dim>``.

Why: issue 6 measures irvalidate against the least work any streaming Python tool must do on
an IR, parsing the whole XML and turning every declared dimension into an int, in bounded
memory.  irvalidate cannot do less than this (it must read every dim to check it), so
``irvalidate time / floor time`` shows how much its own logic costs on top of parsing.

Memory stays bounded the usual way: each ``<dim>`` is cleared once read, and each finished
``<layer>`` / ``<edge>`` is cleared and dropped from its parent together with its earlier
siblings, so the tree never holds more than the current layer.

    python benchmarks/floor.py model.xml      # prints the dim count and their sum

``python_read`` is the in-process floor of issue 26: the least a Python tool does to learn
the facts a check reads (every layer's, data's and port's attributes, every dim, every
edge), without building a tree or checking that the XML is well formed: one regular
expression over the bytes, each element's attributes into a dict.  Against
``read_model`` on the non-repeating set, it alone takes ~0.7x (issue 26's notes).
"""
import re
import sys

from lxml import etree

#: the elements a check reads, and a dim's text
_ELEMENT = re.compile(rb'<(layer|data|port|dim|edge)\b([^>]*)>(?:([^<]*)</dim>)?')
_ATTRIBUTE = re.compile(rb'([\w-]+)="([^"]*)"')


def python_read(path: str) -> list:
    """Every layer/data/port/edge element's attributes as a dict, every dim as an int (-1:
    dynamic), in file order."""
    with open(path, "rb") as file:
        text = file.read()
    out: list = []
    for match in _ELEMENT.finditer(text):
        if match.group(1) == b"dim":
            dim = match.group(3)
            out.append(int(dim) if dim.isdigit() else -1)
        else:
            out.append(dict(_ATTRIBUTE.findall(match.group(2))))
    return out


def floor(path: str) -> tuple:
    count = total = 0
    for _, el in etree.iterparse(path, events=("end",), tag=("dim", "layer", "edge")):
        if el.tag == "dim":
            total += int(el.text)
            count += 1
            el.clear()
        else:
            el.clear()
            while el.getprevious() is not None:
                del el.getparent()[0]
    return count, total


if __name__ == "__main__":
    print(*floor(sys.argv[1]))
