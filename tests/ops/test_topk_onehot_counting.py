"""TopK (v1, v3, v11), OneHot (v1, v16), NonZero and Unique against the runtime: the notes'
cases, computed k and depth, constant data, random configurations, refusals, stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import const, differential, model, param, random_dim, refusal, scalar_input  # noqa: E402


def topk(data, k, axis, version=11, index="i32", k_et=np.int64):
    x = param(data)
    params = [x]
    attrs = {"axis": axis, "mode": "max", "sort": "none", "index_element_type": index}
    if version == 11:
        attrs["stable"] = False
    node = NodeFactory(f"opset{version}").create("TopK", [x, scalar_input(k, params, k_et)], attrs)
    node.set_friendly_name("t")
    return model(node, params)


@pytest.mark.parametrize("version", [1, 3, 11])
@pytest.mark.parametrize("data,k,axis", [
    ([4, 6], 3, 1), ([4, 6], 7, 1), ([4, 6], 0, 1), ([4, 6], 3, -1), ([5], 3, 0), ([(2, 8), (3, 5)], 4, 0),
    ([(2, 8), -1], 10, 1), ([4, 6], "unknown", 1), ([4, (2, 9)], "unknown", 1), ([4, -1], "unknown", 1),
    ([4, 6], ("c", 5), 1), ([4, 6], ("c", (2, 5)), 1), ([4, (3, 10)], ("c", (2, 20)), 1),
    ([4, -1], ("c", (2, 5)), 1), (None, 3, 1),
])
def test_topk_runtime_cases(tmp_path, data, k, axis, version):
    opcheck.compare(topk(data, k, axis, version), tmp_path, ["TopK"])


def test_topk_index_types(tmp_path):
    opcheck.compare(topk([4, 6], 3, 1, 1, "i64"), tmp_path, ["TopK"])
    opcheck.compare(topk([4, 6], 3, 1, 3, "i32", np.uint8), tmp_path, ["TopK"], stem="u8")


def onehot(indices, depth, axis, version=1):
    x = param(indices, np.int64)
    params = [x]
    inputs = [x, scalar_input(depth, params), const(1.0, np.float32), const(0.0, np.float32)]
    attrs = {"axis": axis} if version == 1 else {"axis": axis, "negative_indices_mode": "normalize"}
    node = NodeFactory(f"opset{version}").create("OneHot", inputs, attrs)
    node.set_friendly_name("o")
    return model(node, params)


@pytest.mark.parametrize("version", [1, 16])
@pytest.mark.parametrize("indices,depth,axis", [
    ([3], 5, -1), ([3], 5, 0), ([2, 3], 4, 1), ([], 4, 0), ([(1, 4), -1], 3, -1), (None, 3, 0),
    ([3], "unknown", 0), ([3], ("c", 6), 1), ([3], ("c", (2, 6)), 1), ([3], 0, 0),
])
def test_onehot_runtime_cases(tmp_path, indices, depth, axis, version):
    opcheck.compare(onehot(indices, depth, axis, version), tmp_path, ["OneHot"])


def data_input(data, constant, params):
    """Constant data (i32) when given, else a Parameter of shape ``data``."""
    if constant is not None:
        return const(constant, np.int32)
    params.append(param(data))
    return params[-1]


def nonzero(data, constant=None, output_type="i64"):
    params = []
    x = data_input(data, constant, params)
    node = NodeFactory("opset3").create("NonZero", [x], {"output_type": output_type})
    node.set_friendly_name("n")
    return model(node, params)


@pytest.mark.parametrize("data,constant", [
    ([2, 3], None), ([], None), (None, None), ([(1, 4), 3], None), ([-1, 3], None), ([0, 3], None),
    (None, [[1, 0, 2], [0, 0, 3]]), (None, [0, 0]), (None, 5),
])
def test_nonzero_runtime_cases(tmp_path, data, constant):
    opcheck.compare(nonzero(data, constant), tmp_path, ["NonZero"])


def test_nonzero_of_a_folded_shape(tmp_path):
    x = param([2, 0, 3])
    node = NodeFactory("opset3").create("NonZero", [opset1.shape_of(x)], {"output_type": "i32"})
    opcheck.compare(model(node, [x]), tmp_path, ["NonZero"])


def unique(data, axis=None, constant=None):
    params = []
    x = data_input(data, constant, params)
    inputs = [x] + ([] if axis is None else [const(axis)])
    node = NodeFactory("opset10").create("Unique", inputs, {"sorted": True, "index_element_type": "i64",
                                                            "count_element_type": "i32"})
    node.set_friendly_name("u")
    return model(node, params)


@pytest.mark.parametrize("data,axis,constant", [
    ([2, 3], None, None), ([-1, 3], None, None), ([0, 3], None, None), ([(2, 4)], None, None),
    ([2, 3], 0, None), ([2, 3], -1, None), ([2, (0, 4)], 1, None), ([2, -1], 1, None), ([2, 0], 1, None),
    (None, 0, None), (None, None, None), ([], None, None),
    (None, None, [[1, 2, 2], [1, 2, 2]]), (None, 0, [[1, 2, 2], [1, 2, 2]]), (None, 1, [[1, 2, 2], [1, 2, 2]]),
    (None, 0, np.zeros((2, 0), np.int32)) if False else (None, 0, [[1, 2], [1, 2], [3, 3]]),
])
def test_unique_runtime_cases(tmp_path, data, axis, constant):
    opcheck.compare(unique(data, axis, constant), tmp_path, ["Unique"])


def test_random_topks_and_onehots_match_the_runtime(tmp_path):
    rng = random.Random(41)
    done = 0
    for n in range(80):
        rank = rng.randint(1, 3)
        data = [random_dim(rng) for _ in range(rank)]
        axis = rng.randint(-rank, rank - 1)
        k = rng.choice([0, 1, 3, 9, "unknown", ("c", (1, 5)), ("c", 4)])
        done += differential(lambda: topk(data, k, axis, rng.choice([1, 3, 11])), tmp_path, ["TopK"], f"t{n}")
        depth = rng.choice([1, 3, "unknown", ("c", (2, 6))])
        done += differential(lambda: onehot(data, depth, rng.randint(-rank - 1, rank)), tmp_path,
                             ["OneHot"], f"o{n}")
    assert done > 120


def _ir(kind, data, extra, attrs, version, out_count=1):
    def build():
        ir = IR()
        inputs = [ir.parameter(data, "i64" if kind == "OneHot" else "f32")] + [extra(ir)] if extra else \
            [ir.parameter(data)]
        if kind == "OneHot":
            inputs += [ir.const([1], "f32", shape=[]), ir.const([0], "f32", shape=[])]
        ir.result(ir.op(kind, inputs, [[9]] * out_count, attrs, version=version))
        return ir
    return build


@pytest.mark.parametrize("build,kind,words", [
    (_ir("TopK", "4,6", lambda ir: ir.const([-1], shape=[]), {"axis": "1"}, "opset11", 2), "TopK", "negative"),
    (_ir("TopK", "4,6", lambda ir: ir.const([3], shape=[1]), {"axis": "1"}, "opset11", 2), "TopK", "scalar"),
    (_ir("TopK", "", lambda ir: ir.const([1], shape=[]), {}, "opset11", 2), "TopK", "scalar"),
    (_ir("TopK", "4,6", lambda ir: ir.const([3], shape=[]), {"axis": "1", "index_element_type": "u8"},
         "opset3", 2), "TopK", "i32 or i64"),
    (_ir("TopK", "4,6", lambda ir: ir.const([3], shape=[]), {"axis": "2"}, "opset3", 2), "TopK", "out of the range"),
    (_ir("TopK", "4,6", lambda ir: ir.const([3], shape=[]), {"mode": "bogus"}, "opset3", 2), "TopK", "mode"),
    (_ir("OneHot", "3", lambda ir: ir.const([-2], shape=[]), {"axis": "0"}, "opset1"), "OneHot", "negative"),
    (_ir("OneHot", "3", lambda ir: ir.const([2], shape=[1]), {"axis": "0"}, "opset1"), "OneHot", "scalar"),
    (_ir("OneHot", "3", lambda ir: ir.const([2], shape=[]), {"axis": "2"}, "opset1"), "OneHot", "out of the range"),
    (_ir("NonZero", "2,3", None, {"output_type": "f32"}, "opset3"), "NonZero", "i32 or i64"),
    (_ir("Unique", "2,3", lambda ir: ir.const([2], shape=[]), {}, "opset10", 4), "Unique", "out of the range"),
])
def test_what_the_runtime_refuses(tmp_path, build, kind, words):
    refusal(tmp_path, build, kind, words)


def test_topk_1_refuses_a_u8_k(tmp_path, run):
    ir = IR()
    x = ir.parameter("4,6")
    ir.result(ir.op("TopK", [x, ir.const([3], "u8", shape=[])], [[4, 3], [4, 3]], {"axis": "1"}))
    assert "IRV106" in {f.code for f in run(ir)}


def test_unique_of_an_empty_const_is_refused_without_asking_the_runtime(tmp_path, run):
    # read_model segfaults on it
    ir = IR()
    c = ir.const([], "i32", shape=[0, 3])
    ir.result(ir.op("Unique", [c], [[9], [9], [9], [9]], {}, version="opset10"))
    assert "IRV102" in {f.code for f in run(ir)}


def test_stale_dims_name_the_layers(tmp_path):
    path = opcheck.compare(topk([4, 6], 3, 1), tmp_path, ["TopK"])
    assert opcheck.named(opcheck.mutate(path, "t", 1, 1, 4), "t")
    path = opcheck.compare(onehot([3], 5, -1), tmp_path, ["OneHot"], stem="o")
    assert opcheck.named(opcheck.mutate(path, "o", 0, 1, 4), "o")
