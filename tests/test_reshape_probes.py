"""The runtime's recorded reshape verdicts (tests/support/reshape_probes.py) and the harness
that holds ``reshapeable``'s constraints to them (tests/support/constraint_check.py).

The harness is tried on hand-written reports against hand-written verdicts: one that
agrees, and reports wrong in one place each, every one of which must be told.  The data is
checked to stand for the files it names (their sha256), and where the runtime itself is
installed a sample of it is probed again, so a runtime upgrade shows.
"""
from __future__ import annotations

import copy
import importlib.util
from pathlib import Path

import pytest

from support import places, reshape_probes
from support.constraint_check import allows, check_constraints
from support.reshape_probes import SIZES, load, sha256_of, verdicts

# ---------------------------------------------------------------------------- hand-written

#: x[1,3,?,?]: axis 0 takes 1 only, axis 1 only 3, axis 2 multiples of 32, axis 3 anything
TRUTH = {0: lambda s: s == 1, 1: lambda s: s == 3, 2: lambda s: s % 32 == 0, 3: lambda s: True}
NOW = {0: "1", 1: "3", 2: "?", 3: "?"}


def _probes() -> dict:
    axes = [{"axis": k, "now": NOW[k], "refused_by": {},
             "works": "".join("1" if TRUTH[k](s) else "0" for s in SIZES)} for k in range(4)]
    record = {"readable": True, "xml_sha256": "0" * 64,
              "inputs": [{"name": "x", "tensor_names": ["x"], "shape": "[1,3,?,?]", "rank": 4,
                          "axes": axes}]}
    return {"sizes": list(SIZES), "models": {"models/m.xml": record}}


def _axis(axis: int, **said) -> dict:
    row = {"axis": axis, "now": NOW[axis], "exact": True, "min": 1, "max": None,
           "multiple_of": 1, "offset": 0, "values": None, "equal_to": [], "causes": []}
    row.update(said)
    return row


def _report(*changed: dict, path: str = "/somewhere/models/m.xml") -> dict:
    """The report that agrees, with the axes in ``changed`` stated instead."""
    axes = {0: _axis(0, values=[1]), 1: _axis(1, values=[3]),
            2: _axis(2, min=32, multiple_of=32), 3: _axis(3)}
    for row in changed:
        axes[row["axis"]] = row
    return {"files": [{"path": path, "inputs": [{"name": "x", "shape": "[1,3,?,?]",
                                                 "axes": [axes[k] for k in range(4)]}]}]}


def test_the_predicate_is_the_contracts():
    axis = _axis(2, min=40, max=200, multiple_of=32, offset=8)
    assert [s for s in range(300) if allows(axis, s)] == [40, 72, 104, 136, 168, 200]
    assert [s for s in range(10) if allows(_axis(0, values=[3, 5], min=4), s)] == [5]
    assert all(allows(_axis(3, min=None, multiple_of=None, offset=None), s) for s in SIZES)


def test_a_report_that_agrees_has_no_problem():
    assert check_constraints(_report(), _probes()) == []


def test_one_size_stated_wrongly_is_told():
    """min 64 where 32 works: the one probe it gets wrong is named, nothing else."""
    problems = check_constraints(_report(_axis(2, min=64, multiple_of=32)), _probes())
    assert len(problems) == 1
    assert "'x' axis 2" in problems[0] and "says 32 fail" in problems[0]


def test_a_size_said_to_work_that_fails_is_told_when_exact():
    problems = check_constraints(_report(_axis(2, multiple_of=16)), _probes())
    assert len(problems) == 1 and "refuses" in problems[0]
    assert "says 16, 48 work" in problems[0]  # the multiples of 16 among SIZES that 32 does not divide
    assert check_constraints(_report(_axis(2, exact=False, multiple_of=16)), _probes()) == []


def test_an_inexact_axis_that_excludes_a_working_size_is_told():
    problems = check_constraints(_report(_axis(3, exact=False, max=1000)), _probes())
    assert problems == ["models/m.xml input 'x' axis 3 (now ?) (min 1, max 1000, multiple_of 1, "
                        "offset 0, exact: False): says 1024 fail, the runtime takes them"]


def test_what_the_report_leaves_out_or_makes_up_is_told():
    report = _report()
    inputs = report["files"][0]["inputs"]
    del inputs[0]["axes"][1]
    inputs[0]["axes"][0] = {k: v for k, v in inputs[0]["axes"][0].items() if k != "offset"}
    inputs.append({"name": "y", "shape": "[2]", "axes": []})
    problems = check_constraints(report, _probes())
    assert any("axis 1 (now 3): not stated" in p for p in problems)
    assert any("axis 0 (now 1): the contract's offset missing" in p for p in problems)
    assert any("'y': stated, but the model has no such input" in p for p in problems)
    assert len(problems) == 3
    gone = copy.deepcopy(report)
    gone["files"][0]["inputs"] = []
    assert check_constraints(gone, _probes()) == ["models/m.xml input 'x': not in the report"]


