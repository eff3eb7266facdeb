"""ScaledDotProductAttention against the runtime: the note's cases, random ones, refusals and
stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import (  # noqa: E402
    create,
    expect_refusal,
    model,
    param,
    random_dim,
)

Q, K, V = [2, 8, 10, 64], [2, 8, 12, 64], [2, 8, 12, 32]


def sdpa(shapes, causal=False, types=None):
    types = types or [np.float32] * len(shapes)
    ps = [param(s, et) for s, et in zip(shapes, types)]
    return model([create("opset13", "ScaledDotProductAttention", ps, {"causal": causal},
                         name="op")], ps)


@pytest.mark.parametrize("shapes,causal", [
    ([Q, K, V], False), ([[1, 10, 64], [1, 12, 64], [1, 12, 32]], False),
    ([Q, [1, 8, 12, 64], [2, 1, 12, 32]], False), ([[8, 10, 64], [3, 8, 12, 64], [8, 12, 32]], False),
    ([[2, 8, (5, 20), 64], [2, 8, (10, 14), (32, 64)], [2, 8, (12, 16), 32]], False),
    ([[(1, 4), -1, -1, -1], [(2, 8), 8, 12, 64], [-1, -1, -1, 32]], False),
    ([None, K, V], False), ([Q, K, None], False), ([Q, None, V], False),
    ([[2, 8, -1, 64], K, V, [10, 12]], False), ([[2, 8, -1, 64], K, V, [1, 12]], False),
    ([[2, 8, (5, 20), 64], K, V, [(8, 30), 12]], False), ([Q, K, V, [3, 2, 8, 10, 12]], False),
    ([Q, K, V, []], False), ([Q, K, V, None], False), ([Q, K, V, [11, 12]], True),
    ([Q, K, V, [10, 12], []], False), ([Q, K, V, [10, 12], [1]], False),
    ([Q, K, V, [10, 12], [-1]], False), ([Q, K, V, [10, 12], [(1, 3)]], False),
    ([Q, K, V, [10, 12], [], [2, 8, 10, 1]], False), ([Q, K, V, [10, 12], [], [1, 1, 1, 1]], False),
    ([Q, K, V, [10, 12], [], [2, 8, (9, 11), 1]], False),
    ([Q, K, V, [10, 12], [2], [2, 8, 10, 1]], False),  # scale unchecked with 6 inputs
    ([Q, K, V, [10, 12], [2], [2, 8, 10, 5], [1]], False),  # nothing checked past 6
    ([[1, 10, 64], [2, 12, 64], [2, 12, 32], [10, 12], [], [3, 10, 1]], False),
    ([[1, 10, 64], [1, -1, 64], [1, (1, 12), 32], [10, 14]], False),
    ([[1, (2, 20), 64], [1, 12, 64], [1, 12, 32], [(1, 5), 12]], False),
    ([None, K, V, [10, 12], [], [1, 10, 5]], False),
])
def test_the_runtime_cases(tmp_path, shapes, causal):
    opcheck.compare(sdpa(shapes, causal), tmp_path, ["ScaledDotProductAttention"])


def test_element_types(tmp_path):
    d = ov.Type.dynamic
    for n, (types, causal) in enumerate([
            ([np.float16] * 3, False), ([d, np.float16, np.float16], False),
            ([np.float32] * 3 + [bool], False), ([np.float32] * 3 + [np.uint8], True),
            ([np.float32] * 3 + [np.float16], True), ([d] * 3, False),
            ([ov.Type.bf16] * 4, False)]):
        shapes = [Q, K, V, [10, 12]][:len(types)]
        opcheck.compare(sdpa(shapes, causal, types), tmp_path, ["ScaledDotProductAttention"],
                        stem=f"m{n}")


def test_random_cases_match_the_runtime(tmp_path):
    rng = random.Random(21)
    for n in range(80):
        batch = [rng.choice([1, 2, 3, -1, (1, 4)]) for _ in range(rng.randint(1, 3))]
        length, e, s, ev = (rng.choice([1, 4, 6, -1, (2, 9)]) for _ in range(4))

        def prefix():
            return [b if rng.random() < 0.7 else rng.choice([1, -1])
                    for b in batch[len(batch) - rng.randint(1, len(batch)):]]
        q = batch + [length, e]
        k = prefix() + [s, e if rng.random() < 0.7 else -1]
        v = prefix() + [s if rng.random() < 0.7 else -1, ev]
        shapes = [q if rng.random() > 0.05 else None, k, v]
        extra = rng.randint(0, 3)
        if extra:
            mask = rng.choice([[length, s], [1, s], [length, 1], [], prefix() + [length, s]])
            shapes.append(mask)
        if extra > 1:
            shapes.append(rng.choice([[], [1]]))
        if extra > 2:
            shapes.append([rng.choice([d, 1]) for d in q[:-1]] + [1])
        shapes = [[random_dim(rng) if rng.random() < 0.1 else d for d in s]
                  if s is not None and rng.random() < 0.2 and i > 2 else s
                  for i, s in enumerate(shapes)]
        try:
            built = sdpa(shapes, rng.random() < 0.3)
        except RuntimeError:
            continue  # a combination the runtime refuses: the refusal tests cover those
        opcheck.compare(built, tmp_path, ["ScaledDotProductAttention"], stem=f"m{n}")



@pytest.mark.parametrize("shapes,attrs,words", [
    (["10,64", "12,64", "12,32"], {}, "query [10,64] must have rank 3"),
    (["2,8,10,64", "2,8,12,63", "2,8,12,32"], {}, "key [2,8,12,63] has last dim 63"),
    (["1,10,64", "1,12,1", "1,12,32"], {}, "has last dim 1"),
    (["2,8,10,64", "2,8,12,64", "2,8,13,32"], {}, "value [2,8,13,32] has rows 13"),
    (["2,8,10,64", "2,8,12,64", "2,8,12,32", "11,12"], {}, "11 rows"),
    (["2,8,10,64", "2,8,12,64", "2,8,12,32", "12"], {}, "rank 2 or more"),
    (["2,8,10,64", "2,8,12,64", "2,8,12,32", "10,12", "2"], {}, "one element"),
    (["2,8,10,64", "2,8,12,64", "2,8,12,32", "10,12", "", "2,8,10,2"], {}, "last dim must be 1"),
    (["2,8,10,64", "2,8,12,64", "2,8,12,32", "10,12", "", "4,8,10,1"], {}, "does not fit"),
    (["2,8,10,64", "2,8,12,64", "2,8,12,32", "10,12", "", "2,8,1"], {}, "query's rank 4"),
    (["2,8,10,64", "2,8,12,64", "2,8,12,32", "10,12", "", "2,8,10,5"], {"causal": "true"},
     "last dim must be 1"),
    (["2,8,10,64", "3,8,12,64", "2,8,12,32"], {}, "does not broadcast"),
])
def test_what_the_runtime_refuses(tmp_path, shapes, attrs, words):
    ir = IR()
    ps = [ir.parameter(s) for s in shapes]
    ir.result(ir.op("ScaledDotProductAttention", ps, [[2, 8, 10, 32]], attrs, version="opset13",
                    name="op"))
    expect_refusal(ir, tmp_path, words)


@pytest.mark.parametrize("types,words", [
    (["f16", "f32", "f32"], "same element type"), (["i32", "i32", "i32"], "floating point"),
    (["f32", "f32", "f32", "u8"], "boolean or floating point"),
    (["f32", "f32", "f32", "f16"], "query's type"),
    (["f32", "f32", "f32", "boolean", "f16"], "same element type"),
])
def test_element_types_the_runtime_refuses(tmp_path, types, words):
    ir = IR()
    shapes = ["2,8,10,64", "2,8,12,64", "2,8,12,32", "10,12", ""]
    ps = [ir.parameter(s, et) for s, et in zip(shapes, types)]
    ir.result(ir.op("ScaledDotProductAttention", ps, [[2, 8, 10, 32]], version="opset13", name="op"))
    expect_refusal(ir, tmp_path, words, code="IRV106")


def test_wrong_input_count_and_stale_dims(tmp_path):
    ir = IR()
    ir.result(ir.op("ScaledDotProductAttention", [ir.parameter("1,10,64"), ir.parameter("1,12,64")],
                    [[1, 10, 64]], version="opset13", name="op"))
    expect_refusal(ir, tmp_path, code="IRV105")
    path = opcheck.compare(sdpa([Q, K, V, [10, 12]]), tmp_path, ["ScaledDotProductAttention"],
                           stem="ok")
    for axis, value in ((0, 3), (2, 12), (3, 64)):
        assert opcheck.named(opcheck.mutate(path, "op", 0, axis, value), "op")
