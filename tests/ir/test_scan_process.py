"""The scanner run in a second process (``irvalidate/ir/scan_process.py``): the same records as
the scanner in this one, on every file and variant ``test_scanner`` reads, with the layers
lxml reads (sent back as text), the edges and the end read here after it; the same sharing
of the objects ``analysis.likeness`` names by identity; a process that fails or dies makes
the file not plain; no process is left behind; the choice per run.
"""
from __future__ import annotations

import os
import signal
import sys
import threading

import pytest
from test_scanner import TEXT, VARIANTS, _variant, agree

from irvalidate.engine import streaming
from irvalidate.engine.validation import validate_file
from irvalidate.ir import reader, scan_process, scanner
from irvalidate.ir.records import Document, Graph
from irvalidate.ir.scan_process import ScanProcess
from irvalidate.ir.scanner import NotPlain, Scanner
from support.places import CORPUS_FILES, GENUINE, SAMPLES

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux")


@pytest.fixture
def in_a_process(monkeypatch):
    """reader.scan reads the layers through a second process."""
    monkeypatch.setattr(reader, "Scanner", ScanProcess)


def _no_children() -> bool:
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_samples(path, in_a_process):
    agree(path)
    assert _no_children()


@pytest.mark.skipif(not CORPUS_FILES, reason="no wild corpus here")
def test_wild_corpus(in_a_process):
    assert sum(agree(path) for path in CORPUS_FILES) >= 40
    assert _no_children()


