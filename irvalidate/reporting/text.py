"""Default output: ``file:line:column: CODE [level] message``, then the shape table when there
is one (no column when it is unknown, no line either for a finding about the whole file).

A file's roots lead, in line order; the findings that follow from a root (irvalidate.engine.linking)
are counted under it, or listed after it with ``-v``/``--show-consequences``.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .common import cause_key, cause_text, root_key, summary
from .names import printed, shown_path
from .table import render as render_table

_COLORS = {"error": "\033[31m", "warning": "\033[33m", "info": "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def _line(f, color: bool) -> str:
    path = shown_path(f.path)
    where = path if f.line is None else f"{path}:{f.line}" if f.column is None else \
        f"{path}:{f.line}:{f.column}"
    scope = f" [in {printed(f.scope)}]" if f.scope else ""
    cause = f" ({cause_text(f.caused_by)})" if f.caused_by is not None else ""
    message = printed(f.message)  # names from the file: no line of their own (see names)
    if not color:
        return f"{where}: {f.code} [{f.level}] {message}{scope}{cause} ({f.slug})"
    return (f"{_BOLD}{where}{_RESET}: {_COLORS[f.level]}{f.code} [{f.level}]{_RESET} "
            f"{message}{scope}{cause} {_DIM}({f.slug}){_RESET}")


def _finding_lines(f, color: bool) -> list[str]:
    lines = [_line(f, color)]
    if f.fix is not None and f.fix.blocked:  # only --diff and --fix plan fixes
        lines.append(f"    not fixed automatically: {printed(f.fix.blocked)}")
    if f.table is not None and f.table.rows:
        lines.extend(render_table(f.table))
    return lines


def _following(n: int) -> str:
    return (f"    and {n} more declared dim{'s' if n != 1 else ''} downstream "
            f"follow{'' if n != 1 else 's'} from it")


def _file_lines(findings: Sequence, color: bool, show_consequences: bool) -> list[str]:
    """A file's findings, roots first (see the module)."""
    roots = {root_key(f) for f in findings if f.caused_by is None}
    following: dict[tuple, list] = {}
    for f in findings:
        if f.caused_by is not None and cause_key(f.caused_by) in roots:
            following.setdefault(cause_key(f.caused_by), []).append(f)
    lines: list[str] = []
    for f in findings:
        if f.caused_by is not None and cause_key(f.caused_by) in roots:
            continue  # listed under its root
        lines.extend(_finding_lines(f, color))
        after = following.pop(root_key(f), []) if f.caused_by is None else []
        if show_consequences:
            for consequence in after:
                lines.extend(_finding_lines(consequence, color))
        elif after:
            lines.append(_following(len(after)))
    return lines


def reshape_lines(result, outcome=None) -> list[str]:
    """--reshape: the verdict, and the new shapes of the model's inputs and outputs (of
    ``outcome``, one of several requests, named first; default the only one)."""
    from ..shapes.dims import format_shape
    named = outcome is not None
    outcome = outcome if named else result.reshape
    shown = lambda pairs: ", ".join(f"{printed(n)}{format_shape(s, False)}"  # noqa: E731 - a one-line helper
                                    for n, s in pairs)
    if not outcome.changed:
        verdict = "nothing to do: every input asked for already has that shape"
    elif outcome.works:
        verdict = "works" + (" (with SmartReshape's rewrites)" if outcome.rewrites else "")
    else:
        verdict = "breaks (Model.reshape fails)"
    which = f"--reshape {printed(outcome.request)}: " if named else ""
    lines = [f"{shown_path(result.path)}: {which}reshape to {shown(outcome.inputs)}: {verdict}"]
    if outcome.works:
        lines.append(f"    outputs: {shown(outcome.outputs)}")
    return lines


def render(results: Sequence, version: str, color: bool = False, quiet: int = 0,
           statistics: bool = False, show_consequences: bool = False) -> str:
    lines: list[str] = []
    per_rule: Counter = Counter()
    slugs = {}
    for result in results:
        for f in result.findings:
            per_rule[f.code] += 1
            slugs[f.code] = f.slug
        if quiet == 1 and result.findings:
            lines.append(shown_path(result.path))
        if quiet or statistics:  # --statistics: the counts instead of the findings, as ruff
            continue
        lines.extend(_file_lines(result.findings, color, show_consequences))
        if getattr(result, "reshape", None) is not None:
            lines.extend(reshape_lines(result))
        elif len(getattr(result, "requests", ())) > 1:  # each request that fits, named
            for outcome in result.requests:
                if hasattr(outcome, "works"):
                    lines.extend(reshape_lines(result, outcome))
    if quiet >= 2:
        return ""
    if statistics:
        lines.extend(f"{n:<5} {code} {slugs[code]}" for code, n in sorted(per_rule.items()))
    line = summary(results) if not quiet else ""
    if line:
        lines.append(line)
    return "\n".join(lines) + ("\n" if lines else "")
