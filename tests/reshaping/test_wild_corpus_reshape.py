"""irvalidate --reshape on real IR files: the loadable files of the wild corpus
(../shared/wild-corpus; IRVALIDATE_WILD_CORPUS points elsewhere), each with requests derived
from its inputs (batch 2, every dynamic, spatial/last dims doubled and +1, an interval
batch), compared with Model.reshape and with plain re-inference.  Mismatches are collected
over every file and reported together.  Skipped when the corpus is absent.

Which files: the list IRVALIDATE_LOADABLE names (default ../notes/loadable.txt; one path a
line, absolute or relative to the repository), else every corpus file; in both cases only
those this process's ``read_model`` loads (a tokenizer file needs an extension) and whose
XML is at most MAX_XML_BYTES.  At most MAX_REQUESTS requests a file; a file whose first
Model.reshape takes longer than SLOW_SECONDS is skipped.

To stay near 20 s, one file is taken per Open Model Zoo model (the FP32/FP16/INT8 variants
and the copies in several repositories share a topology; the smallest is kept) and plain
re-inference is compared for the first PLAIN_REQUESTS requests only.
IRVALIDATE_RESHAPE_FULL=1 takes every file, every request both ways.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("openvino")  # the helpers below build and read models with it
from support.runtime_oracle import Request, describe, disagreement, read, runtime

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("IRVALIDATE_WILD_CORPUS") or REPO.parent / "shared" / "wild-corpus")
LOADABLE = Path(os.environ.get("IRVALIDATE_LOADABLE") or REPO.parent / "notes" / "loadable.txt")
MAX_XML_BYTES = 20 * 1024 * 1024
FULL = os.environ.get("IRVALIDATE_RESHAPE_FULL") == "1"
MAX_REQUESTS = int(os.environ.get("IRVALIDATE_RESHAPE_MAX_REQUESTS", "5"))
PLAIN_REQUESTS = MAX_REQUESTS if FULL else 2
SLOW_SECONDS = 3.0


def _candidates() -> list[Path]:
    if LOADABLE.is_file():
        paths = []
        for line in LOADABLE.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                p = Path(line)
                paths.append(p if p.is_absolute() else REPO / p)
        return [p for p in paths if p.is_file()]
    return sorted(CORPUS.glob("*/*.xml")) if CORPUS.is_dir() else []


def _family(path: Path) -> str:
    """The Open Model Zoo model a file is a variant of ('...__FP16-INT8__face-detection-adas-0001'
    -> 'face-detection-adas-0001'); other files are their own family."""
    last = path.stem.split("__")[-1]
    return last if re.search(r"-\d{4}$", last) else f"{path.parent.name}/{path.stem}"


def _one_per_family(paths: list[Path]) -> list[Path]:
    best: dict[str, Path] = {}
    for p in paths:
        key = _family(p)
        if key not in best or p.stat().st_size < best[key].stat().st_size:
            best[key] = p
    return sorted(best.values())


ALL_FILES = _candidates()
FILES = ALL_FILES if FULL else _one_per_family(ALL_FILES)
pytestmark = pytest.mark.skipif(not FILES, reason=f"no wild corpus at {CORPUS}")


def requests_for(path: Path) -> list[Request]:
    """Requests derived from the file's inputs, most telling first, at most MAX_REQUESTS."""
    model = read(path)
    inputs: list[tuple[str, list]] = []
    for p in model.get_parameters():
        ps = p.get_partial_shape()
        if ps.rank.is_dynamic:
            continue
        inputs.append((p.get_friendly_name(), [d.get_length() if d.is_static else -1 for d in ps]))
    inputs = [(n, s) for n, s in inputs if s]  # scalars have nothing to change
    if not inputs:
        return []

    def varied(dims_of) -> dict[str, list]:
        return {n: dims_of(list(s)) for n, s in inputs}

    def batch(value):
        def f(s):
            s[0] = value
            return s
        return f

    def grow(how):
        def f(s):
            idx = [2, 3] if len(s) == 4 else [len(s) - 1] if len(s) >= 2 else []
            for i in idx:
                if s[i] > 0:
                    s[i] = how(s[i])
            return s
        return f

    out: list[Request] = [
        varied(batch(2)),
        varied(lambda s: [-1] * len(s)),
        varied(grow(lambda d: 2 * d)),
        varied(grow(lambda d: d + 1)),
        varied(batch((1, 4))),
    ]
    if len(inputs) == 1:  # the bare form for a one-input model
        out[0] = out[0][inputs[0][0]]
    unique = []
    for r in out:
        if r not in unique:
            unique.append(r)
    return unique[:MAX_REQUESTS]


def test_reshape_matches_the_runtime_on_real_files():
    mismatches, checked, skipped = [], 0, []
    for path in FILES:
        if path.stat().st_size > MAX_XML_BYTES:
            skipped.append(f"{path.name}: XML over {MAX_XML_BYTES} bytes")
            continue
        try:
            requests = requests_for(path)
        except RuntimeError as err:  # e.g. extension ops this process has not registered
            skipped.append(f"{path.name}: read_model refuses here ({str(err).strip().splitlines()[-1][:80]})")
            continue
        for i, request in enumerate(requests):
            start = time.monotonic()
            theirs = runtime(path, request, True)
            if i == 0 and time.monotonic() - start > SLOW_SECONDS:
                skipped.append(f"{path.name}: Model.reshape takes over {SLOW_SECONDS} s")
                break
            for smart in (True, False) if i < PLAIN_REQUESTS else (True,):
                checked += 1
                try:
                    problem = disagreement(path, request, smart,
                                           theirs=theirs if smart else None)
                except Exception as err:  # noqa: BLE001 - irvalidate crashing is a mismatch too
                    problem = f"{describe(request)}: {type(err).__name__}: {err}"
                if problem:
                    mismatches.append(f"{path.parent.name}/{path.name}: {problem}")
    assert checked, f"nothing checked; skipped: {skipped}"
    assert not mismatches, f"{len(mismatches)} of {checked} disagree:\n" + "\n".join(mismatches)


def test_the_derived_requests_are_all_accepted_forms():
    """Every derived request is one Model.reshape takes (a refusal is about shapes, never a
    malformed request): runs the runtime alone."""
    bad = []
    for path in FILES[:12]:
        try:
            requests = requests_for(path)
        except RuntimeError:
            continue
        for request in requests:
            try:
                runtime(path, request, True)
            except (KeyError, TypeError, ValueError, IndexError) as err:
                bad.append(f"{path.name} {describe(request)}: {err}")
    assert not bad, bad
