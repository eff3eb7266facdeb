"""HardSigmoid against the runtime: the note's cases, random ones, refusals and a stale dim."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import const, create, expect_refusal, model, param, random_shape  # noqa: E402


def hard_sigmoid(data, alpha=(), beta=(), et=np.float32):
    """alpha/beta: a tuple is a Const of that shape, a list or None a Parameter of that shape."""
    x = param(data, et, "x")
    params, inputs = [x], [x]
    for spec in (alpha, beta):
        if isinstance(spec, tuple):
            inputs.append(const(np.full(spec, 0.5), et))
        else:
            p = param(spec, et)
            params.append(p)
            inputs.append(p)
    return model([create("opset1", "HardSigmoid", inputs, name="op")], params)


@pytest.mark.parametrize("data,alpha,beta", [
    ([1, 3, 10, 10], (), ()), ([(1, 2), -1], (), ()), (None, (), ()), ([2, 3], [-1], None),
    ([2, 3], [(1, 2)], []), ([], (), ()),
])
def test_the_runtime_cases(tmp_path, data, alpha, beta):
    opcheck.compare(hard_sigmoid(data, alpha, beta), tmp_path, ["HardSigmoid"])


@pytest.mark.parametrize("et", [np.int32, bool, np.float16])
def test_any_element_type_shared_by_the_three(tmp_path, et):
    opcheck.compare(hard_sigmoid([2, 3], et=et), tmp_path, ["HardSigmoid"])


def test_random_shapes_match_the_runtime(tmp_path):
    rng = random.Random(17)
    for n in range(30):
        opcheck.compare(hard_sigmoid(random_shape(rng, 0, 5)), tmp_path, ["HardSigmoid"],
                        stem=f"m{n}")



@pytest.mark.parametrize("alpha,beta,words", [
    (("1", "f32"), ("", "f32"), "alpha (input 1) must be a scalar"),
    (("", "f32"), ("2", "f32"), "beta (input 2) must be a scalar"),
    (("", "f16"), ("", "f32"), "element type"),
    (("", "f32"), ("", "i32"), "element type"),
])
def test_what_the_runtime_refuses(tmp_path, alpha, beta, words):
    ir = IR()
    inputs = [ir.parameter("2,3"), ir.parameter(*alpha), ir.parameter(*beta)]
    ir.result(ir.op("HardSigmoid", inputs, [[2, 3]], name="op"))
    expect_refusal(ir, tmp_path, words)


def test_wrong_input_count_and_stale_dims(tmp_path):
    ir = IR()
    ir.result(ir.op("HardSigmoid", [ir.parameter("2,3"), ir.const([1], "f32", shape=[])],
                    [[2, 3]], name="op"))
    expect_refusal(ir, tmp_path, code="IRV105")
    path = opcheck.compare(hard_sigmoid([2, 3]), tmp_path, ["HardSigmoid"], stem="ok")
    assert opcheck.named(opcheck.mutate(path, "op", 0, 1, 4), "op")