def test_a_file_without_probes_is_told():
    assert check_constraints(_report(path="/elsewhere/m.xml"), _probes()) == [
        "/elsewhere/m.xml: no recorded probes for this file"]
    one = {"sizes": list(SIZES), "record": _probes()["models"]["models/m.xml"]}
    assert check_constraints(_report(path="generated"), one) == []


def _sample_report(path: str, name: str, axes: list[dict]) -> dict:
    return {"files": [{"path": path, "inputs": [{"name": name, "shape": "", "axes": axes}]}]}


def test_the_recorded_samples_agree_with_constraints_worked_out_by_hand():
    """classifier-head: x[1,8,8] reshaped to [1,64] before a MatMul, which SmartReshape
    lets keep 64 columns: 8s numbers make rows of 64 when 8 divides s (the issue's "16
    works, 1 and 9 fail"). cropped-upsample: a stride-2 branch cropped to 256 meets an
    uncropped one, so ceil(W/2) <= 256, W <= 512."""
    data = load("samples")
    head = _sample_report("/x/sample_models/reshape/classifier-head.xml", "x", [
        _axis(0, now="1"), _axis(1, now="8", min=8, multiple_of=8),
        _axis(2, now="8", min=8, multiple_of=8)])
    assert check_constraints(head, data) == []
    head["files"][0]["inputs"][0]["axes"][1].update(min=1, multiple_of=1, values=[8])  # "pinned"
    (problem,) = check_constraints(head, data)
    assert "axis 1 (now 8)" in problem and "says 16, 24, 32, 40, 48, 56, 64, 128, 224" in problem
    crop = _sample_report("/x/sample_models/reshape/cropped-upsample.xml", "image", [
        _axis(0, now="1"), _axis(1, now="3", values=[3]),
        _axis(2, now="512", max=512), _axis(3, now="512", max=512)])
    assert check_constraints(crop, data) == []


# ---------------------------------------------------------------------------- the data

def test_every_sample_is_recorded_as_it_is():
    data = load("samples")
    recorded = {k: (r["xml_sha256"], r["bin_sha256"]) for k, r in data["models"].items()}
    for path in places.SAMPLES:
        key = path.relative_to(places.ROOT).as_posix()
        weights = path.with_suffix(".bin")
        assert recorded.get(key) == (sha256_of(path), sha256_of(weights) if weights.is_file() else None), \
            f"{key}: re-record (python tests/support/reshape_probes.py samples)"
    assert data["sizes"] == list(SIZES)


def test_the_recorded_files_are_handed_over_with_their_records(tmp_path):
    found = list(reshape_probes.model_files("samples", tmp_path))
    readable = [k for k, r in load("samples")["models"].items() if r["readable"]]
    assert [key for key, *_ in found] == sorted(readable)
    key, path, record, probes = found[0]
    assert path == places.ROOT / key and probes == {"sizes": list(SIZES), "record": record}
    stale = copy.deepcopy(load("samples"))
    stale["models"][key]["xml_sha256"] = "0" * 64
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reshape_probes, "load", lambda name: stale)
        with pytest.raises(ValueError, match="re-record"):
            list(reshape_probes.model_files("samples", tmp_path, keys=[key]))


def test_every_corpus_file_is_recorded_as_it_is():
    if not places.CORPUS_FILES:
        pytest.skip("no wild corpus here")
    data = load("corpus")
    for path in places.CORPUS_FILES:
        key = path.relative_to(places.CORPUS).as_posix()
        assert data["models"][key]["xml_sha256"] == sha256_of(path), key
    assert sum(r["readable"] for r in data["models"].values()) >= 30


@pytest.mark.parametrize("name", reshape_probes.SETS)
def test_every_recorded_axis_has_a_verdict_at_every_size(name):
    data = load(name)
    for key, record in data["models"].items():
        for entry in record.get("inputs", []):
            rank = entry["rank"]
            assert len(entry["axes"]) == (rank or 0), (key, entry["name"])
            assert ("no_axes" in entry) == (rank in (None, 0)), (key, entry["name"])
            for row in entry["axes"]:
                assert len(verdicts(data, row, entry)) == len(entry.get("sizes") or SIZES)


def test_the_generated_sets_are_models_with_inputs():
    models = load("generated")["models"]
    generators = {r["generator"] for r in models.values()}
    assert generators == {"randmodels", "ovgen", "everyop_models"}
    assert len(models) >= 36
    onnx = load("onnx")["models"]
    assert {k.split("/")[0] for k in onnx} == {
        "onnx:light", "onnx:pytorch-converted", "onnx:pytorch-operator", "onnx:simple"}
    assert len(onnx) >= 100
    for record in [*models.values(), *onnx.values()]:
        assert any(i["axes"] for i in record["inputs"])


# ---------------------------------------------------------------------------- live

def _live():
    pytest.importorskip("openvino")
    from support import cassette
    if cassette.MODE != "live":
        pytest.skip("probing again needs the runtime itself")


