"""MatMul against the runtime: the note's cases, random ones, refusals, stale dims, and the
output shapes of numpy.matmul."""
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from irvalidate.ops.support.spec import OpError, Value  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import (  # noqa: E402
    dims,
    errors_naming as _errors,
    expect_refusal,
    infer,
    model,
    param,
)


def matmul(a, b, ta=False, tb=False, et_a=np.float32, et_b=np.float32):
    pa, pb = param(a, et_a, "a"), param(b, et_b, "b")
    return model([opset1.matmul(pa, pb, ta, tb, name="op")], [pa, pb])


@pytest.mark.parametrize("a,b,ta,tb", [
    ([2, 3], [3, 4], False, False), ([2, 3], [4, 3], False, True), ([3, 2], [3, 4], True, False),
    ([3], [3], False, False), ([3], [3, 4], False, False), ([2, 3], [3], False, False),
    ([3, 4], [3], True, False), ([5, 2, 3], [3, 4], False, False),
    ([1, 5, 2, 3], [7, 1, 3, 4], False, False), ([3], [5, 3, 4], False, False),
    ([3, 1, 2, 3], [1, 4, 3, 4], False, False), ([-1, 2, 3], [6, 3, 4], False, False),
    ([(1, 4), 2, 3], [6, 3, 4], False, False), ([(1, 8), 2, 3], [(2, 6), 3, 4], False, False),
    ([(2, 4), 2, 3], [(5, 10), 3, 4], False, False), ([(2, 8), 2, 3], [10, 3, 4], False, False),
    ([(3, 5), 2, 3], [(1, 2), 3, 4], False, False), ([1, 2, 3], [-1, 3, 4], False, False),
    ([2, (2, 3)], [(4, 8), 4], False, False), ([1, 2, 3], [0, 3, 4], False, False),
    (None, [3, 4], False, False), ([3], None, False, False), ([3], [3], True, True),
    ([2, (1, 5), -1], [-1, (2, 9)], True, True), ([4, 1, 3, 2], [3, 5], True, False),
])
def test_the_runtime_cases(tmp_path, a, b, ta, tb):
    opcheck.compare(matmul(a, b, ta, tb), tmp_path, ["MatMul"])


def test_element_types(tmp_path):
    pa, pb = param([2, 3], ov.Type.dynamic, "a"), param([3, 4], np.float16, "b")
    opcheck.compare(model([opset1.matmul(pa, pb, False, False)], [pa, pb]), tmp_path, ["MatMul"])
    opcheck.compare(matmul([2, 3], [3, 4], et_a=bool, et_b=bool), tmp_path, ["MatMul"], stem="b")


def _random_pair(rng):
    """Shapes the runtime accepts: a K dim both share, batch dims that broadcast."""
    k = rng.choice([1, 3, 4, -1, (2, 5)])
    batch = [rng.choice([1, 2, 3, -1, (1, 4)]) for _ in range(rng.randint(0, 3))]

    def side(rows_first):
        rank = rng.choice([1, 2, 2, 3])
        if rank == 1:
            return [k], False
        other = rng.choice([1, 2, 5, -1, (2, 6)])
        mine = [b if rng.random() < 0.6 else rng.choice([1, -1, (0, 3)])
                for b in batch[len(batch) - rng.randint(0, len(batch)):]]
        swap = rng.random() < 0.4
        matrix = [other, k] if rows_first else [k, other]
        return mine + (matrix[::-1] if swap else matrix), swap
    a, ta = side(True)
    b, tb = side(False)
    return a, b, ta, tb


def test_random_products_match_the_runtime(tmp_path):
    rng = random.Random(3)
    for n in range(120):
        a, b, ta, tb = _random_pair(rng)
        if rng.random() < 0.05:
            a = None
        opcheck.compare(matmul(a, b, ta, tb), tmp_path, ["MatMul"], stem=f"m{n}")



@pytest.mark.parametrize("a,b,words", [
    ("2,3", "2,3", "has 2 rows where A [2,3] has 3 columns"),
    ("3", "4", "has 4 rows"),
    ("5,2,3", "6,3,4", "batch dim 0"),
    ("0,2,3", "5,3,4", "batch dim 0"),
    ("", "3", "A is a scalar"),
])
def test_what_the_runtime_refuses(tmp_path, a, b, words):
    ir = IR()
    ir.result(ir.op("MatMul", [ir.parameter(a), ir.parameter(b)], [[2, 2]], name="op"))
    expect_refusal(ir, tmp_path, words)


def test_mixed_element_types_are_refused(tmp_path):
    assert opcheck.refused(lambda: matmul([2, 3], [3, 4], et_a=np.float16), tmp_path)
    ir = IR()
    ir.result(ir.op("MatMul", [ir.parameter("2,3", "f16"), ir.parameter("3,4")], [[2, 4]],
                    name="op"))
    assert any(f.code == "IRV106" for f in _errors(ir.write(tmp_path)))


def test_wrong_input_count(tmp_path):
    ir = IR()
    ps = [ir.parameter("2,3"), ir.parameter("3,4"), ir.parameter("4")]
    ir.result(ir.op("MatMul", ps, [[2, 4]], name="op"))
    expect_refusal(ir, tmp_path, code="IRV105")


def test_k_intervals_that_cannot_meet_are_a_divergence(tmp_path):
    path = opcheck.compare(matmul([2, (2, 3)], [(4, 8), 4]), tmp_path, ["MatMul"])
    assert any(f.code == "IRV107" for f in validate_file(str(path)).findings)


def test_transpose_is_read_as_the_runtime_reads_it(run):
    ir = IR()
    ir.result(ir.op("MatMul", [ir.parameter("2,3"), ir.parameter("3,4")], [[2, 4]],
                    {"transpose_a": "maybe"}, name="op"))  # not a bool: the default stays
    assert not [f for f in run(ir) if f.level == "error"]


def test_a_stale_declared_dim_names_the_matmul(tmp_path):
    path = opcheck.compare(matmul([5, 2, 3], [3, 4]), tmp_path, ["MatMul"])
    for axis, value in ((0, 4), (1, 3), (2, 5)):
        assert opcheck.named(opcheck.mutate(path, "op", 0, axis, value), "op")


@settings(max_examples=300, deadline=None)
@given(batch=st.lists(st.sampled_from([1, 2, 3]), max_size=3), data=st.data())
def test_static_shapes_are_numpy_matmul_s(batch, data):
    k = data.draw(st.integers(1, 4))
    a = data.draw(st.lists(st.sampled_from([1, 2, 3]), max_size=3)) + [data.draw(st.integers(1, 3)), k]
    b = [d if data.draw(st.booleans()) else 1 for d in batch] + [k, data.draw(st.integers(1, 3))]
    if data.draw(st.booleans()):
        a = a[-1:]
    if data.draw(st.booleans()):
        b = b[-2:-1]
    result, _ = infer("MatMul", "opset1", [Value(dims(a), "f32"), Value(dims(b), "f32")])
    try:
        expected = np.matmul(np.zeros(a), np.zeros(b)).shape
    except ValueError:
        assert isinstance(result, OpError)
        return
    assert result.shapes[0] == dims(list(expected))
