"""MVN-1/-6, NormalizeL2, LRN, GRN and BatchNormInference-1/-5 against the runtime: the notes'
cases, random ones, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset13 as o  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import (  # noqa: E402
    const,
    create,
    errors_naming as _errors,
    expect_refusal,
    model,
    param,
    random_shape,
)

MVN1 = {"eps": 1e-9, "across_channels": True, "normalize_variance": True}
MVN6 = {"eps": 1e-9, "normalize_variance": True, "eps_mode": "inside_sqrt"}
L2 = {"eps": 1e-6, "eps_mode": "add"}
LRN = {"alpha": 1e-4, "beta": 0.75, "bias": 1.0, "size": 5}


def one(opset, kind, data, axes=None, attrs=None, et=np.float32):
    """A model of one layer 'op' over Parameter data and, if given, an axes input (a list is a
    Const, a callable builds it from the data Parameter and returns (node, extra params))."""
    x = param(data, et, "x")
    inputs, params = [x], [x]
    if callable(axes):
        node, extra = axes(x)
        inputs.append(node)
        params += extra
    elif axes is not None:
        inputs.append(const(axes))
    return model([create(opset, kind, inputs, attrs, name="op")], params)


def axes_param(spec, et=np.int64):
    def make(x):
        p = param(spec, et)
        return p, [p]
    return make


def computed_axis(index):
    """[d] where d is dim ``index`` of another Parameter [1, 3, 2..3]: exact unless interval."""
    def make(x):
        y = param([1, 3, (2, 3)])
        return o.gather(o.shape_of(y), const([index]), const(0)), [y]
    return make


@pytest.mark.parametrize("data", [[1, 3, 10, 10], [(1, 2), -1, 10, 10], None, [], [2, 3]])
def test_mvn1(tmp_path, data):
    opcheck.compare(one("opset2", "MVN", data, attrs=MVN1), tmp_path, ["MVN"])
    opcheck.compare(one("opset2", "MVN", data, attrs={"eps": 0.1, "across_channels": False,
                                                      "normalize_variance": False},
                        et=np.int32), tmp_path, ["MVN"], stem="i32")


@pytest.mark.parametrize("data,axes", [
    ([1, 3, 10, 10], [2, 3]), ([1, 3, 10, 10], [-1, -2]), ([1, 3, 10, 10], [4]),
    ([1, 3, 10, 10], [100]), ([1, 3, 10, 10], [0, 1, 2, 3]), ([1, 3, 10, 10], []),
    ([1, 3, 10, 10], axes_param([2])), ([(1, 2), -1, 10, 10], [2, 3]), (None, [2, 9]),
    ([], []), ([1, 3, 10, 10], axes_param([(1, 5)])), ([1, 3, 10, 10], axes_param(None)),
    ([1, 3, 10, 10], axes_param([2], np.float32)),
])
def test_mvn6(tmp_path, data, axes):
    opcheck.compare(one("opset6", "MVN", data, axes, MVN6), tmp_path, ["MVN"])


@pytest.mark.parametrize("data,axes", [
    ([1, 3, 10, 10], [1]), ([1, 3, 10, 10], [1, 2, 3]), ([1, 3, 10, 10], [-1]),
    ([1, 3, 10, 10], [-4]), ([1, 3, 10, 10], [1, 1]), ([1, 3, 10, 10], []),
    ([1, 3, 10, 10], axes_param([1])), ([(1, 2), -1, 10, 10], [1]), (None, [5]), ([], []),
    ([1, 3, 10, 10], computed_axis(1)), ([1, 3, 10, 10], computed_axis(2)),
    ([1, 3, 10, 10], axes_param(None)),
])
def test_normalize_l2(tmp_path, data, axes):
    opcheck.compare(one("opset1", "NormalizeL2", data, axes, L2), tmp_path, ["NormalizeL2"])
    opcheck.compare(one("opset1", "NormalizeL2", data, axes, {"eps": 0.5, "eps_mode": "max"}),
                    tmp_path, ["NormalizeL2"], stem="max")


def test_normalize_l2_scalar_axes(tmp_path):
    x = param([1, 3, 10, 10])
    built = model([create("opset1", "NormalizeL2", [x, const(1)], L2, name="op")], [x])
    opcheck.compare(built, tmp_path, ["NormalizeL2"])


@pytest.mark.parametrize("data,axes", [
    ([1, 3, 10, 10], [1]), ([1, 3, 10, 10], [2, 3]), ([1, 3, 10, 10], [-1]),
    ([1, 3, 10, 10], [-5]), ([1, 3, 10, 10], [1, 1]), ([1, 3, 10, 10], []),
    ([1, 3, 10, 10], axes_param([1])), ([(1, 2), -1, 10, 10], [1]), (None, [7]), ([], []),
    ([1, 3, 10, 10], axes_param([-1])), ([1, 3, 10, 10], axes_param([(5, 6)])),
    ([1, 3, 10, 10], axes_param(None)), (None, axes_param([5])),
    ([1, 3, 10, 10], computed_axis(0)), ([1, 3, 10, 10], computed_axis(2)),
])
def test_lrn(tmp_path, data, axes):
    opcheck.compare(one("opset1", "LRN", data, axes, LRN), tmp_path, ["LRN"])


def test_lrn_u8_axes_and_i32_data(tmp_path):
    x = param([1, 3, 10, 10], np.int32)
    built = model([create("opset1", "LRN", [x, const([1], np.uint8)], LRN, name="op")], [x])
    opcheck.compare(built, tmp_path, ["LRN"])


@pytest.mark.parametrize("data", [[1, 3, 10, 10], [1, 3, 10], [1, 3], [(1, 2), -1, 10, 10],
                                  None, [-1, -1]])
def test_grn(tmp_path, data):
    opcheck.compare(one("opset1", "GRN", data, attrs={"bias": 1e-6}), tmp_path, ["GRN"])


def batch_norm(opset, data, params, et=np.float32, epsilon=1e-5):
    x = param(data, et, "x")
    ps = [param(s, et) for s in params]
    inputs = [x] + ps if opset == "opset5" else ps[:2] + [x] + ps[2:]
    return model([create(opset, "BatchNormInference", inputs, {"epsilon": epsilon}, name="op")],
                 [x] + ps)


@pytest.mark.parametrize("opset", ["opset1", "opset5"])
@pytest.mark.parametrize("data,params", [
    ([2, 3, 4, 4], [[3]] * 4), ([2, 3], [[3]] * 4), ([2, -1, 4], [[3], [-1], [3], [3]]),
    ([2, -1, 4], [[(2, 5)], [(3, 8)], [-1], None]), (None, [[3]] * 4), ([2, -1], [None] * 4),
    ([2, (1, 3)], [[(2, 4)], [(3, 5)], [-1], [-1]]), ([(1, 2), -1], [[3], [3], [-1], [3]]),
])
def test_batch_norm(tmp_path, opset, data, params):
    opcheck.compare(batch_norm(opset, data, params), tmp_path, ["BatchNormInference"])


def test_batch_norm_types(tmp_path):
    for n, (ets, eps) in enumerate([([np.float16] * 5, 0.0), ([ov.Type.bf16] * 5, 1e-3),
                                    ([ov.Type.dynamic] + [np.float16] * 4, 0.0),
                                    ([np.float32] + [ov.Type.dynamic] * 4, 0.0)]):
        ps = [param([2, 3, 4] if i == 0 else [3], et) for i, et in enumerate(ets)]
        built = model([create("opset5", "BatchNormInference", ps, {"epsilon": eps}, name="op")], ps)
        opcheck.compare(built, tmp_path, ["BatchNormInference"], stem=f"m{n}")


def test_random_cases_match_the_runtime(tmp_path):
    rng = random.Random(9)
    for n in range(80):
        data = random_shape(rng, 2, 4, dynamic_rank=0.1)
        rank = len(data) if data is not None else 4
        kind = rng.choice(["MVN1", "MVN6", "NormalizeL2", "LRN", "GRN", "BN1", "BN5"])
        axes = sorted({rng.randrange(0, rank) for _ in range(rng.randint(0, rank))})
        if kind == "MVN1":
            built = one("opset2", "MVN", data, attrs=MVN1)
        elif kind == "MVN6":
            built = one("opset6", "MVN", data, axes, MVN6)
        elif kind == "NormalizeL2":
            built = one("opset1", "NormalizeL2", data, [a - rank for a in axes], L2)
        elif kind == "LRN":
            built = one("opset1", "LRN", data, axes, LRN)
        elif kind == "GRN":
            built = one("opset1", "GRN", data, attrs={"bias": 0.5})
        else:
            channel = data[1] if data is not None else rng.choice([3, -1])
            params = [rng.choice([[channel], [-1], None]) for _ in range(4)]
            built = batch_norm("opset1" if kind == "BN1" else "opset5", data, params)
        opcheck.compare(built, tmp_path, ["MVN", "NormalizeL2", "LRN", "GRN",
                                          "BatchNormInference"], stem=f"m{n}")



def _refused_ir(kind, version, data, axes=None, attrs=None, data_et="f32", axes_shape=None,
                axes_et="i64"):
    ir = IR()
    inputs = [ir.parameter(data, data_et)]
    if axes is not None:
        inputs.append(ir.const(axes, axes_et, shape=axes_shape))
    ir.result(ir.op(kind, inputs, [[1, 3, 10, 10]], attrs or {}, version=version, name="op"))
    return ir


@pytest.mark.parametrize("kind,version,data,axes,extra,words", [
    ("MVN", "opset6", "1,3,10,10", [0, 1, 2, 3, 1], {}, "holds 5 axes"),
    ("MVN", "opset6", "?,?", [0, 1, 2], {}, "holds 3 axes"),
    ("MVN", "opset6", "1,3,10,10", [1], {"axes_shape": []}, "must be 1-D"),
    ("MVN", "opset6", "1,3,10,10", [2, 3], {"attrs": {"eps_mode": "bogus"}}, "eps_mode"),
    ("NormalizeL2", "opset1", "1,3,10,10", [4], {}, "out of the range [-4, 3]"),
    ("NormalizeL2", "opset1", "1,3,10,10", [-5], {}, "out of the range [-4, 3]"),
    ("NormalizeL2", "opset1", "", [0], {}, "scalar data"),
    ("NormalizeL2", "opset1", "1,3,10,10", [1], {"axes_shape": [1, 1]}, "scalar or 1-D"),
    ("NormalizeL2", "opset1", "1,3,10,10", [1], {"attrs": {"eps_mode": "mean"}}, "eps_mode"),
    ("LRN", "opset1", "1,3,10,10", [4], {}, "out of range"),
    ("LRN", "opset1", "1,3,10,10", [1, 2, 3, 0, 1], {}, "holds 5 axes"),
    ("LRN", "opset1", "", [0], {}, "holds 1 axes"),
    ("LRN", "opset1", "1,3,10,10", [1], {"axes_shape": []}, "must be 1-D"),
    ("GRN", "opset1", "1,3,10,10,10", None, {}, "rank 2, 3 or 4"),
    ("GRN", "opset1", "3", None, {}, "rank 2, 3 or 4"),
    ("GRN", "opset1", "?", None, {}, "rank 2, 3 or 4"),
])
def test_what_the_runtime_refuses(tmp_path, kind, version, data, axes, extra, words):
    expect_refusal(_refused_ir(kind, version, data, axes, **extra), tmp_path, words)


def test_lrn_checks_its_default_axis_when_the_axes_are_unknown(tmp_path):
    ir = IR()
    ir.result(ir.op("LRN", [ir.parameter("5"), ir.parameter("1", "i64")], [[5]], name="op"))
    expect_refusal(ir, tmp_path, "[1] are out of range")
    opcheck.compare(one("opset1", "LRN", [5, 2], axes_param([1]), LRN), tmp_path, ["LRN"],
                    stem="ok")


def test_lrn_float_axes_are_refused(tmp_path):
    ir = IR()
    ir.result(ir.op("LRN", [ir.parameter("1,3,10,10"), ir.parameter("1", "f32")],
                    [[1, 3, 10, 10]], name="op"))
    expect_refusal(ir, tmp_path, code="IRV106")


@pytest.mark.parametrize("version,data,params,et,epsilon,words", [
    ("opset5", "2,4,4", ["3"] * 4, "f32", "1e-5", "channel dim 4"),
    ("opset5", "2,3,4,4", ["3", "4", "3", "3"], "f32", "1e-5", "does not match"),
    ("opset5", "2,3", ["3", "3,1", "3", "3"], "f32", "1e-5", "does not match"),
    ("opset5", "2", ["2"] * 4, "f32", "1e-5", "rank 2 or more"),
    ("opset5", "2,3,4,4", ["3"] * 4, "f32", "-1", "must not be negative"),
    ("opset5", "0,?", ["?", "0", "?", "?"], "f32", "1e-5", "channel count is 0"),
    ("opset5", "...", ["?", "0", "?", "?"], "f32", "1e-5", "channel count is 0"),
    ("opset5", "2,3,4,4", ["3"] * 4, "i32", "1e-5", "floating-point"),
    ("opset1", "2,3,4,4", ["3"] * 4, "f32", "1e-5", "rank 2 or more"),  # v5 order given to v1
])
def test_batch_norm_refusals(tmp_path, version, data, params, et, epsilon, words):
    ir = IR()
    x = ir.parameter(data, et)
    ps = [ir.parameter(s, et) for s in params]
    inputs = [x] + ps
    if version == "opset1" and words != "rank 2 or more":
        inputs = ps[:2] + [x] + ps[2:]
    ir.result(ir.op("BatchNormInference", inputs, [[2, 3, 4, 4]], {"epsilon": epsilon},
                    version=version, name="op"))
    expect_refusal(ir, tmp_path, words)


@pytest.mark.parametrize("kind,version,count", [("MVN", "opset2", 2), ("MVN", "opset6", 1),
                                                ("NormalizeL2", "opset1", 3), ("GRN", "opset1", 2),
                                                ("LRN", "opset1", 1),
                                                ("BatchNormInference", "opset5", 4)])
def test_wrong_input_count(tmp_path, kind, version, count):
    ir = IR()
    inputs = [ir.parameter("1,3,10,10")] + [ir.const([1]) for _ in range(count - 1)]
    ir.result(ir.op(kind, inputs, [[1, 3, 10, 10]], version=version, name="op"))
    expect_refusal(ir, tmp_path, code="IRV105")


def test_mvn_opset1_is_read_as_opset2_and_stale_dims_are_named(tmp_path):
    ir = IR()
    ir.result(ir.op("MVN", [ir.parameter("1,3,10,10")], [[1, 3, 10, 10]], MVN1 and {
        "eps": "1e-9", "across_channels": "true"}, version="opset1", name="op"))
    path = ir.write(tmp_path)
    ov.Core().read_model(str(path))
    assert not _errors(path)
    assert opcheck.named(opcheck.mutate(path, "op", 0, 1, 4), "op")
    for n, built in enumerate([one("opset6", "MVN", [1, 3, 10, 10], [2, 3], MVN6),
                               one("opset1", "LRN", [1, 3, 10, 10], [1], LRN),
                               batch_norm("opset5", [2, 3, 4], [[3]] * 4)]):
        path = opcheck.compare(built, tmp_path, ["MVN", "LRN", "BatchNormInference"],
                               stem=f"m{n}")
        assert opcheck.named(opcheck.mutate(path, "op", 0, 1, 7), "op")
