"""Run every rule over every graph of a file; attach codes, severities and the path."""
from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import (
    TYPE_CHECKING,
    NamedTuple,
)

from ..analysis import GraphAnalysis, analyse
from ..analysis.what_if import UsageError
from ..ir.locate import MAX_EXACT_LINE, Ask, dim_key, find_columns, find_lines, mark_of, record_keys
from ..ir.reader import parse
from ..ir.records import Document, Graph, Port
from ..ir.weights import BinFile
from ..ops.support import memo
from ..rules import INTERNAL_ERROR, RULES
from ..rules._common import Context
from ..rules.findings import FileFix, Finding, FixInfo, LayerRef, Problem

# the engine reads a configuration's attributes and makes one only for validate_file(
# config=None): Defaults holds Config()'s values without importing pydantic
from ..settings.config import Defaults
from ..settings.selection import enabled, ignores_for, level, plan
from . import streaming
from .linking import link

if TYPE_CHECKING:
    from ..analysis.stream import Watch
    from ..analysis.what_if import NotApplicable
    from ..reshaping.run import ReshapeOutcome
    from ..settings.config import Config, Settings


class FileResult(NamedTuple):
    path: str
    findings: list[Finding]
    #: findings of rules run only because the caller asked (``extra_rules``), whatever the
    #: configuration selects: --fix asks for those that forbid writing a file
    extra: Sequence[Finding] = ()
    #: with --diff or --fix: what was (or would be) edited
    fix: FileFix | None = None
    #: with --reshape: what the what-if gave (reshaping.ReshapeOutcome)
    reshape: ReshapeOutcome | None = None
    #: with --reshape from the command line: each request's outcome, in the order given (a
    #: ReshapeOutcome, or a NotApplicable when it does not fit the file; () when the file
    #: could not be read far enough to try them)
    requests: tuple[ReshapeOutcome | NotApplicable, ...] = ()


#: planner(doc, [(code, problem)]) -> a FixInfo (or None) per problem, in order
Planner = Callable[[Document, list[tuple[str, Problem]]], list[FixInfo | None]]
#: contexts_of(doc, weights) -> the contexts the rules read, in place of the file's own
#: analysis (--reshape); it may raise UsageError, which is the caller's to report
ContextMaker = Callable[[Document, BinFile], list[Context]]
#: the weights -> a what-if for the stream to infer (analysis.stream.Watch)
Watching = Callable[[BinFile], "Watch"]


def default_bin(xml_path: str) -> str:
    return os.path.splitext(xml_path)[0] + ".bin"


#: a message longer than this is cut in the middle (a hostile file must not flood reports)
MAX_MESSAGE = 2000


def clip_message(message: str) -> str:
    if len(message) <= MAX_MESSAGE:
        return message
    cut = f" ... [{len(message) - MAX_MESSAGE + 100} characters cut] ... "
    return message[:MAX_MESSAGE - 300] + cut + message[-200:]


#: the findings of one rule that a file's report lists; one more finding counts the rest.
#: The wild corpus has 9 at most; a hostile file's 10^6 dangling edges gave 10^6 findings
#: (1.86 GB, 8 min, a 152 MB report): 1,000 keeps a report readable and bounded
MAX_PER_RULE = 1000

Item = tuple[ModuleType, str, Problem]  # (rule, level, problem)


