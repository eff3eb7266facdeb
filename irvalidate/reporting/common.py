"""What the report formats share: paths relative to the working directory, a finding's text
with its shape table, and the one-line summary."""
from __future__ import annotations

import os
from collections.abc import Sequence

from .names import printed
from .table import render as render_table

LEVELS = ("error", "warning", "info")


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def relative_path(path: str) -> str | None:
    """The path relative to the working directory, with forward slashes; None outside it.
    Symlinks are resolved first, as GitHub asks.  (PurePath.relative_to's answer, found
    without importing pathlib, which brings urllib.parse and ipaddress: ~4 ms of a start.)"""
    real, cwd = os.path.realpath(path), os.path.realpath(os.getcwd())
    if os.name != "posix":  # drive letters and case: pathlib knows them
        from pathlib import Path
        try:
            return Path(real).relative_to(Path(cwd)).as_posix()
        except ValueError:
            return None
    if real == cwd:
        return "."
    inside = cwd.rstrip("/") + "/"
    return real[len(inside):] if real.startswith(inside) else None


def message_text(f) -> str:
    """The text report's message and shape table, for formats that show nothing else."""
    # control characters are escaped (see names); line breaks are left to the format
    text = printed(f.message + (f" [in {f.scope}]" if f.scope else ""), keep="\r\n")
    if getattr(f, "caused_by", None) is not None:
        text += f" ({cause_text(f.caused_by)})"
    if f.table is not None and f.table.rows:
        text += "\n" + "\n".join(render_table(f.table))
    return text


def root_key(f) -> tuple:
    """What names a finding as a root: its rule, layer, port and line (see cause_key)."""
    return f.code, None if f.layer is None else f.layer.id, f.port, f.line


def cause_key(cause) -> tuple:
    """The root_key of the root a consequence's ``caused_by`` names."""
    return cause.code, None if cause.layer is None else cause.layer.id, cause.port, cause.line


def cause_text(cause) -> str:
    """``follows from IRV201 on line 29``: a consequence's root, in words."""
    if cause.line is not None:
        return f"follows from {cause.code} on line {cause.line}"
    layer = f" of layer id={cause.layer.id}" if cause.layer is not None else ""
    return f"follows from {cause.code}{layer}"


def count_levels(results: Sequence) -> dict[str, int]:
    counts = dict.fromkeys(LEVELS, 0)
    for result in results:
        for f in result.findings:
            counts[f.level] = counts.get(f.level, 0) + 1
    return counts


def summary(results: Sequence) -> str:
    """``Found 2 errors, 1 warning in 2 of 3 files checked.``, or ``3 files checked, no
    problems.``: a clean run says so, or it would look like a run that checked nothing; and
    the files with findings are told apart from the files checked."""
    counts = count_levels(results)
    checked = plural(len(results), "file")
    if any(counts.values()):
        parts = [plural(n, level) for level, n in counts.items() if n]
        with_findings = sum(1 for result in results if result.findings)
        where = (f"{with_findings} of {len(results)} files" if with_findings < len(results)
                 else checked)
        return f"Found {', '.join(parts)} in {where} checked."
    return f"{checked} checked, no problems." if results else ""
