"""``--reshape``: whether a model works with new input shapes, as ``Model.reshape`` decides.

The file is read and analysed as it is (SmartReshape matches its patterns on that), then
analysed again with the new Parameter shapes and the rewrites; the rules of
``RESHAPE_RULES`` read the second analysis.  The outcome (the new shapes of the inputs and
of the model's outputs, the rewrites, the verdict) goes with the file's result.

From the command line (``reshape_each``), each ``--reshape`` option is a request of its
own, tried alone on each file: one that does not fit the file's inputs is told (IRV303), the
file read and analysed once for all, and the findings of several requests merged so that
none is lost or repeated.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from ..analysis import analyse
from ..analysis.what_if import NotApplicable, Rewrite, UsageError, fit, resolve
from ..engine.validation import FileResult, validate_file
from ..ir.records import Document, Graph
from ..ir.tensor_names import parameter_names
from ..ir.weights import BinFile
from ..rules import RESHAPE_RULES, reshape_incompatible, reshape_not_applicable, reshape_rewrite
from ..rules._common import Context
from ..rules.findings import Finding
from ..shapes.dims import Dim, Shape
from .reshaped import ReshapeRun, what_if
from .streamed import StreamedWhatIf

if TYPE_CHECKING:
    from ..settings.config import Config

Request = tuple[str | None, tuple[Dim, ...]]

__all__ = ["NotApplicable", "ReshapeOutcome", "UsageError", "reshape_each", "reshape_file",
           "reshape_work"]


@dataclass(frozen=True)
class ReshapeOutcome:
    #: (Parameter name, new shape) for every input, asked for or kept
    inputs: list[tuple[str, Shape]]
    #: (Result layer name, shape reaching it) for every model output
    outputs: list[tuple[str, Shape]]
    rewrites: list[Rewrite]
    #: Model.reshape succeeds (no layer refused)
    works: bool
    #: False when every input asked for already has that shape: Model.reshape does nothing
    changed: bool
    smart: bool
    #: the run, for ``shapes --reshape`` (every layer's new shapes)
    run: ReshapeRun | None = None
    #: the request, as written back (``x[1,3,8,8]``): named in reports of several requests
    request: str = ""


def _outcome(run: ReshapeRun) -> ReshapeOutcome:
    after = run.after
    inputs, outputs = [], []
    for layer in after.layers.values():
        kind = layer.type.lower()
        if kind == "parameter" and layer.outputs:
            value = after.propagation.outputs.get((layer.id, layer.outputs[0].id))
            inputs.append((layer.name, value.shape if value else None))
        elif kind == "result":
            values = after.propagation.input_values(layer)
            outputs.append((layer.name, values[0].shape if values else None))
    shown = [r for r in run.rewrites if r.shown]
    return ReshapeOutcome(inputs, outputs, shown, run.works, run.changed, run.smart, run)


def reshape_file(path: str, requests: Sequence[Request], smart: bool = True,
                 config: Config | None = None, bin_path: str | None = None,
                 rules: Sequence = RESHAPE_RULES) -> FileResult:
    """The findings of the what-if for one file, and its outcome (``result.reshape``).
    Raises UsageError when the requests do not fit the model's inputs."""
    runs: list[ReshapeRun] = []

    def contexts_of(doc: Document, weights: BinFile) -> list[Context]:
        graphs = doc.graphs()
        befores = analyse(graphs, weights)
        new: dict[str, Shape] = resolve(graphs[0], parameter_names(doc.path), requests)
        run = what_if(graphs, befores, weights, new, smart)
        runs.append(run)
        bodies = [Context(doc, g, run.bodies_after[id(g)], False, reshape=run)
                  for g in graphs[1:] if id(g) in run.bodies_after]
        return [Context(doc, graphs[0], run.after, True, reshape=run)] + bodies

    result = validate_file(path, bin_path, config, rules, contexts_of=contexts_of)
    return result._replace(reshape=_outcome(runs[0])) if runs else result


def reshape_work(path: str, bin_path: str | None, config: Config,
                 requests: Sequence[Sequence[Request]], smart: bool = True) -> FileResult:
    """api.validate_files' ``work`` for --reshape: each request (one ``--reshape`` option)
    tried on the file on its own (see reshape_each)."""
    return reshape_each(path, requests, smart, config, bin_path)


def label(request: Sequence[Request]) -> str:
    """A request as reports name it: ``ids[1,64],mask[1,64]``."""
    from .spec import describe
    return ",".join(describe(one) for one in request)


#: the what-if's own rules: their findings always belong to one request
_PER_REQUEST = frozenset({reshape_incompatible.CODE, reshape_rewrite.CODE})