class _Cap:
    """A file's problems, at most MAX_PER_RULE of each rule kept and the rest counted (those
    with a fix all kept when edits are planned: --fix must see them; the findings are cut
    after planning)."""

    def __init__(self, keep_fixes: bool = False) -> None:
        self.kept: Counter = Counter()
        self.omitted: dict[ModuleType, list] = {}  # rule -> [level, count]
        self.keep_fixes = keep_fixes

    def admits(self, rule, rule_level: str, fixable: bool = False) -> bool:
        if self.kept[rule] < MAX_PER_RULE or (self.keep_fixes and fixable):
            self.kept[rule] += 1
            return True
        self.omitted.setdefault(rule, [rule_level, 0])[1] += 1
        return False

    def take(self, rule, rule_level: str, problems: Iterable[Problem]) -> Iterator[Item]:
        """The problems a rule yields, those past the cap counted and forgotten."""
        return ((rule, rule_level, p) for p in problems
                if self.admits(rule, rule_level, p.fix is not None))

    def trimmed(self, items: Sequence[Item]) -> list[int]:
        """The indices of the findings kept once edits are planned (the fixable ones past
        the cap are counted then)."""
        self.kept.clear()
        self.keep_fixes = False
        return [i for i, (rule, rule_level, _) in enumerate(items)
                if self.admits(rule, rule_level)]

    def summaries(self, path: str, masked: Iterable[str] = ()) -> list[Finding]:
        """One finding per rule with problems left out, saying how many."""
        return [Finding(path=path, line=None, code=rule.CODE, slug=rule.SLUG, level=lvl,
                        message=f"{n} more {rule.SLUG} finding{'s' if n != 1 else ''} in "
                        f"this file not listed: a report lists at most {MAX_PER_RULE} of one "
                        f"rule per file")
                for rule, (lvl, n) in self.omitted.items() if rule.CODE not in masked]


def _finding(path: str, rule, level: str, problem: Problem, line: int | None,
             column: int | None = None) -> Finding:
    return Finding(path=path, line=line, code=rule.CODE, slug=rule.SLUG, level=level,
                   message=clip_message(problem.message), layer=LayerRef.of(problem.layer), port=problem.port,
                   expected=problem.expected, declared=problem.declared, table=problem.table,
                   scope=problem.scope, column=column)


def columns(path: str, problems: Sequence[Problem],
            lines: Sequence[int | None]) -> list[int | None]:
    """Each problem's column on its line: where the element it points at starts (its
    ``<dim>`` when it names an axis); None without a line or a record.  One read of the file,
    up to the last line asked for, and only when there are findings."""
    asks: list[Ask | None] = []
    for problem, line in zip(problems, lines):
        # a problem about a layer as a whole (malformed, schema) names the layer
        record = problem.at if problem.at is not None else problem.layer
        mark = None if line is None else mark_of(record)
        if mark is None:
            asks.append(None)
        elif problem.axis is not None and isinstance(problem.at, Port):
            asks.append((problem.at.line, mark, problem.axis, line))
        else:
            asks.append((line, mark, None, None))  # type: ignore[arg-type]  # no axis: its line is not read
    found = find_columns(path, asks)
    return [column if column is not None else _said_column(problem, line)
            for problem, line, column in zip(problems, lines, found)]


def _said_column(problem: Problem, line: int | None) -> int | None:
    """The column a message gives itself ("..., line 55, column 29": an XML syntax error
    as libxml2 words it), when it is on the finding's line."""
    said = _POSITION.search(problem.message)
    return int(said.group(2)) if said and line is not None and int(said.group(1)) == line \
        else None


_POSITION = re.compile(r"\bline (\d+), column (\d+)\)?$")


def _located(path: str, read_from: str, problems: Sequence[Item],
             lines: Sequence[int | None]) -> list[Finding]:
    """The findings of the problems, with their lines and columns."""
    try:
        found = columns(read_from, [p for _, _, p in problems], lines)
    except Exception:  # noqa: BLE001 - a finding without a column is still a finding
        found = [None] * len(problems)
    return [_finding(path, rule, level, p, line, column)
            for (rule, level, p), line, column in zip(problems, lines, found)]


def _internal(path: str, where: str, err: BaseException, config: Settings) -> list[Finding]:
    code, slug = INTERNAL_ERROR.CODE, INTERNAL_ERROR.SLUG
    if not enabled(config, INTERNAL_ERROR, ignores_for(config, path)):
        return []
    import traceback  # (only here: a clean run never imports it, ~2.5 ms of a start)
    frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    at = f" at {os.path.basename(frame.filename)}:{frame.lineno}" if frame else ""
    return [Finding(path=path, line=None, code=code, slug=slug,
                    level=level(config, code, slug, INTERNAL_ERROR.LEVEL),
                    message=f"internal error in {where}: {type(err).__name__}: {err}{at}; "
                    f"please report it with the file")]


