"""irvalidate --reshape against the runtime, on the pattern models of cases.py.

For every case x request, with SmartReshape (``Model.reshape``) and without it (plain
re-inference, ``smart_reshape=False``):

* irvalidate's verdict (the reshape works or not) is the runtime's;
* where the runtime refuses and names a node, an IRV301 finding is on that node;
* where it accepts, every Result shape is the runtime's, exactly as it prints it, and there
  is no IRV301 finding.

Then the claims the runtime cannot check by itself: the IRV301 message names the layer that
pins the dim (cases.Case.pins), the rewrites reported, the CLI's exit codes, and the
``shapes --reshape`` table.
"""
from __future__ import annotations

import json

import pytest

pytest.importorskip("openvino")  # the helpers below build and read models with it
from support.cases import CASE_BY_NAME, CASES
from support.runtime_oracle import (
    IRV301,
    case_files,
    cli_spec,
    describe,
    disagreement,
    irv_cli,
    irv_cli_reshape,
    irv_reshape,
    runtime,
    runtime_layer_shapes,
)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return case_files(tmp_path_factory.mktemp("reshape_cases"),
                      {name: case.build for name, case in CASE_BY_NAME.items()})


_RUNTIME = {}


def runtime_cached(path, case, index, smart):
    key = (case.name, index, smart)
    if key not in _RUNTIME:
        _RUNTIME[key] = runtime(path, case.requests[index], smart)
    return _RUNTIME[key]


ITEMS = [(c.name, i) for c in CASES for i in range(len(c.requests))]
#: rewrites irvalidate does not model yet: where only they make the reshape work, it says
#: the reshape breaks (as plain re-inference does); the test shows when that changes
NOT_MODELLED: dict = {}
IDS = [f"{n}-{describe(CASE_BY_NAME[n].requests[i])}" for n, i in ITEMS]


@pytest.mark.parametrize("smart", [True, False], ids=["smart", "plain"])
@pytest.mark.parametrize("name,index", ITEMS, ids=IDS)
def test_verdict_matches_runtime(files, name, index, smart):
    case = CASE_BY_NAME[name]
    path = files(name)
    theirs = runtime_cached(path, case, index, smart)
    if smart and name in NOT_MODELLED and theirs.works:
        pytest.xfail(NOT_MODELLED[name])
    problem = disagreement(path, case.requests[index], smart, theirs=theirs)
    assert problem is None, problem


PINNED = [(c.name, i) for c in CASES if c.pins for i in range(len(c.requests))]


@pytest.mark.parametrize("name,index", PINNED,
                         ids=[f"{n}-{describe(CASE_BY_NAME[n].requests[i])}" for n, i in PINNED])
def test_irv301_names_the_pinning_layer(files, name, index):
    """Where Model.reshape refuses, some IRV301 message names the layer (or its constant)
    that pins the dim: the Slice of #16177 although the runtime names the Add, the Reshape
    target of #8612/#18724, the Interpolate sizes, the Broadcast target, the position
    embedding."""
    case = CASE_BY_NAME[name]
    path = files(name)
    if runtime_cached(path, case, index, True).works:
        pytest.skip("the runtime accepts this request")
    ours = irv_reshape(path, case.requests[index], True)
    messages = ours.messages()
    assert any(pin in m for m in messages for pin in case.pins), (
        f"no {IRV301} message names any of {case.pins}: {messages}")


def test_the_16177_cause_is_not_only_the_failing_node(files):
    """The runtime names '/Add'; irvalidate must point past it at '/Slice_1' (or its stop)."""
    ours = irv_reshape(files("hrnet_16177"), [1, 3, 512, 928], True)
    on_add = [f.message for f in ours.reshape_errors if f.layer and f.layer.name == "/Add"]
    assert on_add, f"no {IRV301} on '/Add': {ours.messages()}"
    assert any("/Slice_1" in m or "/Constant_stop" in m for m in on_add), on_add


def test_severity_of_irv301_is_error(files):
    ours = irv_reshape(files("anomalib_18724"), [6, 100, 32, 32], True)
    assert ours.reshape_errors
    assert {f.severity for f in ours.reshape_errors} == {"error"}


