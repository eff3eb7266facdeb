"""Run every rule over every graph of a file; attach codes, severities and the path."""
from __future__ import annotations

import os
import traceback
from dataclasses import dataclass
from typing import List, Optional, Sequence

from .analysis import GraphAnalysis
from .binfile import BinFile
# the engine only calls Config() for validate_file(config=None) and reads attributes:
# Defaults holds the same values without importing pydantic
from .config import Defaults as Config
from .findings import Finding, LayerRef, Problem
from .ir import Graph
from .parser import parse
from .rules import INTERNAL_ERROR, RULES
from .rules._common import Context
from .selection import enabled, ignores_for, level, plan


@dataclass(frozen=True)
class FileResult:
    path: str
    findings: List[Finding]


def default_bin(xml_path: str) -> str:
    return os.path.splitext(xml_path)[0] + ".bin"


#: a message longer than this is cut in the middle (a hostile file must not flood reports)
MAX_MESSAGE = 2000


def _clip(message: str) -> str:
    if len(message) <= MAX_MESSAGE:
        return message
    return message[:MAX_MESSAGE - 300] + f" ... [{len(message) - MAX_MESSAGE + 100} characters cut] ... " + message[-200:]


def _finding(path: str, rule, level: str, problem: Problem) -> Finding:
    return Finding(path=path, line=problem.line, code=rule.CODE, slug=rule.SLUG, level=level,
                   message=_clip(problem.message), layer=LayerRef.of(problem.layer), port=problem.port,
                   expected=problem.expected, declared=problem.declared, table=problem.table,
                   scope=problem.scope)


def _internal(path: str, where: str, err: BaseException, config: Config) -> List[Finding]:
    code, slug = INTERNAL_ERROR
    if not enabled(config, code, slug, ignores_for(config, path)):
        return []
    frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    at = f" at {os.path.basename(frame.filename)}:{frame.lineno}" if frame else ""
    return [Finding(path=path, line=None, code=code, slug=slug,
                    level=level(config, code, slug, "error"),
                    message=f"internal error in {where}: {type(err).__name__}: {err}{at}; "
                    f"please report it with the file")]


def validate_file(path: str, bin_path: Optional[str] = None, config: Optional[Config] = None,
                  rules: Sequence = RULES) -> FileResult:
    """Every finding for one IR file; never raises for anything the file contains.  The path
    is kept as given (the formatters make a name that is not UTF-8 displayable, names.py)."""
    return _validate(path, bin_path, config or Config(), rules)


def _validate(path: str, bin_path: Optional[str], config: Config, rules: Sequence) -> FileResult:
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
            contexts = [Context(doc, graph, GraphAnalysis(graph, weights), index == 0)
                        for index, graph in enumerate(doc.graphs())]
    except Exception as err:  # noqa: BLE001 - one bad file must not stop the others
        return FileResult(path, _internal(path, "the parser", err, config))
    for ctx in contexts:
        for rule, rule_level in planned:
            try:
                findings.extend(_finding(path, rule, rule_level, p) for p in rule.check(ctx))
            except Exception as err:  # noqa: BLE001
                findings.extend(_internal(path, f"rule {rule.CODE} {rule.SLUG}", err, config))
    findings.sort(key=Finding.sort_key)
    return FileResult(path, findings)
