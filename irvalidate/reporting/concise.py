"""``--format concise``: one line per finding, as ruff's concise output, then the summary.

    models/net.xml:12:7: IRV102 [error] Add 'add' (id=2): ...

No shape tables and no grouping under roots: every finding, consequences included (each
says which root it follows from), so that ``grep`` and ``wc -l`` count findings.
"""
from __future__ import annotations

from collections.abc import Sequence

from .common import cause_text, summary
from .names import printed, shown_path


def line(f) -> str:
    path = shown_path(f.path)
    where = path if f.line is None else f"{path}:{f.line}" if f.column is None else \
        f"{path}:{f.line}:{f.column}"
    text = f.message + (f" [in {f.scope}]" if f.scope else "")
    if f.caused_by is not None:
        text += f" ({cause_text(f.caused_by)})"
    # a message is one line, but a hostile file's names could hold a line break
    return f"{where}: {f.code} [{f.level}] " + printed(text)


def render(results: Sequence, version: str) -> str:
    lines: list[str] = [line(f) for result in results for f in result.findings]
    last = summary(results)
    if last:
        lines.append(last)
    return "\n".join(lines) + ("\n" if lines else "")
