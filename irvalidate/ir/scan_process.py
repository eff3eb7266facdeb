"""The scanner's reading of the layers, done by a second process while this one analyses them.

Why: in the streaming check of a large plain file, reading the layers (matching each one's
text, counting its lines) is a third of the work, and it depends on nothing the analysis
finds.  On a machine with a core to spare, a forked process reads them and sends compact
records through a pipe; this process builds the same ``Layer`` records from them and goes
on as if its own scanner had read them.  The prolog, the edges and the end of the file are
still read here (``Scanner.resume`` takes over where the other process stopped).

What crosses the pipe: each layer as a tuple of its id, name, line, the line its port
lines count from, and references to what many layers share (the ``<data>`` dicts and port
sections the scanner caches, and the type and version), each sent once.  Sharing stays
sharing: ``analysis.likeness`` and ``ops.memo`` name those objects by identity.  A Const's
``<data>`` (its own) travels with it.

Choose per run (``wanted``): Linux (fork), a file of ``MIN_BYTES`` or more, one thread, not
inside a ``-j`` run, and a core idle now (``/proc/loadavg``); ``IRVALIDATE_SCAN_PROCESS=0`` or ``1``
decides instead.  Whatever goes wrong over there (the process dies, the pipe breaks) makes
the file ``NotPlain``, and the caller reads it again the other way.
"""
from __future__ import annotations

import marshal
import os
import struct
import sys
from collections.abc import Iterator

from .plain import NO_DATA
from .records import Document, Graph, Layer, Port
from .scanner import NotPlain, Scanner

#: files smaller than this are read in one process (forking and the pipe cost ~10 ms)
MIN_BYTES = 8 << 20
#: layers a message carries
BATCH = 1024
#: shared objects remembered on both sides at most (then both forget them all)
MAX_SHARED = 8192
#: set by ``-j``: its processes already keep the cores busy
enabled = True

_LENGTH = struct.Struct("<I")
_LAYERS, _COMPLEX, _END, _FAILED = range(4)


def wanted(size: int) -> bool:
    """Whether a file of ``size`` bytes is best read by a second process, in this run."""
    chosen = os.environ.get("IRVALIDATE_SCAN_PROCESS", "")
    if chosen in ("0", "1"):
        return chosen == "1" and hasattr(os, "fork")
    if not (enabled and size >= MIN_BYTES and sys.platform.startswith("linux")):
        return False
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return False  # (a fork copies one thread; the locks others hold stay held)
    try:
        cores = len(os.sched_getaffinity(0))
        return cores >= 2 and _running() < cores
    except (OSError, ValueError):
        return False


def _running() -> int:
    """The processes running or ready to run now, this one included (the load average's
    instant figure: an average over a minute would still count the last file's check)."""
    with open("/proc/loadavg", "rb") as status:
        return int(status.read().split()[3].split(b"/")[0])


