"""``Model.reshape``'s verdict for every input axis at many sizes, recorded as data.

    python tests/support/reshape_probes.py                  # every set (needs openvino)
    python tests/support/reshape_probes.py samples corpus   # some sets

For each model, each input (Parameter, in ``get_parameters()`` order, named by its friendly
name: the layer name irvalidate gives it; its tensor names are kept too) and each axis of its
declared shape, the verdict of ``Model.reshape`` when only that axis is set to a size of
``SIZES`` and every other dim of every input stays as declared (a ``?`` stays ``?``). An
input of rank 0 or of dynamic rank has no axes; its record says why (``no_axes``).

Each probe reshapes a ``clone()`` of the model as read, whose verdicts were a fresh read's
on every probe, for 2.5-6x less CPU than a read on the corpus files.  One model object
reshaped in turn is changed by each probe: a success leaves the new shapes (requests built
from the model's shapes then gave other verdicts than fresh reads on 2 of 30 samples and
4 of 25 corpus files), a failure puts the shapes back but leaves SmartReshape's rewrites.
With every request built from the declared shapes, such reuse gave the clones' verdicts on
every probe of the four sets below, for 1.3-1.9x less CPU than a clone; the clone is kept, as
nothing promises that the rewrites left behind never change a later verdict.

The data (``tests/snapshots/reshape_probes/<set>.json.xz``) is keyed by a stable identity:
the repository-relative path of a sample, the corpus-relative path of a wild-corpus file
(the corpus itself never enters the repository), and ``<generator>:<seed or group>`` for the
models the tests build, with the sha256 of the XML text and of the .bin, so a changed file
or generator shows.  See ``load`` for the layout, ``model_files`` for the files with their
records, and ``constraint_check.py`` for their use.  The samples and the corpus are recorded
with openvino_tokenizers' ops registered, where it is installed (``record``).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import lzma
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
DATA = TESTS / "snapshots" / "reshape_probes"
SETS = ("samples", "corpus", "generated", "onnx")

#: the sizes every axis is tried at: 1..64 and ten large ones
SIZES = tuple(range(1, 65)) + (100, 127, 128, 224, 255, 256, 320, 512, 640, 1024)
#: an input whose rank times len(SIZES) passes this many probes is tried at 1..64 only
MAX_PROBES_PER_INPUT = 16 * len(SIZES)
SHORT_SIZES = tuple(range(1, 65))

_NAMED = re.compile(r"with friendly_name '(.*)':\s*$", re.M)


def sha256_of(path: Path) -> str:
    """The sha256 of a file's bytes (the XML's, and the .bin's: a Reshape's target is there)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ---------------------------------------------------------------------------- probing

def _refuser(err: Exception) -> str:
    """The node the runtime's message names (the innermost one), or "" when none."""
    found = _NAMED.findall(str(err))
    return found[-1] if found else ""


def _request(model: Any, which: int, axis: int, size: int) -> dict:
    """Every input as declared, but input ``which``'s ``axis`` set to ``size``."""
    import openvino as ov
    request = {}
    for i, parameter in enumerate(model.get_parameters()):
        shape = ov.PartialShape(parameter.get_output_partial_shape(0))
        if i == which:
            shape[axis] = ov.Dimension(size)
        request[parameter.output(0)] = shape
    return request


def probe(model: Any, which: int, axis: int, size: int) -> tuple[bool, str]:
    """One probe on a clone of ``model`` (left as it is): (works, the node refusing)."""
    trial = model.clone()
    try:
        trial.reshape(_request(trial, which, axis, size))
    except RuntimeError as err:
        return False, _refuser(err)
    return True, ""


def _axis_record(model: Any, which: int, axis: int, sizes: tuple, times: list) -> dict:
    works, refused = [], {}
    for size in sizes:
        start = time.process_time()
        ok, node = probe(model, which, axis, size)
        times.append(time.process_time() - start)
        works.append("1" if ok else "0")
        if not ok:
            refused.setdefault(node, []).append(size)
    return {"axis": axis, "works": "".join(works), "refused_by": refused}