class _Trials:
    """The requests tried on one file: the file parsed and analysed once, each request
    fitted to its inputs, and each one that fits re-inferred in turn."""

    def __init__(self, requests: Sequence[Sequence[Request]], smart: bool,
                 keep_run: bool) -> None:
        self.requests, self.smart, self.keep_run = requests, smart, keep_run
        self.labels = [label(r) for r in requests]
        self.fitted: list[dict[str, Shape] | NotApplicable] = []
        self.doc: Document | None = None
        self.graphs: list = []
        self.befores: list = []
        self.weights: BinFile | None = None
        self.runs: dict[int, ReshapeRun] = {}
        self.settled: dict[int, ReshapeOutcome] = {}

    def first(self, doc: Document, weights: BinFile) -> list[Context]:
        """The first call's contexts: every request fitted, the first that fits tried, with
        the requests that do not fit (IRV303); _NothingFits when none fits."""
        self.doc, self.weights, self.graphs = doc, weights, doc.graphs()
        names = parameter_names(doc.path)
        self.fitted = [fit(self.graphs[0], names, r, t)
                       for r, t in zip(self.requests, self.labels)]
        unfit = tuple(f for f in self.fitted if isinstance(f, NotApplicable))
        tried = self.applicable()
        if not tried:
            raise _NothingFits
        self.befores = analyse(self.graphs, weights)
        contexts = self.contexts(tried[0])
        return [contexts[0]._replace(not_applicable=unfit)] + contexts[1:]

    def applicable(self) -> list[int]:
        return [i for i, f in enumerate(self.fitted) if not isinstance(f, NotApplicable)]

    def contexts(self, index: int) -> list[Context]:
        """The contexts of request ``index`` re-inferred (it fits the file)."""
        new = self.fitted[index]
        assert self.doc is not None and self.weights is not None and isinstance(new, dict)
        run = what_if(self.graphs, self.befores, self.weights, new, self.smart)
        self.runs[index] = run
        bodies = [Context(self.doc, g, run.bodies_after[id(g)], False, reshape=run)
                  for g in self.graphs[1:] if id(g) in run.bodies_after]
        return [Context(self.doc, self.graphs[0], run.after, True, reshape=run)] + bodies

    def later(self, index: int, doc: Document, weights: BinFile) -> list[Context]:
        """The contexts of a request after the first (the engine hands back the document
        and weights the first call read)."""
        return self.contexts(index)

    def settle(self, index: int) -> None:
        """Request ``index`` checked: its outcome kept, its run only when ``keep_run``."""
        run = self.runs.pop(index, None)
        if run is None:  # the engine failed before the run (an IRV000 says it): no outcome
            return
        outcome = _outcome(run)
        self.settled[index] = replace(outcome, request=self.labels[index],
                                      run=outcome.run if self.keep_run else None)

    def outcomes(self) -> tuple[ReshapeOutcome | NotApplicable, ...]:
        found: list[ReshapeOutcome | NotApplicable] = []
        for index, fitted in enumerate(self.fitted):
            if isinstance(fitted, NotApplicable):
                found.append(fitted)
            elif index in self.settled:
                found.append(self.settled[index])
        return tuple(found)


def reshape_each(path: str, requests: Sequence[Sequence[Request]], smart: bool = True,
                 config: Config | None = None, bin_path: str | None = None) -> FileResult:
    """Each request tried on the file on its own, the file parsed and analysed once.  A
    request that does not fit the file's inputs is an IRV303 finding (no UsageError).  With
    one request, the result is reshape_file's; with several, the findings that every
    request's run gives alike are the file's and listed once, and the others, with IRV301
    and IRV302 always, name their request (``Finding.request``, and in their message)."""
    single = len(requests) == 1
    trials = _Trials(requests, smart, keep_run=single)
    streamed: list[StreamedWhatIf] = []
    try:
        first = validate_file(path, bin_path, config, RESHAPE_RULES, contexts_of=trials.first,
                              watching=partial(_watch, path, requests[0], smart, streamed)
                              if single else None)
    except _NothingFits:
        return _as_read(path, bin_path, config, trials)
    if streamed and streamed[0].finished and trials.doc is None:  # (the file streamed)
        outcome = _streamed_outcome(streamed[0], label(requests[0]))
        return first._replace(reshape=outcome, requests=(outcome,))
    tried = trials.applicable() if trials.doc is not None else []
    results = [first]
    for index in tried:
        if index != tried[0]:
            results.append(validate_file(path, bin_path, config, RESHAPE_RULES,
                                         document=trials.doc,
                                         contexts_of=partial(trials.later, index)))
        trials.settle(index)  # (its analyses are let go: one is held at a time)
    outcomes = trials.outcomes() if trials.doc is not None else ()
    findings = first.findings if single or not tried else \
        _merged([trials.labels[i] for i in tried], results)
    shown = outcomes[0] if single and outcomes and isinstance(outcomes[0], ReshapeOutcome) \
        else None
    return first._replace(findings=findings, reshape=shown, requests=outcomes)


