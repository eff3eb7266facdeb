"""GroupNormalization and GatherTree against the runtime: the notes' cases, random shapes,
attributes read as the reader reads them, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import differential, model, param, refusal, shape_text  # noqa: E402

TYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "u8": np.uint8, "boolean": np.bool_}


def check(built, tmp_path, kind, stem="model"):
    opcheck.compare_types(opcheck.compare(built, tmp_path, [kind], stem=stem), [kind])


def group_norm(data, scale, bias, groups, ets=None, epsilon=1e-5):
    ets = ets or {}
    params = [param(s, TYPES[ets.get(i, "f32")]) for i, s in enumerate((data, scale, bias))]
    node = NodeFactory("opset12").create("GroupNormalization", params,
                                         {"num_groups": groups, "epsilon": epsilon})
    node.set_friendly_name("g")
    return model(node, params)


def gather_tree(shapes, et="f32", ets=None):
    ets = ets or {}
    params = [param(s, TYPES[ets.get(i, et)]) for i, s in enumerate(shapes)]
    node = NodeFactory("opset1").create("GatherTree", params, {})
    node.set_friendly_name("g")
    return model(node, params)


@pytest.mark.parametrize("data,scale,bias,groups,ets", [
    # GroupNormalization.md
    ([2, 6, 4, 4], [6], [6], 3, None), ([2, 6], [6], [6], 2, None), ([(1, 4), -1, 4, 4], [6], [-1], 3, None),
    ([2, -1, 4], [(5, 8)], [(6, 9)], 3, None), ([2, (5, 7), 4], [6], [6], 4, None), (None, [6], [6], 3, None),
    # more
    ([2, 6, 4], [6], [6], 6, {0: "i32", 1: "i32", 2: "i32"}), ([2, 6, 4], [6], [6], 1, {1: "f16"}),
    ([2, 6], None, None, 3, None), ([-1, -1], [-1], [-1], 7, None),
    ([1, 12, 2, 2, 2], [12], [(1, 12)], 4, None),
])
def test_group_normalization_cases(tmp_path, data, scale, bias, groups, ets):
    check(group_norm(data, scale, bias, groups, ets), tmp_path, "GroupNormalization")


@pytest.mark.parametrize("shapes,et,ets", [
    # GatherTree.md
    ([[5, 2, 3], [5, 2, 3], [2], []], "f32", None), ([[-1, 2, 3], [5, -1, (1, 4)], [(1, 3)], []], "f32", None),
    ([[5, (1, 2), 3], [5, (2, 3), (3, 4)], [(2, 3)], []], "f32", None), ([[5, -1, 3], None, [2], []], "f32", None),
    ([None, [5, 2, 3], [2], []], "f32", None), ([None, None, [2], []], "f32", None),
    # more
    ([[5, 2, 3], [5, 2, 3], [2], []], "i32", None), ([[5, 2, 3], [5, 2, 3], [2], []], "u8", None),
    ([[5, 2, 3], [5, 2, 3], None, None], "f32", None), ([[5, -1, 3], [-1, -1, -1], [-1], []], "f32", None),
    ([[5, 2, 3], [5, 2, 3], [2], []], "f16", None),
])
def test_gather_tree_cases(tmp_path, shapes, et, ets):
    check(gather_tree(shapes, et, ets), tmp_path, "GatherTree")


def test_dynamic_types_merge_into_the_others(tmp_path):
    params = [opset1.parameter([5, 2, 3], ov.Type.dynamic, name="a"), param([5, 2, 3], np.int32),
              opset1.parameter([2], ov.Type.dynamic, name="c"), param([], np.int32)]
    node = NodeFactory("opset1").create("GatherTree", params, {})
    node.set_friendly_name("g")
    check(model(node, params), tmp_path, "GatherTree")


DIMS = (1, 2, 3, 4, 6, 8, -1, (1, 4), (2, 8), (5, 7))


def test_random_shapes_match_the_runtime(tmp_path):
    rng = random.Random(23)
    done = 0
    for n in range(240):
        if n % 2:
            rank = rng.randint(1, 4)
            data = None if rng.random() < 0.05 else [rng.choice(DIMS) for _ in range(rank)]
            channels = data[1] if data and len(data) > 1 and rng.random() < 0.7 else rng.choice(DIMS)
            scale = None if rng.random() < 0.05 else [channels]
            bias = None if rng.random() < 0.05 else [channels if rng.random() < 0.8 else rng.choice(DIMS)]
            build = lambda: group_norm(data, scale, bias, rng.choice([1, 2, 3, 4, 6]))  # noqa: E731
            kind = "GroupNormalization"
        else:
            steps = [rng.choice(DIMS) for _ in range(3)]
            parents = [d if rng.random() < 0.7 else rng.choice(DIMS) for d in steps]
            shapes = [None if rng.random() < 0.1 else steps, None if rng.random() < 0.1 else parents,
                      None if rng.random() < 0.05 else [steps[1] if rng.random() < 0.7 else rng.choice(DIMS)],
                      None if rng.random() < 0.05 else []]
            build = lambda: gather_tree(shapes, rng.choice(["f32", "i32"]))  # noqa: E731
            kind = "GatherTree"
        done += differential(build, tmp_path, [kind], f"m{n}", True)
    assert done > 120


def _ir(kind, shapes, attrs=None, ets=None, version="opset12"):
    ets = ets or {}

    def build():
        ir = IR()
        params = [ir.parameter(shape_text(s), ets.get(i, "f32")) for i, s in enumerate(shapes)]
        ir.result(ir.op(kind, params, [[9]], attrs or {}, version=version))
        return ir
    return build


@pytest.mark.parametrize("shapes,attrs,words", [
    ([[2, 6, 4, 4], [6], [6]], {"num_groups": "4"}, "do not divide into 4"),
    ([[2, 6, 4, 4], [6], [6]], {"num_groups": "0"}, "num_groups 0 must be positive"),
    ([[2, 6, 4, 4], [6], [6]], {}, "it is missing"),
    ([[2, 6, 4, 4], [6], [6]], {"num_groups": "-2"}, "must be positive"),
    ([[2, 6, 4, 4], [5], [6]], {"num_groups": "3"}, "scale [5] does not match"),
    ([[2, 6, 4, 4], [6], [7]], {"num_groups": "3"}, "bias [7] does not match"),
    ([[2, 6, 4, 4], [6, 1], [6]], {"num_groups": "3"}, "must be 1-D"),
    ([[2], [2], [2]], {"num_groups": "1"}, "rank 2 or more"),
    ([[2, 4, 3], [4], [4]], {"num_groups": "8"}, "exceeds the 4 channels"),
    ([[2, 0, 3], [0], [0]], {"num_groups": "2"}, "exceeds the 0 channels"),
    ([[2, -1, 3], [(1, 3)], [(4, 6)]], {"num_groups": "1"}, "must match"),
])
def test_what_the_runtime_refuses_of_group_normalization(tmp_path, shapes, attrs, words):
    refusal(tmp_path, _ir("GroupNormalization", shapes, attrs), "GroupNormalization", words)


@pytest.mark.parametrize("shapes,ets,words", [
    ([[5, 2, 3], [5, 2, 4], [2], []], None, "must be one shape of rank 3"),
    ([[5, 2], [5, 2], [2], []], None, "rank 3"), ([[5, 2, 3], [5, 2, 3], [3], []], None, "for a batch of 2"),
    ([[5, 2, 3], [5, 2, 3], [2], [1]], None, "end_token [1] must be a scalar"),
    ([[5, 2, 3], [5, 2, 3], [], []], None, "max_seq_len [] must be 1-D"),
    ([[5, 2, 3], [5, 2, 3], [2], []], {1: "i32"}, "the same element type"),
    ([[5, 2, 3], [5, 2, 3], [2], []], {0: "boolean", 1: "boolean", 2: "boolean", 3: "boolean"}, "not boolean"),
    ([[5, 2, 3], [5, 2, 3], [2]], None, "takes 4"),
])
def test_what_the_runtime_refuses_of_gather_tree(tmp_path, shapes, ets, words):
    refusal(tmp_path, _ir("GatherTree", shapes, ets=ets, version="opset1"), "GatherTree", words)


def test_stale_dims_name_the_layers(tmp_path):
    path = opcheck.compare(group_norm([2, 6, 4, 4], [6], [6], 3), tmp_path, ["GroupNormalization"])
    assert opcheck.named(opcheck.mutate(path, "g", 0, 1, 5), "g")
    path = opcheck.compare(gather_tree([[5, 2, 3], [5, -1, 3], [2], []]), tmp_path, ["GatherTree"], stem="t")
    assert opcheck.named(opcheck.mutate(path, "g", 0, 2, 4), "g")