def _input_record(model: Any, which: int, times: list) -> dict:
    parameter = model.get_parameters()[which]
    shape = parameter.get_output_partial_shape(0)
    record: dict[str, Any] = {
        "name": parameter.get_friendly_name(),
        "tensor_names": sorted(parameter.output(0).get_names()),
        "shape": str(shape), "rank": None, "axes": []}
    if shape.rank.is_dynamic:
        record["no_axes"] = "dynamic rank"
        return record
    record["rank"] = rank = shape.rank.get_length()
    if rank == 0:
        record["no_axes"] = "rank 0"
    sizes = SIZES if rank * len(SIZES) <= MAX_PROBES_PER_INPUT else SHORT_SIZES
    if sizes != SIZES:
        record["sizes"] = list(sizes)
    for axis in range(rank):
        row = _axis_record(model, which, axis, sizes, times)
        record["axes"].append({"axis": axis, "now": str(shape[axis]), **row})
    return record


def probe_file(path: Path) -> dict:
    """The record of one model file: its inputs' verdicts, or why read_model refuses it."""
    from support.opcheck import core
    weights = path.with_suffix(".bin")
    record: dict[str, Any] = {"xml_sha256": sha256_of(path),
                              "bin_sha256": sha256_of(weights) if weights.is_file() else None}
    start = time.process_time()
    try:
        model = core().read_model(str(path))
    except RuntimeError as err:
        text = str(err).replace(str(path), path.name)  # no path of this machine in the data
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        record.update(readable=False, error=(lines[-1] if lines else "refused")[:200])
        return record
    record["read_s"] = round(time.process_time() - start, 4)
    times: list[float] = []
    record["inputs"] = [_input_record(model, i, times) for i in range(len(model.get_parameters()))]
    record.update(readable=True, probes=len(times), probe_cpu_s=round(sum(times), 3),
                  probe_ms_median=round(1000 * statistics.median(times), 3) if times else None,
                  probe_ms_max=round(1000 * max(times), 3) if times else None)
    return record


# ---------------------------------------------------------------------------- the sets

def sample_models() -> Iterator[tuple[str, Path, dict]]:
    from support import places
    for path in places.SAMPLES:
        yield path.relative_to(ROOT).as_posix(), path, {}


def corpus_models() -> Iterator[tuple[str, Path, dict]]:
    from support import places
    for path in places.CORPUS_FILES:
        yield path.relative_to(places.CORPUS).as_posix(), path, {}


#: the generated models: the reshape tests' random CNNs/MLPs (seeds), ovgen's random valid
#: models (the first seeds whose models have an input with axes), every every-op group
RANDMODELS_SEEDS = range(16)
OVGEN_SEEDS = range(24)


#: a name OpenVINO makes up for a node left unnamed: its type and a number from a counter
#: of the whole process (``Constant_7`` in one process is ``Constant_19`` in another)
_MADE_UP = re.compile(r"\b([A-Z][A-Za-z0-9]*)_(\d+)\b")


def renumbered(text: str) -> str:
    """The XML with each made-up name numbered by its first appearance, per type, from 1:
    the same model gives the same text whatever the process built before it."""
    names: dict[str, str] = {}
    counts: dict[str, int] = {}

    def rename(match: re.Match) -> str:
        if match.group(0) not in names:
            counts[match.group(1)] = counts.get(match.group(1), 0) + 1
            names[match.group(0)] = f"{match.group(1)}_{counts[match.group(1)]}"
        return names[match.group(0)]
    return _MADE_UP.sub(rename, text)


def _stable_order(model: Any) -> Any:
    """The every-op model with its Parameters in the order a walk from its Results and sinks
    meets them, its layers named again as everyop_models.model names them and its tensor
    names after them: a group sorts its Parameters by made-up name, whose numbers, and so
    whose order, depend on what the process built before."""
    import openvino as ov
    found: list = []
    seen: set[int] = set()
    stack = list(reversed([*model.get_results(), *model.get_sinks()]))
    while stack:
        node = stack.pop()
        if node.get_instance_id() in seen:
            continue
        seen.add(node.get_instance_id())
        if node.get_type_name() == "Parameter":
            found.append(node)
        stack.extend(reversed([i.get_source_output().get_node() for i in node.inputs()]))
    stable = ov.Model(model.get_results(), model.get_sinks(), found, model.get_friendly_name())
    counts: dict[str, int] = {}
    for op in stable.get_ordered_ops():
        kind = op.get_type_name()
        counts[kind] = counts.get(kind, 0) + 1
        op.set_friendly_name(f"{kind}_{counts[kind]}")
        for i, out in enumerate(op.outputs()):  # tensor names were made up too
            if out.get_names():
                out.set_names({op.get_friendly_name() + (f":{i}" if i else "")})
    return stable


