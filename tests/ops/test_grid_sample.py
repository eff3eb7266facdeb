"""GridSample against the runtime: the note's cases, random ones, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import create, expect_refusal, model, param, random_dim  # noqa: E402

BASE = {"align_corners": False, "mode": "bilinear", "padding_mode": "zeros"}


def grid_sample(data, grid, attrs=BASE, data_et=np.float32, grid_et=np.float32):
    x, g = param(data, data_et, "x"), param(grid, grid_et, "g")
    return model([create("opset9", "GridSample", [x, g], attrs, name="op")], [x, g])


@pytest.mark.parametrize("data,grid", [
    ([2, 3, 10, 10], [2, 5, 6, 2]), ([-1, 3, 10, 10], [2, 5, 6, 2]),
    ([(1, 4), 3, 10, 10], [(2, 8), -1, 6, -1]), (None, [2, 5, 6, 2]), ([2, 3, 10, 10], None),
    (None, None), ([2, 3, 10, 10], [2, -1, -1, (1, 3)]),
])
def test_the_runtime_cases(tmp_path, data, grid):
    opcheck.compare(grid_sample(data, grid), tmp_path, ["GridSample"])


def test_attributes_and_types(tmp_path):
    for n, (attrs, data_et, grid_et) in enumerate([
            ({"align_corners": True, "mode": "bicubic", "padding_mode": "reflection"},
             np.float32, np.float32),
            ({"mode": "nearest", "padding_mode": "border"}, np.int32, np.float16),
            ({}, np.float32, ov.Type.bf16), ({}, np.float32, ov.Type.dynamic)]):
        opcheck.compare(grid_sample([2, 3, 10, 10], [2, 5, 6, 2], attrs, data_et, grid_et),
                        tmp_path, ["GridSample"], stem=f"m{n}")


def test_random_cases_match_the_runtime(tmp_path):
    rng = random.Random(51)
    for n in range(50):
        batch = rng.choice([1, 2, -1, (1, 3)])
        data = [batch if rng.random() < 0.7 else -1] + [random_dim(rng) for _ in range(3)]
        grid = [batch if rng.random() < 0.7 else -1, random_dim(rng), random_dim(rng),
                rng.choice([2, 2, -1, (1, 3)])]
        opcheck.compare(grid_sample(None if rng.random() < 0.1 else data,
                                    None if rng.random() < 0.1 else grid),
                        tmp_path, ["GridSample"], stem=f"m{n}")



@pytest.mark.parametrize("data,grid,attrs,grid_et,words", [
    ("2,3,10,10", "3,5,6,2", {}, "f32", "batch dims differ"),
    ("2,3,10,10", "2,5,6,3", {}, "f32", "must end in 2"),
    ("2,3,10", "2,5,6,2", {}, "f32", "rank 4"),
    ("2,3,10", "...", {}, "f32", "rank 4"),
    ("2,3,10,10", "2,5,6,2", {}, "i32", "floating point"),
    ("2,3,10,10", "2,5,6,2", {"mode": "linear"}, "f32", "mode"),
    ("2,3,10,10", "2,5,6,2", {"padding_mode": "wrap"}, "f32", "padding_mode"),
])
def test_what_the_runtime_refuses(tmp_path, data, grid, attrs, grid_et, words):
    ir = IR()
    ps = [ir.parameter(data), ir.parameter(grid, grid_et)]
    ir.result(ir.op("GridSample", ps, [[2, 3, 5, 6]], attrs, version="opset9", name="op"))
    expect_refusal(ir, tmp_path, words)


def test_wrong_input_count_and_stale_dims(tmp_path):
    ir = IR()
    ir.result(ir.op("GridSample", [ir.parameter("2,3,10,10")], [[2, 3, 5, 6]], version="opset9",
                    name="op"))
    expect_refusal(ir, tmp_path, code="IRV105")
    path = opcheck.compare(grid_sample([2, 3, 10, 10], [2, 5, 6, 2]), tmp_path, ["GridSample"],
                           stem="ok")
    for axis, value in ((1, 4), (2, 10), (3, 10)):
        assert opcheck.named(opcheck.mutate(path, "op", 0, axis, value), "op")
