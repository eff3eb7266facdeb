"""What --diff and --fix print besides the report, and the exit status they give.

--diff prints the patch alone on standard output (``irvalidate --diff models/ | git apply``
works); what would remain and what cannot be written goes to standard error, as do the
notes of --fix, so a JSON or SARIF report on standard output stays one document.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..reporting.common import plural
from ..reporting.names import printed, shown_path

if TYPE_CHECKING:
    from ..engine.validation import FileResult
    from ..rules.findings import FileFix, Finding

#: the remaining errors listed with their reasons, at most, per run (the report has them all)
MAX_LISTED = 50
#: why an error no rule attaches a fix to is not fixed, for the usual ones
_NO_FIX = {
    "IRV102": "the runtime refuses the layer's inputs, and no declaration of the file says "
              "what they should be; change the model",
    "IRV204": "--fix needs the .bin (its constants prove the dims it writes): put it in "
              "place or pass --bin",
}


def diff_text(results: Sequence) -> bytes:
    """The patches of the files --fix would write: none for a file it refuses."""
    return b"".join(r.fix.diff for r in results
                    if r.fix is not None and r.fix.diff and not r.fix.refused)


def notes(results: Sequence, diff: bool, quiet: int) -> list[str]:
    lines: list[str] = []
    for r in results:
        fix = r.fix
        if fix is not None and fix.refused and (fix.failed or fix.edits or quiet < 2):
            verb = "cannot fix" if fix.failed else "not fixed"
            lines.append(f"irvalidate: {verb} {shown_path(r.path)}: {printed(fix.refused)}")
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
    return lines + _remaining(results)


def _remaining(results: Sequence) -> list[str]:
    """One line per error the edits leave (with --diff: would leave), saying why it is not
    fixed."""
    left = [(r, f, why) for r in results for f, why in unfixed(r)]
    if not left:
        return []
    lines = [f"{plural(len(left), 'error')} not fixed:"]
    for r, f, why in left[:MAX_LISTED]:
        where = f"{shown_path(r.path)}:{f.line}" if f.line else shown_path(r.path)
        lines.append(f"  {where}: {f.code} {f.slug}: {printed(why)}")
    if len(left) > MAX_LISTED:
        lines.append(f"  and {len(left) - MAX_LISTED} more (the report lists them)")
    return lines


def unfixed(result: FileResult) -> list[tuple[Finding, str]]:
    """The errors a --diff or --fix result leaves (those its edits do not fix), each with
    why it is not fixed."""
    outcome = result.fix
    if outcome is None:
        return []
    return [(finding, _why(finding, outcome)) for finding in outcome.remain]


def _why(finding: Finding, outcome: FileFix) -> str:
    if outcome.refused and not outcome.written:
        return "the file is not edited (the reason is above)"
    info = finding.fix
    if info is not None and info.blocked:
        return info.blocked
    if info is not None:  # a fix that writes nothing: this end agrees with inference
        return ("this end already declares what inference gives; the other end is stale "
                "(its own finding says why it is not fixed)")
    return _NO_FIX.get(finding.code, f"irvalidate has no automatic fix for {finding.slug} errors")


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
