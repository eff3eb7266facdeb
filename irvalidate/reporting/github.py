"""``--format github``: GitHub Actions workflow commands, one annotation per finding.

    ::group::models/net.xml
    ::error file=models/net.xml,line=12,title=IRV102 incompatible-broadcast::Add 'add' ...
    ::endgroup::
    Found 1 error in 1 file checked.

Why this shape:

* Escaping is exactly actions/toolkit's ``command.ts``: data (the message, a group title)
  escapes ``%`` ``\\r`` ``\\n``; property values (file, title) also ``:`` and ``,``.  ``%``
  goes first, or the other escapes would be escaped again.  Anything else is literal, so a
  shape like ``[1,3]`` in a message needs nothing.
* The shape table travels inside the message as escaped newlines: the annotation then shows
  the same explanation as the text report.
* Each file's annotations sit in a ``::group::`` (yamllint does the same): a big model's log
  folds to one line per file, and groups do not affect annotations.  Files without findings
  get no group.
* GitHub turns at most 10 errors, 10 warnings and 10 notices per step into annotations and
  drops the rest silently, so every finding is printed anyway and a plain summary line (not a
  command) follows, saying when some were left without an annotation.
* ``file=`` is the path relative to the working directory (the checkout, in CI) with forward
  slashes, since GitHub matches it against the repository; elsewhere the path as given.
  No line means no ``line=``: GitHub then annotates the file; ``col=`` is where the element
  the finding names starts on the line.
"""
from __future__ import annotations

from collections.abc import Sequence

from .common import count_levels, message_text, relative_path, summary
from .names import display_path, printed

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}
#: annotations GitHub shows per step, for each of error, warning and notice
STEP_LIMIT = 10


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation_path(path: str) -> str:
    """The path an annotation names: relative to the working directory when inside it."""
    relative = relative_path(path)
    return printed(display_path(path if relative is None else relative), keep="\r\n")


def command(name: str, message: str, **properties: object) -> str:
    """``::name key=value,...::message``; empty, None and 0 properties are left out, as the
    toolkit does."""
    props = ",".join(f"{k}={escape_property(str(v))}" for k, v in properties.items()
                     if v)
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def render(results: Sequence, version: str) -> str:
    lines: list[str] = []
    for result in results:
        if not result.findings:
            continue
        path = annotation_path(result.path)
        lines.append(command("group", path))
        for f in result.findings:
            lines.append(command(COMMANDS.get(f.level, "warning"), message_text(f), file=path,
                                 line=f.line, col=f.column, title=f"{f.code} {f.slug}"))
        lines.append(command("endgroup", ""))
    counts = count_levels(results)
    if any(counts.values()):
        lines.append(summary(results))
        over = [f"{n - STEP_LIMIT} {level}" for level, n in counts.items() if n > STEP_LIMIT]
        if over:
            lines.append(f"GitHub annotates at most {STEP_LIMIT} errors, {STEP_LIMIT} warnings "
                         f"and {STEP_LIMIT} notices per step; {', '.join(over)} finding(s) "
                         f"above have no annotation.")
    return "\n".join(lines) + ("\n" if lines else "")
