"""DetectionOutput-1/-8 against the runtime: the notes' cases, random configurations (accepted
ones compared, refused ones refused by both), attribute refusals and a stale dim."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.ovmodels import differential_batches, make, model_of, near_dims, param  # noqa: E402

B = dict(keep_top_k=[200], normalized=True, share_location=True, nms_threshold=0.45, top_k=400)
SHAPES = ([2, 7668], [2, 40257], [1, 2, 7668])


def detection(opset, shapes, attrs, ets=(np.float32,) * 5, name="det"):
    if opset == "opset1":
        attrs = dict({"num_classes": 21}, **attrs)
    params = [param(s, et) for s, et in zip(shapes, ets)]
    return make(opset, "DetectionOutput", params, attrs, name)


@pytest.mark.parametrize("opset", ["opset1", "opset8"])
@pytest.mark.parametrize("shapes,attrs", [
    (SHAPES, B),
    (SHAPES, dict(B, keep_top_k=[-1])),
    (SHAPES, dict(B, keep_top_k=[-1], top_k=-1)),
    (SHAPES, dict(B, keep_top_k=[0], top_k=-1)),
    (SHAPES, dict(B, keep_top_k=[50, 100])),
    (([-1, 7668], [-1, 40257], [1, 2, 7668]), B),
    (([(1, 4), -1], [-1, -1], [-1, -1, -1]), dict(B, keep_top_k=[-1], top_k=10)),
    (([(1, 4), -1], [-1, -1], [-1, -1, -1]), dict(keep_top_k=[-1], top_k=-1)),
    ((None, None, None), B),
    (([2, 7668], [2, 40257], [1, 2, 9585]), dict(normalized=False, keep_top_k=[-1], top_k=-1)),
    (([2, 7668], [2, 40257], [1, 1, 7668]), dict(B, variance_encoded_in_target=True)),
    (([2, 7668], [2, 40257], [1, 2, 7668], [2, 3834], [2, 7668]), dict(keep_top_k=[-1], top_k=-1,
                                                                      normalized=True)),
    (([(1, 4), 7668], [3, -1], [1, 2, -1]), dict(B, keep_top_k=[-1], top_k=5)),
])
def test_the_runtime_cases(tmp_path, opset, shapes, attrs):
    opcheck.compare(model_of(detection(opset, shapes, attrs)), tmp_path, ["DetectionOutput"])


@pytest.mark.parametrize("opset", ["opset1", "opset8"])
def test_f16_inputs_give_f16(tmp_path, opset):
    node = detection(opset, SHAPES, B, (np.float16,) * 3)
    opcheck.compare(model_of(node), tmp_path, ["DetectionOutput"])


def _configs(rng, count):
    for _ in range(count):
        v8 = rng.random() < 0.5
        n, p, c = rng.choice([1, 2, 3]), rng.choice([1, 3, 8]), rng.choice([1, 2, 5])
        share, normalized, vet = rng.random() < 0.6, rng.random() < 0.5, rng.random() < 0.3
        loc, size = 1 if share else c, 4 if normalized else 5
        shapes = [[n, p * loc * 4], [n, p * c], [rng.choice([1, n]), 1 if vet else 2, p * size]]
        if rng.random() < 0.3:
            shapes += [[n, p * 2], [n, p * loc * 4]]
        shapes = [near_dims(rng, s, other_rank=0, keep=0.7, unknown=0.13) for s in shapes]
        attrs = dict(keep_top_k=[rng.choice([-1, 0, 5, 100])] * rng.randint(1, 2),
                     top_k=rng.choice([-1, 0, 7]), share_location=share, normalized=normalized,
                     variance_encoded_in_target=vet)
        if not v8:
            attrs["num_classes"] = c if rng.random() < 0.8 else c + 1
        yield [(s, np.float32) for s in shapes], ("opset8" if v8 else "opset1", attrs)


def test_random_configurations_against_the_runtime(tmp_path):
    def build(params, extra, name):
        opset, attrs = extra
        return make(opset, "DetectionOutput", params, attrs, name)
    compared, refused = differential_batches(tmp_path, _configs(random.Random(5), 400), build,
                                     ["DetectionOutput"])
    assert compared > 150 and refused > 50, (compared, refused)


def _layer(data, version="opset1", shapes=((2, 7668), (2, 40257), (1, 2, 7668))):
    ir = IR()
    ins = [ir.parameter(",".join(map(str, s))) for s in shapes]
    ir.result(ir.op("DetectionOutput", ins, [[1, 1, 400, 7]], data, version=version, name="victim"))
    return ir


@pytest.mark.parametrize("version,data,words", [
    ("opset1", {"num_classes": "21", "normalized": "true", "top_k": "400"}, "keep_top_k"),
    ("opset8", {"keep_top_k": "", "normalized": "true"}, "keep_top_k"),
    ("opset1", {"keep_top_k": "-1", "top_k": "-1"}, "num_classes"),
    ("opset1", {"num_classes": "21", "keep_top_k": "200", "code_type": "corner"}, "code_type"),
])
def test_attribute_refusals(tmp_path, version, data, words):
    path = _layer(data, version).write(tmp_path)
    if "keep_top_k" not in words:  # a missing keep_top_k crashes the reader: not tried here
        with pytest.raises(RuntimeError):
            ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV104"]
    assert found and words in found[0].message and found[0].layer.name == "victim"


@pytest.mark.parametrize("shapes,words", [
    (((2, 7668), (2, 40257), (1, 2, 7669)), "proposals dim 2"),
    (((2, 7668), (3, 40257), (1, 2, 7668)), "class_preds dim 0"),
    (((2, 7668), (2, 40257), (3, 2, 7668)), "proposals dim 0"),
    (((2, 7668), (2, 40257), (1, 3, 7668)), "proposals dim 1"),
    (((2, 7668, 1), (2, 40257), (1, 2, 7668)), "box_logits must have rank 2"),
])
def test_shape_refusals(tmp_path, shapes, words):
    data = {"num_classes": "21", "keep_top_k": "200", "normalized": "true"}
    path = _layer(data, "opset1", shapes).write(tmp_path)
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV102"]
    assert found and words in found[0].message and found[0].layer.name == "victim"


def test_integer_inputs_are_a_type_error(tmp_path):
    ir = IR()
    ins = [ir.parameter(",".join(map(str, s)), "i32") for s in SHAPES]
    ir.result(ir.op("DetectionOutput", ins, [[1, 1, 400, 7]], {
        "num_classes": "21", "keep_top_k": "200", "normalized": "true"}, name="victim"))
    path = ir.write(tmp_path)
    with pytest.raises(RuntimeError, match="floating point"):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV106"]
    assert found and found[0].layer.name == "victim"


@pytest.mark.parametrize("opset", ["opset1", "opset8"])
def test_a_stale_declared_dim_names_the_layer(tmp_path, opset):
    path = opcheck.compare(model_of(detection(opset, SHAPES, B, name="victim")), tmp_path,
                           ["DetectionOutput"])
    assert opcheck.named(opcheck.mutate(path, "victim", 0, 2, 401), "victim")
