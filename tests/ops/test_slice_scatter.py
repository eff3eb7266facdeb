"""SliceScatter against the runtime: the notes' cases, bounds given as Consts, computed or
unknown, random slices and updates (refused or not, either way as the runtime), refusals and
a stale dim."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import both_ways, model, param, refusal, shape_text, value  # noqa: E402

MAX, MIN = (1 << 63) - 1, -(1 << 63)


def scatter(data, updates, start, stop, step, axes=None, ets=(np.float32, np.float32)):
    x, u = param(data, ets[0]), param(updates, ets[1])
    params = [x, u]
    inputs = [x, u] + [value(v, params) for v in (start, stop, step)]
    if axes is not None:
        inputs.append(value(axes, params))
    node = NodeFactory("opset15").create("SliceScatter", inputs, {})
    node.set_friendly_name("s")
    return model(node, params)


@pytest.mark.parametrize("data,updates,start,stop,step,axes", [
    # SliceScatter.md
    ([4, 5], [2, 5], [0], [2], [1], None), ([4, 5], [4, 2], [1], [3], [1], [1]), ([4, 5], [4, 5], [-100], [100], [1], None),
    ([4, 5], [0, 5], [3], [1], [1], None), ([(2, 8), 5], [(1, 3), 5], [0], [2], [1], None),
    ([(2, 8), 5], [-1, 5], [0], [2], [1], None), (None, [2, 5], [0], [2], [1], None), ([4, 5], None, [0], [2], [1], None),
    ([4, 5], [2, 5], ("p", [1]), ("p", [1]), ("p", [1]), None), ([4, 5], [1, 5], ("c", [(0, 3)]), [4], [1], None),
    # more
    ([4, 5, 6], [4, 2, 3], [1, 0], [3, 6], [1, 2], [1, -1]), ([4, 5, 6], [4, 5, 6], [0], [4], [1], ("p", [1])),
    ([4, 5, 6], [4, 5, 6], [0], [4], ("p", [1]), [0]), ([10], [3], [8], [1], [-3], None), ([10], [10], [MIN], [MAX], [1], None),
    (None, [(1, 3), 5], [0], [2], [1], None), (None, [7, 5], [0], [2], [1], [1]), ([-1, -1], [2, 3], [0, 1], [2, 4], [1, 1], None),
    ([4, 5], [2, 5], ("c", [(0, 2)]), ("c", [(2, 4)]), [1], None), ([4, 5], [4, 5], [], [], [], None),
    ([4, 5], [4, 5], [], [], [], []), ([4, 5], [4, 5], ("p", [-1]), ("p", [-1]), ("p", [-1]), None),
])
def test_the_runtime_cases(tmp_path, data, updates, start, stop, step, axes):
    path = opcheck.compare(scatter(data, updates, start, stop, step, axes), tmp_path, ["SliceScatter"])
    opcheck.compare_types(path, ["SliceScatter"])


def test_updates_may_have_another_type(tmp_path):
    built = scatter([4, 5], [2, 5], [0], [2], [1], ets=(np.float32, np.int32))
    opcheck.compare_types(opcheck.compare(built, tmp_path, ["SliceScatter"]), ["SliceScatter"])


DIMS = (5, 0, 1, 10, (2, 8), (0, 7), (3, -1), -1)


def _ir(data, updates, values, shapes=None):
    def build():
        ir = IR()
        x, u = ir.parameter(shape_text(data)), ir.parameter(shape_text(updates))
        inputs = [x, u] + [ir.const(v, shape=(shapes or {}).get(i)) for i, v in enumerate(values)]
        ir.result(ir.op("SliceScatter", inputs, [[9]], {}, version="opset15"))
        return ir
    return build


def test_random_slices_refused_or_not_as_the_runtime(tmp_path):
    """Random data, bounds and updates that fit the slice or not: compared when openvino
    builds them, else refused by irvalidate too."""
    rng = random.Random(31)
    compared = 0
    for n in range(200):
        rank = rng.randint(1, 3)
        data = [rng.choice(DIMS) for _ in range(rank)]
        count = rng.randint(0, rank)
        start = [rng.randint(-12, 12) for _ in range(count)]
        stop = [rng.choice([rng.randint(-12, 12), MAX, MIN]) for _ in range(count)]
        step = [rng.choice([1, 2, 3, -1, -2]) for _ in range(count)]
        axes = rng.sample(range(-rank, rank), count) if rng.random() < 0.5 else None
        if axes is not None and len({a % rank for a in axes}) != len(axes):
            axes = None
        updates = [rng.choice(DIMS + (2, 3, 4)) for _ in range(rank)]
        values = [start, stop, step] + ([] if axes is None else [axes])
        if rng.random() < 0.2:  # a slice of data's own shape: updates fit
            built = lambda: scatter(data, [d if isinstance(d, int) else -1 for d in data], *values)  # noqa: E731
            ir = _ir(data, [d if isinstance(d, int) else -1 for d in data], values)
        else:
            built = lambda: scatter(data, updates, *values)  # noqa: E731
            ir = _ir(data, updates, values)
        compared += both_ways(built, ir, tmp_path, ["SliceScatter"], f"s{n}")
    assert 40 < compared < 180


@pytest.mark.parametrize("data,updates,values,shapes,words", [
    ([4, 5], [3, 5], [[0], [2], [1]], None, "do not fit the slice [2,5]"),
    ([4, 5], [2, 5], [[3], [0], [-1]], None, "do not fit the slice [3,5]"),
    ([4, 5], [2], [[0], [2], [1]], None, "must have one rank"),
    ([4, 5], [2, 5], [[0], [2], [0]], None, "a step of 0"),
    ([], [], [[0], [1], [1]], None, "must not be scalars"),
    ([4, 5], [4, 5], [[0], [2], [1], [2]], None, "out of the range"),
    ([4, 5], [4, 5], [[0, 0], [2, 2], [1, 1], [1, -1]], None, "repeat an axis"),
    ([4, 5], [4, 5], [[0, 0, 0], [2, 2, 2], [1, 1, 1]], None, "more than the rank 2"),
    ([4, 5], [4, 5], [[0], [2, 3], [1]], None, "the same length"),
    ([4, 5], [4, 5], [[0], [2], [1], [0, 1]], None, "axes must have as many values"),
    ([4, 5], [4, 5], [[0], [2], [1]], {0: [1, 1]}, "1-D"),
    # 2..8 sliced -2:2 is an empty interval to the runtime (it prints ?): even ? cannot fit
    ([(2, 8), 3], [-1, -1], [[-2], [2], [1]], None, "empty interval"),
    ([(2, 8), (2, 8), (2, 8)], [-1, -1, -1], [[-7, -2, -11], [MIN, 2, MIN], [-2, 1, -1]], None, "along axis 1"),
])
def test_what_the_runtime_refuses(tmp_path, data, updates, values, shapes, words):
    refusal(tmp_path, _ir(data, updates, values, shapes), "SliceScatter", words)


def test_unknown_bounds_still_bound_the_updates(tmp_path):
    """Unknown start/stop/step: each sliced dim is at most the data's (notes: [9,9] refused)."""
    def build():
        ir = IR()
        x, u = ir.parameter("4,5"), ir.parameter("9,9")
        ps = [ir.parameter("1", "i64") for _ in range(3)]
        ir.result(ir.op("SliceScatter", [x, u] + ps, [[4, 5]], {}, version="opset15"))
        return ir
    refusal(tmp_path, build, "SliceScatter", "do not fit the slice [..4,..5]")


def test_a_stale_declared_dim_names_the_layer(tmp_path):
    path = opcheck.compare(scatter([4, 5], [2, 5], [0], [2], [1]), tmp_path, ["SliceScatter"])
    assert opcheck.named(opcheck.mutate(path, "s", 0, 0, 2), "s")
