"""NonMaxSuppression-1/-3/-4/-5/-9 against the runtime: the notes' cases, random
configurations both ways (max_output_boxes_per_class constant, computed exactly, computed as
an interval or unknown), refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

import openvino.opset8 as o8  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.ovmodels import accepted, const, differential_batches, make, model_of, near_dims, param  # noqa: E402

OPSETS = ["opset1", "opset3", "opset4", "opset5", "opset9"]


def nms(opset, boxes, scores, limit, attrs=None, name="nms", ets=(np.float32, np.float32)):
    inputs = [param(boxes, ets[0]), param(scores, ets[1])] + ([limit] if limit is not None else [])
    return make(opset, "NonMaxSuppression", inputs, attrs or {}, name)


def computed_limit(dims):
    """Squeeze(ShapeOf(x)[0]): exact when x's first dim is static, an interval otherwise."""
    x = param(dims)
    first = o8.gather(o8.shape_of(x), const([0]), const(0))
    return o8.squeeze(first, const([0]))


@pytest.mark.parametrize("opset", OPSETS)
@pytest.mark.parametrize("boxes,scores,limit", [
    ([2, 6, 4], [2, 3, 6], lambda: const(3)),
    ([1, 6, 4], [1, 2, 6], None),
    ([1, 6, 4], [1, 2, 6], lambda: const(10)),
    ([2, 6, 4], [2, 3, 6], lambda: const(0)),
    ([2, 6, 4], [2, 3, 6], lambda: const(-1)),
    ([2, 6, 4], [2, 3, 6], lambda: const(-5)),
    ([2, 6, 4], [2, 3, 6], lambda: param([], np.int64)),
    ([2, 6, 4], [2, 3, 6], lambda: computed_limit([4, -1])),
    ([2, 6, 4], [2, 3, 6], lambda: computed_limit([(2, 4)])),
    ([-1, 6, 4], [-1, 3, 6], lambda: const(3)),
    ([2, (4, 8), 4], [2, 3, (4, 8)], lambda: const(3)),
    ([2, 6, 4], [(1, 2), (2, 3), 6], lambda: const(3)),
    ([2, 6, 4], None, lambda: const(3)),
    (None, [2, 3, 6], lambda: const(3)),
    ([0, 6, 4], [0, 3, 6], lambda: const(3)),
])
def test_the_runtime_cases(tmp_path, opset, boxes, scores, limit):
    node = nms(opset, boxes, scores, limit() if limit else None)
    opcheck.compare(model_of(node), tmp_path, ["NonMaxSuppression"])


@pytest.mark.parametrize("opset", ["opset5", "opset9"])
def test_v5_takes_a_one_value_1d_limit_and_threshold(tmp_path, opset):
    node = make(opset, "NonMaxSuppression", [param([2, 6, 4]), param([2, 3, 6]), const([3]),
                                             const([0.5], np.float32)], {}, "nms")
    opcheck.compare(model_of(node), tmp_path, ["NonMaxSuppression"])


def _configs(rng, count):
    for _ in range(count):
        opset = rng.choice(OPSETS)
        b, n, c = rng.choice([0, 1, 2]), rng.choice([0, 1, 6, 20]), rng.choice([1, 3])
        inputs = [(near_dims(rng, [b, n, 4]), np.float32), (near_dims(rng, [b, c, n]), np.float32)]
        limit = rng.choice(["const", "param", "none", "computed"])
        value = rng.choice([-3, -1, 0, 1, 4, 50])
        attrs = {}
        if opset != "opset1" and rng.random() < 0.3:
            attrs["output_type"] = rng.choice(["i32", "i64"])
        yield inputs, (opset, limit, value, rng.choice([[4, 2], [(1, 5)], [-1]]), attrs)


def _build(params, extra, name):
    opset, limit, value, dims, attrs = extra
    inputs = list(params)
    if limit == "const":
        inputs.append(const(value))
    elif limit == "param":
        inputs.append(param([], np.int64))
    elif limit == "computed":
        inputs.append(computed_limit(dims))
    return make(opset, "NonMaxSuppression", inputs, attrs, name)


def test_random_configurations_against_the_runtime(tmp_path):
    compared, refused = differential_batches(tmp_path, _configs(random.Random(8), 400), _build,
                                     ["NonMaxSuppression"])
    assert compared > 250 and refused > 30, (compared, refused)


@pytest.mark.parametrize("version,shapes,data,code,words", [
    ("opset1", ("2,6,4", "2,3,6", "1"), {}, "IRV102", "a scalar"),
    ("opset5", ("2,6,4", "2,3,6", "2"), {}, "IRV102", "one value"),
    ("opset5", ("2,6,5", "2,3,6", ""), {}, "IRV102", "must be 4"),
    ("opset3", ("2,6,4", "3,3,6", ""), {}, "IRV102", "batch"),
    ("opset9", ("2,6,4", "2,3,7", ""), {}, "IRV102", "box count"),
    ("opset4", ("2,6,4", "2,3,6", ""), {"output_type": "u8"}, "IRV104", "output_type"),
    ("opset3", ("2,6,4", "2,3,6", ""), {"output_type": "f32"}, "IRV104", "output_type"),
])
def test_refusals(tmp_path, version, shapes, data, code, words):
    ir = IR()
    ins = [ir.parameter(shapes[0]), ir.parameter(shapes[1]), ir.parameter(shapes[2], "i64")]
    out = [[6, 3]] + ([[6, 3], [1]] if version in ("opset5", "opset9") else [])
    ir.result(ir.op("NonMaxSuppression", ins, out, data, version=version, name="victim",
                    out_precision="I64"))
    path = ir.write(tmp_path)
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == code]
    assert found and words in found[0].message and found[0].layer.name == "victim", found


@pytest.mark.parametrize("opset", ["opset5", "opset9"])
def test_v5_refuses_integer_boxes(tmp_path, opset):
    assert accepted(lambda: nms(opset, [2, 6, 4], [2, 3, 6], const(3),
                                ets=(np.int32, np.int32))) is None
    ir = IR()
    ins = [ir.parameter("2,6,4", "i32"), ir.parameter("2,3,6", "i32"), ir.const([3], shape=[])]
    ir.result(ir.op("NonMaxSuppression", ins, [[-1, 3], [-1, 3], [1]], {}, version=opset,
                    name="victim", out_precision="I64"))
    path = ir.write(tmp_path)
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV106"]
    assert found and found[0].layer.name == "victim"


@pytest.mark.parametrize("opset,port", [("opset1", 0), ("opset4", 0), ("opset9", 0), ("opset9", 2)])
def test_a_stale_declared_dim_names_the_layer(tmp_path, opset, port):
    node = nms(opset, [2, 6, 4], [2, 3, 6], const(3), name="victim")
    path = opcheck.compare(model_of(node), tmp_path, ["NonMaxSuppression"])
    axis = 0
    if opset == "opset9" and port == 0:  # an interval: declared -1, mutate the 3
        axis = 1
    assert opcheck.named(opcheck.mutate(path, "victim", port, axis, 7), "victim")