# ---------------------------------------------------------------------------- rewrites

def _rewrites(ours):
    out = set()
    for r in ours.rewrites:
        layer = getattr(r, "layer", None)
        out.add((r.transformation, getattr(layer, "name", layer)))
    return out


REWRITES = [  # (case, request, transformation, the layer it rewrites or None: not checked)
    ("cnn_flatten_matmul", [4, 3, 16, 16], "ReshapeAMatMul", "flatten"),
    ("cnn_flatten_transposed_weights", [4, 3, 16, 16], "ReshapeAMatMul", "flatten"),
    ("cnn_flatten_transposed_weights", [4, 3, 16, 16], "TransposeMatMul", "fc"),
    ("reshape_b_matmul", [4, 8, 8], "ReshapeBMatMul", "to_col"),
    ("flatten_1d", [4, 3, 8, 8], "ReshapeTo1D", "flat"),
    ("ss_then_squeeze", [4, 3, 8], "StridedSliceSqueeze", None),
    ("squeeze_then_ss", [4, 3, 8], "SqueezeStridedSlice", None),
    ("bert_position_ids", [1, 256], "BroadcastConstRangeReplacement", "pos_broadcast"),
    ("lstm_cell_const_states", [4, 16], "LSTMStatesBroadcast", "lstm_cell"),
    ("reshape_sinking", [4, 16, 32], "ReshapeSinkingMatMul", None),
    ("shared_flattens", [4, 8, 8], "SharedOpOptimization", None),
    # rewrites happen whatever the request, even when the reshape then fails
    ("cnn_flatten_matmul", [1, 3, 20, 20], "ReshapeAMatMul", "flatten"),
]


@pytest.mark.parametrize("name,request_,transformation,layer", REWRITES,
                         ids=[f"{r[0]}-{r[2]}" for r in REWRITES])
def test_rewrites_reported(files, name, request_, transformation, layer):
    ours = _rewrites(irv_reshape(files(name), request_, True))
    if layer is None:
        assert transformation in {t for t, _ in ours}, ours
    else:
        assert (transformation, layer) in ours, ours


@pytest.mark.parametrize("name,request_", [
    ("cnn_flatten_matmul", [1, 3, 16, 16]),      # the same static shape: Model.reshape does nothing
    ("plain_cnn", [2, 3, 32, 32]),              # nothing to rewrite
    ("interpolate_scales", [1, 4, 7, 9]),
])
def test_no_rewrites(files, name, request_):
    ours = irv_reshape(files(name), request_, True)
    assert ours.works and not ours.rewrites, ours.rewrites


def test_no_rewrites_without_smart_reshape(files):
    ours = irv_reshape(files("cnn_flatten_matmul"), [4, 3, 16, 16], False)
    assert not ours.works and not ours.rewrites


def test_same_dynamic_shape_is_not_a_no_op(files):
    """A dynamic Parameter requested at its own shape still runs SmartReshape (note §7)."""
    ours = irv_reshape(files("dynamic_input_flatten"), "?,8,8", True)
    assert ours.works and ours.outputs == {"out": "[?,10]"}
    assert ("ReshapeAMatMul", "flatten") in _rewrites(ours)


# ---------------------------------------------------------------------------- the CLI

CLI_SAMPLE = [  # (case, request index, smart)
    ("cnn_flatten_matmul", 0, True),
    ("cnn_flatten_matmul", 0, False),
    ("cnn_flatten_two_consumers", 0, True),
    ("hrnet_16177", 0, True),
    ("hrnet_16177", 1, True),
    ("bert_position_ids", 4, True),
    ("two_inputs", 0, True),
    ("tensor_names_differ", 2, True),
    ("scalar_input", 0, True),
]


@pytest.mark.parametrize("name,index,smart", CLI_SAMPLE,
                         ids=[f"{n}-{i}-{'smart' if s else 'plain'}" for n, i, s in CLI_SAMPLE])