class ScanProcess(Scanner):
    """A Scanner whose ``layers`` are read by a forked process; the rest is read here."""

    def __init__(self, path: str, doc: Document) -> None:
        super().__init__(path, doc)
        self._pid = 0
        self._pipe = None
        self._shared: dict = {}
        read, write = os.pipe()
        try:
            import fcntl  # (a larger pipe: the other process reads ahead while this one
            fcntl.fcntl(write, 1031, 1 << 20)  # reads the edges; 1031 is F_SETPIPE_SZ)
        except (ImportError, OSError):
            pass
        pid = os.fork()
        if pid == 0:  # the reading process: never returns
            try:
                os.close(read)
                _serve(path, write)
            finally:
                os._exit(1)
        os.close(write)
        self._pid = pid
        self._pipe = os.fdopen(read, "rb", buffering=1 << 16)

    def close(self) -> None:
        super().close()
        if self._pipe is not None:
            self._pipe.close()
            self._pipe = None
        if self._pid:
            try:  # (done: it has ended; declined early: it is stopped)
                os.kill(self._pid, 15)
            except OSError:
                pass
            os.waitpid(self._pid, 0)
            self._pid = 0

    def _message(self):
        head = self._pipe.read(4)
        if len(head) == 4:
            body = self._pipe.read(_LENGTH.unpack(head)[0])
            try:
                return marshal.loads(body)
            except (EOFError, ValueError, TypeError):
                pass
        raise NotPlain("the reading process stopped")

    def layers(self, complex_layer) -> Iterator[Layer]:
        # (a named tuple's own __new__ is a Python function; every field is passed, in order:
        # tests/test_fast_records.py counts them)
        new, shared = tuple.__new__, self._shared
        while True:
            message = self._message()
            what = message[0]
            if what == _LAYERS:
                _, forget, objects, records = message
                if forget:
                    shared.clear()
                shared.update(objects)
                for lid, name, types, line, data, parts, base in records:
                    kind, version = shared[types]
                    parts = shared[parts]
                    self.parts = parts
                    inputs, outputs, _ = parts
                    yield new(Layer, (
                        lid, name, kind, version, line,
                        NO_DATA if data is None else data if type(data) is dict else shared[data],
                        tuple([new(Port, (pid, dims, precision, base + rel))
                               for pid, dims, precision, rel in inputs]) if inputs else (),
                        tuple([new(Port, (pid, dims, precision, base + rel))
                               for pid, dims, precision, rel in outputs]) if outputs else (),
                        (), (), ()))
            elif what == _COMPLEX:
                self.parts = None
                yield complex_layer(message[1], message[2])
            elif what == _END:
                _, offset, newlines, shared_lines, last_line, ascii = message
                self.resume(offset, newlines, last_line, ascii)
                self.shared_lines = self.shared_lines or shared_lines
                return
            else:
                raise NotPlain(message[1])


def _serve(path: str, pipe: int) -> None:
    """The reading process: every layer of the file, in batches, then where it stopped."""
    status = 0
    try:
        with os.fdopen(pipe, "wb", buffering=1 << 16) as out:
            try:
                _read(Scanner(path, Document(path=path, version=None, graph=Graph())), out)
            except NotPlain as err:
                _send(out, (_FAILED, str(err)))
            except Exception as err:  # noqa: BLE001 - the other side reads the file again
                _send(out, (_FAILED, f"the reading process failed: {err!r}"[:500]))
    except BaseException:  # noqa: BLE001 - a closed pipe, a signal: nothing to tell
        status = 1
    os._exit(status)  # (never the parent's exit handlers, nor its buffered output)


def _send(out, message) -> None:
    body = marshal.dumps(message)
    out.write(_LENGTH.pack(len(body)))
    out.write(body)


def _read(scanner: Scanner, out) -> None:
    scanner.head()

    def complex_layer(text: str, line: int) -> None:
        """A layer lxml reads: sent as text, in its place among the others."""
        flush()
        _send(out, (_COMPLEX, text, line))

    ids: dict = {}  # id() of a shared object -> (its number, itself: kept alive while named)
    objects: list[tuple] = []
    records: list[tuple] = []
    forget = False

    def number(obj: object) -> int:
        found = ids.get(id(obj))
        if found is None:
            found = ids[id(obj)] = (len(ids), obj)
            objects.append((found[0], obj))
        return found[0]

    def flush() -> None:
        nonlocal forget
        if records:
            _send(out, (_LAYERS, forget, objects[:], records[:]))
            forget = False
            objects.clear()
            records.clear()

    types: dict = {}
    for layer in scanner.layers(complex_layer):
        if len(ids) > MAX_SHARED - 3:  # (a layer names three at most)
            flush()
            ids.clear()
            forget = True
        if layer is None:  # (a complex layer, sent already)
            continue
        parts = scanner.parts
        inputs, outputs, _ = parts  # type: ignore[misc]  # set for every plain layer
        base = (layer.inputs[0].line - inputs[0][3] if inputs else
                layer.outputs[0].line - outputs[0][3] if outputs else 0)
        data = layer.data
        pair = types.get((layer.type, layer.version))
        if pair is None:
            pair = types[(layer.type, layer.version)] = (layer.type, layer.version)
        records.append((layer.id, layer.name, number(pair), layer.line,
                        None if data is NO_DATA else data if "offset" in data else number(data),
                        number(parts), base))
        if len(records) >= BATCH:
            flush()
    flush()
    _send(out, (_END, scanner.offset(), scanner.newlines, scanner.shared_lines,
                scanner._last_line, scanner._ascii))
