"""irvalidate --reshape on converted real models: the ONNX models the ``onnx`` package ships
as backend test data, each converted with ``ov.convert_model`` and saved as IR (no fp16
compression) once a session, then asked a few reshape requests derived from its inputs;
irvalidate's verdict and Result shapes are compared with ``Model.reshape`` (SmartReshape)
and with plain re-inference, through runtime_oracle.py.  Skipped when onnx or openvino is
missing.

Where the models come from (onnx/backend/test/data/ and onnx.backend.test.case.node):

* ``pytorch-converted/*``, ``pytorch-operator/*``, ``simple/*``: stored model.onnx files
  (nn modules exported by PyTorch: Conv1d..3d, ConvTranspose, pooling, BatchNorm, PReLU,
  padding, PixelShuffle, Linear, Embedding, view/permute/chunk/repeat...);
* ``light/*.onnx``: real topologies (ResNet-50, DenseNet-121, Inception v1/v2, ShuffleNet,
  SqueezeNet, ...) whose weights are ConstantOfShape nodes (the converter folds them);
* ``real/*``: a model.onnx where one is stored; today every one is a download stub (a
  data.json naming the light model), counted and skipped;
* node tests, built in memory by the onnx package's case generators for the ops a reshape
  goes through (NODE_MODULES: Reshape, Flatten, Gemm, MatMul, Conv, ConvTranspose, pooling,
  Resize/Upsample, Slice, Squeeze/Unsqueeze, Expand, Tile, Concat, Split, Pad, Transpose,
  LSTM/GRU/RNN, BatchNorm, Softmax, ...; their ``_expanded`` function bodies too).  The
  wheel stores no node data, and a node test has every operand as a graph input: here the
  operands of rank <= 1 after the first (shape, axes, pads, starts, repeats, scales,
  BatchNorm statistics, ...) are frozen into initializers with the test's own values, as in
  a real model, so that they become Consts and not Parameters.

A model the converter refuses (StringNormalizer, training ops, some Resize-19 modes, Pad-25
wrap) is skipped and counted.

The requests of a model (at most MAX_REQUESTS, in this order, duplicates and no-ops
dropped), every input changed at once: batch 2 (3 where it is 2) where dim 0 is static;
dim 0 dynamic (``?``); the spatial-looking dims + 1, then doubled (dims 2.. of a rank 3-5
input, the last dim of a rank 2 one); batch 2 on the first input alone (for a model of
several inputs).  Scalars are left as they are.

Time: ~25 s on 2 cores (conversion ~0.01-0.03 s a small model, ~10 ms a comparison).  Left
out unless IRVALIDATE_ONNX_FULL=1: the light models whose ConstantOfShape weights exceed
LIGHT_MAX_WEIGHT_BYTES (AlexNet, ZFNet-512, VGG-19: 230-550 MB of fully connected weights
once folded, seconds to convert and write; the Conv/Pool/FC structure of the others), and
the 33 ``_expanded_ver18`` node tests (Softmax, LogSoftmax, LayerNormalization) whose
``_expanded`` twin is taken (the same function body, with the opset-18 Reduce ops).  Never
taken: the node generators outside NODE_MODULES (LpPool, for one: 1 s of reference
computation to import, for an op no other model has).

Mismatches are collected per group and reported together; the models where irvalidate is
known to disagree (KNOWN) are strict xfails, one each, with their diagnosis.
"""
from __future__ import annotations

import collections
import copy
import importlib
import os
import re
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")
ov = pytest.importorskip("openvino")

from support.opcheck import convert  # noqa: E402
from support.runtime_oracle import Request, describe, disagreement, read, runtime  # noqa: E402

FULL = os.environ.get("IRVALIDATE_ONNX_FULL") == "1"
MAX_REQUESTS = 5
LIGHT_MAX_WEIGHT_BYTES = None if FULL else 100 * 1024 * 1024

DATA = Path(onnx.__file__).parent / "backend" / "test" / "data"
STORED_GROUPS = ("pytorch-converted", "pytorch-operator", "simple", "real")

#: onnx.backend.test.case.node modules whose cases are taken (the ops a reshape goes through)
NODE_MODULES = (
    "reshape", "flatten", "gemm", "matmul", "conv", "convtranspose", "averagepool", "maxpool",
    "globalaveragepool", "globalmaxpool", "resize", "upsample", "slice", "squeeze", "unsqueeze",
    "expand", "tile", "concat", "split", "pad", "transpose", "lstm", "gru", "rnn",
    "batch_normalization", "softmax", "logsoftmax", "depthtospace", "spacetodepth", "gather",
    "reducemean", "reducesum", "instance_normalization", "layernormalization", "prelu",
    "shape", "size", "constantofshape", "topk", "einsum", "center_crop_pad",
)

