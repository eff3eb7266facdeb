"""From the fixes rules propose to the byte replacements one round of --fix makes.

Each problem's :class:`~irvalidate.rules.findings.Fix` becomes replacements of the file's text
(spans.py).  Two fixes that write the same text in the same place are one edit (an output
port's fix and the edge check's fix both set the consumer's dims); two that disagree about a
place are a conflict, and the later one is left out and says so.  A fix with *choices* (a
Parameter's shape attribute or its port) is decided by ``decide``, which tries each choice
on the whole file; in a round that makes such a decision nothing else is written, since the
decision changes what every layer after it infers.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ...ir.records import Document
from ...rules.findings import Change, Fix, FixInfo, Problem
from .ledger import edits_of
from .spans import SpanMap, Unlocatable

#: (start, end, new bytes, cause: (rule code, layer id))
Replacement = tuple[int, int, bytes, tuple[str, str | None]]
#: decide(problem, its fix) -> the index of the choice to write, or why none can be
Decide = Callable[[Problem, Fix], "int | str"]


class Round:
    """One round's plan: a FixInfo per problem, and the replacements to apply."""

    def __init__(self, doc: Document, data: bytes, problems: Sequence[tuple[str, Problem]],
                 decide: Decide | None = None) -> None:
        self.infos: list[FixInfo | None] = [None] * len(problems)
        self.replacements: list[Replacement] = []
        #: the ports and layers whose declarations the accepted fixes change
        self.changed: dict[int, object] = {}
        chosen: dict[int, tuple[Change, ...]] = {}
        for i, (_, problem) in enumerate(problems):
            fix = problem.fix
            if fix is None or not fix.choices or fix.blocked:
                continue
            choice = "only --fix can tell which side is right" if decide is None else \
                decide(problem, fix)
            if isinstance(choice, str):
                self.infos[i] = FixInfo(blocked=choice)
            else:
                chosen[i] = fix.choices[choice]
        # a decision made changes what the layers after it infer: the rest waits a round (a
        # choice left undecided keeps the attribute, which is what the runtime reads)
        deciding = bool(chosen)
        for i, (_, problem) in enumerate(problems):
            fix = problem.fix
            if fix is None or fix.choices and not fix.blocked:
                continue
            if fix.blocked:
                self.infos[i] = FixInfo(blocked=fix.blocked)
            elif not deciding:
                chosen[i] = fix.changes
        self._locate(doc, data, problems, chosen)

    def _locate(self, doc: Document, data: bytes, problems: Sequence[tuple[str, Problem]],
                chosen: dict[int, tuple[Change, ...]]) -> None:
        if not chosen:
            return
        spans = SpanMap(doc, data, [c for changes in chosen.values() for c in changes])
        taken: dict[tuple[int, int], bytes] = {}
        intervals: list[tuple[int, int]] = []
        accepted: dict[int, list] = {}
        for i, changes in chosen.items():
            code, problem = problems[i]
            try:
                mine = sorted({r for c in changes for r in spans.replacements(c)})
            except Unlocatable as err:
                self.infos[i] = FixInfo(blocked=f"the text to edit cannot be found ({err})")
                continue
            clash = next((r for r in mine if taken.get(r[:2], r[2]) != r[2]
                          or (r[:2] not in taken and _overlaps(intervals, r))), None)
            if clash is not None:
                self.infos[i] = FixInfo(blocked="another fix edits the same text; run --fix "
                                        "again once it is written")
                continue
            fresh = [r for r in mine if r[:2] not in taken]
            for start, end, text in fresh:
                taken[(start, end)] = text
                intervals.append((start, end))
                self.replacements.append((start, end, text, (code, _layer_id(problem))))
            accepted[i] = mine
            self.changed.update((id(r), r) for r in map(_record, changes))
        # lines and columns for every edit at once: one pass over the file, not one each
        owners = [i for i, mine in accepted.items() for _ in mine]
        flat = [(s, e, t, (problems[i][0], _layer_id(problems[i][1])))
                for i, mine in accepted.items() for s, e, t in mine]
        edits: dict[int, list] = {i: [] for i in accepted}
        for edit, i in zip(edits_of(data, flat), owners):
            edits[i].append(edit)
        for i, found in edits.items():
            self.infos[i] = FixInfo(edits=tuple(found))


def _record(change: Change) -> object:
    return change.port if hasattr(change, "port") else change.layer


def _overlaps(intervals: list[tuple[int, int]], r: tuple[int, int, bytes]) -> bool:
    start, end = r[0], r[1]
    return any(s < end and start < e or (s == e == start == end) for s, e in intervals)


def _layer_id(problem: Problem) -> str | None:
    return problem.layer.id if problem.layer is not None else None
