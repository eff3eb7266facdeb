"""CTCGreedyDecoder, CTCGreedyDecoderSeqLen and CTCLoss against the runtime: the notes' cases,
random configurations both ways, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.ovmodels import differential_batches, make, model_of, near_dims, param  # noqa: E402


def op(type_, opset, inputs, attrs, name="ctc"):
    return make(opset, type_, [param(s, et) for s, et in inputs], attrs, name)


F, I = np.float32, np.int32


@pytest.mark.parametrize("inputs", [
    [([20, 2, 10], F), ([20, 2], F)],
    [([(10, 30), (1, 4), 10], F), ([(15, 40), -1], F)],
    [(None, F), (None, F)],
    [(None, F), ([20, 2], F)],
    [([20, 2, 10], np.float16), ([20, 2], F)],
    [([20, 2, 10], I), ([20, 2], np.bool_)],
])
def test_greedy_decoder_cases(tmp_path, inputs):
    node = op("CTCGreedyDecoder", "opset1", inputs, {"ctc_merge_repeated": True})
    opcheck.compare(model_of(node), tmp_path, ["CTCGreedyDecoder"])


@pytest.mark.parametrize("inputs,attrs", [
    ([([2, 20, 10], F), ([2], I)], {}),
    ([([2, 20, 10], F), ([2], I), ([], I)], {}),
    ([([(1, 4), (5, 50), 10], F), ([(2, 8)], I)], {}),
    ([(None, F), (None, I)], {}),
    ([(None, F), ([3], I)], {}),
    ([([2, 20, 10], F), ([2], I)], dict(classes_index_type="i64", sequence_length_type="i64")),
    ([([2, 20, 10], F), ([2], F), ([1], np.int64)], {}),
    ([([2, 20, 10], F), ([2], I), ([-1], I)], {}),
    ([([2, 20, 10], F), ([2], I), ([(1, 3)], I)], {}),
])
def test_greedy_decoder_seq_len_cases(tmp_path, inputs, attrs):
    node = op("CTCGreedyDecoderSeqLen", "opset6", inputs, attrs)
    opcheck.compare(model_of(node), tmp_path, ["CTCGreedyDecoderSeqLen"])


@pytest.mark.parametrize("inputs", [
    [([2, 20, 10], F), ([2], I), ([2, 20], I), ([2], I)],
    [([2, 20, 10], F), ([2], I), ([2, 20], I), ([2], I), ([], I)],
    [([(1, 4), -1, 10], F), ([(2, 8)], I), ([-1, (5, 30)], I), ([(3, 9)], I)],
    [(None, F), (None, I), (None, I), (None, I)],
    [(None, F), ([5], I), (None, I), (None, I)],
    [([2, 20, 10], np.float16), ([2], np.int64), ([2, 20], I), ([2], np.uint8)],
])
def test_loss_cases(tmp_path, inputs):
    node = op("CTCLoss", "opset4", inputs, {})
    opcheck.compare(model_of(node), tmp_path, ["CTCLoss"])


def _configs(rng, count):
    for _ in range(count):
        n, t, c = rng.choice([1, 2, 5]), rng.choice([1, 7, 20]), 10
        kind = rng.choice(["decoder", "seq_len", "loss"])
        if kind == "decoder":
            inputs = [(near_dims(rng, [t, n, c]), F), (near_dims(rng, [t, n]), F)]
            yield inputs, ("CTCGreedyDecoder", "opset1", {})
        elif kind == "seq_len":
            inputs = [(near_dims(rng, [n, t, c]), F), (near_dims(rng, [n]), I)]
            if rng.random() < 0.5:
                inputs.append((rng.choice([[], [1], [2], [-1], None]), I))
            attrs = dict(classes_index_type=rng.choice(["i32", "i64"]))
            yield inputs, ("CTCGreedyDecoderSeqLen", "opset6", attrs)
        else:
            inputs = [(near_dims(rng, [n, t, c]), F), (near_dims(rng, [n]), I),
                      (near_dims(rng, [n, t]), I), (near_dims(rng, [n]), I)]
            if rng.random() < 0.4:
                inputs.append((rng.choice([[], [1], None]), I))
            yield inputs, ("CTCLoss", "opset4", {})


def test_random_configurations_against_the_runtime(tmp_path):
    build = lambda ps, extra, name: make(extra[1], extra[0], ps, extra[2], name)  # noqa: E731
    compared, refused = differential_batches(tmp_path, _configs(random.Random(6), 400), build,
                                     ["CTCGreedyDecoder", "CTCGreedyDecoderSeqLen", "CTCLoss"])
    assert compared > 200 and refused > 40, (compared, refused)


@pytest.mark.parametrize("type_,version,inputs,code,words", [
    ("CTCGreedyDecoder", "opset1", [("20,2,10", "f32"), ("21,2", "f32")], "IRV102", "time steps"),
    ("CTCGreedyDecoder", "opset1", [("20,2,10", "f32"), ("20,3", "f32")], "IRV102", "batch"),
    ("CTCGreedyDecoderSeqLen", "opset6", [("2,20,10", "f32"), ("2", "i32"), ("2", "i32")],
     "IRV102", "blank_index"),
    ("CTCGreedyDecoderSeqLen", "opset6", [("2,20,10", "f32"), ("2", "i32"), ("", "f32")],
     "IRV106", "blank_index"),
    ("CTCLoss", "opset4", [("2,20,10", "f32"), ("2", "i32"), ("2,15", "i32"), ("2", "i32")],
     "IRV102", "time steps"),
    ("CTCLoss", "opset4", [("2,20,10", "i32"), ("2", "i32"), ("2,20", "i32"), ("2", "i32")],
     "IRV106", "floating point"),
    ("CTCLoss", "opset4", [("2,20,10", "f32"), ("2", "i32"), ("2,20", "i32"), ("2", "i32"),
                           ("1", "i32")], "IRV102", "rank 0"),
])
def test_refusals(tmp_path, type_, version, inputs, code, words):
    ir = IR()
    ins = [ir.parameter(s, et) for s, et in inputs]
    ir.result(ir.op(type_, ins, [[2, 20, 1, 1]], {}, version=version, name="victim"))
    path = ir.write(tmp_path)
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == code]
    assert found and words in found[0].message and found[0].layer.name == "victim", found


def test_seq_len_output_types_come_from_the_attributes(tmp_path):
    """Any element type is accepted: classes_index_type=f32 makes output 0 f32, so a port
    still declaring I64 is contradicted (and one declaring FP32 is not)."""
    node = op("CTCGreedyDecoderSeqLen", "opset6", [([2, 20, 10], F), ([2], I)],
              dict(classes_index_type="i64"), "victim")
    path = opcheck.compare(model_of(node), tmp_path, ["CTCGreedyDecoderSeqLen"])
    text = path.read_text().replace('classes_index_type="i64"', 'classes_index_type="f32"')
    path.write_text(text)
    runtime = ov.Core().read_model(str(path))
    victim = [o for o in runtime.get_ordered_ops() if o.get_friendly_name() == "victim"][0]
    assert victim.get_output_element_type(0) == ov.Type.f32
    found = [f for f in validate_file(str(path)).findings if f.level == "error"]
    assert [(f.code, f.layer.name) for f in found] == [("IRV106", "victim")]
    assert "produces f32" in found[0].message


@pytest.mark.parametrize("type_,opset,inputs,port,axis", [
    ("CTCGreedyDecoder", "opset1", [([20, 2, 10], F), ([20, 2], F)], 0, 1),
    ("CTCGreedyDecoderSeqLen", "opset6", [([2, 20, 10], F), ([2], I)], 1, 0),
    ("CTCLoss", "opset4", [([2, 20, 10], F), ([2], I), ([2, 20], I), ([2], I)], 0, 0),
])
def test_a_stale_declared_dim_names_the_layer(tmp_path, type_, opset, inputs, port, axis):
    path = opcheck.compare(model_of(op(type_, opset, inputs, {}, "victim")), tmp_path, [type_])
    assert opcheck.named(opcheck.mutate(path, "victim", port, axis, 9), "victim")