GROUPS = STORED_GROUPS + ("light", "node")

#: model -> diagnosis, for the models where irvalidate disagrees with the runtime and the fix
#: is irvalidate's: each is a strict xfail (test_known_disagreement: every request of the
#: model, both ways, must agree) and its mismatches are left out of the group tests.
#: None now: the CenterCropPad models (ShapeOf -> ScatterElementsUpdate -> Slice/Pad) were,
#: until ScatterElementsUpdate's value was followed (test_scatter_elements_update_of_a_shape).
KNOWN: dict[str, str] = {}


# ---------------------------------------------------------------------------- sources

@dataclass
class Source:
    name: str                      # "group/model"
    group: str
    onnx_path: Path | None = None
    proto: object = None           # an onnx.ModelProto built in memory (node tests)
    sampled: bool = True           # converted and compared (else left out, see the module doc)


def _stored_sources(left_out: list[str]) -> list[Source]:
    out = []
    for group in STORED_GROUPS:
        stubs = 0
        for folder in sorted(p for p in (DATA / group).glob("*") if p.is_dir()):
            if (folder / "model.onnx").is_file():
                out.append(Source(f"{group}/{folder.name}", group,
                                  onnx_path=folder / "model.onnx"))
            else:  # real/*: data.json naming a model to download
                stubs += 1
        if stubs:
            left_out.append(f"{group}: {stubs} download stubs")
    return out


def _light_weight_bytes(path: Path) -> int:
    """The bytes of float weights the converter folds out of a light model's ConstantOfShape
    nodes (their shapes are initializers): 4 a number."""
    model = onnx.load(str(path))
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer}
    total = 0
    for node in model.graph.node:
        if node.op_type == "ConstantOfShape" and node.input and node.input[0] in inits:
            n = 1
            for d in inits[node.input[0]].reshape(-1):
                n *= int(d)
            total += 4 * n
    return total


def _light_sources(left_out: list[str]) -> list[Source]:
    out = []
    for p in sorted((DATA / "light").glob("light_*.onnx")):
        name = f"light/{p.stem[len('light_'):]}"
        sampled = True
        if LIGHT_MAX_WEIGHT_BYTES is not None:
            size = _light_weight_bytes(p)
            if size > LIGHT_MAX_WEIGHT_BYTES:
                left_out.append(f"{name}: {size // 2**20} MB of weights")
                sampled = False
        out.append(Source(name, "light", onnx_path=p, sampled=sampled))
    return out


def _frozen(case) -> object:
    """The node test's model with its operands of rank <= 1 after the first made initializers
    (the test's values): shapes, axes, pads, scales, statistics are Consts in a real model."""
    import numpy as np
    model = copy.deepcopy(case.model)
    if not case.data_sets:
        return model
    values = list(case.data_sets[0][0])
    graph = model.graph
    for i, (vi, value) in enumerate(zip(list(graph.input), values)):
        if i == 0 or not isinstance(value, np.ndarray) or value.ndim > 1 or value.dtype == object:
            continue
        graph.initializer.append(onnx.numpy_helper.from_array(value, vi.name))
        graph.input.remove(vi)
    return model


def _node_sources(left_out: list[str]) -> list[Source]:
    """The node tests of NODE_MODULES (importing a generator module runs its cases)."""
    import numpy as np
    import onnx.backend.test.case.node as node_cases
    out = []
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for module in NODE_MODULES:
            before = len(node_cases._NodeTestCases)
            try:
                importlib.import_module(f"onnx.backend.test.case.node.{module}")
            except ImportError:
                left_out.append(f"node/{module}: no such generator in this onnx")
                continue
            for c in sorted(node_cases._NodeTestCases[before:], key=lambda c: c.name):
                out.append(Source(f"node/{c.name}", "node", proto=_frozen(c)))
    if not FULL:  # "x_expanded_ver18" is "x_expanded" with the opset-18 Reduce ops (axes as inputs)
        names = {s.name for s in out}
        twins = [s for s in out if s.name.endswith("_ver18") and s.name[:-len("_ver18")] in names]
        for s in twins:
            s.sampled = False
        if twins:
            left_out.append(f"node: {len(twins)} _ver18 twins of _expanded cases")
    return out


# ---------------------------------------------------------------------------- conversion

@dataclass
class Converted:
    source: Source
    xml: Path
    requests: list[Request]


