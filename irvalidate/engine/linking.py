"""Root causes: a finding that follows from another is linked to the root it follows from.

One wrong declaration floods a report: a Parameter resized by hand makes every declared dim
downstream contradict inference.  A contradiction at a layer whose inputs already contradict
upstream (an edge whose ports disagree, a producer whose declared output is not what it
infers) is a consequence; one whose inputs all agree is a root.  Rules say where their
problem sits (``Problem.site``) and which sites upstream it would follow from
(``Problem.after``); this module follows those links to each consequence's root, within one
graph (a nested body is its own), and gives the finding a :class:`~irvalidate.rules.findings.Cause`.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..rules.findings import Cause, Finding, Problem

_Key = tuple[str, tuple]  # (scope, site): a site within its graph


def _parents(problems: Sequence[Problem]) -> list[int | None]:
    """For each problem, the first problem at a site it follows from (or None)."""
    at: dict[_Key, int] = {}
    for i, problem in enumerate(problems):
        if problem.site is not None:
            at.setdefault((problem.scope, problem.site), i)
    parents: list[int | None] = []
    for i, problem in enumerate(problems):
        found = (at.get((problem.scope, site)) for site in problem.after)
        parents.append(next((j for j in found if j is not None and j != i), None))
    return parents


def _roots(parents: list[int | None]) -> list[int | None]:
    """Each problem's root, following parents (None for a root itself).  In a loop of
    parents (a graph cycle) the first problem met twice is taken as the root."""
    roots: list[int | None] = [None] * len(parents)
    done = [False] * len(parents)
    for start in range(len(parents)):
        path: list[int] = []
        on_path = set()
        node = start
        while not done[node] and node not in on_path:
            parent = parents[node]
            if parent is None:
                break
            path.append(node)
            on_path.add(node)
            node = parent
        root = roots[node]
        top = root if done[node] and root is not None else node
        for j in path:
            if j != top:
                roots[j], done[j] = top, True
        done[top] = True
    return roots


def link(problems: Sequence[Problem], findings: Sequence[Finding]) -> list[Finding]:
    """The findings (made from ``problems``, in the same order), each consequence carrying
    the root it follows from."""
    if not any(p.after for p in problems):
        return list(findings)
    roots = _roots(_parents(problems))
    linked = list(findings)
    for i, root in enumerate(roots):
        if root is not None:
            origin = findings[root]
            linked[i] = linked[i]._replace(caused_by=Cause(origin.code, origin.layer,
                                                           origin.port, origin.line))
    return linked
