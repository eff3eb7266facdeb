"""LSTMCell-1/-4, GRUCell, RNNCell and LSTM/GRU/RNNSequence against the runtime: the notes'
cases, random configurations both ways, attribute refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.ovmodels import differential_batches, make, model_of, near_dims, param  # noqa: E402

GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
CELL_OPSET = {"LSTMCell": "opset4", "GRUCell": "opset3", "RNNCell": "opset1"}


def layer(type_, opset, shapes, attrs, ets=None, name="rnn"):
    ets = ets or [np.int32 if type_.endswith("Sequence") and i == (3 if "LSTM" in type_ else 2)
                  else np.float32 for i in range(len(shapes))]
    return make(opset, type_, [param(s, et) for s, et in zip(shapes, ets)], attrs, name)


LSTM_SEQ = ([2, 5, 3], [2, 1, 4], [2, 1, 4], [2], [1, 16, 3], [1, 16, 4], [1, 16])


@pytest.mark.parametrize("shapes,attrs", [
    (LSTM_SEQ, dict(direction="forward")),
    (([2, 5, 3], [2, 2, 4], [2, 2, 4], [2], [2, 16, 3], [2, 16, 4], [2, 16]),
     dict(direction="bidirectional")),
    (([(1, 8), (2, 10), 3], [(4, 10), 1, (2, 6)], [-1, -1, (3, 8)], [(2, 6)], [1, 16, 3],
      [1, 16, (3, 5)], [1, 16]), dict(direction="forward")),
    ((None,) * 7, dict(direction="forward")),
    ((None,) * 7, dict(direction="bidirectional")),
    (([2, 5, 3], None, None, None, [1, 16, 3], None, None), dict(direction="reverse")),
    (([2, 5, 3], None, None, None, [-1, 16, -1], None, None), dict(direction="forward")),
    (([2, 5, 3], None, None, None, None, None, [1, (12, 16)]), dict(direction="forward")),
    (([2, 5, 3], [2, 1, (4, 6)], [2, 1, -1], None, [1, (17, 24), 3], [1, -1, (4, 6)],
      [1, (20, 24)]), dict(direction="forward")),
    (([2, 5, 3], None, None, None, [1, (5, -1), 3], None, None), dict(direction="forward")),
    (([2, 5, 3], [2, 1, 4], [2, 1, 4], [2], [1, 16, 7], [1, 16, 4], [1, 16]),
     dict(direction="forward", hidden_size=7, activations=["foo", "bar", "baz"])),
])
def test_lstm_sequence_cases(tmp_path, shapes, attrs):
    node = layer("LSTMSequence", "opset5", shapes, attrs)
    opcheck.compare(model_of(node), tmp_path, ["LSTMSequence"])


@pytest.mark.parametrize("type_,shapes,attrs", [
    ("GRUSequence", ([2, 5, 3], [2, 1, 4], [2], [1, 12, 3], [1, 12, 4], [1, 12]), {}),
    ("GRUSequence", ([2, 5, 3], [2, 1, 4], [2], [1, 12, 3], [1, 12, 4], [1, 16]),
     dict(linear_before_reset=True)),
    ("GRUSequence", ([(1, 4), -1, 3], [(2, 8), 1, -1], [-1], [1, 12, 3], [1, 12, -1], [1, 12]), {}),
    ("GRUSequence", ([2, 5, 3], None, None, [1, (5, -1), 3], None, None), {}),
    ("RNNSequence", ([2, 5, 3], [2, 1, 4], [2], [1, 4, 3], [1, 4, 4], [1, 4]), {}),
    ("RNNSequence", ([2, 5, 3], None, None, [1, (3, 9), 3], None, None), {}),
    ("RNNSequence", ([2, 5, 3], None, None, [1, (5, -1), 3], None, None), {}),
    ("RNNSequence", (None, [2, 1, 4], None, [1, 4, 3], [1, 4, 4], [1, 4]), {}),
])
def test_gru_and_rnn_sequence_cases(tmp_path, type_, shapes, attrs):
    node = layer(type_, "opset5", shapes, dict(direction="forward", **attrs))
    opcheck.compare(model_of(node), tmp_path, [type_])


@pytest.mark.parametrize("type_,opset,shapes,attrs", [
    ("LSTMCell", "opset4", ([2, 3], [2, 4], [2, 4], [16, 3], [16, 4], [16]), dict(hidden_size=4)),
    ("LSTMCell", "opset4", ([(1, 5), 3], [(3, 8), -1], [-1, (2, 6)], [16, 3], [16, -1], [16]),
     dict(hidden_size=4)),
    ("LSTMCell", "opset4", (None,) * 6, dict(hidden_size=7)),
    ("LSTMCell", "opset4", ([2, 3], [2, (3, 5)], None, None, None, None), dict(hidden_size=7)),
    ("LSTMCell", "opset4", ([2, 3], None, None, None, None, None), {}),
    ("LSTMCell", "opset4", (None, None, None, None, [-1, 5], None), dict(hidden_size=4)),
    ("LSTMCell", "opset4", (None, None, None, [(16, 20), -1], None, None), dict(hidden_size=4)),
    ("LSTMCell", "opset1", ([2, 3], [2, 4], [2, 4], [16, 3], [16, 4], [16], [12]),
     dict(hidden_size=4)),
    ("LSTMCell", "opset1", ([2, 3], [2, 4], [2, 4], [16, 3], [16, 4], [16]), dict(hidden_size=4)),
    ("LSTMCell", "opset1", ([2, 3], [2, 4], [2, 4], [16, 3], [16, 4]), dict(hidden_size=4)),
    ("GRUCell", "opset3", ([2, 3], [2, 4], [12, 3], [12, 4], [12]), {}),
    ("GRUCell", "opset3", ([2, 3], [2, 4], [12, 3], [12, 4], [16]), dict(linear_before_reset=True)),
    ("GRUCell", "opset3", ([(1, 5), 3], [(3, 8), -1], [12, 3], [12, -1], [12]), {}),
    ("GRUCell", "opset3", (None,) * 5, dict(hidden_size=4)),
    ("GRUCell", "opset3", (None, None, None, [-1, (5, 7)], None), {}),
    ("RNNCell", "opset1", ([2, 3], [2, 4], [4, 3], [4, 4], [4]), {}),
    ("RNNCell", "opset1", (None, None, [(3, 9), -1], None, None), {}),
    ("RNNCell", "opset1", ([2, 3], [2, 4], [4, 3], [4, 4], [4]), dict(activations=["relu", "foo"])),
])
def test_cell_cases(tmp_path, type_, opset, shapes, attrs):
    opcheck.compare(model_of(layer(type_, opset, shapes, attrs)), tmp_path, [type_])


def test_integer_cells_give_integers(tmp_path):
    shapes = ([2, 3], [2, 4], [4, 3], [4, 4], [4])
    node = layer("RNNCell", "opset1", shapes, {}, [np.int64] * 5)
    opcheck.compare(model_of(node), tmp_path, ["RNNCell"])


def _configs(rng, count):
    for _ in range(count):
        family = rng.choice(["LSTM", "GRU", "RNN"])
        g, states = GATES[family], 2 if family == "LSTM" else 1
        b, h, i, t = rng.choice([1, 2, 3]), rng.choice([1, 4, 5]), 3, rng.choice([1, 5])
        lbr = family == "GRU" and rng.random() < 0.3
        bias = (g + 1 if lbr else g) * h
        if rng.random() < 0.5:  # a cell
            type_ = family + "Cell"
            opset = CELL_OPSET[type_]
            if family == "LSTM" and rng.random() < 0.4:
                opset = "opset1"
            dims = [[b, i]] + [[b, h]] * states + [[g * h, i], [g * h, h], [bias]]
            if opset == "opset1" and family == "LSTM":
                dims = dims[:rng.choice([5, 6])]
            attrs = dict(hidden_size=rng.choice([h, h, h + 1, 0]))
        else:
            type_, opset = family + "Sequence", "opset5"
            direction = rng.choice(["forward", "reverse", "bidirectional"])
            d = 2 if direction == "bidirectional" else 1
            if rng.random() < 0.1:
                d = 3 - d
            dims = [[b, t, i]] + [[b, d, h]] * states + [[b], [d, g * h, i], [d, g * h, h],
                                                         [d, bias]]
            attrs = dict(direction=direction, hidden_size=h)
        if lbr:
            attrs["linear_before_reset"] = True
        shapes = [near_dims(rng, s, dynamic=0.12, other_rank=0.03, keep=0.7, unknown=0.12,
                             unbounded=0.03) for s in dims]
        ets = [np.int32 if type_.endswith("Sequence") and k == 1 + states else np.float32
               for k in range(len(shapes))]
        yield list(zip(shapes, ets)), (type_, opset, attrs)


def _build(params, extra, name):
    type_, opset, attrs = extra
    return make(opset, type_, params, attrs, name)


TYPES = ["LSTMCell", "GRUCell", "RNNCell", "LSTMSequence", "GRUSequence", "RNNSequence"]


def test_random_configurations_against_the_runtime(tmp_path):
    compared, refused = differential_batches(tmp_path, _configs(random.Random(10), 600), _build, TYPES)
    assert compared > 250 and refused > 100, (compared, refused)


@pytest.mark.parametrize("type_,version,shapes,data,code,words", [
    ("LSTMCell", "opset4", ("2,3", "2,4", "2,4", "16,3", "16,4", "16"),
     {"hidden_size": "4", "activations": "foo,tanh,tanh"}, "IRV104", "unknown function"),
    ("LSTMCell", "opset4", ("2,3", "2,4", "2,4", "16,3", "16,4", "16"),
     {"hidden_size": "4", "activations": "relu"}, "IRV104", "must name 3"),
    ("GRUCell", "opset3", ("2,3", "2,4", "12,3", "12,4", "12"), {"activations": "foo,bar"},
     "IRV104", "unknown function"),
    ("RNNCell", "opset1", ("2,3", "2,4", "4,3", "4,4", "4"), {"activations": ""}, "IRV104",
     "must name 1"),
    ("LSTMCell", "opset1", ("2,3", "2,4", "2,4", "16,3", "16,4"), {"hidden_size": "5"},
     "IRV102", "B dim 0"),
    ("LSTMCell", "opset1", ("2,3", "2,4", "2,4", "16,3", "16,4", "16"), {"hidden_size": "5"},
     "IRV102", "P dim 0"),
    ("LSTMCell", "opset1", ("2,3", "2,4", "2,4", "16,3", "16,4", "16", "..."),
     {"hidden_size": "4"}, "IRV102", "P (input 6)"),
    ("LSTMSequence", "opset5", ("2,5,3", "2,1,4", "2,1,4", "2", "1,16,3", "1,16,4", "1,16"),
     {"direction": "bidi"}, "IRV104", "direction"),
    ("GRUSequence", "opset5", ("2,5,3", "2,1,4", "2", "1,12,3", "1,12,4", "1,12"),
     {"direction": "forward", "linear_before_reset": "yes"}, None, None),
    ("GRUSequence", "opset5", ("2,5,3", "2,1,4", "2", "1,12,3", "1,12,4", "1,16"),
     {"direction": "forward", "linear_before_reset": "yes"}, "IRV102", "B dim 1"),
])
def test_reader_refusals(tmp_path, type_, version, shapes, data, code, words):
    ir = IR()
    ins = [ir.parameter(s, "i32" if s == "2" else "f32") for s in shapes]
    ir.result(ir.op(type_, ins, [[2, 4]], data, version=version, name="victim"))
    path = ir.write(tmp_path)
    if code is None:  # accepted ("yes" is ignored, the default false stands)
        ov.Core().read_model(str(path))
        assert not [f for f in validate_file(str(path)).findings if f.code in ("IRV102", "IRV104")]
        return
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == code]
    assert found and words in found[0].message and found[0].layer.name == "victim", found


@pytest.mark.parametrize("type_,opset,shapes,port,axis", [
    ("LSTMSequence", "opset5", LSTM_SEQ, 0, 2),
    ("LSTMSequence", "opset5", LSTM_SEQ, 2, 2),
    ("GRUCell", "opset3", ([2, 3], [2, 4], [12, 3], [12, 4], [12]), 0, 1),
    ("LSTMCell", "opset4", ([2, 3], [2, 4], [2, 4], [16, 3], [16, 4], [16]), 1, 0),
])
def test_a_stale_declared_dim_names_the_layer(tmp_path, type_, opset, shapes, port, axis):
    node = layer(type_, opset, shapes, dict(hidden_size=4), name="victim")
    path = opcheck.compare(model_of(node), tmp_path, [type_])
    assert opcheck.named(opcheck.mutate(path, "victim", port, axis, 9), "victim")
