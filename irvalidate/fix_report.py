"""What --diff and --fix print besides the report, and the exit status they give.

--diff prints the patch alone on standard output (``irvalidate --diff models/ | git apply``
works); what would remain and what cannot be written goes to standard error, as do the
notes of --fix, so a JSON or SARIF report on standard output stays one document.
"""
from __future__ import annotations

from typing import List, Sequence

from .names import display_path
from .reporting.common import plural


def diff_text(results: Sequence) -> bytes:
    """The patches of the files --fix would write: none for a file it refuses."""
    return b"".join(r.fix.diff for r in results
                    if r.fix is not None and r.fix.diff and not r.fix.refused)


def notes(results: Sequence, diff: bool, quiet: int) -> List[str]:
    lines: List[str] = []
    for r in results:
        fix = r.fix
        if fix is not None and fix.refused and (fix.failed or fix.edits or quiet < 2):
            verb = "cannot fix" if fix.failed else "not fixed"
            lines.append(f"irvalidate: {verb} {display_path(r.path)}: {fix.refused}")
    if quiet >= 2:
        return lines
    changed = [r for r in results if r.fix is not None and r.fix.edits and
               (r.fix.written or (diff and not r.fix.refused))]
    fixed = sum(r.fix.fixed for r in changed)
    edits = sum(len(r.fix.edits) for r in changed)
    files = plural(len(changed), "file")
    if diff:
        lines.append(f"Would fix {plural(fixed, 'problem')} in {files} ({plural(edits, 'edit')})."
                     if changed else "Nothing to fix.")
    elif changed:
        lines.append(f"Fixed {plural(fixed, 'problem')} in {files} ({plural(edits, 'edit')}).")
    return lines


def exit_status(results: Sequence, errors: bool, diff: bool, non_zero_on_fix: bool) -> int:
    """2 when a file could not be read or written; with --diff, 1 when there is something to
    fix or an error; with --fix, 1 when an error remains (or, asked, when a file changed)."""
    if any(r.fix is not None and r.fix.failed for r in results):
        return 2
    if diff:
        pending = any(r.fix is not None and r.fix.edits and not r.fix.refused for r in results)
        return 1 if pending or errors else 0
    written = any(r.fix is not None and r.fix.written for r in results)
    return 1 if errors or (written and non_zero_on_fix) else 0
