"""FakeConvert against the runtime: the notes' cases, random scales and shifts, the
destination types, refusals and a stale dim."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import model, param, refusal, shape_text  # noqa: E402

TYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32}


def fake_convert(data, scale, shift=None, attrs=None, ets=None):
    ets = ets or {}
    shapes = [data, scale] + ([] if shift is None else [shift])
    params = [param(s, TYPES[ets.get(i, "f32")]) for i, s in enumerate(shapes)]
    node = NodeFactory("opset13").create("FakeConvert", params, attrs or {})
    node.set_friendly_name("f")
    return model(node, params)


def check(built, tmp_path, stem="model"):
    opcheck.compare_types(opcheck.compare(built, tmp_path, ["FakeConvert"], stem=stem), ["FakeConvert"])


@pytest.mark.parametrize("data,scale,shift,attrs", [
    # FakeConvert.md
    ([2, 3, 4], [1], [1], None), ([2, 3, 4], [], None, None), ([2, 3, 4], [3, 1], [3, 1], None),
    ([(1, 4), -1, 4], [4], [4], None), ([-1, 3, 4], [2, 1, 1], None, None), ([(1, 4), 3, 4], [3, 1, 1], None, None),
    ([2, 3, 4], None, None, None), ([2, 3, 4], None, None, None), (None, [1], [1], None),
    # more
    ([2, 3, 4], [1, -1, 1], [1, 3, 1], None), ([2, 3, 4], [-1], [(1, 5)], None), ([2, 3, 4], [1], None, {"destination_type": "f8e5m2"}),
    ([2, 3, 4], [1], None, {"destination_type": "F8E4M3"}), ([-1, -1], [(1, 3), 5], [-1, -1], None),
    ([(2, 6), 3], [(4, 9), 1], None, None), ([2, 3, 4], [(0, 2), 1, 1], None, None), ([5], [], [], None),
    ([2, 3, 4], [1], None, {"destination_type": "f8e4m3"}), ([2, 3, 4], [3, 1], None, None),
])
def test_the_runtime_cases(tmp_path, data, scale, shift, attrs):
    check(fake_convert(data, scale, shift, attrs), tmp_path)


def test_half_precision_and_a_dynamic_type(tmp_path):
    check(fake_convert([2, 3], [1], [1], ets={0: "f16", 1: "f16", 2: "f16"}), tmp_path, "h")
    x = opset1.parameter([2, 3], ov.Type.bf16, name="x")
    s = opset1.parameter([1], ov.Type.bf16, name="s")
    node = NodeFactory("opset13").create("FakeConvert", [x, s], {})
    node.set_friendly_name("f")
    check(model(node, [x, s]), tmp_path, "b")
    x = opset1.parameter([2, 3], ov.Type.dynamic, name="x")
    node = NodeFactory("opset13").create("FakeConvert", [x, param([1], np.float16)], {})
    node.set_friendly_name("f")
    check(model(node, [x, node.input_value(1).get_node()]), tmp_path, "d")


DIMS = (1, 2, 3, 4, -1, (1, 3), (2, 5), (0, 1))


def test_random_scales_match_the_runtime(tmp_path):
    rng = random.Random(13)
    done = 0
    for n in range(200):
        data = None if rng.random() < 0.05 else [rng.choice(DIMS) for _ in range(rng.randint(0, 4))]
        scale = None if rng.random() < 0.05 else [rng.choice(DIMS) for _ in range(rng.randint(0, 4))]
        shift = None
        if rng.random() < 0.5:
            shift = None if scale is None or rng.random() < 0.1 else [
                d if rng.random() < 0.7 else rng.choice(DIMS) for d in scale]
        try:
            built = fake_convert(data, scale, shift, {"destination_type": rng.choice(["f8e4m3", "f8e5m2"])})
        except RuntimeError:
            continue
        check(built, tmp_path, f"m{n}")
        done += 1
    assert done > 60


def _ir(data, scale, shift=None, attrs=None, ets=None):
    ets = ets or {}

    def build():
        ir = IR()
        shapes = [data, scale] + ([] if shift is None else [shift])
        params = [ir.parameter(shape_text(s), ets.get(i, "f32")) for i, s in enumerate(shapes)]
        ir.result(ir.op("FakeConvert", params, [[9]], attrs or {}, version="opset13"))
        return ir
    return build


@pytest.mark.parametrize("build,words", [
    (_ir([2, 3, 4], [5], [5]), "cannot broadcast"),
    (_ir([2, 3, 4], [1, 2, 3, 4]), "broadcasts only into the data"),
    (_ir([1, 3, 4], [2, 1, 1]), "broadcasts only into the data"),
    (_ir([2, 3, 4], [3, 1], [1]), "does not fit scale"),
    (_ir([2, 3, 4], [1], None, {"destination_type": "f16"}), "destination_type 'f16'"),
    (_ir([2, 3, 4], [1], None, {"destination_type": "f4e2m1"}), "destination_type"),
    (_ir([2, 3, 4], [1], None, None, {0: "f16"}), "the same element type"),
    (_ir([2, 3, 4], [1], None, None, {0: "i32", 1: "i32"}), "bf16, f16 or f32"),
    (_ir([2, 3, 4], [1], None, None, {0: "dynamic", 1: "i32"}), "bf16, f16 or f32"),
    (_ir([2, 3, 4], [1], [1], None, {2: "f16"}), "the same element type"),
])
def test_what_the_runtime_refuses(tmp_path, build, words):
    refusal(tmp_path, build, "FakeConvert", words)


def test_one_input_is_refused(tmp_path):
    def build():
        ir = IR()
        ir.result(ir.op("FakeConvert", [ir.parameter("2,3")], [[2, 3]], {}, version="opset13"))
        return ir
    refusal(tmp_path, build, "FakeConvert", "takes 2 or 3")


def test_a_stale_declared_dim_names_the_layer(tmp_path):
    path = opcheck.compare(fake_convert([-1, 3, 4], [2, 1, 1]), tmp_path, ["FakeConvert"])
    assert opcheck.named(opcheck.mutate(path, "f", 0, 0, 3), "f")
