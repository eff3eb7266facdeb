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
"""
import sys

from lxml import etree


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
