"""Transpose against the runtime: the note's cases, unknown and computed orders, random
permutations, refusals, a stale dim, and its value through a shape subgraph."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import computed, const, differential, model, param, random_dim, refusal  # noqa: E402


def transpose(arg, order):
    x = param(arg)
    params = [x]
    o = order(params) if callable(order) else const(order, np.uint8 if order == "u8" else np.int64)
    node = opset1.transpose(x, o)
    node.set_friendly_name("t")
    return model(node, params)


def unknown(shape):
    return lambda params: params.append(param(shape, np.int64)) or params[-1]


@pytest.mark.parametrize("arg,order", [
    ([2, 3, 4], [2, 0, 1]), ([2, 3, 4], []), ([(1, 8), -1, 4], [2, 0, 1]), ([], []), ([5], [0]),
    (None, [2, 0, 1]), (None, []), ([2, 3, 4], unknown([3])), ([2, 3, 4], unknown([-1])),
    (None, unknown([3])), ([2, 3, 4], lambda ps: computed([2, 1, 0], params=ps)),
    ([2, 3, 4], lambda ps: computed([(0, 2), 1, 0], params=ps)),
])
def test_the_runtime_cases(tmp_path, arg, order):
    opcheck.compare(transpose(arg, order), tmp_path, ["Transpose"])


def test_an_unsigned_order(tmp_path):
    x = param([2, 3])
    node = opset1.transpose(x, const([1, 0], np.uint8))
    opcheck.compare(model(node, [x]), tmp_path, ["Transpose"])


def test_random_transposes_match_the_runtime(tmp_path):
    rng = random.Random(1)
    done = 0
    for n in range(120):
        rank = rng.randint(0, 5)
        arg = None if rng.random() < 0.05 else [random_dim(rng) for _ in range(rank)]
        order = list(range(rank))
        rng.shuffle(order)
        if rng.random() < 0.1:
            order = []
        done += differential(lambda: transpose(arg, order), tmp_path, ["Transpose"], f"t{n}")
    assert done > 100


def _ir(arg, order, shape=None, et="i64"):
    def build():
        ir = IR()
        x = ir.parameter(arg)
        ir.result(ir.op("Transpose", [x, ir.const(order, et, shape=shape)], [[9]]))
        return ir
    return build


@pytest.mark.parametrize("build,words", [
    (_ir("2,3,4", [-1, 0, 1]), "not a permutation"), (_ir("2,3,4", [0, 0, 1]), "not a permutation"),
    (_ir("2,3,4", [0, 1]), "has rank 3"), (_ir("2,3,4", [2], shape=[]), "1-D"),
])
def test_what_the_runtime_refuses(tmp_path, build, words):
    refusal(tmp_path, build, "Transpose", words)


def test_a_float_order_is_a_type_error(tmp_path, run):
    ir = IR()
    x = ir.parameter("2,3")
    ir.result(ir.op("Transpose", [x, ir.const([1.0, 0.0], "f32")], [[3, 2]]))
    assert "IRV106" in {f.code for f in run(ir)}


def test_a_stale_declared_dim_names_the_transpose(tmp_path):
    path = opcheck.compare(transpose([2, 3, 4], [2, 0, 1]), tmp_path, ["Transpose"])
    assert opcheck.named(opcheck.mutate(path, "t", 0, 0, 2), "t")


def test_a_transposed_shape_value_drives_a_reshape(tmp_path):
    # [[a, b], [c, d]] transposed and flattened: read_model reads the bounds moved
    x = param([(2, 5), 3])
    s = opset1.shape_of(x)
    grid = opset1.reshape(opset1.concat([s, const([7, 1])], 0), const([2, 2]), False)
    flat = opset1.reshape(opset1.transpose(grid, const([1, 0])), const([-1]), False)
    y = param(None)
    r = opset1.reshape(y, flat, False)
    r.set_friendly_name("r")
    path = opcheck.compare(model(r, [x, y]), tmp_path, ["Reshape", "Transpose"])
    assert opcheck.runtime_shapes(path)["r"] == ["[2..5,7,3,1]"]