#: a few sizes per axis to probe again: small, odd, a multiple of 32, the large ones
RECHECK_SIZES = (1, 2, 7, 8, 9, 16, 31, 32, 48, 64, 224, 256, 512, 640, 1024)


def _reprobe(data: dict, key: str, path: Path) -> list[str]:
    from support.opcheck import core
    model = core().read_model(str(path))
    record, out = data["models"][key], []
    for which, entry in enumerate(record["inputs"]):
        assert model.get_parameters()[which].get_friendly_name() == entry["name"]
        for row in entry["axes"]:
            recorded = verdicts(data, row, entry)
            for size in RECHECK_SIZES:
                now, _ = reshape_probes.probe(model, which, row["axis"], size)
                if now != recorded[size]:
                    out.append(f"{key} {entry['name']} axis {row['axis']} size {size}: "
                               f"recorded {recorded[size]}, the runtime now says {now}")
    return out


def test_the_runtime_still_gives_the_recorded_verdicts():
    _live()
    samples = load("samples")
    problems = []
    for key in ("sample_models/reshape/classifier-head.xml",
                "sample_models/reshape/cropped-upsample.xml"):
        problems += _reprobe(samples, key, places.ROOT / key)
    corpus = places.CORPUS / "gh-VictorHidalgoUCLM-NeuralComputeStick2" / \
        "face-detection-retail-0004__FP16__face-detection-retail-0004.xml"
    if corpus.is_file():
        problems += _reprobe(load("corpus"), corpus.relative_to(places.CORPUS).as_posix(), corpus)
    assert not problems, "\n".join(problems)


def test_the_generators_still_make_the_recorded_models(tmp_path):
    _live()
    models = load("generated")["models"]
    keys = ["randmodels:0", "ovgen:1", "everyop_models:convolution"]
    if importlib.util.find_spec("onnx") is not None:
        models.update(load("onnx")["models"])
        keys.append("onnx:pytorch-converted/test_Conv2d")
    for key in keys:
        record = models[key]
        path = reshape_probes.build_generated(record["generator"], record["seed"], tmp_path)
        assert sha256_of(path) == record["xml_sha256"], f"{key}: re-record the generated set"
        assert sha256_of(path.with_suffix(".bin")) == record["bin_sha256"], key
    (found,) = reshape_probes.model_files("generated", tmp_path, keys=["ovgen:1"])
    assert found[0] == "ovgen:1" and found[1].is_file()


def _even_model(folder: Path) -> Path:
    """a[1,?] + b[1,?], reshaped to [2,-1]: axis 1 of one input set alone works when it is
    even, or 1 (it broadcasts against the other's ?); both set to 1 fail (one number to
    halve).  k (rank 0) and r (dynamic rank) have no axes."""
    import numpy as np
    import openvino as ov
    import openvino.opset13 as ops

    from support.opcheck import save
    a, b = ops.parameter([1, -1], np.float32, name="a"), ops.parameter([1, -1], np.float32, name="b")
    k, r = ops.parameter([], np.float32, name="k"), ops.parameter(ov.PartialShape.dynamic(), name="r")
    halves = ops.reshape(ops.add(a, b), ops.constant(np.array([2, -1], np.int64)), False)
    return save(ov.Model([halves], [a, b, k, r], "even"), folder, "even")


def test_a_probe_gives_the_runtimes_verdict_and_leaves_the_model_as_read(tmp_path):
    _live()
    path = _even_model(tmp_path)
    record = reshape_probes.probe_file(path)
    assert [i["name"] for i in record["inputs"]] == ["a", "b", "k", "r"]
    assert [i.get("no_axes") for i in record["inputs"]] == [None, None, "rank 0", "dynamic rank"]
    data = {"sizes": list(SIZES)}
    for entry in record["inputs"][:2]:
        assert all(verdicts(data, entry["axes"][0], entry).values())  # [s,?]: ? elements
        assert verdicts(data, entry["axes"][1], entry) == {s: s % 2 == 0 or s == 1 for s in SIZES}
    from support.opcheck import core
    model = core().read_model(str(path))
    assert not reshape_probes.probe(model, 0, 1, 3)[0]
    assert str(model.get_parameters()[0].get_partial_shape()) == "[1,?]"  # the failure left no trace
    assert reshape_probes.probe(model, 0, 1, 4)[0]


def test_stated_partners_are_tried_together(tmp_path):
    _live()
    from support.constraint_check import check_partners
    path = _even_model(tmp_path)

    def report(**said) -> dict:
        tied = [_axis(1, now="?", equal_to=[{"input": other, "axis": 1}], **said) for other in "ba"]
        return {"files": [{"path": "even.xml", "inputs": [
            {"name": name, "shape": "[1,?]", "axes": [_axis(0, values=[1]), tied[i]]}
            for i, name in enumerate("ab")]}]}
    assert check_partners(report(multiple_of=2), lambda _: path) == []
    problems = check_partners(report(), lambda _: path)  # says any size: 1 is tried, and fails
    # (each class of partners is set together once)
    assert len(problems) == 1 and all("= 1: stated to work together" in p for p in problems)