def build_generated(generator: str, seed: Any, folder: Path) -> Path:
    """The model file a generated record stands for, written into ``folder`` anew, its
    made-up names renumbered (``renumbered``) so that its text and input names are stable."""
    from support.opcheck import save
    if generator == "randmodels":
        from support.randmodels import random_model
        path = save(random_model(int(seed))[0], folder, f"random{seed}")
    elif generator == "ovgen":
        from support import ovgen
        path = ovgen.generate(int(seed), folder / f"ovgen{seed}", verify=False).xml
    elif generator == "everyop_models":
        from support import everyop_models
        path = save(_stable_order(everyop_models.GROUPS[str(seed)]()), folder, f"everyop-{seed}")
    elif generator == "onnx":
        module = onnx_test_module()
        (source,) = [s for s in module._stored_sources([]) + module._light_sources([])
                     if s.name == seed]
        path = module._convert(source, folder)
    else:
        raise KeyError(generator)
    path.write_text(renumbered(path.read_text(encoding="utf-8")), encoding="utf-8")
    return path


def onnx_test_module() -> Any:
    """tests/reshaping/test_onnx_models.py, whose sources and conversion the onnx set uses
    (loaded by its path: a test module, not a helper; it skips without onnx)."""
    import importlib.util
    name = "onnx_models_of_the_tests"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, TESTS / "reshaping" / "test_onnx_models.py")
        assert spec is not None and spec.loader is not None
        sys.modules[name] = importlib.util.module_from_spec(spec)  # its dataclasses look it up
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


def generated_models(folder: Path) -> Iterator[tuple[str, Path, dict]]:
    from support import everyop_models
    chosen: list[tuple[str, Any]] = [("randmodels", s) for s in RANDMODELS_SEEDS]
    chosen += [("ovgen", s) for s in OVGEN_SEEDS]
    chosen += [("everyop_models", name) for name in everyop_models.GROUPS]
    yield from _built(chosen, folder)


def onnx_models(folder: Path) -> Iterator[tuple[str, Path, dict]]:
    """The onnx package's stored backend models and light models that the reshape tests
    convert (test_onnx_models.py's sample, its weight limit included); not its node tests,
    whose operands are drawn from numpy's unseeded generator as the cases are made."""
    module = onnx_test_module()
    sources = module._stored_sources([]) + module._light_sources([])
    yield from _built([("onnx", s.name) for s in sources if s.sampled], folder)


def _built(chosen: list[tuple[str, Any]], folder: Path) -> Iterator[tuple[str, Path, dict]]:
    for generator, seed in chosen:
        try:
            path = build_generated(generator, seed, folder)
        except Exception as err:  # noqa: BLE001 - a generator that fails is told, not fatal
            print(f"{generator}:{seed}: not built ({err})", file=sys.stderr)
            continue
        yield f"{generator}:{seed}", path, {"generator": generator, "seed": seed}


def _has_axes(record: dict) -> bool:
    return any(i["axes"] for i in record.get("inputs", []))


# ---------------------------------------------------------------------------- data

def load(name: str) -> dict:
    """One set's data: ``{"openvino", "sizes", "models": {key: record}}``; a record holds
    ``xml_sha256`` and ``bin_sha256`` (None: no .bin), ``readable`` (else ``error``), ``inputs[]{name, tensor_names, shape,
    rank, no_axes?, sizes?, axes[]{axis, now, works, refused_by}}`` (``works``: one "1" or
    "0" per size, ``refused_by``: {node: [sizes]}), the probe count and CPU times, and for
    a generated model ``generator`` and ``seed``."""
    with lzma.open(DATA / f"{name}.json.xz", "rt", encoding="utf-8") as handle:
        data: dict = json.load(handle)
    return data