@dataclass
class Corpus:
    folder: Path
    sources: list[Source] = field(default_factory=list)
    found: dict[str, int] = field(default_factory=collections.Counter)
    models: list[Converted] = field(default_factory=list)  # the sampled ones, converted
    refused: list[str] = field(default_factory=list)       # by the converter (or read_model)
    left_out: list[str] = field(default_factory=list)      # stubs, and what the sample leaves
    seconds: float = 0.0

    def group(self, group: str) -> list[Converted]:
        return [m for m in self.models if m.source.group == group]

    def by_name(self, name: str) -> Converted:
        """The model, converted now if the sample left it out."""
        found = next((m for m in self.models if m.source.name == name), None)
        if found is not None:
            return found
        (src,) = [s for s in self.sources if s.name == name]
        xml = _convert(src, self.folder)
        return Converted(src, xml, requests_for(xml))


def _convert(source: Source, folder: Path) -> Path:
    if source.onnx_path is not None:
        onnx_path = source.onnx_path
    else:
        onnx_path = folder / (_stem(source.name) + ".onnx")
        onnx.save(source.proto, str(onnx_path))
    model = convert(onnx_path)  # without the converter's telemetry
    xml = folder / (_stem(source.name) + ".xml")
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def _stem(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name.replace("/", "__"))


def _last_line(err: Exception) -> str:
    lines = [l.strip() for l in str(err).strip().splitlines() if l.strip()]
    return (lines[-1] if lines else type(err).__name__)[:160]


def requests_for(xml: Path) -> list[Request]:
    """The requests of the module doc, most telling first, at most MAX_REQUESTS."""
    model = read(xml)
    inputs: list[tuple[str, list[int]]] = []
    for p in model.get_parameters():
        ps = p.get_partial_shape()
        if ps.rank.is_dynamic or ps.rank.get_length() == 0:
            continue
        inputs.append((p.get_friendly_name(),
                       [d.get_length() if d.is_static else -1 for d in ps]))
    if not inputs:
        return []
    original = {n: s for n, s in inputs}

    def spatial(s: list[int]) -> list[int]:
        if 3 <= len(s) <= 5:
            return list(range(2, len(s)))
        return [len(s) - 1] if len(s) == 2 else []

    def batch(value, only_first=False):
        def f(i, s):
            if (only_first and i) or s[0] < 0:
                return s
            return [value if s[0] != value else value + 1] + s[1:]
        return f

    def dynamic_batch(i, s):
        return [-1] + s[1:]

    def grow(how):
        def f(i, s):
            s = list(s)
            for k in spatial(s):
                if s[k] > 0:
                    s[k] = how(s[k])
            return s
        return f

    makers = [batch(2), dynamic_batch, grow(lambda d: d + 1), grow(lambda d: 2 * d)]
    if len(inputs) > 1:
        makers.append(batch(2, only_first=True))
    out: list[Request] = []
    for make in makers:
        request = {n: make(i, list(s)) for i, (n, s) in enumerate(inputs)}
        if request == original or request in out:
            continue
        out.append(request)
    if len(inputs) == 1 and len(model.get_parameters()) == 1:  # the bare form: one input
        out = [r[inputs[0][0]] for r in out]
    return out[:MAX_REQUESTS]


def _build(folder: Path) -> Corpus:
    start = time.monotonic()
    corpus = Corpus(folder)
    corpus.sources = (_stored_sources(corpus.left_out) + _light_sources(corpus.left_out)
                      + _node_sources(corpus.left_out))
    for src in corpus.sources:
        corpus.found[src.group] += 1
        if not src.sampled:
            continue
        try:
            xml = _convert(src, folder)
            requests = requests_for(xml)
        except Exception as err:  # noqa: BLE001 - the converter (or read_model) refuses it
            corpus.refused.append(f"{src.name}: {_last_line(err)}")
            continue
        corpus.models.append(Converted(src, xml, requests))
    corpus.seconds = time.monotonic() - start
    return corpus


@pytest.fixture(scope="session")
def corpus(tmp_path_factory) -> Corpus:
    return _build(tmp_path_factory.mktemp("onnx_models"))


# ---------------------------------------------------------------------------- comparing

@dataclass
class Tally:
    requests: int = 0
    compared: dict[bool, int] = field(default_factory=collections.Counter)
    agree: dict[bool, int] = field(default_factory=collections.Counter)
    refused: dict[bool, int] = field(default_factory=collections.Counter)
    accepted: dict[bool, int] = field(default_factory=collections.Counter)
    smart_differs: int = 0  # requests where SmartReshape changes the runtime's verdict or shapes

    def line(self, smart: bool) -> str:
        return (f"{'Model.reshape' if smart else 'plain re-inference'}: "
                f"{self.compared[smart]} compared, "
                f"{self.agree[smart]} agree, the runtime refuses {self.refused[smart]} and accepts "
                f"{self.accepted[smart]}")


