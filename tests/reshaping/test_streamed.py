"""``--reshape`` as it streams (``reshaping/streamed.py``) against the whole-graph what-if: on
every file, with requests derived from its inputs, the same findings and the same outcome
(the new shapes of the inputs and outputs, the verdict, the rewrites); the stream declines
wherever it could differ (a request that does not fit, a refused layer, a layer SmartReshape
might rewrite).

The whole path is forced with ``engine.streaming.MIN_BYTES`` (the stream's own threshold),
and batches are made tiny (``BATCH``), as tests/engine/test_streaming.py makes them.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from irvalidate.analysis import analyse
from irvalidate.analysis.stream import Decline
from irvalidate.analysis.what_if import parameters
from irvalidate.engine import streaming
from irvalidate.engine.validation import weights_of
from irvalidate.ir.reader import parse
from irvalidate.reshaping import constraints, run
from irvalidate.reshaping.smart_reshape import plan
from irvalidate.reshaping.spec import parse_each
from irvalidate.reshaping.streamed import StreamedWhatIf
from irvalidate.rules import RESHAPE_RULES
from irvalidate.shapes.dims import format_shape
from support.places import CORPUS_FILES, SAMPLES

PLANNED = [(r, r.LEVEL) for r in RESHAPE_RULES]


@pytest.fixture(autouse=True)
def small_batches(monkeypatch):
    monkeypatch.setattr(streaming, "BATCH", 3)


def requests_of(path: Path) -> list[str]:
    """Requests on the file's inputs: every input with its dynamic dims set to 8 and its
    batch doubled, and the same with the first input's last dim one larger (which breaks
    many models); then requests that do not fit (a name no input has, the first input with
    one dim more): the stream declines those as the whole run refuses them.  None when an
    input has a dynamic rank or a name the syntax cannot hold."""
    doc = parse(str(path))
    if doc.fatal:
        return []
    inputs = parameters(doc.graph)
    if not inputs or any(shape is None or any(c in layer.name for c in ",[]:?. ")
                         for layer, shape in inputs):
        return []
    found = []
    for grow_last in (False, True):
        parts = []
        for index, (layer, shape) in enumerate(inputs):
            sizes = [d.lo if d.is_static else 8 for d in shape or ()]
            if sizes:
                sizes[0] *= 2
                if grow_last and index == 0:
                    sizes[-1] += 1
            parts.append(f"{layer.name}[{','.join(map(str, sizes))}]")
        found.append(",".join(parts))
    first, shape = inputs[0]
    found += ["nosuch[1,2]", f"{first.name}[{','.join(['1'] * (len(shape or ()) + 1))}]"]
    return found


def _outcome(result) -> tuple:
    shown = result.reshape
    outcome = None if shown is None else (
        [(n, format_shape(s)) for n, s in shown.inputs],
        [(n, format_shape(s)) for n, s in shown.outputs],
        [(r.layer.name, r.transformation, r.detail) for r in shown.rewrites],
        shown.works, shown.changed, shown.smart)
    findings = [(f.line, f.code, f.message, f.level, f.layer, f.port, f.table, f.scope)
                for f in result.findings]
    return findings, outcome, len(result.requests)


def both_ways(path: Path, spec: str, monkeypatch, smart: bool = True) -> bool:
    """The outcome streamed and whole agree; whether the stream kept the file."""
    kept: list[StreamedWhatIf] = []
    made = run._watch

    def watching(*args):
        found = made(*args)
        kept.append(found)
        return found
    monkeypatch.setattr(run, "_watch", watching)
    requests = parse_each([spec])
    monkeypatch.setattr(streaming, "MIN_BYTES", 1 << 62)
    whole = _outcome(run.reshape_each(str(path), requests, smart))
    assert not kept
    monkeypatch.setattr(streaming, "MIN_BYTES", 0)
    streamed = _outcome(run.reshape_each(str(path), requests, smart))
    assert streamed == whole, (path, spec)
    return bool(kept) and kept[-1].finished


def _agree(paths: list[Path], monkeypatch) -> tuple[int, int]:
    """(requests tried, requests the stream kept) over the files."""
    tried = kept = 0
    for path in paths:
        for spec in requests_of(path):
            tried += 1
            kept += both_ways(path, spec, monkeypatch)
    return tried, kept


def test_samples(monkeypatch):
    tried, kept = _agree(SAMPLES, monkeypatch)
    assert tried >= 60 and kept >= 20, (tried, kept)


@pytest.mark.skipif(not CORPUS_FILES, reason="no wild corpus here")
def test_wild_corpus(monkeypatch):
    tried, kept = _agree(CORPUS_FILES, monkeypatch)
    assert kept >= 20, (tried, kept)


def test_without_smart_reshape(monkeypatch):
    """--no-smart-reshape: no rewrite to fear, so the stream keeps the files SmartReshape
    would rewrite, with the same outcome."""
    kept = sum(both_ways(p, spec, monkeypatch, smart=False) for p in SAMPLES
               for spec in requests_of(p))
    assert kept >= 20, kept


def _rewritten(paths: list[Path]) -> list[tuple[Path, list[str]]]:
    """The files a plain check streams on which SmartReshape makes rewrites, with them."""
    found = []
    for path in paths:
        weights = weights_of(str(path), None)
        if streaming.check(str(path), weights, PLANNED) is None:
            continue
        doc = parse(str(path))
        made = plan(analyse(doc.graphs(), weights)[0])
        if made:
            found.append((path, sorted({r.transformation for r in made})))
    return found


def test_a_rewrite_is_declined(monkeypatch):
    """Every file on which SmartReshape rewrites a layer is declined by the stream for that
    reason (the matchers' superset, streamed.might_rewrite), whatever the request: here
    the file's own shapes, with which nothing is refused."""
    rewritten = _rewritten(SAMPLES + CORPUS_FILES)
    assert len(rewritten) >= 5, rewritten
    for path, _ in rewritten:
        weights = weights_of(str(path), None)
        with pytest.raises(Decline, match="SmartReshape may rewrite"):
            streaming._check(str(path), weights, PLANNED, StreamedWhatIf(str(path), [], weights))


def _constraints(path: Path, stream: bool, monkeypatch, smart: bool = True) -> list[dict]:
    monkeypatch.setattr(streaming, "MIN_BYTES", 0 if stream else 1 << 62)
    return constraints.constraints_of(str(path), smart)


def _named_apart(inputs: list[dict]) -> list[dict]:
    """The answer with each axis's causes as (type, the part of the sizes they decide):
    of two layers alike that put one condition, the streamed run names the first in the
    file and the whole-graph run the first in its own order (the memo recalls the other)."""
    out = []
    for found in inputs:
        axes = [dict(row, causes=sorted((c["type"], c["reason"].split(":")[0])
                                        for c in row["causes"])) for row in found["axes"]]
        out.append(dict(found, axes=axes))
    return out


def test_reshapeable_streamed_as_whole(monkeypatch):
    """reshapeable streamed (constraints._streamed) gives the whole run's answer on every
    sample and corpus file: every field of every axis, the causes' layers apart (above),
    on enough files that the stream keeps."""
    kept = 0
    made = constraints.StreamedSymbols.in_whole_order

    def counted(watch):
        nonlocal kept
        kept += 1
        made(watch)
    monkeypatch.setattr(constraints.StreamedSymbols, "in_whole_order", counted)
    named_apart = []
    for path in SAMPLES + CORPUS_FILES:
        try:
            whole = _constraints(path, False, monkeypatch)
        except (OSError, ValueError):
            continue
        streamed = _constraints(path, True, monkeypatch)
        assert _named_apart(streamed) == _named_apart(whole), path
        if streamed != whole:
            named_apart.append(path.name)
    assert kept >= (40 if CORPUS_FILES else 15), kept
    # (one corpus file: a YOLOv8 whose C2f blocks feed one input to two alike 1x1 Convs)
    assert len(named_apart) <= 1, named_apart