def verdicts(data: dict, axis_record: dict, input_record: dict) -> dict[int, bool]:
    """{size: works} of one recorded axis."""
    sizes = input_record.get("sizes") or data["sizes"]
    return {s: bit == "1" for s, bit in zip(sizes, axis_record["works"])}


def model_files(name: str, folder: Path, keys: Iterable[str] | None = None
                ) -> Iterator[tuple[str, Path, dict, dict]]:
    """(key, model file, record, probes) for each model of a set the runtime reads (those of
    ``keys`` only, if given), for a test that holds a report on the file to its record:
    ``check_constraints(report, probes)``, ``probes`` being ``{"sizes", "record"}``.  Samples
    and corpus files are where they are (the corpus's skipped when absent); generated and
    ONNX models are built into ``folder`` (openvino, and onnx, needed).  A file whose sha256
    is not the recorded one raises ValueError: the data is stale, re-record it."""
    from support import places
    data = load(name)
    wanted = set(data["models"]) if keys is None else set(keys)
    for key, record in sorted(data["models"].items()):
        if key not in wanted or not record.get("readable"):
            continue
        if name in ("samples", "corpus"):
            path = (ROOT if name == "samples" else places.CORPUS) / key
            if not path.is_file():
                continue
        else:
            path = build_generated(record["generator"], record["seed"], folder)
        weights = path.with_suffix(".bin")
        if (sha256_of(path), sha256_of(weights) if weights.is_file() else None) != \
                (record["xml_sha256"], record["bin_sha256"]):
            raise ValueError(f"{key}: the file is not the one recorded; re-record with "
                             f"python tests/support/reshape_probes.py {name}")
        yield key, path, record, {"sizes": data["sizes"], "record": record}


def record_set(name: str, found: Callable[[Path], Iterator[tuple[str, Path, dict]]],
               keep: Callable[[dict], bool] = lambda r: True) -> dict:
    import openvino as ov
    data: dict[str, Any] = {"openvino": ov.get_version(), "sizes": list(SIZES), "models": {}}
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        for key, path, extra in found(Path(folder)):
            record = {**extra, **probe_file(path)}
            if keep(record):
                data["models"][key] = record
            print(f"{key}: {record.get('probes', record.get('error'))}", file=sys.stderr)
    data["record_wall_s"] = round(time.monotonic() - start, 1)
    DATA.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=0, sort_keys=True, separators=(",", ":"))
    with lzma.open(DATA / f"{name}.json.xz", "wt", encoding="utf-8", preset=9) as handle:
        handle.write(text)
    return data


def main(argv: list[str]) -> int:
    """Record the sets named (every set: each in a process of its own, see ``record``)."""
    wanted = argv or list(SETS)
    unknown = [name for name in wanted if name not in SETS]
    if unknown:
        print(f"unknown set {unknown[0]!r}: one of {', '.join(SETS)}", file=sys.stderr)
        return 2
    if len(wanted) > 1:
        import subprocess
        return max(subprocess.call([sys.executable, __file__, name]) for name in wanted)
    return record(wanted[0])


def record(name: str) -> int:
    """One set, in this process.  openvino_tokenizers' ops are registered for the samples and
    the corpus, whose tokenizer files need them (the corpus README; tests/test_wild_corpus.py's
    oracle does the same), and not for the models the tests build, which build without them:
    registered, the converter takes ONNX StringNormalizer models that the tests' conversions
    refuse."""
    if sys.path[0] != str(TESTS):
        sys.path.insert(0, str(TESTS))  # run as a script: ``support`` as the tests import it
    if name in ("samples", "corpus"):
        with contextlib.suppress(ImportError):
            import openvino_tokenizers  # noqa: F401 - registers its ops for the whole process
    sources: dict[str, Callable[[Path], Iterator[tuple[str, Path, dict]]]] = {
        "samples": lambda _: sample_models(), "corpus": lambda _: corpus_models(),
        "generated": generated_models, "onnx": onnx_models}
    keep = _has_axes if name in ("generated", "onnx") else (lambda r: True)
    data = record_set(name, sources[name], keep)
    size = (DATA / f"{name}.json.xz").stat().st_size
    print(f"{name}: {len(data['models'])} models in {data['record_wall_s']} s, "
          f"{size:,} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