def compare(model: Converted, tally: Tally) -> list[str]:
    """The disagreements on the model's requests, with Model.reshape and plain re-inference."""
    problems = []
    for request in model.requests:
        tally.requests += 1
        verdicts = []
        for smart in (True, False):
            theirs = runtime(model.xml, request, smart)
            verdicts.append((theirs.works, theirs.outputs))
            try:
                problem = disagreement(model.xml, request, smart, theirs=theirs)
            except Exception as err:  # noqa: BLE001 - irvalidate crashing is a mismatch too
                problem = f"{describe(request)}: {type(err).__name__}: {err}"
            tally.compared[smart] += 1
            tally.refused[smart] += not theirs.works
            tally.accepted[smart] += theirs.works
            if problem:
                problems.append(f"{model.source.name}: {problem}")
            else:
                tally.agree[smart] += 1
        tally.smart_differs += verdicts[0] != verdicts[1]
    return problems


def test_the_onnx_models_are_found_and_converted(corpus):
    summary = (f"onnx {onnx.__version__}, openvino {ov.get_version()}: found {dict(corpus.found)}, "
               f"sampled {sum(s.sampled for s in corpus.sources)}, converted {len(corpus.models)}, "
               f"refused {len(corpus.refused)} "
               f"in {corpus.seconds:.1f} s; left out: {corpus.left_out}")
    print(summary)
    for line in corpus.refused:
        print("  refused:", line)
    for group in GROUPS:
        assert corpus.group(group) or group == "real", f"no {group} model converted; {summary}"
    assert len(corpus.models) >= 100, summary
    assert sum(len(m.requests) for m in corpus.models) >= 300, summary


@pytest.mark.parametrize("group", GROUPS)
def test_reshape_matches_the_runtime_on_converted_onnx_models(corpus, group):
    tally = Tally()
    mismatches, known_seen = [], []
    models = corpus.group(group)
    if not models:
        pytest.skip(f"no {group} model stored "
                    f"({[x for x in corpus.left_out if x.startswith(group)]})")
    for model in models:
        problems = compare(model, tally)
        (known_seen if model.source.name in KNOWN else mismatches).extend(problems)
    print(f"{group}: {len(models)} models, {tally.requests} requests; {tally.line(True)}; "
          f"{tally.line(False)}; SmartReshape changes the runtime's answer on "
          f"{tally.smart_differs}; "
          f"disagreements on the KNOWN models (xfail): {len(known_seen)}")
    assert tally.compared[True], f"nothing compared in {group}"
    assert not mismatches, (f"{group}: {len(mismatches)} of {sum(tally.compared.values())} "
                            f"disagree:\n" + "\n".join(mismatches))


@pytest.mark.parametrize("name", [
    pytest.param(name, id=name, marks=pytest.mark.xfail(strict=True, reason=why))
    for name, why in KNOWN.items()])
def test_known_disagreement(corpus, name):
    """Every request of the model, both ways."""
    model = corpus.by_name(name)
    problems = compare(model, Tally())
    assert not problems, "\n".join(problems)


def test_scatter_elements_update_of_a_shape(tmp_path):
    """x:[2,3] -> ShapeOf -> ScatterElementsUpdate(indices [0], updates [5], axis 0) ->
    Broadcast(0.0, that); x reshaped to [4,3]: the runtime gives [5,3] (irvalidate gave [?,?]
    before it followed ScatterElementsUpdate's value; ONNX's CenterCropPad builds on it)."""
    import numpy as np
    import openvino.opset13 as ops

    from support.runtime_oracle import save
    x = ops.parameter([2, 3], np.float32, name="x")
    target = ops.scatter_elements_update(ops.shape_of(x), np.array([0], np.int64),
                                         np.array([5], np.int64), np.int64(0))
    path = save(ov.Model([ops.broadcast(ops.constant(np.float32(0)), target)], [x]), tmp_path)
    if list(runtime(path, [4, 3]).outputs.values()) != ["[5,3]"]:  # not an xfail: the case moved
        raise RuntimeError(f"the runtime no longer gives [5,3]: {runtime(path, [4, 3])}")
    assert disagreement(path, [4, 3], True) is None
    assert disagreement(path, [4, 3], False) is None