@pytest.mark.parametrize("name,change,read", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_variants(name, change, read, tmp_path, in_a_process):
    assert agree(_variant(tmp_path, change(TEXT))) is read
    assert _no_children()


@pytest.mark.parametrize("chunk", [97, 4096])
@pytest.mark.parametrize("shared", [3, scan_process.MAX_SHARED])
def test_chunks_and_forgetting(chunk, shared, tmp_path, monkeypatch, in_a_process):
    """Small chunks (a layer, a character cut between two), and a table of shared objects
    forgotten every few layers."""
    monkeypatch.setattr(scanner, "CHUNK", chunk)
    monkeypatch.setattr(scan_process, "MAX_SHARED", shared)
    monkeypatch.setattr(scan_process, "BATCH", 2)
    unicode = [c for c in VARIANTS if c[0] == "unicode-name"][0][1]
    assert agree(GENUINE)
    assert agree(_variant(tmp_path, unicode(TEXT)))


def _layers(cls, path) -> list:
    doc = Document(path=str(path), version=None, graph=Graph())
    read = cls(str(path), doc)
    try:
        read.head()
        found = [(layer, read.parts) for layer in read.layers(lambda text, line: None)]
        return found + [(read.newlines, read.shared_lines, read.rest())]
    finally:
        read.close()


def test_objects_shared_as_the_scanner_shares_them(tmp_path, monkeypatch):
    """Two layers share a <data> dict, or a port section's object, exactly when the scanner
    in this process makes them share it (also across messages, and after forgetting)."""
    from support.irbuilder import IR
    ir = IR()
    value = ir.parameter("2,3")
    for number in range(40):
        value = ir.op("Clamp" if number % 3 else "Relu", [value], [[2, 3]],
                      {"min": "0", "max": "6"} if number % 3 else None)
        value = ir.op("Add", [value, ir.const([1.0], "f32", shape=[1])], [[2, 3]])
    ir.result(value)
    path = ir.write(tmp_path)

    def sharing(found):
        first: dict = {}
        return [(first.setdefault(id(layer.data), n), first.setdefault(id(parts), n))
                for n, (layer, parts) in enumerate(found[:-1])]
    here = _layers(Scanner, path)
    assert len(set(sharing(here))) < len(here) // 2  # (the model shares)
    for batch, shared, forgets in ((scan_process.BATCH, scan_process.MAX_SHARED, False),
                                   (4, 5, True)):
        monkeypatch.setattr(scan_process, "BATCH", batch)
        monkeypatch.setattr(scan_process, "MAX_SHARED", shared)
        there = _layers(ScanProcess, path)
        assert [l for l, _ in here[:-1]] == [l for l, _ in there[:-1]] and here[-1] == there[-1]
        if not forgets:
            assert sharing(here) == sharing(there)
        else:  # (forgotten every few layers: shared less, never more)
            assert sharing(here) != sharing(there)
            assert all(a <= b for a, b in zip(sharing(here), sharing(there)))


@pytest.mark.parametrize("sent", [0, 2])
def test_a_process_that_dies_makes_the_file_not_plain(sent, monkeypatch):
    """The reading process is killed after ``sent`` messages (batches of one layer), before
    it has said where it stopped.  (Killed from here once it had started, it could finish
    the small sample first, as it did once in CI.)"""
    send = scan_process._send
    count = iter(range(sent + 1))

    def dying(out, message):  # (in the reading process, which inherits this patch)
        if next(count) == sent:
            out.flush()
            os.kill(os.getpid(), signal.SIGKILL)
        send(out, message)
    monkeypatch.setattr(scan_process, "_send", dying)
    monkeypatch.setattr(scan_process, "BATCH", 1)
    doc = Document(path=str(GENUINE), version=None, graph=Graph())
    read = ScanProcess(str(GENUINE), doc)
    try:
        read.head()
        with pytest.raises(NotPlain):
            list(read.layers(lambda text, line: None))
    finally:
        read.close()
    assert _no_children()


def test_a_failure_over_there_is_told_here(tmp_path, monkeypatch):
    monkeypatch.setattr(scanner.Scanner, "_plain_run", lambda *a: 1 / 0)
    doc = Document(path=str(GENUINE), version=None, graph=Graph())
    read = ScanProcess(str(GENUINE), doc)
    try:
        read.head()
        with pytest.raises(NotPlain, match="ZeroDivisionError"):
            list(read.layers(lambda text, line: None))
    finally:
        read.close()


def test_a_check_declined_early_stops_the_process(tmp_path, monkeypatch):
    """The stream declines at its first layer (an extension's op): the other process, still
    reading, is stopped and reaped; the findings are the whole-graph check's."""
    text = TEXT.replace('version="opset1">', 'version="extension">', 1)
    path = _variant(tmp_path, text * 1, name="model.xml")
    (tmp_path / "model.bin").write_bytes(GENUINE.with_suffix(".bin").read_bytes())
    monkeypatch.setenv("IRVALIDATE_SCAN_PROCESS", "1")
    monkeypatch.setattr(streaming, "MIN_BYTES", 0)
    streamed = validate_file(str(path)).findings
    monkeypatch.setenv("IRVALIDATE_SCAN_PROCESS", "0")
    assert validate_file(str(path)).findings == streamed
    assert any(f.code == "IRV217" for f in streamed)
    assert _no_children()


def test_chosen_per_run(monkeypatch):
    monkeypatch.delenv("IRVALIDATE_SCAN_PROCESS", raising=False)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(scan_process, "_running", lambda: 1)
    big = scan_process.MIN_BYTES
    assert scan_process.wanted(big) and not scan_process.wanted(big - 1)
    monkeypatch.setattr(threading, "active_count", lambda: 2)  # (a fork copies one thread;
    assert not scan_process.wanted(big)  # importing openvino, for one, starts a thread)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert scan_process.wanted(big)
    monkeypatch.setattr(scan_process, "_running", lambda: 2)  # no core to spare
    assert not scan_process.wanted(big)
    monkeypatch.setattr(scan_process, "_running", lambda: 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})  # one core
    assert not scan_process.wanted(big)
    monkeypatch.undo()
    assert 1 <= scan_process._running() <= 4096  # (read from this machine)
    monkeypatch.setenv("IRVALIDATE_SCAN_PROCESS", "1")
    assert scan_process.wanted(0)
    monkeypatch.setenv("IRVALIDATE_SCAN_PROCESS", "0")
    assert not scan_process.wanted(big)


def test_not_inside_a_jobs_run(tmp_path, monkeypatch):
    """-j N keeps the cores busy with its own processes: none of them (the parent, and the
    worker, whose answer comes back with its results) forks a reader."""
    import time

    from irvalidate import api
    from irvalidate.settings.config import Defaults
    monkeypatch.delenv("IRVALIDATE_SCAN_PROCESS", raising=False)
    monkeypatch.setattr(scan_process, "MIN_BYTES", 0)
    monkeypatch.setattr(scan_process, "_running", lambda: 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert scan_process.wanted(1)

    def work(path, bin_path, config):
        time.sleep(0.05)  # (long enough that the worker, once started, takes some files)
        return os.getpid(), scan_process.wanted(1)
    seen = api.validate_files([str(GENUINE)] * 6, Defaults(), jobs=2, work=work)
    assert len({pid for pid, _ in seen}) == 2, seen
    assert not any(wanted for _, wanted in seen) and scan_process.enabled