def _streamed_outcome(run: StreamedWhatIf, request: str) -> ReshapeOutcome:
    """What --reshape reports of a streamed run: no rewrite (the stream declines where one
    might be) and no refusal (it declines at one)."""
    return ReshapeOutcome(list(run.inputs), list(run.outputs), [], True, run.changed, run.smart,
                          None, request)


def _watch(path: str, request: Sequence[Request], smart: bool, made: list[StreamedWhatIf],
           weights: BinFile) -> StreamedWhatIf:
    """The what-if the stream infers, for a file large enough to stream (made[0])."""
    made[:] = [StreamedWhatIf(path, request, weights, smart)]
    return made[0]


class _NothingFits(UsageError):
    """No request fits the file: it is checked as read (a UsageError, which the engine
    passes on to its caller)."""


def _as_read(path: str, bin_path: str | None, config: Config | None,
             trials: _Trials) -> FileResult:
    """A file that no request fits: IRV303 for each, and the --reshape rules on the file
    as read, as a plain check runs them (a large file streams: ~1.5x a check, not the ~3x
    of a whole-graph analysis)."""
    unfit = tuple(f for f in trials.fitted if isinstance(f, NotApplicable))
    told = validate_file(path, bin_path, config, (reshape_not_applicable,), document=trials.doc,
                         contexts_of=partial(_telling, unfit))
    from ..engine import streaming
    # a large file streams (its document let go first); a small one is not parsed again
    doc, trials.doc = (None if streaming.wanted(path) else trials.doc), None
    plain = validate_file(path, bin_path, config, RESHAPE_RULES, document=doc)
    findings = sorted(told.findings + plain.findings, key=Finding.sort_key)
    return plain._replace(findings=findings, requests=unfit)


def _telling(unfit: tuple[NotApplicable, ...], doc: Document, weights: BinFile) -> list[Context]:
    """The one context IRV303 reads: the requests that do not fit the file."""
    from ..analysis import GraphAnalysis
    return [Context(doc, doc.graph, GraphAnalysis(Graph(), weights), True, not_applicable=unfit)]


def _merged(labels: list[str], results: list[FileResult]) -> list[Finding]:
    """The findings of one run per request: those every run gives alike once (they are
    about the file), the others named after their request."""
    from collections import Counter
    told = reshape_not_applicable.CODE
    counts = [Counter(f for f in r.findings if f.code not in _PER_REQUEST and f.code != told)
              for r in results]
    common = counts[0]
    for more in counts[1:]:
        common &= more
    # the requests that do not fit are told once, by the first run, and name themselves
    common.update(f for f in results[0].findings if f.code == told)
    found = list(common.elements())
    for name, result in zip(labels, results):
        own = Counter(result.findings)
        own.subtract(common)
        found += [f._replace(message=f"--reshape {name}: {f.message}", request=name)
                  for f in own.elements()]
    found.sort(key=Finding.sort_key)
    return found


def fits_nowhere(results: Sequence[FileResult], labels: Sequence[str]) -> str | None:
    """Why the run is a usage error: a request that fits no file of it (a name mistyped
    must not pass CI), said with the first files' inputs; None when each fits some file, or
    when a file could not be read far enough to tell."""
    from ..reporting.names import display_path
    if not results or any(len(r.requests) != len(labels) for r in results):
        return None
    for index, name in enumerate(labels):
        unfit = [(r.path, u) for r in results
                 if isinstance(u := r.requests[index], NotApplicable)]
        if len(unfit) < len(results):
            continue
        said = [f"{display_path(path)}: {u.usage}" for path, u in unfit[:3]]
        if len(results) == 1:
            return said[0]
        first = ", the first 3" if len(results) > 3 else ""
        return (f"{name} fits none of the {len(results)} files checked{first}:\n" +
                "\n".join(said))
    return None


def inputs_of(path: str) -> str:
    """The model's inputs with their shapes, for a usage message ("" when unreadable)."""
    from ..analysis.what_if import inputs_listing
    from ..ir.reader import parse
    try:
        doc = parse(path)
        return "" if doc.fatal else inputs_listing(doc.graph, parameter_names(path))
    except Exception:  # noqa: BLE001 - the usage message stands without the listing
        return ""
