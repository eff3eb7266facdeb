"""Eye against the runtime: the note's cases (constant, computed and unknown sizes and batch
shapes), random ones, refusals and stale dims."""
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
)


def eye(rows, cols, diag=0, batch=None, output_type="f32"):
    """Each input: an int or list (an i64 Const), a ("param", shape) pair, or a callable
    building a subgraph from a fresh Parameter (returning (node, params))."""
    inputs, params = [], []
    for spec in (rows, cols, diag) + (() if batch is None else (batch,)):
        if callable(spec):
            node, extra = spec()
            inputs.append(node)
            params += extra
        elif isinstance(spec, tuple):
            p = param(spec[1], np.int64)
            inputs.append(p)
            params.append(p)
        else:
            inputs.append(const(spec))
    attrs = {} if output_type is None else {"output_type": output_type}
    if not params:  # a model needs a Parameter: one that feeds nothing here
        params.append(param([1]))
    return model([create("opset9", "Eye", inputs, attrs, name="op")], params)


def first_dim(spec):
    def make():
        y = param(spec)
        return o.squeeze(o.gather(o.shape_of(y), const([0]), const(0)), const(0)), [y]
    return make


def shape_of(spec):
    def make():
        y = param(spec)
        return o.shape_of(y), [y]
    return make


def concat_dim_and_5(spec):
    def make():
        y = param(spec)
        return o.concat([o.gather(o.shape_of(y), const([1]), const(0)), const([5])], 0), [y]
    return make


@pytest.mark.parametrize("rows,cols,diag,batch", [
    (3, 4, 0, None), (3, 4, -10, None), (3, 4, 5, None), ([3], 4, [0], None), (0, 0, 0, None),
    (3, 4, 0, [2]), (3, 4, 0, [2, 5]), (3, 4, 0, []), (3, 4, 0, [2, -1]), (3, 4, 0, [2, -2]),
    (("p", []), 4, 0, None), (("p", [-1]), 4, 0, None), (first_dim([(2, 5)]), 4, 0, None),
    (3, 4, 0, ("p", [2])), (3, 4, 0, ("p", [-1])), (3, 4, 0, shape_of([(2, 3), 4])),
    (3, 4, 0, concat_dim_and_5([2, -1])), (first_dim([-1]), first_dim([(3, -1)]), 0, None),
    (("p", None), 4, ("p", None), None), (3, 4, 0, ("p", None)),
])
def test_the_runtime_cases(tmp_path, rows, cols, diag, batch):
    opcheck.compare(eye(rows, cols, diag, batch), tmp_path, ["Eye"])


@pytest.mark.parametrize("output_type", ["string", "u1", "boolean", "i32", None])
def test_output_types(tmp_path, output_type):
    opcheck.compare(eye(3, 4, 0, None, output_type), tmp_path, ["Eye"])


def test_random_cases_match_the_runtime(tmp_path):
    rng = random.Random(71)
    choices = [lambda: rng.randint(0, 5), lambda: ("p", rng.choice([[], [1], [-1]])),
               lambda: first_dim([rng.choice([2, -1, (1, 4), (2, -1)])])]
    for n in range(40):
        rows, cols = rng.choice(choices)(), rng.choice(choices)()
        batch = rng.choice([None, [rng.randint(1, 3)], [2, -1], ("p", [2]),
                            shape_of([rng.choice([2, (1, 3), -1]), 3])])
        opcheck.compare(eye(rows, cols, rng.randint(-3, 3), batch), tmp_path, ["Eye"],
                        stem=f"m{n}")



@pytest.mark.parametrize("inputs,words", [
    ([([-1], "i64", []), ([4], "i64", []), ([0], "i64", [])], "cannot be negative"),
    ([([3, 4], "i64", [2]), ([4], "i64", []), ([0], "i64", [])], "one element"),
    ([([3], "i64", [1, 1]), ([4], "i64", []), ([0], "i64", [])], "scalar or 1-D"),
    ([([3], "i64", []), ([4], "i64", []), ([0, 1], "i64", [2])], "one element"),
    ([([3], "i64", []), ([4], "i64", []), ([0], "i64", []), ([2], "i64", [])], "1-D tensor"),
    ([([3], "u8", []), ([4], "u8", []), ([0], "u8", [])], "must be i32 or i64"),
    ([([3], "i64", []), ([4], "i64", []), ([0], "i64", []), ([2], "u8", [1])], "must be i32 or i64"),
])
def test_what_the_runtime_refuses(tmp_path, inputs, words):
    ir = IR()
    refs = [ir.const(v, et, shape=s) for v, et, s in inputs]
    ir.result(ir.op("Eye", refs, [[3, 4]], {"output_type": "f32"}, version="opset9", name="op"))
    expect_refusal(ir, tmp_path, words)


def test_a_computed_size_that_can_be_negative_is_refused(tmp_path):
    def negative():
        y = param([(0, 3)])
        return o.subtract(o.squeeze(o.gather(o.shape_of(y), const([0]), const(0)), const(0)),
                          const(1)), [y]
    assert opcheck.refused(lambda: eye(negative, 4), tmp_path)
    ir = IR()
    y = ir.parameter("0..3")
    shape = ir.op("ShapeOf", [y], [[1]], version="opset3", out_precision="I64")
    minus = ir.op("Subtract", [shape, ir.const([1])], [[1]], out_precision="I64")
    ir.result(ir.op("Eye", [minus, ir.const([4], shape=[]), ir.const([0], shape=[])], [[-1, 4]],
                    {"output_type": "f32"}, version="opset9", name="op"))
    found = _errors(ir.write(tmp_path))
    assert found and "can be negative" in found[0].message


def test_wrong_input_count_and_stale_dims(tmp_path):
    ir = IR()
    ir.result(ir.op("Eye", [ir.const([3], shape=[]), ir.const([4], shape=[])], [[3, 4]],
                    {"output_type": "f32"}, version="opset9", name="op"))
    expect_refusal(ir, tmp_path, code="IRV105")
    path = opcheck.compare(eye(3, 4, 0, [2]), tmp_path, ["Eye"], stem="ok")
    for axis, value in ((0, 3), (1, 4), (2, 3)):
        assert opcheck.named(opcheck.mutate(path, "op", 0, axis, value), "op")


def test_sizes_are_not_read_under_a_dynamic_rank(tmp_path):
    """A batch_shape of unknown length gives a dynamic rank, and a negative size passes then."""
    ir = IR()
    inputs = [ir.const([-1], shape=[]), ir.const([3], shape=[]), ir.const([0], shape=[]),
              ir.parameter("?", "i64")]
    ir.result(ir.op("Eye", inputs, [[]], {"output_type": "f32"}, version="opset9", name="op",
                    out_precision="FP32"))
    path = ir.write(tmp_path)
    ov.Core().read_model(str(path))
    assert not _errors(path)