def _line(problem: Problem) -> int | None:
    if problem.line is not None or problem.at is None:
        return problem.line
    return getattr(problem.at, "line", None) or None


def _needs_scan(problem: Problem, line: int | None, doc: Document) -> bool:
    if problem.at is None:
        return False
    if line is not None and line > MAX_EXACT_LINE and doc.lines > MAX_EXACT_LINE:
        return True  # libxml2 gave a neighbour's line
    return problem.axis is not None and problem.line is None  # a <dim>: not in the records


def exact_lines(doc: Document, problems: Sequence[Problem]) -> list[int | None]:
    """Each problem's line: its record's, made exact where libxml2 could not keep it (past
    line 65,534), or its ``<dim>``'s when it names one; one scan of the file at most."""
    lines = [_line(p) for p in problems]
    asked = [i for i, (p, line) in enumerate(zip(problems, lines)) if _needs_scan(p, line, doc)]
    if not asked:
        return lines
    keys = record_keys(doc, [problems[i].at for i in asked])
    wanted: dict[int, tuple] = {}
    for i in asked:
        key = keys.get(id(problems[i].at))
        if key is not None:
            axis = problems[i].axis
            wanted[i] = dim_key(key, axis) if axis is not None and key[0] == "port" else key
    found = find_lines(doc.path, wanted.values())
    for i, key in wanted.items():
        lines[i] = found.get(key, lines[i])
    return lines


def _masked(problems: list[Item]) -> set:
    return {code for rule, _, _ in problems for code in getattr(rule, "MASKS", ())}


def _unmasked(problems: list[Item]) -> list[Item]:
    """The problems less those of the rules that a rule with findings masks (``MASKS``:
    IRV218 says the .bin is another model's, and what rests on its values is noise)."""
    masked = _masked(problems)
    return [item for item in problems if item[0].CODE not in masked] if masked else problems


def weights_of(path: str, bin_path: str | None) -> BinFile:
    # the .bin beside the XML must really be there; one named with --bin is trusted
    return BinFile(bin_path) if bin_path else BinFile(default_bin(path),
                                                      os.path.dirname(os.path.abspath(path)))


def _streamed(path: str, bin_path: str | None, read_from: str | None,
              planned, watching: Watching | None = None) -> FileResult | None:
    """The file checked as it streams (see streaming.py), or None: check it whole."""
    try:
        weights = weights_of(path, bin_path)
        watch = watching(weights) if watching is not None else None
        streamed = streaming.check(read_from or path, weights, planned, watch)
        if streamed is None:
            return None
        cap = _Cap()
        items = [item for item in streamed.problems if cap.admits(item[0], item[1])]
        problems = [p for _, _, p in items]
        lines = streaming.exact_lines(streamed, problems)
    except Exception:  # noqa: BLE001 - the whole-graph check then runs, and says what fails
        return None
    findings = link(problems, _located(path, streamed.doc.path, items, lines))
    findings.sort(key=Finding.sort_key)
    return FileResult(path, findings + cap.summaries(path))


def validate_file(path: str, bin_path: str | None = None, config: Config | None = None,
                  rules: Sequence = RULES, *, read_from: str | None = None,
                  planner: Planner | None = None, extra_rules: Sequence = (),
                  contexts_of: ContextMaker | None = None,
                  document: Document | None = None,
                  watching: Watching | None = None) -> FileResult:
    """Every finding for one IR file; never raises for anything the file contains.  The path
    is kept as given (the formatters make a name that is not UTF-8 displayable, names.py).

    For --fix: ``read_from`` names a copy of the file to read in its place (the path still
    decides the configuration, the ``.bin`` and the name in findings); ``planner`` turns
    the problems into edits; ``extra_rules`` run at their own levels whatever is selected.
    ``document``: the file already parsed (--reshape's later requests read the records the
    first one made, which their contexts hold).  ``watching``: --reshape's what-if streamed
    (given the weights, the watch the stream infers a what-if for; analysis.stream.Watch),
    tried before ``contexts_of`` on a file large enough to stream.
    """
    return _validate(path, bin_path, config or Defaults(), rules, read_from, planner, extra_rules,
                     contexts_of, document, watching)


