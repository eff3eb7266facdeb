"""The rules' documentation: their reST docstrings split into paragraphs and literal blocks,
as plain text (``irvalidate explain``) or for Markdown (the SARIF help, reporting/sarif.py).

The docstrings use two pieces of markup: ````code```` and a paragraph ending in ``::`` that
introduces an indented literal block (an IR snippet).
"""
from __future__ import annotations

import re
import textwrap


def cleandoc(doc: str) -> str:
    """``inspect.cleandoc``, without importing inspect (ast, dis and tokenize: ~6 ms of a
    SARIF report's start): the first line stripped of leading blanks, the indentation the
    other lines share removed, and blank lines at either end dropped."""
    lines = doc.expandtabs().split("\n")
    margins = [len(line) - len(line.lstrip()) for line in lines[1:] if line.lstrip()]
    lines[0] = lines[0].lstrip()
    if margins:
        margin = min(margins)
        lines[1:] = [line[margin:] for line in lines[1:]]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines)


def blocks(body: str) -> list[tuple[str, list[str]]]:
    """``("text", lines)`` paragraphs and ``("literal", lines)`` blocks, dedented.  A
    paragraph's closing ``::`` becomes ``:`` (``text ::`` loses it, as in reST)."""
    out: list[tuple[str, list[str]]] = []
    paragraph: list[str] = []
    literal: list[str] | None = None

    def flush() -> None:
        if paragraph:
            out.append(("text", list(paragraph)))
            paragraph.clear()

    for line in body.splitlines():
        if literal is not None:
            if not line.strip() or line.startswith((" ", "\t")):
                literal.append(line)
                continue
            out.append(("literal", textwrap.dedent("\n".join(literal)).strip("\n").splitlines()))
            literal = None
        if not line.strip():
            flush()
        elif line.rstrip().endswith("::"):
            head = line.rstrip()[:-2]
            if head.strip():
                paragraph.append(head.rstrip() if head.endswith(" ") else head + ":")
            flush()
            literal = []
        else:
            paragraph.append(line)
    flush()
    if literal:
        out.append(("literal", textwrap.dedent("\n".join(literal)).strip("\n").splitlines()))
    return out


def _inline(text: str) -> str:
    return re.sub(r"``(.+?)``", r"\1", text, flags=re.S)


def split(doc: str) -> tuple[str, str]:
    """(summary, body) of a docstring whose first paragraph is ``CODE slug: summary``; the
    summary is the whole paragraph, unwrapped, as plain text with a capital first letter."""
    heading, _, body = cleandoc(doc).partition("\n\n")
    summary = _inline(" ".join(heading.split()).split(": ", 1)[-1])
    if not summary.startswith("irvalidate"):  # the tool's name keeps its lower case
        summary = summary[:1].upper() + summary[1:]
    return summary, body.strip("\n")


def plain_text(body: str) -> str:
    """reST to plain text: ````code```` loses its quotes; literal blocks are indented."""
    out: list[str] = []
    for kind, lines in blocks(body):
        if kind == "literal":
            out.extend("    " + line if line.strip() else "" for line in lines)
        else:
            out.extend(_inline("\n".join(lines)).splitlines())
        out.append("")
    return "\n".join(out).strip("\n") + "\n"
