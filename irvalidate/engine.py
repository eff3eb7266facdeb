"""Run every rule over every graph of a file; attach codes, severities and the path."""
from __future__ import annotations

import os
import traceback
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

from .analysis import GraphAnalysis, analyse

# the engine reads a configuration's attributes and makes one only for validate_file(
# config=None): Defaults holds Config()'s values without importing pydantic
from .config import Defaults
from .findings import Finding, LayerRef, Problem
from .ir.locate import MAX_EXACT_LINE, dim_key, find_lines, record_keys
from .ir.parser import parse
from .ir.records import Document, Graph
from .ir.weights import BinFile
from .rules import INTERNAL_ERROR, RULES
from .rules._common import Context
from .selection import enabled, ignores_for, level, plan

if TYPE_CHECKING:
    from .config import Config


@dataclass(frozen=True)
class FileResult:
    path: str
    findings: List[Finding]


def default_bin(xml_path: str) -> str:
    return os.path.splitext(xml_path)[0] + ".bin"


#: a message longer than this is cut in the middle (a hostile file must not flood reports)
MAX_MESSAGE = 2000


def clip_message(message: str) -> str:
    if len(message) <= MAX_MESSAGE:
        return message
    cut = f" ... [{len(message) - MAX_MESSAGE + 100} characters cut] ... "
    return message[:MAX_MESSAGE - 300] + cut + message[-200:]


def _finding(path: str, rule, level: str, problem: Problem, line: Optional[int]) -> Finding:
    return Finding(path=path, line=line, code=rule.CODE, slug=rule.SLUG, level=level,
                   message=clip_message(problem.message), layer=LayerRef.of(problem.layer), port=problem.port,
                   expected=problem.expected, declared=problem.declared, table=problem.table,
                   scope=problem.scope)


def _internal(path: str, where: str, err: BaseException, config: "Config") -> List[Finding]:
    code, slug = INTERNAL_ERROR.CODE, INTERNAL_ERROR.SLUG
    if not enabled(config, INTERNAL_ERROR, ignores_for(config, path)):
        return []
    frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    at = f" at {os.path.basename(frame.filename)}:{frame.lineno}" if frame else ""
    return [Finding(path=path, line=None, code=code, slug=slug,
                    level=level(config, code, slug, INTERNAL_ERROR.LEVEL),
                    message=f"internal error in {where}: {type(err).__name__}: {err}{at}; "
                    f"please report it with the file")]


def _line(problem: Problem) -> Optional[int]:
    if problem.line is not None or problem.at is None:
        return problem.line
    return getattr(problem.at, "line", None) or None


def _needs_scan(problem: Problem, line: Optional[int], doc: Document) -> bool:
    if problem.at is None:
        return False
    if line is not None and line > MAX_EXACT_LINE and doc.lines > MAX_EXACT_LINE:
        return True  # libxml2 gave a neighbour's line
    return problem.axis is not None and problem.line is None  # a <dim>: not in the records


def exact_lines(doc: Document, problems: Sequence[Problem]) -> List[Optional[int]]:
    """Each problem's line: its record's, made exact where libxml2 could not keep it (past
    line 65,534), or its ``<dim>``'s when it names one; one scan of the file at most."""
    lines = [_line(p) for p in problems]
    asked = [i for i, (p, line) in enumerate(zip(problems, lines)) if _needs_scan(p, line, doc)]
    if not asked:
        return lines
    keys = record_keys(doc, [problems[i].at for i in asked])
    wanted: Dict[int, Tuple] = {}
    for i in asked:
        key = keys.get(id(problems[i].at))
        if key is not None:
            axis = problems[i].axis
            wanted[i] = dim_key(key, axis) if axis is not None and key[0] == "port" else key
    found = find_lines(doc.path, wanted.values())
    for i, key in wanted.items():
        lines[i] = found.get(key, lines[i])
    return lines


def validate_file(path: str, bin_path: Optional[str] = None, config: Optional["Config"] = None,
                  rules: Sequence = RULES) -> FileResult:
    """Every finding for one IR file; never raises for anything the file contains.  The path
    is kept as given (the formatters make a name that is not UTF-8 displayable, names.py)."""
    return _validate(path, bin_path, config or Defaults(), rules)


def _validate(path: str, bin_path: Optional[str], config: "Config", rules: Sequence) -> FileResult:
    planned = plan(config, path, rules)
    findings: List[Finding] = []
    try:
        doc = parse(path)
        # the .bin beside the XML must really be there; one named with --bin is trusted
        weights = BinFile(bin_path) if bin_path else BinFile(default_bin(path),
                                                             os.path.dirname(os.path.abspath(path)))
        if doc.fatal:
            contexts = [Context(doc, doc.graph, GraphAnalysis(Graph(), weights), True)]
        else:
            graphs = doc.graphs()
            contexts = [Context(doc, graph, analysis, index == 0)
                        for index, (graph, analysis) in enumerate(zip(graphs, analyse(graphs, weights)))]
    except Exception as err:  # noqa: BLE001 - one bad file must not stop the others
        return FileResult(path, _internal(path, "the parser", err, config))
    problems: List[Tuple[object, str, Problem]] = []
    for ctx in contexts:
        for rule, rule_level in planned:
            try:
                problems.extend((rule, rule_level, p) for p in rule.check(ctx))
            except Exception as err:  # noqa: BLE001
                findings.extend(_internal(path, f"rule {rule.CODE} {rule.SLUG}", err, config))
    try:
        lines = exact_lines(doc, [p for _, _, p in problems])
    except Exception as err:  # noqa: BLE001 - the lines libxml2 gave stay
        lines = [_line(p) for _, _, p in problems]
        findings.extend(_internal(path, "the line locator", err, config))
    findings.extend(_finding(path, rule, rule_level, p, line)
                    for (rule, rule_level, p), line in zip(problems, lines))
    findings.sort(key=Finding.sort_key)
    return FileResult(path, findings)