def _validate(path: str, bin_path: str | None, config: Settings, rules: Sequence,
              read_from: str | None = None, planner: Planner | None = None,
              extra_rules: Sequence = (), contexts_of: ContextMaker | None = None,
              document: Document | None = None,
              watching: Watching | None = None) -> FileResult:
    memo.clear()  # (what one file's inferences remember is no use to the next)
    planned = plan(config, path, rules)
    chosen = {rule for rule, _ in planned}
    planned += [(rule, rule.LEVEL) for rule in extra_rules if rule not in chosen]
    extra = {rule for rule in extra_rules if rule not in chosen}
    findings: list[Finding] = []
    if planner is None and (contexts_of is None or watching is not None) and not extra and \
            document is None and streaming.wanted(read_from or path):
        streamed = _streamed(path, bin_path, read_from, planned, watching)
        if streamed is not None:
            return streamed
    try:
        doc = document if document is not None else parse(read_from or path)
        weights = weights_of(path, bin_path)
        if doc.fatal:
            contexts = [Context(doc, doc.graph, GraphAnalysis(Graph(), weights), True)]
        elif contexts_of is not None:
            contexts = contexts_of(doc, weights)
        else:
            graphs = doc.graphs()
            contexts = [Context(doc, graph, analysis, index == 0)
                        for index, (graph, analysis) in enumerate(zip(graphs, analyse(graphs, weights)))]
    except UsageError:
        raise
    except Exception as err:  # noqa: BLE001 - one bad file must not stop the others
        return FileResult(path, _internal(path, "the parser", err, config))
    problems: list[Item] = []
    cap = _Cap(keep_fixes=planner is not None)
    for ctx in contexts:
        for rule, rule_level in planned:
            try:
                problems.extend(cap.take(rule, rule_level, rule.check(ctx)))
            except Exception as err:  # noqa: BLE001 - a rule that fails is an IRV000 finding
                findings.extend(_internal(path, f"rule {rule.CODE} {rule.SLUG}", err, config))
    masked = _masked(problems)
    problems = _unmasked(problems)
    try:
        lines = exact_lines(doc, [p for _, _, p in problems])
    except Exception as err:  # noqa: BLE001 - the lines libxml2 gave stay
        lines = [_line(p) for _, _, p in problems]
        findings.extend(_internal(path, "the line locator", err, config))
    made = link([p for _, _, p in problems], _located(path, doc.path, problems, lines))
    if planner is not None and any(p.fix is not None for _, _, p in problems):
        try:
            infos = planner(doc, [(rule.CODE, p) for rule, _, p in problems])
            made = [f._replace(fix=info) if info is not None else f for f, info in zip(made, infos)]
        except Exception as err:  # noqa: BLE001 - the findings stand without their fixes
            findings.extend(_internal(path, "the fix planner", err, config))
    if planner is not None:
        kept = cap.trimmed(problems)
        made, problems = [made[i] for i in kept], [problems[i] for i in kept]
    return _result(path, findings, list(zip(made, problems)), extra,
                   cap.summaries(path, masked))


def _result(path: str, findings: list[Finding], made: list[tuple[Finding, Item]],
            extra: set, summaries: list[Finding]) -> FileResult:
    """The file's findings and the extra rules' apart, each in line order, the counts of
    the findings past the cap after them."""
    codes = {rule.CODE for rule in extra}
    findings.extend(f for f, (rule, _, _) in made if rule not in extra)
    findings.sort(key=Finding.sort_key)
    findings += [f for f in summaries if f.code not in codes]
    others = sorted((f for f, (rule, _, _) in made if rule in extra), key=Finding.sort_key)
    return FileResult(path, findings, others + [f for f in summaries if f.code in codes])
