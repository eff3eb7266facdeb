"""The --reshape SPEC syntax (ovc --input): bad SPECs are usage errors (exit 2, a message that
lists the model's inputs with their shapes, never a traceback); good ones parse to the shape
they mean, read back from ``shapes --reshape --format json`` (the Parameter's inferred
shape), and every good one is a request the runtime takes the same way."""
from __future__ import annotations

import json

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
import openvino.opset13 as ops  # noqa: E402

from support.runtime_oracle import irv_cli, runtime_reshape, save  # noqa: E402

USAGE = 2


def _param(shape, layer_name, tensor_names, dtype=np.float32):
    p = ops.parameter(ov.PartialShape(shape), dtype, name=layer_name)
    p.output(0).get_tensor().set_names(set(tensor_names))
    return p


@pytest.fixture(scope="module")
def two_inputs(tmp_path_factory):
    """input_ids[1,16] (i64) and attention_mask[1,16]: their sum's shape follows both."""
    ids = _param([1, 16], "input_ids", ["input_ids"], np.int64)
    mask = _param([1, 16], "attention_mask", ["attention_mask"], np.int64)
    out = ops.add(ids, mask)
    return save(ov.Model([out], [ids, mask]), tmp_path_factory.mktemp("spec"), "two_inputs")


@pytest.fixture(scope="module")
def odd_names(tmp_path_factory):
    """One input: layer name x_param, tensor names '/model/x:0' and 'input.1'."""
    x = _param([1, 3, 8, 8], "x_param", ["/model/x:0", "input.1"])
    out = ops.relu(x)
    return save(ov.Model([out], [x]), tmp_path_factory.mktemp("spec"), "odd_names")


@pytest.fixture(scope="module")
def scalar(tmp_path_factory):
    x = _param([], "x", ["x"])
    out = ops.multiply(x, ops.constant(np.ones(3, np.float32)))
    return save(ov.Model([out], [x]), tmp_path_factory.mktemp("spec"), "scalar")


BAD = [
    ("unknown name", "nope[1,16]"),
    ("rank differs", "input_ids[1,16,1],attention_mask[1,16,1]"),
    ("unclosed bracket", "input_ids[1,16"),
    ("empty dim", "input_ids[1,,16]"),
    ("empty interval", "input_ids[5..2,16]"),
    ("not a number", "input_ids[a,16]"),
    ("no comma between inputs", "input_ids[1,16]attention_mask[1,16]"),
    ("empty", ""),
    ("the same input twice", "input_ids[1,16],input_ids[2,16]"),
    ("a bare shape on a two-input model", "[2,16]"),
    ("a negative dim other than -1", "input_ids[-2,16]"),
    ("a stray closing bracket", "input_ids[1,16]]"),
]


