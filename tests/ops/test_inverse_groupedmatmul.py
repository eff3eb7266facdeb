"""Inverse and GroupedMatMul against the runtime: the notes' cases (GroupedMatMul's were
measured for this module: it has no note), random shapes, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import differential, model, param, refusal, shape_text  # noqa: E402

TYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i64": np.int64, "i8": np.int8,
         "f64": np.float64}


def check(built, tmp_path, kind, stem="model"):
    opcheck.compare_types(opcheck.compare(built, tmp_path, [kind], stem=stem), [kind])


def inverse(shape, et="f32", attrs=None):
    x = param(shape, TYPES[et])
    node = NodeFactory("opset14").create("Inverse", [x], attrs or {})
    node.set_friendly_name("m")
    return model(node, [x])


def grouped(shapes, ets=None):
    ets = ets or {}
    params = [param(s, TYPES[ets.get(i, "i32" if i == 2 else "f32")]) for i, s in enumerate(shapes)]
    node = NodeFactory("opset17").create("GroupedMatMul", params, {})
    node.set_friendly_name("m")
    return model(node, params)


@pytest.mark.parametrize("shape,et,attrs", [
    ([3, 3], "f32", None), ([2, 3, 4, 4], "f32", None), ([(1, 3), -1, 5], "f32", None),
    ([-1, (2, 4), (3, 5)], "f32", None), (None, "f32", None), ([3, 3], "f16", {"adjoint": True}),
    ([0, 0], "f64", None), ([-1, -1], "f32", {"adjoint": False}), ([7, (1, 3), -1], "f32", None),
    # only two static dims are compared: these intervals never could be equal
    ([2, (1, 3), (4, 6)], "f32", None), ([(0, 3), 1, (2, 9)], "f32", None), ([4, -1], "f32", None),
])
def test_inverse_cases(tmp_path, shape, et, attrs):
    check(inverse(shape, et, attrs), tmp_path, "Inverse")


@pytest.mark.parametrize("shapes,ets", [
    ([[4, 8, 16], [4, 32, 16]], None), ([[4, 8, 16], [4, 16, 16]], None),
    ([[(2, 6), 8, 16], [4, 32, 16]], None), ([[(2, 6), 8, (1, 16)], [(3, 9), 32, -1]], None),
    ([[-1, -1, -1], [-1, -1, -1]], None), ([[4, 8, 16], [4, 32, 16], [4]], None),
    ([[4, 8, 16], [4, 32, 16], [4, 2]], None), ([[4, 8, 16], [4, 32, 16], None], None),
    ([[10, 16], [4, 32, 16], [4]], None), ([[(1, 10), (1, 16)], [4, 32, (16, 20)], [-1]], None),
    ([[10, 16], [4, 32, 16], [5]], None), ([[10, 16], [4, 32, 16], None], None),
    ([[10, 16], None, [4]], None), ([[10, 16], None], None), ([None, None], None), ([None, [10, 32]], None),
    ([[10, 16], [4, 32, 16], [4]], {0: "f16", 1: "f16"}), ([[10, 16], [4, 32, 16], [4]], {0: "i32", 1: "i32"}),
    ([[10, 16], [4, 32, 16], [4]], {0: "i8", 1: "i8"}), ([[10, 16], [4, 32, 16], [4]], {2: "i64"}),
])
def test_grouped_matmul_cases(tmp_path, shapes, ets):
    check(grouped(shapes, ets), tmp_path, "GroupedMatMul")


def test_dynamic_types_take_the_other_matrix_type(tmp_path):
    a = opset1.parameter([10, 16], ov.Type.dynamic, name="a")
    b = param([4, 32, 16], np.float16)
    c = opset1.parameter([4], ov.Type.dynamic, name="c")
    node = NodeFactory("opset17").create("GroupedMatMul", [a, b, c], {})
    node.set_friendly_name("m")
    check(model(node, [a, b, c]), tmp_path, "GroupedMatMul")


DIMS = (1, 2, 3, 4, 8, -1, (1, 4), (2, 9), (0, 3))


def test_random_shapes_match_the_runtime(tmp_path):
    rng = random.Random(19)
    done = 0
    for n in range(300):
        if n % 3 == 0:
            rank = rng.randint(0, 4)
            shape = [rng.choice(DIMS) for _ in range(rank)]
            if rank >= 2 and rng.random() < 0.7:
                shape[-1] = shape[-2]
            build = lambda: inverse(None if rng.random() < 0.05 else shape)  # noqa: E731
            kind = "Inverse"
        else:
            a = [rng.choice(DIMS) for _ in range(rng.choice([2, 3, 3, 1, 4]))]
            b = [rng.choice(DIMS) for _ in range(rng.choice([3, 3, 2]))]
            if len(a) >= 2 and len(b) == 3 and rng.random() < 0.7:
                b[2] = a[-1]
                if len(a) == 3:
                    b[0] = a[0]
            shapes = [None if rng.random() < 0.05 else a, None if rng.random() < 0.05 else b]
            if rng.random() < 0.6:
                shapes.append(rng.choice([[4], [-1], None, [2, 2], []]))
            build = lambda: grouped(shapes)  # noqa: E731
            kind = "GroupedMatMul"
        done += differential(build, tmp_path, [kind], f"m{n}", True)
    assert done > 110


def _ir(kind, shapes, ets=None, version=None):
    ets = ets or {}

    def build():
        ir = IR()
        params = [ir.parameter(shape_text(s), ets.get(i, "i32" if i == 2 and kind == "GroupedMatMul" else "f32"))
                  for i, s in enumerate(shapes)]
        ir.result(ir.op(kind, params, [[9, 9]], {},
                        version=version or ("opset14" if kind == "Inverse" else "opset17")))
        return ir
    return build


@pytest.mark.parametrize("kind,shapes,ets,words", [
    ("Inverse", [[3, 4]], None, "must be square"), ("Inverse", [[3]], None, "at least a 2-D"),
    ("Inverse", [[]], None, "at least a 2-D"), ("Inverse", [[2, 5, 4]], None, "must be square"),
    ("Inverse", [[3, 3]], {0: "i32"}, "floating-point"), ("Inverse", [[3, 3], [3, 3]], None, "takes 1"),
    ("GroupedMatMul", [[4, 8, 16], [4, 16, 32]], None, "inner dims differ"),
    ("GroupedMatMul", [[(2, 3), 8, 16], [4, 32, 16]], None, "group counts differ"),
    ("GroupedMatMul", [[(5, 6), 8, 16], [4, 32, 16]], None, "group counts differ"),
    ("GroupedMatMul", [[10, 16], [4, 16, 32], [4]], None, "inner dims differ"),
    ("GroupedMatMul", [[10, 16], [4, 32, 16]], None, "needs the offsets"),
    ("GroupedMatMul", [[10, 16], [4, 32, 16], [4, 1]], None, "offsets must be a 1-D"),
    ("GroupedMatMul", [[10, 16], [4, 32, 16], []], None, "offsets must be a 1-D"),
    ("GroupedMatMul", [[16, 10], [10, 32], [4]], None, "only a 2-D or 3-D mat_a"),
    ("GroupedMatMul", [[16, 10, 3, 4], [10, 32, 4]], None, "only a 2-D or 3-D mat_a"),
    ("GroupedMatMul", [[16], [10, 32, 16]], None, "only a 2-D or 3-D mat_a"),
    ("GroupedMatMul", [[4, 8, 16], [4, 32, 16]], {0: "f16"}, "must be one type"),
    ("GroupedMatMul", [[10, 16], [4, 32, 16], [4]], {2: "f32"}, "i32 or i64"),
    ("GroupedMatMul", [[10, 16]], None, "takes 2 or 3"),
])
def test_what_the_runtime_refuses(tmp_path, kind, shapes, ets, words):
    refusal(tmp_path, _ir(kind, shapes, ets), kind, words)


def test_stale_dims_name_the_layers(tmp_path):
    path = opcheck.compare(inverse([2, 3, 3]), tmp_path, ["Inverse"])
    assert opcheck.named(opcheck.mutate(path, "m", 0, 1, 4), "m")
    path = opcheck.compare(grouped([[10, 16], [4, 32, 16], [4]]), tmp_path, ["GroupedMatMul"], stem="g")
    assert opcheck.named(opcheck.mutate(path, "m", 0, 1, 16), "m")
