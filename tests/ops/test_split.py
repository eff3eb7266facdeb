"""Split and VariadicSplit against the runtime: the notes' cases (float32 interval division
included), unknown and computed axes and lengths, random configurations, refusals, stale dims,
and their values through shape subgraphs (every output)."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
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


def scalar_axis(axis, params, et=np.int64):
    if axis == "unknown":
        params.append(param([], np.int64))
        return params[-1]
    if callable(axis):
        return axis(params)
    return const(axis, et)


def split(data, axis, n):
    x = param(data)
    params = [x]
    node = opset1.split(x, scalar_axis(axis, params), n)
    node.set_friendly_name("s")
    return model(node, params)


def variadic(data, axis, lengths):
    x = param(data)
    params = [x]
    if isinstance(lengths, tuple) and lengths[0] == "p":
        params.append(param(lengths[1], np.int64))
        ln = params[-1]
    elif callable(lengths):
        ln = lengths(params)
    else:
        ln = const(lengths)
    node = opset1.variadic_split(x, scalar_axis(axis, params), ln)
    node.set_friendly_name("s")
    return model(node, params)


def squeezed(item):
    return lambda ps: opset1.squeeze(computed([item], params=ps), const([0]))


@pytest.mark.parametrize("data,axis,n", [
    ([4, 6], 1, 2), ([4, 6], -1, 3), ([4, 6], 0, 4), ([4, 6], 1, 1), ([4, 0], 1, 2),
    ([(2, 8), 6], 0, 2), ([(3, 9), 6], 0, 2), ([(1, 3), 6], 0, 2), ([(2, 9), 6], 0, 4),
    ([(2, -1)], 0, 2), ([-1], 0, 2), ([-1, 6], 0, 2), ([(41, 82), 4], 0, 41), (None, 0, 2),
    ([4, 6], "unknown", 2), ([4, 6], squeezed(1), 2), ([4, 6], squeezed((1, 2)), 2),
    ([(16777217, 16777219)], 0, 1), ([(97, 400)], 0, 97),
])
def test_split_runtime_cases(tmp_path, data, axis, n):
    opcheck.compare(split(data, axis, n), tmp_path, ["Split"])


@pytest.mark.parametrize("data,axis,lengths", [
    ([4, 6], 1, [2, 4]), ([4, 6], 1, [2, -1]), ([4, 6], 1, [-1, 2, 1]), ([4, 6], 1, [0, 6, 0]), ([4, 6], 1, [6, -1, 4]), ([4, 6], 1, [5, -1, 2]),
    ([4, 6], [1], [6]), ([(2, 8), 6], 0, [1, -1]), ([(2, 8), 6], 0, [9, -1]), ([(2, 8), 6], 0, [4, 5]),
    ([-1, 6], 0, [1, 2]), (None, 0, [1, -1]), ([4, 6], "unknown", [2, 4]), ([4, 6], 1, ("p", [2])),
    ([4, 6], 1, lambda ps: computed([(2, 2), -1], params=ps)),
    ([4, 6], 1, lambda ps: computed([(1, 3), 2], params=ps)),
])
def test_variadic_split_runtime_cases(tmp_path, data, axis, lengths):
    opcheck.compare(variadic(data, axis, lengths), tmp_path, ["VariadicSplit"])


def test_float_axis_and_lengths_of_a_variadic_split(tmp_path):
    x = param([4, 6])
    node = opset1.variadic_split(x, const(1.0, np.float32), const([2.0, 4.0], np.float32))
    # the runtime reads float values; irvalidate does not decode float Consts, and keeps to
    # what follows from the shapes alone ([?,?]), which no declaration contradicts
    path = opcheck.save(model(node, [x]), tmp_path)
    assert not opcheck.errors(path)


def test_random_splits_match_the_runtime(tmp_path):
    rng = random.Random(17)
    done = 0
    for n in range(200):
        rank = rng.randint(1, 4)
        data = [random_dim(rng, (2, 4, 6, 12, 0, 1)) for _ in range(rank)]
        axis = rng.randint(-rank, rank - 1)
        if rng.random() < 0.5:
            k = rng.choice([1, 2, 3, 4, 6])
            done += differential(lambda: split(data, axis, k), tmp_path, ["Split"], f"s{n}")
        else:
            count = rng.randint(1, 4)
            lengths = [rng.choice([0, 1, 2, 3, 4, 6]) for _ in range(count)]
            d = data[axis]
            if isinstance(d, int) and d >= 0 and rng.random() < 0.7:
                lengths[-1] = d - sum(lengths[:-1])
            if rng.random() < 0.4:
                lengths[rng.randrange(count)] = -1
                if isinstance(d, int) and d >= 0 and rng.random() < 0.7:
                    lengths = [v if v == -1 else min(v, 1) for v in lengths]
            done += differential(lambda: variadic(data, axis, lengths), tmp_path,
                                 ["VariadicSplit"], f"v{n}")
    assert done > 100


def test_random_constant_splits_refused_or_not_as_the_runtime(tmp_path):
    rng = random.Random(18)
    compared = 0
    for n in range(120):
        rank = rng.randint(1, 3)
        data = [random_dim(rng, (2, 4, 6, 0, 1)) for _ in range(rank)]
        axis = rng.randint(-rank - 1, rank)
        if rng.random() < 0.5:
            k = rng.choice([1, 2, 3, 4])
            compared += both_ways(lambda: split(data, axis, k),
                                  _ir("Split", shape_text(data), [axis], attrs={"num_splits": str(k)},
                                      axis_shape=[]), tmp_path, ["Split"], f"s{n}")
        else:
            lengths = [rng.choice([-2, -1, 0, 1, 2, 3, 4]) for _ in range(rng.randint(1, 3))]
            compared += both_ways(lambda: variadic(data, axis, lengths),
                                  _ir("VariadicSplit", shape_text(data), [axis], lengths, axis_shape=[]),
                                  tmp_path, ["VariadicSplit"], f"v{n}")
    assert 30 < compared < 115


def _ir(kind, data, axis, lengths=None, attrs=None, axis_shape=None):
    def build():
        ir = IR()
        x = ir.parameter(data)
        inputs = [x, ir.const(axis, shape=axis_shape)]
        outs = [[9]] * (len(lengths) if lengths is not None else int((attrs or {}).get("num_splits", "1")))
        if lengths is not None:
            inputs.append(ir.const(lengths))
        ir.result(ir.op(kind, inputs, outs, attrs or {}))
        return ir
    return build


@pytest.mark.parametrize("build,kind,words", [
    (_ir("Split", "4,6", [1], attrs={"num_splits": "4"}, axis_shape=[]), "Split", "equal parts"),
    (_ir("Split", "..3", [0], attrs={"num_splits": "4"}, axis_shape=[]), "Split", "below num_splits"),
    (_ir("Split", "4,6", [1], attrs={"num_splits": "2"}), "Split", "must be a scalar"),
    (_ir("Split", "4,6", [1], axis_shape=[]), "Split", "greater than zero"),
    (_ir("Split", "4,6", [2], attrs={"num_splits": "2"}, axis_shape=[]), "Split", "out of the range"),
    (_ir("VariadicSplit", "4,6", [1], [2, 3], axis_shape=[]), "VariadicSplit", "add up to 5"),
    (_ir("VariadicSplit", "4,6", [1], [-1, -1], axis_shape=[]), "VariadicSplit", "more than one -1"),
    (_ir("VariadicSplit", "4,6", [1], [2, -2, 6], axis_shape=[]), "VariadicSplit", "-1 or more"),
    (_ir("VariadicSplit", "4,6", [1], [6], axis_shape=[1, 1]), "VariadicSplit", "one value"),
])
def test_what_the_runtime_refuses(tmp_path, build, kind, words):
    refusal(tmp_path, build, kind, words)


def test_stale_dims_name_the_splits(tmp_path):
    path = opcheck.compare(split([4, 6], 1, 2), tmp_path, ["Split"])
    assert opcheck.named(opcheck.mutate(path, "s", 1, 1, 4), "s")
    path = opcheck.compare(variadic([4, 6], 1, [2, 4]), tmp_path, ["VariadicSplit"], stem="v")
    assert opcheck.named(opcheck.mutate(path, "s", 1, 1, 2), "s")


@pytest.mark.parametrize("kind", ["split", "variadic"])
def test_split_values_drive_reshapes(tmp_path, kind):
    # ShapeOf(x[2..5,3,4,(1,8)]) split in two along axis 0: each half is a Reshape target
    x = param([(2, 5), 3, 4, (1, 8)])
    s = opset1.shape_of(x)
    parts = (opset1.split(s, const(0), 2) if kind == "split" else
             opset1.variadic_split(s, const(0), const([1, -1])))
    outs = []
    for i in range(2):
        y = param(None)
        r = opset1.reshape(y, parts.output(i), False)
        r.set_friendly_name(f"r{i}")
        outs.append((r, y))
    path = opcheck.compare(model([r for r, _ in outs], [x] + [y for _, y in outs]), tmp_path,
                           ["Reshape", "Split", "VariadicSplit"])
    shapes = opcheck.runtime_shapes(path)
    assert shapes["r0"] == (["[2..5,3]"] if kind == "split" else ["[2..5]"])
