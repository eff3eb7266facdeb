"""Default output: ``file:line: CODE [level] message``, then the shape table when there is one."""
from __future__ import annotations

from typing import List, Sequence

from ..table import render as render_table


def render(results: Sequence, version: str) -> str:
    lines: List[str] = []
    counts = {"error": 0, "warning": 0, "info": 0}
    for result in results:
        for f in result.findings:
            counts[f.level] += 1
            where = f"{f.path}:{f.line}" if f.line is not None else f.path
            scope = f" [in {f.scope}]" if f.scope else ""
            lines.append(f"{where}: {f.code} [{f.level}] {f.message}{scope} ({f.slug})")
            if f.table is not None and f.table.rows:
                lines.extend(render_table(f.table))
    if any(counts.values()):
        parts = [f"{n} {level}{'s' if n != 1 else ''}" for level, n in counts.items() if n]
        lines.append(f"Found {', '.join(parts)} in {len(results)} file{'s' if len(results) != 1 else ''}.")
    return "\n".join(lines) + ("\n" if lines else "")
