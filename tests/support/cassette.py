"""Cassettes: the runtime's answers recorded as data, so the tests run without openvino.

As VCR records HTTP, a cassette records a test's conversation with openvino.  Three modes:

- live (openvino installed, the default): nothing changes, the tests talk to the runtime.
- record (``IRVALIDATE_RECORD=1``, openvino installed; ``tests/support/record.py`` runs
  pytest so): the test modules see openvino through stand-ins that pass every call on to
  the runtime and write down, per test, each call and its answer (values, objects as
  numbers, a refusal as its exception), and the files a call writes (``save_model``'s xml
  and bin).  A test that passes is kept in ``tests/snapshots/<folder>/<module>.json.xz``.
- replay (openvino absent): ``import openvino`` gives the same stand-ins, which answer each
  call with the next recorded answer and write the recorded files where the test asked, so
  irvalidate's side runs for real on the runtime's own files and answers.  A test with no
  recording, or whose calls differ from the recorded ones (a changed test, an order that
  depends on hashing), is skipped, never passed blindly.

Every ``read_model`` of a file is also kept with the file and what the runtime made of it
(each op's type, output shapes and element types, or its refusal):
``tests/test_snapshots.py`` re-reads them with the installed runtime, so a runtime upgrade
shows as a diff named per test.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import lzma
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support import places

TESTS = Path(__file__).resolve().parents[1]
SNAPSHOTS = TESTS / "snapshots"


def _mode() -> str:
    if importlib.util.find_spec("openvino") is None:
        return "replay"
    return "record" if os.environ.get("IRVALIDATE_RECORD") == "1" else "live"


MODE = _mode()
#: the public modules the tests import; the runtime's private ones stay real when recording
PUBLIC = ("openvino", "openvino.op", "openvino.op.util", "openvino.utils.node_factory",
          "openvino.preprocess", "openvino.properties") + tuple(
    f"openvino.opset{n}" for n in range(1, 17))
#: the exceptions a refusal is replayed as (the first of these in the real one's classes)
BUILTIN_ERRORS = {e.__name__: e for e in (AttributeError, IndexError, KeyError, StopIteration,
                                          TypeError, ValueError, OverflowError, RuntimeError)}


class Unreplayable(pytest.skip.Exception):  # type: ignore[name-defined,misc]
    """The recording cannot answer (none kept, or the test asked something else): a skip,
    wherever it is raised (a module's fixture too), and not an Exception, so a test's
    ``except Exception`` cannot swallow it."""


class Tape:
    """One test's recording: the calls in order, the files they wrote, the files read."""

    def __init__(self, test: str, events: list | None = None, blobs: dict | None = None):
        self.test = test
        self.events: list = events if events is not None else []
        self.blobs: dict[str, str] = blobs if blobs is not None else {}
        self.reads: list = []
        self.position = 0
        self.depth = 0  # record: inside a call to the runtime
        self.kept = True  # record: False when the test reads the wild corpus
        self.objects: dict[int, Any] = {}  # record: proxy number -> the real object

    def blob(self, data: bytes) -> str:
        """A file's bytes kept once per module: text as it is (the module's xz packs
        alike IRs well), anything else in base64."""
        key = hashlib.sha1(data).hexdigest()[:16]
        if key not in self.blobs:
            try:
                self.blobs[key] = "t:" + data.decode("utf-8")
            except UnicodeDecodeError:
                self.blobs[key] = "b:" + base64.b64encode(data).decode()
        return key

    def data(self, key: str) -> bytes:
        text = self.blobs[key]
        return text[2:].encode("utf-8") if text.startswith("t:") else base64.b64decode(text[2:])


_TAPE: list[Tape | None] = [None]


def tape() -> Tape:
    current = _TAPE[0]
    if current is None:
        raise Unreplayable("openvino used outside a test")
    return current


# ----- what a call's arguments and answers look like on tape --------------------------------

def fingerprint(value: Any) -> str:
    """A stable text of the arguments (a temporary path by its name, an array by its hash),
    to see that a replayed test asks what the recorded one asked."""
    import numpy as np
    if isinstance(value, Proxy):
        return f"#{value._number}"
    if isinstance(value, PathProxy):
        return value._path
    if isinstance(value, str):
        return os.path.basename(value) if os.path.isabs(value) else repr(value)
    if isinstance(value, Path):
        return value.name
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(fingerprint(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{fingerprint(k)}:{fingerprint(v)}" for k, v in value.items())) + "}"
    if isinstance(value, np.ndarray):
        return f"nd{value.dtype}{value.shape}{hashlib.sha1(value.tobytes()).hexdigest()[:8]}"
    if isinstance(value, type):
        return value.__qualname__
    if callable(value):
        return "fn"
    return repr(value)


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def encode(value: Any, keep: Tape) -> Any:
    """An answer as JSON; an object the tape cannot hold becomes a numbered stand-in."""
    import numpy as np
    if _plain(value):
        return value
    if isinstance(value, (list, tuple, set)):
        tag = {list: "l", tuple: "t"}.get(type(value), "s")
        return {tag: [encode(v, keep) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"d": {k: encode(v, keep) for k, v in value.items()}}
    if isinstance(value, np.ndarray) and value.dtype != object:
        return {"n": [value.dtype.str, list(value.shape), base64.b64encode(value.tobytes()).decode()]}
    if isinstance(value, np.generic):
        return {"ns": [value.dtype.str, value.item()]}
    if isinstance(value, np.dtype):
        return {"dt": value.str}
    if isinstance(value, type) and value.__module__ == "numpy":
        return {"nt": value.__name__}
    number = len(keep.objects)
    keep.objects[number] = value
    return {"o": number}


def decode(value: Any) -> Any:
    import numpy as np
    if not isinstance(value, dict):
        return value
    (tag, body), = value.items()
    if tag in ("l", "t", "s"):
        items = [decode(v) for v in body]
        return {"l": list, "t": tuple, "s": set}[tag](items)
    if tag == "d":
        return {k: decode(v) for k, v in body.items()}
    if tag == "n":
        return np.frombuffer(base64.b64decode(body[2]), dtype=body[0]).reshape(body[1]).copy()
    if tag == "ns":
        return np.dtype(body[0]).type(body[1])
    if tag == "dt":
        return np.dtype(body)
    if tag == "nt":
        return getattr(np, body)
    return Proxy(body)


def real(value: Any) -> Any:
    """record: an argument with its stand-ins replaced by the real objects."""
    if isinstance(value, Proxy):
        if value._tape is not _TAPE[0]:  # kept by a cache from another test: its number lies
            raise Unreplayable("an openvino object kept from another test")
        return tape().objects[value._number]
    if isinstance(value, PathProxy):
        return value._resolve()
    if isinstance(value, list):
        return [real(v) for v in value]
    if isinstance(value, tuple):
        return tuple(real(v) for v in value)
    if isinstance(value, dict):
        return {real(k): real(v) for k, v in value.items()}
    return value


# ----- files a call writes or reads ---------------------------------------------------------

def _paths(args: tuple, kwargs: dict) -> list[tuple[str, str]]:
    """(where the argument is, the file) for each .xml argument and the .bin beside it."""
    found = []
    for key, value in list(enumerate(args)) + list(kwargs.items()):
        text = str(value) if isinstance(value, (str, Path)) else ""
        if text.endswith(".xml"):
            found += [(f"{key}", text), (f"{key}.bin", text[:-4] + ".bin")]
    return found


def _stat(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def _summary(model: Any) -> list:
    """What the runtime made of a file: each op's name, type, output shapes and types."""
    return [[op.get_friendly_name(), op.get_type_name(),
             [str(op.get_output_partial_shape(i)) for i in range(op.get_output_size())],
             [op.get_output_element_type(i).get_type_name() for i in range(op.get_output_size())]]
            for op in model.get_ordered_ops()]


def read_answer(path: str) -> list:
    """The runtime's reading of a file, as kept: a summary, or its refusal."""
    try:
        return ["read", _summary(_reader().read_model(path))]
    except Exception as err:  # noqa: BLE001 (any refusal is an answer to keep)
        return ["refused", type(err).__name__]


_READER: list = []


def _reader() -> Any:
    """One Core for every reading kept or checked: a Core a reading costs 5-30 ms of wall
    time (its plugins looked up) for 17,551 readings, and reading a file does not change it."""
    if not _READER:
        ov = _REAL.get("openvino") or importlib.import_module("openvino")
        _READER.append(ov.Core())
    return _READER[0]


def _corpus(args: tuple, kwargs: dict) -> bool:
    """Whether a call names a file of the wild corpus, which must not be copied into the
    project: the test is then not kept (it runs with the runtime only)."""
    corpus = os.path.realpath(places.CORPUS)
    return any(isinstance(v, (str, Path)) and os.path.realpath(str(v)).startswith(corpus)
               for v in list(args) + list(kwargs.values()))


def _keep_read(keep: Tape, target: Any, args: tuple) -> None:
    if getattr(target, "__name__", "") != "read_model" or not args:
        return
    path = str(args[0])
    if not path.endswith(".xml") or not os.path.exists(path):
        return
    weights = path[:-4] + ".bin"
    keep.reads.append({"xml": keep.blob(Path(path).read_bytes()),
                       "bin": keep.blob(Path(weights).read_bytes()) if os.path.exists(weights) else None,
                       "answer": read_answer(path)})


# ----- the conversation ---------------------------------------------------------------------

def converse(ref: Any, op: str, thunk: Callable[[], Callable], args: tuple = (),
             kwargs: dict | None = None) -> Any:
    """One call on a stand-in: ``thunk()(*args, **kwargs)`` on the runtime (record), or the
    recorded answer (replay)."""
    kwargs = kwargs or {}
    keep = _TAPE[0]
    if MODE == "record" and keep is not None and keep.depth:
        # openvino's own code reaching its public names (a lazy import inside a recorded
        # call): not the test's conversation
        return thunk()(*real(args), **real(kwargs))
    if keep is None:
        return _at_import(ref, op, thunk, args, kwargs)
    mark = hashlib.sha1(fingerprint((args, kwargs)).encode()).hexdigest()[:8]
    if MODE == "replay":
        return _replay(keep, [ref, op, mark], args, kwargs)
    if _corpus(args, kwargs):
        keep.kept = False
    paths = _paths(args, kwargs)
    before = [_stat(p) for _, p in paths]
    function = thunk()
    keep.depth += 1
    _modules(_REAL)  # openvino's own lazy imports must find openvino
    try:
        result = {"r": encode(function(*real(args), **real(kwargs)), keep)}
    except Exception as err:
        kind = next(c.__name__ for c in type(err).__mro__ if c.__name__ in BUILTIN_ERRORS)
        # a refusal names the file read: the repository's place is no part of the answer
        message = str(err).replace(str(TESTS.parent), "<repository>")
        keep.events.append([ref, op, mark, {"x": [kind, message]}])
        raise
    finally:
        keep.depth -= 1
        _modules(_STAND_INS)
    written = [[key, keep.blob(Path(p).read_bytes())] for (key, p), old in zip(paths, before)
               if _stat(p) is not None and _stat(p) != old]
    if written:
        result["w"] = written
    keep.events.append([ref, op, mark, result])
    _keep_read(keep, function, args)
    return decode(result["r"])


def _at_import(ref: Any, op: str, thunk: Callable[[], Callable], args: tuple,
               kwargs: dict) -> Any:
    """Outside a test (a module's constants, ``_F16 = NodeFactory("opset16")``): an object
    made is known by how it was made, in record and replay alike, so a test's calls on it
    are on its tape."""
    if op == "()":
        key = f"{fingerprint(ref)}({fingerprint((args, kwargs))})"
        if MODE == "record":
            made = thunk()(*real(args), **real(kwargs))
            if _plain(made):
                return made
            _IMPORTED[key] = made
        return Made(key)
    if MODE == "record":
        return thunk()(*real(args), **real(kwargs))
    if op == "bool":
        return True
    return Proxy(-1)  # no test's tape stands for it: using it in a test skips that test


def _replay(keep: Tape, asked: list, args: tuple, kwargs: dict) -> Any:
    _same_tape([args, kwargs])
    if keep.position >= len(keep.events):
        raise Unreplayable(f"{keep.test}: asks openvino more than was recorded")
    event = keep.events[keep.position]
    if event[:3] != asked:
        raise Unreplayable(f"{keep.test}: call {keep.position} differs from the recording "
                           f"({asked[:2]} where {event[:2]} was recorded)")
    keep.position += 1
    result = event[3]
    for key, blob in result.get("w", []):
        index, _, suffix = key.partition(".")
        where = args[int(index)] if index.isdigit() else kwargs[index]
        target = Path(str(where)[:-4] + ".bin" if suffix else str(where))
        target.parent.mkdir(parents=True, exist_ok=True)  # as save_model makes the folder
        target.write_bytes(keep.data(blob))
    if "x" in result:
        kind, message = result["x"]
        raise BUILTIN_ERRORS[kind](message)
    return decode(result["r"])


def _same_tape(value: Any) -> None:
    """replay: an argument from another test's tape (a cache) is refused, as record does."""
    if isinstance(value, Proxy) and value._tape is not _TAPE[0]:
        raise Unreplayable("an openvino object kept from another test")
    if isinstance(value, (list, tuple)):
        for v in value:
            _same_tape(v)
    elif isinstance(value, dict):
        for v in value.values():
            _same_tape(v)


def _dunder(name: str):
    def method(self, *args):
        return converse(self._ref(), name, lambda: getattr(real(self), name), args)
    method.__name__ = name
    return method


class _Talking:
    """What the stand-ins share: every operation on them is a call on tape."""

    def _ref(self) -> Any:
        raise NotImplementedError

    def __call__(self, *args, **kwargs):
        return converse(self._ref(), "()", lambda: real(self), args, kwargs)

    def __iter__(self):
        return iter(converse(self._ref(), "iter", lambda: lambda: list(real(self))))

    def __bool__(self):
        return converse(self._ref(), "bool", lambda: lambda: bool(real(self)))

    def __hash__(self):
        return converse(self._ref(), "hash", lambda: lambda: hash(real(self)))

    def __setattr__(self, name: str, value: Any) -> None:
        converse(self._ref(), "=" + name, lambda: lambda v: setattr(real(self), name, v), (value,))

    def __instancecheck__(self, other):
        return converse(self._ref(), "isinstance", lambda: lambda o: isinstance(o, real(self)),
                        (other,))


for _name in ("__str__", "__repr__", "__len__", "__getitem__", "__setitem__", "__contains__",
              "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__int__",
              "__float__", "__index__", "__format__", "__add__", "__sub__", "__mul__",
              "__truediv__", "__neg__", "__array__", "__enter__", "__exit__"):
    setattr(_Talking, _name, _dunder(_name))


class Proxy(_Talking):
    """An object openvino gave, known by its number in the test's tape."""

    __slots__ = ("_number", "_tape")

    def __init__(self, number: int):
        object.__setattr__(self, "_number", number)
        object.__setattr__(self, "_tape", _TAPE[0])

    def _ref(self) -> Any:
        if self._tape is not _TAPE[0]:
            raise Unreplayable("an openvino object kept from another test")
        return self._number

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return converse(self._ref(), "." + name, lambda: lambda: getattr(real(self), name))


class PathProxy(_Talking):
    """A name in openvino's modules (``openvino.opset8.parameter``): static, so reaching it is
    not a call; calling it, or any other use, is."""

    __slots__ = ("_path",)

    def __init__(self, path: str):
        object.__setattr__(self, "_path", path)

    def _ref(self) -> Any:
        return self._path

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return PathProxy(f"{self._path}.{name}")

    def __hash__(self) -> int:
        """The runtime's hash of the name (``ov.Type.f32`` hashes as 4: a dict of them is
        looked up with the types openvino gives), kept in tests/snapshots/hashes.json, as
        a module's constants hash at its import, outside any test's tape."""
        if MODE == "record":
            resolved = self._resolve()
            if isinstance(resolved, type):  # a class hashes by its address: not kept
                return hash(resolved)
            _HASHES[self._path] = hash(resolved)
        return _HASHES.get(self._path, hash(self._path))

    def __eq__(self, other: Any) -> Any:
        if isinstance(other, PathProxy):
            return self._path == other._path
        return converse(self._ref(), "__eq__", lambda: real(self).__eq__, (other,))

    def __ne__(self, other: Any) -> Any:
        if isinstance(other, PathProxy):
            return self._path != other._path
        return converse(self._ref(), "__ne__", lambda: real(self).__ne__, (other,))

    def _resolve(self) -> Any:
        names = self._path.split(".")
        for cut in range(len(names), 0, -1):
            module = _REAL.get(".".join(names[:cut]))
            if module is not None:
                value = module
                for name in names[cut:]:
                    value = getattr(value, name)
                return value
        raise Unreplayable(self._path)


_REAL: dict[str, types.ModuleType] = {}


class Made(PathProxy):
    """An object a module made at its import, known by how it was made."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return converse(self._path, "." + name, lambda: lambda: getattr(real(self), name))

    def _resolve(self) -> Any:
        return _IMPORTED[self._path]


_IMPORTED: dict[str, Any] = {}  # record: what the modules' imports made, by how


class StandInModule(types.ModuleType):
    """``import openvino.opset8`` in record and replay: attributes are PathProxy names."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return PathProxy(f"{self.__name__}.{name}")


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """replay: any ``openvino`` module imports as a stand-in."""

    def find_spec(self, name, path=None, target=None):
        if name != "openvino" and not name.startswith("openvino."):
            return None
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        module = StandInModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


_STAND_INS: dict[str, types.ModuleType] = {}


def _modules(which: dict[str, types.ModuleType]) -> None:
    """record: the public openvino modules in sys.modules, real or stand-ins."""
    for name in PUBLIC:
        sys.modules[name] = which[name]


def install() -> None:
    """Put the stand-ins where ``import openvino`` finds them (record and replay)."""
    if MODE == "replay":
        sys.meta_path.insert(0, _Finder())
    elif MODE == "record":
        for name in PUBLIC:
            importlib.import_module(name)
        _REAL.update({n: m for n, m in list(sys.modules.items()) if n.split(".")[0] == "openvino"})
        for name in PUBLIC:
            module = StandInModule(name)
            module.__path__ = []
            _STAND_INS[name] = module
        _modules(_STAND_INS)


# ----- the cassettes on disk, and the hooks that run a test on its tape ---------------------

def snapshot_of(test_file: Path) -> Path:
    """tests/ops/test_concat.py -> tests/snapshots/ops/test_concat.json.xz"""
    return SNAPSHOTS / Path(test_file).resolve().relative_to(TESTS).with_suffix(".json.xz")


def load(path: Path) -> dict:
    """A cassette: {"tests": {node id: {"events", "reads"}}, "blobs": {key: file}}."""
    if not path.exists():
        return {"tests": {}, "blobs": {}}
    with lzma.open(path, "rt", encoding="utf-8") as f:
        cassette = json.load(f)
    cassette["tests"] = {test_key(k): v for k, v in cassette["tests"].items()}
    return cassette


def test_key(nodeid: str) -> str:
    """A test's id without blanks: a parameter id may be printed by openvino when it is
    installed ('[4,3,16,16]') and by Python when not ('[4, 3, 16, 16]')."""
    return "".join(nodeid.split())


def save(path: Path, cassette: dict) -> None:
    """Written with only the files its tests use, sorted, so a re-record diffs cleanly."""
    used = {key for entry in cassette["tests"].values() for key in _blob_keys(entry)}
    cassette = {"tests": cassette["tests"],
                "blobs": {k: v for k, v in cassette["blobs"].items() if k in used}}
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(cassette, sort_keys=True, separators=(",", ":"))
    # xz, not gzip: half the size, as a tape repeats itself further apart than gzip sees
    path.write_bytes(lzma.compress(text.encode("utf-8"), preset=9 | lzma.PRESET_EXTREME))


def _blob_keys(entry: dict) -> list[str]:
    keys = [key for event in entry["events"] for _, key in event[3].get("w", [])]
    return keys + [read[k] for read in entry["reads"] for k in ("xml", "bin") if read[k]]


_LOADED: dict[Path, dict] = {}
HASHES = SNAPSHOTS / "hashes.json"
_HASHES: dict[str, int] = json.loads(HASHES.read_text()) if HASHES.exists() else {}
_RESETS: list[Callable[[], None]] = []


def per_test(reset: Callable[[], None]) -> None:
    """A helper's cache of openvino objects or counter of names, reset before each test when
    recording or replaying, so a test's tape does not depend on the tests run before it."""
    _RESETS.append(reset)


def _cassette(test_file: Path) -> dict:
    path = snapshot_of(test_file)
    if path not in _LOADED:
        _LOADED[path] = load(path)
    return _LOADED[path]


def start(item: Any) -> None:
    """Before a test's setup: its tape (replay: the recorded one, empty when none is)."""
    if MODE == "live":
        return
    for reset in _RESETS:
        reset()
    cassette = _cassette(item.path)
    if MODE == "replay":
        entry = cassette["tests"].get(test_key(item.nodeid), {"events": []})
        _TAPE[0] = Tape(item.nodeid, entry["events"], cassette["blobs"])
    else:
        _TAPE[0] = Tape(item.nodeid)


def finish(item: Any, passed: bool) -> None:
    """After a test's call: record keeps the tape of a test that passed and used openvino."""
    keep, _TAPE[0] = _TAPE[0], None
    if MODE != "record" or keep is None:
        return
    cassette = _cassette(item.path)
    cassette["tests"].pop(test_key(item.nodeid), None)
    if passed and keep.events and keep.kept:
        cassette["tests"][test_key(item.nodeid)] = {"events": keep.events, "reads": keep.reads}
        cassette["blobs"].update(keep.blobs)


def write_all() -> None:
    """record: every cassette a test of this session touched."""
    if MODE == "record":
        known = json.loads(HASHES.read_text()) if HASHES.exists() else {}
        SNAPSHOTS.mkdir(exist_ok=True)
        HASHES.write_text(json.dumps({**known, **_HASHES}, indent=0, sort_keys=True) + "\n")
        for path, cassette in _LOADED.items():
            if cassette["tests"]:
                save(path, cassette)
            elif path.exists():  # none of its tests talks to openvino any more
                path.unlink()


# ----- pytest's side (tests/conftest.py imports these hooks) -------------------------------

@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: Any):
    start(item)
    try:
        return (yield)
    except Unreplayable as err:
        pytest.skip(f"no runtime, and the recording cannot answer: {err}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: Any):
    try:
        result = yield
    except Unreplayable as err:
        finish(item, False)
        pytest.skip(f"no runtime, and the recording cannot answer: {err}")
    except BaseException:
        finish(item, False)
        raise
    finish(item, True)
    return result


def pytest_sessionfinish(session: Any) -> None:
    write_all()


def _hypothesis_profile() -> None:
    """record and replay: the same examples in both runs, and no deadline (the stand-ins
    are slower than the runtime)."""
    from hypothesis import HealthCheck, settings
    settings.register_profile("cassette", derandomize=True, database=None, deadline=None,
                              suppress_health_check=list(HealthCheck))
    settings.load_profile("cassette")


def _importorskip_in_replay() -> None:
    """replay: ``pytest.importorskip("openvino")`` inside a test with no recording skips, as
    it does without the stand-ins (such a test may run openvino in a subprocess)."""
    original = pytest.importorskip

    def importorskip(modname: str, *args: Any, **kwargs: Any) -> Any:
        keep = _TAPE[0]
        if modname.split(".")[0] == "openvino" and keep is not None and not keep.events:
            pytest.skip(f"could not import {modname!r}: no openvino, and no recording")
        return original(modname, *args, **kwargs)
    pytest.importorskip = importorskip


install()
if MODE != "live":
    _hypothesis_profile()
if MODE == "replay":
    _importorskip_in_replay()
