"""ReorgYolo and RegionYolo against the runtime: the notes' cases, random ones, refusals and
stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import (  # noqa: E402
    create,
    errors_naming as _errors,
    expect_refusal,
    model,
    param,
    random_dim,
)

REGION = {"coords": 4, "classes": 80, "num": 9, "do_softmax": False, "mask": [0, 1, 2],
          "axis": 1, "end_axis": 3, "anchors": [10.0, 13.0]}


def one(opset, kind, data, attrs, et=np.float32):
    x = param(data, et, "x")
    return model([create(opset, kind, [x], attrs, name="op")], [x])


@pytest.mark.parametrize("data,stride", [
    ([1, 64, 26, 26], [2]), ([1, 64, 26, 26], [2, 3]), ([1, 63, 27, 27], [3]),
    ([1, 62, 26, 26], [2]), ([-1, -1, -1, -1], [2]), ([1, (64, 128), (26, 28), -1], [2]),
    (None, [2]), ([1, 64, (5, 8), 8], [4]), ([1, (3, -1), (9, -1), 8], [4]),
    ([1, 64, (0, 3), 8], [4]), ([1, 64, 0, 8], [4]), ([1, 64, (1, -1), -1], [4]),
    ([1, 64, (2, 3), (5, -1)], [1]), ([1, 64, (2, 3), (5, -1)], [3]),
    ([1, 64, (10, 10 ** 18), 4], [2]), (None, [0]),
])
def test_reorg(tmp_path, data, stride):
    opcheck.compare(one("opset2", "ReorgYolo", data, {"stride": stride}), tmp_path, ["ReorgYolo"])


def test_reorg_types_and_opset1(tmp_path):
    opcheck.compare(one("opset2", "ReorgYolo", [1, 64, 26, 26], {"stride": [2]}, np.int32),
                    tmp_path, ["ReorgYolo"])
    ir = IR()
    ir.result(ir.op("ReorgYolo", [ir.parameter("1,64,26,26")], [[1, 256, 13, 13]],
                    {"stride": "2"}, version="opset1", name="op"))
    path = ir.write(tmp_path, stem="v1")
    ov.Core().read_model(str(path))
    assert not _errors(path)
    assert opcheck.named(opcheck.mutate(path, "op", 0, 1, 64), "op")


@pytest.mark.parametrize("data,attrs", [
    ([1, 255, 13, 13], {}), ([1, 255, 13, 13], {"do_softmax": True}),
    ([1, 125, 13, 13], {"classes": 20, "num": 5, "do_softmax": True, "axis": 2, "end_axis": 3}),
    ([1, 125, 13, 13], {"do_softmax": True, "axis": 0, "end_axis": 1}),
    ([1, 125, 13, 13], {"do_softmax": True, "axis": -3, "end_axis": -1}),
    ([1, 125, 13, 13], {"do_softmax": True, "axis": 3, "end_axis": 1}),
    ([1, 125, 13, 13], {"do_softmax": True, "axis": 2, "end_axis": 2}),
    ([1, 255, 13, 13], {"mask": [0, 1, 2, 3]}), ([1, 255, 13, 13], {"mask": []}),
    ([1, 255, 13, 13], {"coords": -4, "mask": [0, 1]}),
    ([1, 255, 13, 13], {"coords": -100, "classes": 1, "mask": [0]}),
    ([1, 255, 13, 13], {"coords": -2, "classes": 0, "mask": [0]}),
    ([1, 255, 13, 13], {"coords": -2, "classes": 0, "mask": [0, 1]}),
    ([1, -1, (13, 26), -1], {}), ([1, -1, (13, 26), -1], {"do_softmax": True}),
    ([1, 255, (13, 26), 13], {"do_softmax": True, "axis": 1, "end_axis": 2}),
    ([1, 0, -1, 13], {"do_softmax": True}), ([1, -1, 0, 13], {"do_softmax": True}),
    (None, {"do_softmax": True, "axis": 9}), ([1, 125, 13, 13], {"axis": 9}),
    ([1, 2 ** 31, 2 ** 31, 4], {"do_softmax": True}),
])
def test_region(tmp_path, data, attrs):
    opcheck.compare(one("opset1", "RegionYolo", data, {**REGION, **attrs}), tmp_path,
                    ["RegionYolo"])


@pytest.mark.parametrize("et", [np.float16, np.float64, ov.Type.bf16])
def test_region_types(tmp_path, et):
    opcheck.compare(one("opset1", "RegionYolo", [1, 255, 13, 13], REGION, et), tmp_path,
                    ["RegionYolo"])


def test_random_cases_match_the_runtime(tmp_path):
    rng = random.Random(41)
    for n in range(80):
        data = [rng.choice([1, 2, -1]), random_dim(rng), random_dim(rng), random_dim(rng)]
        if rng.random() < 0.5:
            stride = rng.choice([1, 2, 3])
            if isinstance(data[1], int) and 0 <= data[1] < stride * stride:
                data[1] = stride * stride + data[1]
            for i in (2, 3):  # H and W with whole values of H / stride inside
                if isinstance(data[i], int) and data[i] > 0:
                    data[i] *= stride
                elif isinstance(data[i], tuple) and data[i][1] != -1:
                    data[i] = (data[i][0], data[i][1] + stride)
            built = one("opset2", "ReorgYolo", data, {"stride": [stride]})
        else:
            attrs = {**REGION, "do_softmax": rng.random() < 0.5, "axis": rng.randrange(-4, 4),
                     "end_axis": rng.randrange(-4, 4), "coords": rng.randint(-3, 5),
                     "classes": rng.randint(0, 30), "mask": list(range(rng.randint(0, 4)))}
            built = one("opset1", "RegionYolo", data, attrs)
        opcheck.compare(built, tmp_path, ["ReorgYolo", "RegionYolo"], stem=f"m{n}")



@pytest.mark.parametrize("kind,version,data,attrs,et,words", [
    ("ReorgYolo", "opset2", "1,64,26,26", {"stride": "3"}, "f32", "not divisible by stride 3"),
    ("ReorgYolo", "opset2", "1,64,5..6,8", {"stride": "4"}, "f32", "not divisible by stride 4"),
    ("ReorgYolo", "opset2", "1,64,26", {"stride": "2"}, "f32", "rank 4"),
    ("ReorgYolo", "opset2", "1,3,26,26", {"stride": "2"}, "f32", "smaller than stride * stride"),
    ("ReorgYolo", "opset2", "1,64,26,26", {}, "f32", "requires it"),
    ("ReorgYolo", "opset2", "...", {}, "f32", "requires it"),
    ("ReorgYolo", "opset2", "1,64,26,26", {"stride": "-1"}, "f32", "negative"),
    ("RegionYolo", "opset1", "1,255,13", {}, "f32", "rank 4"),
    ("RegionYolo", "opset1", "1,255,13,13", {}, "i32", "floating-point"),
    ("RegionYolo", "opset1", "1,125,13,13", {"do_softmax": "true", "end_axis": "5"}, "f32",
     "[-4, 3]"),
])
def test_what_the_runtime_refuses(tmp_path, kind, version, data, attrs, et, words):
    ir = IR()
    ir.result(ir.op(kind, [ir.parameter(data, et)], [[1, 256, 13, 13]], attrs, version=version,
                    name="op"))
    expect_refusal(ir, tmp_path, words)


def test_a_zero_stride_is_refused_though_the_runtime_reads_it(tmp_path):
    """The runtime divides by zero there (undefined behaviour): refused, saying so."""
    ir = IR()
    ir.result(ir.op("ReorgYolo", [ir.parameter("1,64,26,26")], [[1, 0, 0, 0]], {"stride": "0"},
                    version="opset2", name="op"))
    found = _errors(ir.write(tmp_path))
    assert found and "divides H and W by zero" in found[0].message


def test_stale_dims_are_named(tmp_path):
    for n, built in enumerate([one("opset2", "ReorgYolo", [1, 64, 26, 26], {"stride": [2]}),
                               one("opset1", "RegionYolo", [1, 255, 13, 13], REGION)]):
        path = opcheck.compare(built, tmp_path, ["ReorgYolo", "RegionYolo"], stem=f"m{n}")
        assert opcheck.named(opcheck.mutate(path, "op", 0, 1, 7), "op")