def test_cli_exit_code(files, tmp_path, name, index, smart):
    case = CASE_BY_NAME[name]
    path = files(name)
    theirs = runtime_cached(path, case, index, smart)
    done = irv_cli_reshape(path, case.requests[index], smart)
    assert "Traceback" not in done.stderr + done.stdout
    assert done.returncode == (0 if theirs.works else 1), (cli_spec(case.requests[index]), done.stdout,
                                                            done.stderr)
    if not theirs.works:
        assert IRV301 in done.stdout, done.stdout
        if theirs.node:
            assert theirs.node in done.stdout, done.stdout


def test_cli_repeated_option_is_a_request_of_its_own(files):
    """``--reshape a[..] --reshape b[..]`` tries each alone, ``--reshape a[..],b[..]`` both
    together; the runtime takes the two together and neither alone (a Concat into a Reshape
    of constant target ties them), and each request is reported by name."""
    path = files("two_inputs")
    assert runtime(path, {"a": [4, 2048], "b": [4, 2048]}).works
    assert not runtime(path, {"a": [4, 2048]}).works and not runtime(path, {"b": [4, 2048]}).works
    one = irv_cli("--reshape", "a[4,2048],b[4,2048]", str(path))
    two = irv_cli("--reshape", "a[4,2048]", "--reshape", "b[4,2048]", "--format", "json", str(path))
    assert (one.returncode, two.returncode) == (0, 1), (one.stdout, two.stdout, two.stderr)
    found = json.loads(two.stdout)["files"][0]
    assert [(r["request"], r["works"]) for r in found["reshapes"]] == \
        [("a[4,2048]", False), ("b[4,2048]", False)]
    refused = {f["request"] for f in found["findings"] if f["rule"] == IRV301}
    assert refused == {"a[4,2048]", "b[4,2048]"}, found["findings"]


def test_cli_json_carries_the_reshape(files):
    path = files("cnn_flatten_matmul")
    done = irv_cli("--reshape", "[4,3,16,16]", "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    rs = doc["files"][0]["reshape"]
    assert rs["works"] is True
    assert [(o["name"], o["shape"]) for o in rs["outputs"]] == [("logits", "[4,10]")]


# ---------------------------------------------------------------------------- shapes --reshape

SHAPES_SAMPLE = [
    ("plain_cnn", "?,3,?,?", True),
    ("plain_cnn", [1, 3, 33, 33], False),
    ("cnn_flatten_matmul", "1..8,3,16,16", True),
    ("cnn_flatten_matmul", "1..8,3,16,16", False),
    ("bert_position_ids", [1, 64], True),
    ("vit_position_embedding", [2, 3, 32, 32], False),
    ("lstm_cell_const_states", [4, 16], True),
    ("squeeze_then_ss", [4, 3, 8], True),
]


@pytest.mark.parametrize("name,request_,smart", SHAPES_SAMPLE,
                         ids=[f"{n}-{cli_spec(r)}-{'smart' if s else 'plain'}" for n, r, s in SHAPES_SAMPLE])
def test_shapes_table_under_the_request(files, name, request_, smart):
    """Every layer the runtime still has after the reshape (same friendly name, same number
    of outputs) is inferred as the runtime infers it; without SmartReshape that is every
    layer of the file."""
    path = files(name)
    theirs = runtime_layer_shapes(path, request_, smart)
    assert theirs is not None, "the sample must be a request the runtime accepts"
    args = ["shapes", "--reshape", cli_spec(request_), "--format", "json", str(path)]
    if not smart:
        args.insert(1, "--no-smart-reshape")
    done = irv_cli(*args)
    assert done.returncode == 0, done.stdout + done.stderr
    layers = [l for l in json.loads(done.stdout)["files"][0]["layers"] if not l.get("scope")]
    wrong, compared = [], 0
    for layer in layers:
        got = [o["inferred"] for o in layer["outputs"]]
        want = theirs.get(layer["name"])
        if want is None:
            assert smart, f"plain re-inference keeps every layer, '{layer['name']}' is missing"
            continue
        if len(want) != len(got):
            continue
        compared += 1
        if got != want:
            wrong.append(f"{layer['type']} '{layer['name']}': {got}, the runtime {want}")
    # rewrites replace Consts (a fused StridedSlice's begin/end, a new target) and drop
    # layers: at least half of the other layers must still be there to compare
    assert compared >= len([l for l in layers if l["type"] != "Const"]) // 2
    assert not wrong, "\n".join(wrong)
