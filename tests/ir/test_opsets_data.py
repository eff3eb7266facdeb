"""The committed opset membership table (irvalidate/data/opsets.json).

Part 1 needs no openvino: structure plus facts verified against openvino 2026.4.1's
``read_model`` (see tests/support/extract_opsets.py).  Part 2 (openvino installed) re-runs the
extraction and requires the committed file to be byte-identical (drift test), and
spot-checks the table and the reader special cases against ``Core.read_model``.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

JSON_PATH = Path(__file__).resolve().parents[2] / "irvalidate" / "data" / "opsets.json"
OPSETS = [f"opset{i}" for i in range(1, 18)]


@pytest.fixture(scope="module")
def data():
    return json.loads(JSON_PATH.read_text(encoding="utf-8"))


def opsets_with(data, type_name):
    return [i for i in range(1, 18) if type_name in data["opsets"][f"opset{i}"]]


# --------------------------------------------------------------------------------------
# 1. without openvino
# --------------------------------------------------------------------------------------


def test_loads_as_package_resource(data):
    text = resources.files("irvalidate.data").joinpath("opsets.json").read_text(encoding="utf-8")
    assert json.loads(text) == data


def test_structure(data):
    assert data["openvino"].startswith("2026.4.1-")
    assert list(data["opsets"]) == OPSETS
    for opset, names in data["opsets"].items():
        assert names == sorted(names), opset
        assert len(set(names)) == len(names), opset
        # the reader matches case-insensitively, so lower-cased names must stay unique
        assert len({n.lower() for n in names}) == len(names), opset
        assert all(isinstance(n, str) and n.isidentifier() for n in names), opset
    assert list(data["class_version"]) == OPSETS
    for opset, versions in data["class_version"].items():
        assert list(versions) == data["opsets"][opset], opset
        for name, version in versions.items():
            assert version in OPSETS, (opset, name, version)
            # a class never comes from a newer opset than the one that lists it, except
            # v1::LogicalXor whose OPENVINO_OP says "opset2" although opset1 registers it
            if (opset, name) != ("opset1", "LogicalXor"):
                assert int(version[5:]) <= int(opset[5:]), (opset, name, version)


def test_counts(data):
    counts = {k: len(v) for k, v in data["opsets"].items()}
    assert counts == {
        "opset1": 109, "opset2": 111, "opset3": 126, "opset4": 137, "opset5": 145,
        "opset6": 152, "opset7": 156, "opset8": 167, "opset9": 173, "opset10": 177,
        "opset11": 177, "opset12": 178, "opset13": 186, "opset14": 188, "opset15": 199,
        "opset16": 203, "opset17": 7,
    }


def test_membership_facts(data):
    r16 = list(range(1, 17))
    assert opsets_with(data, "Add") == r16  # not opset17
    assert opsets_with(data, "Broadcast") == r16
    assert opsets_with(data, "LogicalXor") == r16
    assert opsets_with(data, "BitwiseAnd") == list(range(13, 17))
    assert opsets_with(data, "BitwiseLeftShift") == list(range(15, 17))
    # Xor: only opset1 (commented out in opset2/3 tables; read_model rejects opset2/3)
    assert opsets_with(data, "Xor") == [1]
    assert opsets_with(data, "Reverse") == [1]
    assert opsets_with(data, "RNNCell") == [1] + list(range(3, 17))
    assert opsets_with(data, "ShuffleChannels") == [1] + list(range(3, 17))
    for name in ("MVN", "ROIPooling", "ReorgYolo"):
        assert opsets_with(data, name) == list(range(2, 17)), name
    assert data["opsets"]["opset17"] == [
        "BGRtoNV12", "Convert", "ErfInv", "GroupedMatMul", "Parameter", "RGBtoNV12", "ShapeOf",
    ]
    for absent in ("PReLU", "ReLU", "SoftMax", "Const"):  # serializer spellings, not class names
        assert not opsets_with(data, absent)
    assert opsets_with(data, "Constant") == r16
    assert opsets_with(data, "Result") == r16


def test_class_versions(data):
    cv = data["class_version"]
    for i in range(1, 17):
        assert cv[f"opset{i}"]["Broadcast"] == ("opset1" if i <= 2 else "opset3")
        assert cv[f"opset{i}"]["Add"] == "opset1"
    assert cv["opset1"]["ShapeOf"] == "opset1"
    assert cv["opset17"]["ShapeOf"] == "opset3"
    assert cv["opset6"]["MVN"] == "opset6" and cv["opset2"]["MVN"] == "opset2"
    assert cv["opset17"]["ErfInv"] == "opset17"
    assert cv["opset1"]["LogicalXor"] == "opset2"  # the serializer writes version="opset2"


def test_reader_special_cases(data):
    assert data["type_aliases"] == {
        "Const": "Constant", "PReLU": "PRelu", "ReLU": "Relu", "SoftMax": "Softmax",
    }
    assert data["experimental_versions"] == ["experimental", "extension"]
    assert data["experimental_opset"] == "opset6"
    assert data["experimental_types"] == sorted([
        "ExperimentalDetectronDetectionOutput",
        "ExperimentalDetectronGenerateProposalsSingleImage",
        "ExperimentalDetectronPriorGridGenerator",
        "ExperimentalDetectronROIFeatureExtractor",
        "ExperimentalDetectronTopKROIs",
        "GRUCell", "Proposal", "RNNCell",
    ])
    for name in data["experimental_types"]:
        assert name in data["opsets"]["opset6"], name
    assert data["opset1_redirect_types"] == ["MVN", "ROIPooling", "ReorgYolo"]
    assert data["opset1_redirect_opset"] == "opset2"
    assert data["notes"] and all(isinstance(n, str) for n in data["notes"])


# --------------------------------------------------------------------------------------
# 2. with openvino
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def extractor():
    pytest.importorskip("openvino")
    from support import extract_opsets  # tests/ is on sys.path (pyproject.toml)

    return extract_opsets


def test_no_drift(extractor, data):
    fresh = extractor.extract_opsets()
    assert fresh["openvino"] == data["openvino"], "installed openvino differs from the table's"
    assert fresh == data, "run: python tests/support/extract_opsets.py"
    assert extractor.render_json(fresh) == JSON_PATH.read_text(encoding="utf-8")


def test_matches_cpp_opset_tables(extractor, data):
    tables = extractor.header_tables()
    if not tables:
        pytest.skip("openvino wheel ships no include/openvino/opsets/*_tbl.hpp")
    assert {k: sorted(v) for k, v in tables.items()} == data["opsets"]


def test_reader_agrees_on_sample(extractor, data):
    names = [
        "Add", "Xor", "LogicalXor", "BitwiseAnd", "BitwiseLeftShift", "Broadcast", "Reverse",
        "RNNCell", "ShuffleChannels", "ErfInv", "GroupedMatMul", "Constant", "Result",
        "MVN", "ROIPooling", "ReorgYolo", "GRUCell", "Proposal",
        "ExperimentalDetectronTopKROIs", "PReLU", "ReLU", "SoftMax", "Const", "Relu",
    ]
    versions = OPSETS + ["experimental", "extension", "opset0", "opset18", "OPSET1"]
    assert extractor.verify_with_reader(data, names=names, versions=versions, casings=True) == []


def test_reader_messages(extractor):
    outcome = extractor.reader_outcome
    assert outcome("Xor", "opset1") == "found"
    assert outcome("Xor", "opset2") == "missing"
    assert outcome("Xor", "opset3") == "missing"
    assert outcome("add", "opset5") == "found"
    assert outcome("Add", "opset17") == "missing"
    assert outcome("const", "opset1") == "missing"
    assert outcome("MVN", "opset1") == "found"
    assert outcome("mvn", "opset1") == "missing"
    assert outcome("GRUCell", "experimental") == "found"
    assert outcome("grucell", "experimental") == "unsupported"
    assert outcome("Relu", "extension") == "unsupported"
    assert outcome("Add", "opset18") == "unsupported"
