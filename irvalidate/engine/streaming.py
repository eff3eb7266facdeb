"""Check a large plain IR as it streams past: the rules run on each batch of layers, and a
layer is forgotten once the layers that read it have been checked (``analysis.stream``).

Why: the whole-graph check of a 200k-layer IR holds half a gigabyte of records; this one
holds the edge table and the frontier.  It gives the same findings or none at all: when the
stream declines (``analysis.stream.Decline``), or the scanner does, the engine checks the
file the whole-graph way (``tests/test_streaming.py`` compares the two on every file).

How each rule may run is this module's knowledge, kept in ``HOW`` by rule code: ``"batch"``,
on each batch, since what it finds of a layer depends only on the layer, its inference and
the edges entering it; ``"clean"``, on each batch, as long as it finds nothing (else the file
goes the whole way: its findings gather over the graph, such as invalid-constant's one
finding for many Consts past the end of the .bin); a rule not there (``AT_END``) runs once
at the end, on an empty graph: such a rule reads the document (the version, the schema
problems) or the whole graph, and the stream has declined every file in which the whole
graph would give it something to say.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple, cast

from ..analysis.batch import Batch
from ..analysis.stream import Decline, StreamAnalysis, Watch
from ..ir import edge_table, reader
from ..ir.locate import dim_key, find_lines, layer_keys
from ..ir.records import SUPPORTED_VERSIONS, Document, Edge, Graph
from ..ir.scanner import NotPlain, Scanner
from ..ir.weights import BinFile
from ..rules._common import Context
from ..rules.findings import Problem

if TYPE_CHECKING:
    from ..analysis import GraphAnalysis

#: files smaller than this are checked whole (measured: a 0.4 MB IR streams in 29 ms
#: against 41 ms whole, a 12-layer one in 2.2 ms against 1.6)
MIN_BYTES = int(os.environ.get("IRVALIDATE_STREAM_FROM", 64 << 10))
#: layers checked at a time, at most; the first batches are smaller, so that the layers
#: found clean early make the rest of the file alike (analysis.likeness)
BATCH = 2048
FIRST_BATCH = 64

Planned = Sequence[tuple[ModuleType, str]]

#: rule code -> how the stream may run it (see the module), with what the rule reads
HOW: dict[str, str] = {
    "IRV004": "batch",  # malformed-ir: what the parser and inference could not read, per layer
    "IRV101": "batch",  # output-shape-mismatch: declared outputs against inference
    "IRV102": "batch",  # incompatible-inputs: a layer's inference
    "IRV103": "batch",  # dynamic-dim-declared: declared outputs against inference
    "IRV104": "batch",  # invalid-attribute: a layer's inference
    "IRV105": "batch",  # wrong-input-count: a layer's inference
    "IRV106": "batch",  # element-type-mismatch: a layer's inference
    "IRV107": "batch",  # spec-runtime-divergence: a layer's inference
    "IRV108": "batch",  # unknown-attribute: a layer's own attributes
    "IRV109": "batch",  # static-dim-declared: declared outputs against inference
    "IRV201": "batch",  # edge-shape-mismatch: an edge and the two ports it joins
    "IRV206": "batch",  # duplicate-port-id: a layer's own ports
    "IRV209": "batch",  # unconnected-input: a layer's ports and the edges entering them
    "IRV212": "batch",  # unknown-op-type: a layer's own type and version
    "IRV213": "batch",  # precision-mismatch: an edge and the two ports it joins
    "IRV214": "batch",  # parameter-port-mismatch: a Parameter's own attributes and port
    "IRV215": "batch",  # const-port-mismatch: a Const's own attributes and port
    "IRV216": "batch",  # body-port-map: a layer's own port maps and bodies
    # its findings gather over the graph (one for many Consts past the end, one per Const
    # read by many layers)
    "IRV203": "clean",  # invalid-constant
    # a finding makes the file checked whole, where the evidence is counted over the file
    # and the engine leaves out what it masks
    "IRV218": "clean",  # weights-mismatch
}
#: the rules left to the default, once at the end: they read the document (IRV000-IRV005),
#: the whole graph's edges, ids and order (IRV202, IRV205, IRV207, IRV208, IRV210, IRV211),
#: speak once for the file (IRV204 of its .bin, IRV217 of its extension ops), or read a
#: what-if run (IRV301, IRV302, IRV303); compat's (IRV401-IRV416) never run in a check
AT_END = frozenset({"IRV000", "IRV001", "IRV002", "IRV003", "IRV005", "IRV202", "IRV204",
                    "IRV205", "IRV207", "IRV208", "IRV210", "IRV211", "IRV217", "IRV301",
                    "IRV302", "IRV303", *(f"IRV{code}" for code in range(401, 417))})


class Streamed(NamedTuple):
    doc: Document
    #: (rule, level, problem), batch after batch, then the end's
    problems: list[tuple[ModuleType, str, Problem]]
    #: where each layer a problem is about sits in the file (by id() of its record)
    places: dict[int, int]
    #: the line of <edges>: the stream's edges count their lines from it
    edges_line: int


def wanted(path: str) -> bool:
    """Whether a file is large enough to be worth streaming."""
    try:
        return os.path.getsize(path) >= MIN_BYTES
    except OSError:
        return False


def check(path: str, weights: BinFile, planned: Planned,
          watch: Watch | None = None) -> Streamed | None:
    """The problems of a plain file found as it streams, or None (check it whole).  With a
    ``watch``, the rules read a what-if of the file (``--reshape``; analysis.stream.Watch)."""
    if weights.error:
        return None  # missing-weights counts every Const of the file
    try:
        return _check(path, weights, planned, watch)
    except (Decline, NotPlain, OSError, UnicodeError, RecursionError):
        return None


def _check(path: str, weights: BinFile, planned: Planned,
           watch: Watch | None = None) -> Streamed | None:
    doc = Document(path=path, version=None, graph=Graph())
    by_batch = [(r, lvl) for r, lvl in planned if r.CODE in HOW]
    at_end = [(r, lvl) for r, lvl in planned if r.CODE not in HOW]
    problems: list[tuple[ModuleType, str, Problem]] = []
    places: dict[int, int] = {}
    # (a second process, when one reads the layers, starts first: it reads them while this
    # one reads the edges; imported here, as a small file's start-up needs none of it)
    from ..ir import scan_process
    scanner = (scan_process.ScanProcess if scan_process.wanted(os.path.getsize(path))
               else Scanner)(path, doc)
    try:
        table = edge_table.read(path)
        version = scanner.head().get("version")
        if version not in SUPPORTED_VERSIONS:
            return None
        stream = StreamAnalysis(table, weights, watch)
        size = min(FIRST_BATCH, BATCH)
        for layer in scanner.layers(_no_complex_layers):
            stream.add(layer, scanner.parts)
            if len(stream) >= size:
                _run_batch(stream, doc, by_batch, problems, places)
                size = min(2 * size, BATCH)
        _run_batch(stream, doc, by_batch, problems, places)
        stream.finish()
        edges_line = scanner.jump_edges(table.start, table.end, table.newlines)
        if edges_line is None:
            edges_line, count = scanner.skip_edges()
            if count != len(table):
                return None  # (the edges read first are another section, or there are more)
        if scanner.shared_lines:
            return None
        rest = scanner.rest()
        if not reader.check_skeleton(scanner.head_text, rest, doc, version):
            return None
        doc.lines = scanner.newlines + rest.count("\n") + 1
    finally:
        scanner.close()
    if watch is not None:
        watch.finish()
    # the rules that run at the end read no more than _End holds
    ctx = Context(doc, doc.graph, cast("GraphAnalysis", _End(weights)), True)
    for rule, level in at_end:
        problems.extend((rule, level, p) for p in rule.check(ctx))
    return Streamed(doc, problems, places, edges_line)


def _no_complex_layers(text: str, line: int):
    raise Decline("a layer the scanner reads through lxml")


def _run_batch(stream: StreamAnalysis, doc: Document, rules: Planned,
               problems: list[tuple[ModuleType, str, Problem]], places: dict[int, int]) -> None:
    """Run the batch rules on the layers read since the last batch (those like a layer
    found clean are left out: see analysis.likeness)."""
    batch: Batch = stream.batch(doc.graph.problems)
    ctx = Context(doc, batch.graph, cast("GraphAnalysis", batch), True)  # (what the batch rules read)
    first = len(problems)
    for rule, level in rules:
        found = list(rule.check(ctx))
        if found and HOW[rule.CODE] == "clean":
            raise Decline(f"{rule.CODE} found something")
        problems.extend((rule, level, p) for p in found)
    made = [p for _, _, p in problems[first:]]
    for problem in made:
        if problem.layer is not None and id(problem.layer) in stream.places:
            places[id(problem.layer)] = stream.places[id(problem.layer)]
    stream.settle(made)
    stream.release()


class _End:
    """What the rules that run once read at the end: an empty graph (see the module)."""

    leftover: list[str] = []
    inferences: dict = {}
    problems: list = []
    layers: dict = {}

    def __init__(self, weights: BinFile) -> None:
        self.weights = weights
        self.edges = _NoEdges()


class _NoEdges:
    incoming: dict = {}
    extra_edges: dict = {}
    dangling: list = []
    reversed: list = []

    def edge_ports(self):
        return iter(())

    def arcs(self) -> list:
        return []


def exact_lines(streamed: Streamed, problems: Sequence[Problem]) -> list[int | None]:
    """Each problem's line.  The scanner's lines are exact; a ``<dim>``'s is found by one
    scan of the file, the layer named by its place."""
    lines = [p.line if p.line is not None or p.at is None else
             p.at.line + streamed.edges_line if isinstance(p.at, Edge) else
             getattr(p.at, "line", None) or None for p in problems]
    asked = [i for i, p in enumerate(problems) if p.at is not None and p.axis is not None
             and p.line is None and p.layer is not None and id(p.layer) in streamed.places]
    if not asked:
        return lines
    keys: dict[int, tuple] = {}
    for i in asked:
        layer = problems[i].layer
        if layer is not None:  # (always: asked holds problems about a layer)
            layer_keys(layer, (), streamed.places[id(layer)], {id(problems[i].at)}, keys)
    wanted_keys = {i: dim_key(keys[id(problems[i].at)], problems[i].axis)  # type: ignore[arg-type]  # asked: axis given
                   for i in asked if id(problems[i].at) in keys and keys[id(problems[i].at)][0] == "port"}
    found = find_lines(streamed.doc.path, wanted_keys.values())
    for i, key in wanted_keys.items():
        lines[i] = found.get(key, lines[i])
    return lines
