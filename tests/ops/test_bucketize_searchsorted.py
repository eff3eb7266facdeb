"""Bucketize and SearchSorted against the runtime: the notes' cases, random ones, refusals and
stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import (  # noqa: E402
    create,
    errors_naming as _errors,
    expect_refusal,
    model,
    param,
    random_shape,
)


def two(opset, kind, a, b, attrs, a_et=np.float32, b_et=np.float32):
    x, y = param(a, a_et, "x"), param(b, b_et, "y")
    return model([create(opset, kind, [x, y], attrs, name="op")], [x, y])


@pytest.mark.parametrize("data,buckets,attrs,ets", [
    ([2, 3], [4], {"output_type": "i64"}, None), ([], [4], {"output_type": "i64"}, None),
    ([(1, 4), -1], [-1], {"output_type": "i64"}, None), (None, [4], {"output_type": "i64"}, None),
    ([2, 3], None, {"output_type": "i64"}, None),
    ([2, 3], [4], {"output_type": "i64"}, (np.float16, np.int64)),
    ([2, 3], [4], {"output_type": "i32", "with_right_bound": False}, None),
])
def test_bucketize(tmp_path, data, buckets, attrs, ets):
    ets = ets or (np.float32, np.float32)
    opcheck.compare(two("opset3", "Bucketize", data, buckets, attrs, *ets), tmp_path, ["Bucketize"])


@pytest.mark.parametrize("ordered,values,attrs", [
    ([4], [2, 3], {}), ([4], [], {}), ([2, 4], [2, 3], {}), ([2, 3, 4], [2, 3, 7], {}),
    ([2, (1, 4)], [(1, 3), 5], {}), ([(1, 3), 4], [2, (2, 6)], {}), (None, [2, 3], {}),
    ([2, 4], None, {}), ([4], None, {}), ([-1], [2, -1], {}),
    ([4], [2, 3], {"output_type": "i32", "right_mode": True}),
])
def test_search_sorted(tmp_path, ordered, values, attrs):
    opcheck.compare(two("opset15", "SearchSorted", ordered, values, attrs), tmp_path,
                    ["SearchSorted"])


def test_search_sorted_types(tmp_path):
    for n, et in enumerate((np.int32, bool)):
        opcheck.compare(two("opset15", "SearchSorted", [4], [2, 3], {}, et, et), tmp_path,
                        ["SearchSorted"], stem=f"m{n}")


def test_random_cases_match_the_runtime(tmp_path):
    rng = random.Random(81)
    for n in range(60):
        values = random_shape(rng, 0, 4)
        if rng.random() < 0.5:
            built = two("opset3", "Bucketize", values, rng.choice([[4], [-1], None]),
                        {"output_type": rng.choice(["i32", "i64"])})
        else:
            if values and rng.random() < 0.6:
                ordered = [d if rng.random() < 0.7 else -1 for d in values[:-1]] + [rng.randint(1, 5)]
            else:
                ordered = rng.choice([[4], [-1], None])
            built = two("opset15", "SearchSorted", ordered, values, {})
        opcheck.compare(built, tmp_path, ["Bucketize", "SearchSorted"], stem=f"m{n}")



@pytest.mark.parametrize("kind,version,a,b,attrs,words", [
    ("Bucketize", "opset3", ("2,3", "f32"), ("2,2", "f32"), {"output_type": "i64"}, "must be 1-D"),
    ("Bucketize", "opset3", ("2,3", "f32"), ("", "f32"), {"output_type": "i64"}, "must be 1-D"),
    ("Bucketize", "opset3", ("2,3", "boolean"), ("4", "f32"), {"output_type": "i64"}, "numeric"),
    ("Bucketize", "opset3", ("2,3", "f32"), ("4", "boolean"), {"output_type": "i64"}, "numeric"),
    ("Bucketize", "opset3", ("2,3", "f32"), ("4", "f32"), {"output_type": "u8"}, "i32 or i64"),
    ("Bucketize", "opset3", ("2,3", "f32"), ("4", "f32"), {}, "is missing"),
    ("SearchSorted", "opset15", ("2,4", "f32"), ("3,3", "f32"), {}, "dim 0 differs"),
    ("SearchSorted", "opset15", ("2,4", "f32"), ("3..4,5", "f32"), {}, "dim 0 differs"),
    ("SearchSorted", "opset15", ("2,4", "f32"), ("2", "f32"), {}, "must have the rank"),
    ("SearchSorted", "opset15", ("", "f32"), ("3", "f32"), {}, "scalar"),
    ("SearchSorted", "opset15", ("4", "f32"), ("2,3", "i32"), {}, "same element type"),
    ("SearchSorted", "opset15", ("4", "f32"), ("2,3", "f32"), {"output_type": "u8"}, "i32 or i64"),
])
def test_what_the_runtime_refuses(tmp_path, kind, version, a, b, attrs, words):
    ir = IR()
    ir.result(ir.op(kind, [ir.parameter(*a), ir.parameter(*b)], [[2, 3]], attrs, version=version,
                    name="op"))
    expect_refusal(ir, tmp_path, words)


def test_stale_dims_and_output_types(tmp_path):
    for n, built in enumerate([two("opset3", "Bucketize", [2, 3], [4], {"output_type": "i32"}),
                               two("opset15", "SearchSorted", [2, 4], [2, 3], {})]):
        path = opcheck.compare(built, tmp_path, ["Bucketize", "SearchSorted"], stem=f"m{n}")
        assert opcheck.named(opcheck.mutate(path, "op", 0, 1, 7), "op")
    ir = IR()  # a declared precision other than output_type
    ir.result(ir.op("Bucketize", [ir.parameter("2,3"), ir.parameter("4")], [[2, 3]],
                    {"output_type": "i32"}, version="opset3", out_precision="I64", name="op"))
    assert any(f.code == "IRV106" for f in _errors(ir.write(tmp_path)))
