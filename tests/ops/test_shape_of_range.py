"""ShapeOf's own shape and Range (v0, v4) against the runtime: the notes' cases, computed and
unknown values, random ranges, refusals and stale dims."""
import random

import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1, opset3, opset4  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import differential, model, param, refusal, scalar_input  # noqa: E402


@pytest.mark.parametrize("data", [[2, 3], [], None, [(1, 8), -1]])
@pytest.mark.parametrize("version,et", [(1, None), (3, "i64"), (3, "i32")])
def test_shape_of(tmp_path, data, version, et):
    x = param(data)
    node = opset1.shape_of(x) if version == 1 else opset3.shape_of(x, et)
    node.set_friendly_name("s")
    opcheck.compare(model(node, [x]), tmp_path, ["ShapeOf"])


@pytest.mark.parametrize("text,words", [("f32", "i32 or i64"), (None, "missing"), ("bogus", "element type")])
def test_shape_of_3_refuses_other_output_types(tmp_path, text, words):
    def build():
        ir = IR()
        x = ir.parameter("2,3")
        ir.result(ir.op("ShapeOf", [x], [[2]], {} if text is None else {"output_type": text},
                        version="opset3", out_precision="I64"))
        return ir
    refusal(tmp_path, build, "ShapeOf", words)


def test_shape_of_1_ignores_output_type(tmp_path, run):
    ir = IR()
    x = ir.parameter("2,3")
    ir.result(ir.op("ShapeOf", [x], [[2]], {"output_type": "i32"}, out_precision="I64"))
    assert not [f for f in run(ir) if f.level == "error"]


def range_model(start, stop, step, version=4, output_type="i64"):
    params = []
    inputs = [scalar_input(v, params) for v in (start, stop, step)]
    node = (opset1.range(*inputs) if version == 1 else opset4.range(*inputs, output_type))
    node.set_friendly_name("r")
    return model(node, params)


@pytest.mark.parametrize("version", [1, 4])
@pytest.mark.parametrize("start,stop,step", [
    (0, 5, 1), (5, 0, -1), (0, 5, 2), (0, -5, 1), ("unknown", 5, 1), (0, ("c", 6), 1),
    (0, ("c", (2, 6)), 1), (3, 3, 1), (-7, 20, 3), (10, -10, -3),
])
def test_range_runtime_cases(tmp_path, start, stop, step, version):
    opcheck.compare(range_model(start, stop, step, version), tmp_path, ["Range"])


@pytest.mark.parametrize("output_type", ["i32", "f32", "f16"])
def test_range_4_output_types(tmp_path, output_type):
    opcheck.compare(range_model(0, 5, 1, 4, output_type), tmp_path, ["Range"])


def test_range_4_without_output_type_is_dynamic(tmp_path, run):
    ir = IR()
    ir.result(ir.op("Range", [ir.const([0], shape=[]), ir.const([5], shape=[]), ir.const([1], shape=[])],
                    [[5]], version="opset4"))
    assert not [f for f in run(ir) if f.level == "error"]


def test_random_ranges_match_the_runtime(tmp_path):
    rng = random.Random(2)
    done = 0
    for n in range(60):
        start, stop = rng.randint(-50, 50), rng.randint(-50, 50)
        step = rng.choice([-7, -3, -1, 1, 2, 5])
        done += differential(lambda: range_model(start, stop, step, rng.choice([1, 4])),
                             tmp_path, ["Range"], f"r{n}")
    assert done == 60


@pytest.mark.parametrize("values,shapes,version,words", [
    ([0, 5, 0], {}, "opset4", "step is 0"), ([0, 5, 0], {}, "opset1", "step is 0"),
    ([0, 5, 1], {0: [1]}, "opset4", "must be a scalar"),
])
def test_range_refusals(tmp_path, values, shapes, version, words):
    def build():
        ir = IR()
        inputs = [ir.const([v], shape=shapes.get(i, [])) for i, v in enumerate(values)]
        ir.result(ir.op("Range", inputs, [[5]], {"output_type": "i64"} if version == "opset4" else {},
                        version=version))
        return ir
    refusal(tmp_path, build, "Range", words)


def test_range_1_with_mixed_types_is_a_type_error(tmp_path, run):
    ir = IR()
    inputs = [ir.const([0], shape=[]), ir.const([5], "i32", shape=[]), ir.const([1], shape=[])]
    ir.result(ir.op("Range", inputs, [[5]]))
    assert "IRV106" in {f.code for f in run(ir)}


def test_stale_dims_name_shape_of_and_range(tmp_path):
    x = param([2, 3])
    s = opset3.shape_of(x, "i64")
    s.set_friendly_name("s")
    path = opcheck.compare(model(s, [x]), tmp_path, ["ShapeOf"])
    assert opcheck.named(opcheck.mutate(path, "s", 0, 0, 3), "s")
    path = opcheck.compare(range_model(0, 5, 1), tmp_path, ["Range"], stem="r")
    assert opcheck.named(opcheck.mutate(path, "r", 0, 0, 4), "r")
