"""Reshape against the runtime: the note's cases, computed patterns, random ones, refusals,
a stale dim, and the -1 on intervals against reference maths."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from hypothesis import given, settings, strategies as st  # noqa: E402
from openvino import opset1  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import (  # noqa: E402
    both_ways,
    computed,
    const,
    differential,
    model,
    param,
    random_dim,
    refusal,
    shape_text,
)


def reshape(data, pattern, special_zero):
    x = param(data)
    params = [x]
    p = const(pattern) if isinstance(pattern, list) else pattern(params)
    return model(opset1.reshape(x, p, special_zero, name="r"), params)


@pytest.mark.parametrize("data,pattern,sz", [
    ([2, 3, 4], [6, -1], False), ([2, 3, 4], [0, -1], True), ([2, 3, 4], [0, 0, 0], True),
    ([2, 3, 4], [0, 5], True), ([2, 3, 4], [2, 3, 4, 1, 1], False), ([0, 3], [0, -1], False),
    ([0, 3], [0, -1], True), ([0, 3], [3, -1], False), ([0, -1], [-1], False),
    ([], [1, 1, -1], False), ([(1, 8), 3, 4], [-1, 12], False), ([(1, 8), 3, 4], [-1, 4], False),
    ([(1, 8), 3], [-1, 2], False), ([(2, 8), 3], [-1, 6], False), ([(2, 8), 3], [-1, 5], False),
    ([(2, 8), (3, 5)], [-1], False), ([(0, 8), 4], [16, -1], False), ([(2, 8), 3], [3, -1], False),
    ([(2, 8), 3, 4], [-1, 0], True), ([(2, 8), 4], [4, 5], False), ([-1, 3, 4], [-1, 12], False),
    ([-1, 3, 4], [-1, 5], False), ([2, -1], [4, -1], False), ([-1], [0, -1], True),
    (None, [2, -1], False), (None, [-1], False), (None, [0, -1], True),
    (None, [0, 2, -1], True), (None, [0, 3], False), ([5], [], False) if False else ([1], [1], False),
])
def test_the_runtime_cases(tmp_path, data, pattern, sz):
    opcheck.compare(reshape(data, pattern, sz), tmp_path, ["Reshape"])


def _unknown(length):
    return lambda params: params.append(param([length], np.int64)) or params[-1]


@pytest.mark.parametrize("data,pattern,sz", [
    ([2, 3], _unknown(3), False), ([2, 3], _unknown((2, 4)), False), ([2, 3], _unknown(-1), False),
    ([2, 3], lambda ps: computed([-1, 3, (1, 8)], params=ps), False),
    ([6, 3, 4], lambda ps: computed([(1, 8), -1], params=ps), False),
    ([6, 3, 4], lambda ps: computed([-1 + 0, -1], params=ps) if False else
     computed([-1, (2, 9)], params=ps), False),
    ([-1, 3, 4], lambda ps: computed([(2, 8), 12], params=ps), False),
    (None, lambda ps: computed([(0, 4), -1], params=ps), False),
    ([2, 3, 4], lambda ps: computed([0, (0, 6), -1], params=ps), True),
    ([2, 3, 4], lambda ps: computed([(2, 2), 3, 4], params=ps, et=np.int32), False),
])
def test_computed_and_unknown_patterns(tmp_path, data, pattern, sz):
    opcheck.compare(reshape(data, pattern, sz), tmp_path, ["Reshape"])


def test_a_pattern_whose_bounds_cross_minus_one(tmp_path):
    # ShapeOf(w[0..5])[0] - 1 has bounds (-1, 4): read as ..4; minus 2, (-2, 3): read as ?
    for minus, stem in ((1, "a"), (2, "b")):
        x, w = param([2, 3, 4]), param([(0, 5)])
        first = opset1.subtract(opset1.gather(opset1.shape_of(w), const([0]), const(0)),
                                const([minus]))
        p = opset1.concat([first, const([4])], 0)
        opcheck.compare(model(opset1.reshape(x, p, False, name="r"), [x, w]), tmp_path,
                        ["Reshape"], stem=stem)


def test_random_reshapes_refused_or_not_as_the_runtime(tmp_path):
    """Constant patterns, legal or not: compared when openvino builds them, else refused."""
    rng = random.Random(12)
    compared = 0
    for n in range(160):
        data = [random_dim(rng, (0, 1, 2, 3, 4, 6)) for _ in range(rng.randint(0, 4))]
        sz = rng.random() < 0.4
        pattern = [rng.choice([1, 2, 3, 4, 5, 6, 12, 0, -1, -1, -2]) for _ in range(rng.randint(1, 4))]
        compared += both_ways(lambda: reshape(data, pattern, sz),
                              _ir(shape_text(data), pattern, "true" if sz else "false"),
                              tmp_path, ["Reshape"], f"b{n}")
    assert 40 < compared < 150


def test_random_reshapes_match_the_runtime(tmp_path):
    rng = random.Random(11)
    done = 0
    for n in range(260):
        rank = rng.randint(0, 4)
        data = None if rng.random() < 0.08 else [random_dim(rng, (0, 1, 2, 3, 4, 6)) for _ in range(rank)]
        sz = rng.random() < 0.4
        length = rng.randint(0, 4)
        pattern = [rng.choice([1, 2, 3, 4, 6, 12, 0, -1]) for _ in range(length)]
        if pattern.count(-1) > 1:
            pattern[pattern.index(-1)] = 2
        if rng.random() < 0.3 and length:
            items = [rng.choice([-1, 2, (1, 6), (0, 3), 4]) for _ in range(length)]
            if items.count(-1) > 1:
                items[items.index(-1)] = 3
            done += differential(lambda: reshape(data, lambda ps: computed(items, params=ps), sz),
                                 tmp_path, ["Reshape"], f"m{n}")
        else:
            done += differential(lambda: reshape(data, pattern, sz), tmp_path, ["Reshape"], f"m{n}")
    assert done > 120


def _ir(data, pattern, sz=None, et="i64", pattern_shape=None):
    def build():
        ir = IR()
        x = ir.parameter(data)
        p = ir.const(pattern, et, shape=pattern_shape)
        attrs = {} if sz is None else {"special_zero": sz}
        ir.result(ir.op("Reshape", [x, p], [[9]], attrs))
        return ir
    return build


@pytest.mark.parametrize("build,words", [
    (_ir("2,3,4", [5, -1]), "do not evenly divide"),
    (_ir("2,3,4", [0, -1], "false"), "cannot be inferred"),
    (_ir("2,3,4", [-1, -1]), "more than one -1"),
    (_ir("2,3,4", [-2, 12]), "negative size"),
    (_ir("2,3,4", [0, 0, 0, 0], "true"), "no dim 3 to copy"),
    (_ir("2,3", [5, 5]), "does not hold the 6 elements"),
    (_ir("1", [1], pattern_shape=[]), "1-D"),
    (_ir("2,3", [1, 6], pattern_shape=[1, 2]), "1-D"),
])
def test_what_the_runtime_refuses(tmp_path, build, words):
    refusal(tmp_path, build, "Reshape", words)


def test_a_float_pattern_is_a_type_error(tmp_path, run):
    ir = IR()
    x = ir.parameter("2,3")
    ir.result(ir.op("Reshape", [x, ir.const([6.0], "f32")], [[6]]))
    assert "IRV106" in {f.code for f in run(ir)}


def test_missing_special_zero_is_false(tmp_path, run):
    ir = IR()
    x = ir.parameter("0,3")
    ir.result(ir.op("Reshape", [x, ir.const([0, -1])], [[0, 1]]))
    assert not [f for f in run(ir) if f.level == "error"]


def test_a_stale_declared_dim_names_the_reshape(tmp_path):
    path = opcheck.compare(reshape([2, 3, 4], [6, -1], False), tmp_path, ["Reshape"])
    assert opcheck.named(opcheck.mutate(path, "r", 0, 1, 5), "r")


INF = (1 << 63) - 1


@settings(max_examples=200, deadline=None)
@given(lo=st.integers(0, 50), width=st.integers(0, 50), unbounded=st.booleans(),
       static=st.integers(1, 6), out=st.integers(1, 12))
def test_the_minus_one_on_intervals_holds_every_possible_size(lo, width, unbounded, static, out):
    """[lo..hi, static] reshaped to [-1, out]: every size the input may take that divides
    evenly lies inside the inferred interval (the runtime's rule may be wider, never narrower)."""
    from irvalidate.ops.reshape import _reshape
    from irvalidate.ops.support.spec import OpError
    from irvalidate.shapes.dims import Dim
    hi = INF if unbounded else lo + width
    try:
        got = _reshape((Dim(lo, hi), Dim(static, static)), [Dim(0, INF), Dim(out, out)], 0, False)
    except OpError:
        # refused only when no size of the input divides evenly
        assert not any((n * static) % out == 0 and n * static // out >= 0
                       for n in range(lo, min(hi, lo + 60) + 1) if n * static >= out or n == 0) \
            or lo == hi
        return
    for n in range(lo, min(hi, lo + 60) + 1):
        if (n * static) % out == 0:
            assert got[0].contains(n * static // out) or n * static // out == 0, (got, n)