@pytest.mark.parametrize("spec", [b[1] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_spec_is_a_usage_error(two_inputs, spec):
    done = irv_cli("--reshape", spec, str(two_inputs))
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text
    assert done.returncode == USAGE, (done.returncode, text)
    for name in ("input_ids", "attention_mask"):
        assert name in text, f"the usage message does not list input '{name}': {text}"
    assert "[1,16]" in text, f"the usage message does not give the inputs' shapes: {text}"


def test_rank_error_on_one_input_lists_its_shape(odd_names):
    done = irv_cli("--reshape", "x_param[1,3,8]", str(odd_names))
    text = done.stdout + done.stderr
    assert done.returncode == USAGE and "Traceback" not in text, text
    assert "x_param" in text and "[1,3,8,8]" in text, text


def test_rank_error_on_a_scalar(scalar):
    """The runtime itself would take [1] for a scalar (Model.reshape changes ranks freely);
    the contract makes a rank change a usage error."""
    assert runtime_reshape(scalar, [1]).works
    done = irv_cli("--reshape", "x[1]", str(scalar))
    text = done.stdout + done.stderr
    assert done.returncode == USAGE and "Traceback" not in text, text
    assert "x[]" in text or "x []" in text, text


def _parameter_shapes(path, *spec_args):
    done = irv_cli("shapes", *spec_args, "--format", "json", str(path))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    layers = json.loads(done.stdout)["files"][0]["layers"]
    return {l["name"]: l["outputs"][0]["inferred"] for l in layers if l["type"] == "Parameter"}


GOOD = [  # (fixture, spec, {Parameter layer: shape}, the runtime request)
    ("two_inputs", "input_ids[1..8,16],attention_mask[1..8,16]",
     {"input_ids": "[1..8,16]", "attention_mask": "[1..8,16]"}, {"input_ids": "1..8,16", "attention_mask": "1..8,16"}),
    ("two_inputs", "input_ids[..8,16],attention_mask[..8,16]",
     {"input_ids": "[..8,16]", "attention_mask": "[..8,16]"}, {"input_ids": "..8,16", "attention_mask": "..8,16"}),
    ("two_inputs", "input_ids[2..,16],attention_mask[2..,16]",
     {"input_ids": "[2..,16]", "attention_mask": "[2..,16]"}, {"input_ids": "2..,16", "attention_mask": "2..,16"}),
    ("two_inputs", "input_ids[?,?],attention_mask[?,?]",
     {"input_ids": "[?,?]", "attention_mask": "[?,?]"}, {"input_ids": "?,?", "attention_mask": "?,?"}),
    ("two_inputs", "input_ids[-1,16],attention_mask[-1,16]",
     {"input_ids": "[?,16]", "attention_mask": "[?,16]"}, {"input_ids": [-1, 16], "attention_mask": [-1, 16]}),
    ("two_inputs", "input_ids[2,32],attention_mask[2,32]",
     {"input_ids": "[2,32]", "attention_mask": "[2,32]"}, {"input_ids": [2, 32], "attention_mask": [2, 32]}),
    ("two_inputs", "input_ids[1,16]",  # only one input named: the other keeps its shape
     {"input_ids": "[1,16]", "attention_mask": "[1,16]"}, {"input_ids": [1, 16]}),
    ("odd_names", "/model/x:0[2,3,16,16]", {"x_param": "[2,3,16,16]"}, {"/model/x:0": [2, 3, 16, 16]}),
    ("odd_names", "input.1[1,3,?,?]", {"x_param": "[1,3,?,?]"}, {"input.1": "1,3,?,?"}),
    ("odd_names", "x_param[4,3,8,8]", {"x_param": "[4,3,8,8]"}, {"x_param": [4, 3, 8, 8]}),
    ("odd_names", "[1,3,1..32,1..32]", {"x_param": "[1,3,1..32,1..32]"}, "1,3,1..32,1..32"),
    ("scalar", "x[]", {"x": "[]"}, {"x": []}),
    ("scalar", "[]", {"x": "[]"}, []),
]


@pytest.mark.parametrize("fixture,spec,expected,runtime_request", GOOD, ids=[g[1] or "empty" for g in GOOD])
def test_good_spec_parses(request, fixture, spec, expected, runtime_request):
    path = request.getfixturevalue(fixture)
    assert runtime_reshape(path, runtime_request).works, "the runtime takes the same request"
    assert _parameter_shapes(path, "--reshape", spec) == expected


def test_good_spec_exit_code(two_inputs):
    done = irv_cli("--reshape", "input_ids[2,32],attention_mask[2,32]", str(two_inputs))
    assert done.returncode == 0, done.stdout + done.stderr


def test_repeated_option_joins_inputs(two_inputs):
    assert _parameter_shapes(two_inputs, "--reshape", "input_ids[3,16]", "--reshape", "attention_mask[3,16]") == \
        {"input_ids": "[3,16]", "attention_mask": "[3,16]"}


def test_mismatched_inputs_exit_1_not_2(two_inputs):
    """A well-formed SPEC whose shapes do not fit together is a failed reshape (1), not a
    usage error (2)."""
    done = irv_cli("--reshape", "input_ids[2,16],attention_mask[3,16]", str(two_inputs))
    assert runtime_reshape(two_inputs, {"input_ids": [2, 16], "attention_mask": [3, 16]}).works is False
    assert done.returncode == 1, done.stdout + done.stderr
