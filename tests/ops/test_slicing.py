"""Slice-8 and StridedSlice-1 against the runtime: the notes' cases, unknown and computed
bounds, random configurations (masks, intervals, negative steps), refusals, stale dims, and
``make_dim`` against Python's slicing."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from hypothesis import given, settings, strategies as st  # noqa: E402
from openvino import opset8  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import (  # noqa: E402
    both_ways,
    const,
    differential,
    model,
    param,
    refusal,
    shape_text,
    value,
)

MAX, MIN = (1 << 63) - 1, -(1 << 63)
MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")


def slice_model(data, start, stop, step, axes=None):
    x = param(data)
    params = [x]
    inputs = [value(v, params) for v in (start, stop, step)]
    if axes is not None:
        inputs.append(value(axes, params))
    node = opset8.slice(x, *inputs)
    node.set_friendly_name("s")
    return model(node, params)


def strided(data, begin, end, strides=None, **masks):
    x = param(data)
    params = [x]
    b, e = value(begin, params), value(end, params)
    inputs = [x, b, e] + ([] if strides is None else [value(strides, params)])
    size = max([len(m) for m in masks.values()] + [len(begin) if isinstance(begin, list) else 0])
    m = {k: masks.get(k, [0] * size) for k in MASKS}
    node = NodeFactory("opset1").create("StridedSlice", inputs, m)
    node.set_friendly_name("s")
    return model(node, params)


@pytest.mark.parametrize("data,start,stop,step,axes", [
    ([4, 5, 6], [1], [3], [1], None), ([4, 5, 6], [1], [3], [1], [2]), ([4, 5, 6], [1], [3], [1], [-1]),
    ([4, 5, 6], [1, 0], [3, 2], [1, 1], [2, 0]), ([10], [-1], [-11], [-1], None),
    ([10], [8], [1], [-3], None), ([10], [9], [MIN], [-1], None), ([10], [0], [MAX], [2], None),
    ([4, 5, 6], [], [], [], None), ([4, 5, 6], [], [], [], []), (None, [0], [1], [1], None),
    ([4, (2, 8), -1], ("p", [2]), ("p", [2]), ("p", [2]), None),
    ([4, (2, 8), -1], ("p", [-1]), ("p", [-1]), ("p", [-1]), None),
    ([4, (2, 8), -1], [1, 1], [3, 3], [1, 1], ("p", [2])),
    ([4, (2, 8), -1], [1, 1], [3, 3], ("p", [2]), [0, 2]),
    ([10, 20, 30], ("c", [0, (0, 5)]), [2, 5], [1, 1], None),
    ([10, 20, 30], ("c", [(2, 5)]), [10], [1], [2]),
    ([10, 20, 30], [0], ("c", [6]), [1], ("c", [1])),
])
def test_slice_runtime_cases(tmp_path, data, start, stop, step, axes):
    opcheck.compare(slice_model(data, start, stop, step, axes), tmp_path, ["Slice"])


def test_slice_with_mixed_index_types(tmp_path):
    x = param([4, 5])
    node = opset8.slice(x, const([0], np.uint8), const([3], np.int32), const([1], np.int8),
                        const([0], np.uint16))
    opcheck.compare(model(node, [x]), tmp_path, ["Slice"])


@pytest.mark.parametrize("data,begin,end,strides,masks", [
    ([4, 5], [0, 1], [2, 3], [1, 1], {}), ([4, 5], [0, 1], [2, 3], None, {}),
    ([10], [1], [8], [3], {}), ([10], [8], [1], [-3], {}), ([10], [-1], [-11], [-1], {}),
    ([10], [-3], [100], [1], {}), ([10], [100], [200], [1], {}), ([10], [5], [0], [-1], {"begin_mask": [1]}),
    ([3], [-5], [-5], [-1], {}), ([(0, 2)], [0], [-2], [-1], {}), ([(0, 2)], [-1], [1], [1], {}),
    ([(1, 2)], [0], [-2], [-1], {}),
    ([10], [5], [0], [-2], {"begin_mask": [1], "end_mask": [1]}), ([4, 5, 6], [1], [3], [1], {}),
    ([4, 5, 6], [1, 1], [3, 3], [1, 1], {"begin_mask": [1, 0, 0, 0, 0, 0, 0]}),
    ([4, (2, 8), -1], ("p", [2]), ("p", [2]), None, {}),
    ([4, (2, 8), -1], ("p", [2]), ("p", [2]), None, {"begin_mask": [0, 1], "end_mask": [0, 1]}),
    ([4, (2, 8), -1], ("p", [2]), ("p", [2]), None, {"shrink_axis_mask": [1, 0]}),
    ([4, (2, 8), -1], ("p", [2]), ("p", [2]), None, {"new_axis_mask": [1, 0]}),
    ([4, (2, 8), -1], ("p", [3]), ("p", [3]), None, {"ellipsis_mask": [0, 1, 0]}),
    ([4, (2, 8), -1], ("p", [-1]), ("p", [-1]), None, {}),
    ([4, (2, 8), -1], ("p", [-1]), [1, 1], None, {}),
    (None, [0, 0], [1, 1], None, {}), ([3], [], [], None, {}),
    ([10, 20, 30], ("c", [0, (0, 5), 1]), ("c", [2, 5, (2, 5)]), None, {}),
    ([10, 20, 30], ("c", [6, 0, 0]), [8, 5, 5], None, {}),
    ([10, 20, 30], [0, 0, 0], ("c", [6, -1, 2]), None, {}),
    ([-1], [4], [0], [-1], {"end_mask": [1]}), ([-1], [4], [0], [1], {"end_mask": [1]}),
    ([4, 5, 6], [7, 2], [8, 3], [1, 1], {"shrink_axis_mask": [1, 0]}),
    ([4, 5, 6], [1, 2], [2, 3], [1, 1], {"shrink_axis_mask": [1, 1]}),
    ([4, 5, 6], [0, 1], [0, 3], [1, 1], {"new_axis_mask": [1, 0]}),
    ([4, 5, 6], [0, 0], [0, 2], [1, 1], {"ellipsis_mask": [1, 0]}),
    ([4, 5, 6], [0, 0, 0], [0, 0, 2], [1, 1, 1], {"ellipsis_mask": [1, 0, 0], "new_axis_mask": [0, 1, 0]}),
])
def test_strided_slice_runtime_cases(tmp_path, data, begin, end, strides, masks):
    opcheck.compare(strided(data, begin, end, strides, **masks), tmp_path, ["StridedSlice"])


DIMS = (5, 0, 1, 10, (2, 8), (0, 7), (3, -1), -1, (1, 6))


def test_random_strided_slices_match_the_runtime(tmp_path):
    rng = random.Random(21)
    done = 0
    for n in range(220):
        rank = rng.randint(0, 4)
        data = [rng.choice(DIMS) for _ in range(rank)]
        count = rng.randint(0, min(5, rank + 1))
        begin = [rng.randint(-12, 12) for _ in range(count)]
        end = [rng.choice([rng.randint(-12, 12), MAX, MIN]) for _ in range(count)]
        strides = [rng.choice([1, 2, 3, -1, -2, -3]) for _ in range(count)]
        masks = {}
        for m in MASKS[:4]:
            masks[m] = [int(rng.random() < 0.25) for _ in range(count)]
        ell = [0] * count
        if count and rng.random() < 0.2:
            ell[rng.randrange(count)] = 1
        masks["ellipsis_mask"] = ell
        if rng.random() < 0.3 and count:
            begin = ("c", [rng.choice([(0, 5), (2, 8), 3, -2, -1]) for _ in range(count)])
        done += differential(lambda: strided(data, begin, end, strides, **masks), tmp_path,
                             ["StridedSlice"], f"ss{n}")
    assert done > 100


def test_random_constant_slices_refused_or_not_as_the_runtime(tmp_path):
    """Constant bounds, legal or not (zero steps, too many values, repeated or out-of-range
    axes, odd masks): compared when openvino builds them, else refused by irvalidate too."""
    rng = random.Random(29)
    compared = 0
    for n in range(160):
        rank = rng.randint(0, 3)
        data = [rng.choice(DIMS) for _ in range(rank)]
        count = rng.randint(0, rank + 1)
        values = [[rng.randint(-6, 6) for _ in range(count)] for _ in range(3)]
        values[2] = [rng.choice([0, 1, 2, -1]) for _ in range(count)]
        if rng.random() < 0.5:
            axes = [rng.randint(-rank - 1, rank) for _ in range(count)]
            compared += both_ways(lambda: slice_model(data, *values, axes),
                                  _slice_ir(shape_text(data), values + [axes]), tmp_path, ["Slice"],
                                  f"sl{n}")
        else:
            masks = {m: [int(rng.random() < 0.2) for _ in range(count)] for m in MASKS}
            attrs = {m: ",".join(map(str, v)) for m, v in masks.items()}
            compared += both_ways(lambda: strided(data, *values, **masks),
                                  _slice_ir(shape_text(data), values, attrs, "StridedSlice", "opset1"),
                                  tmp_path, ["StridedSlice"], f"ss{n}")
    assert 40 < compared < 150


def test_random_slices_match_the_runtime(tmp_path):
    rng = random.Random(23)
    done = 0
    for n in range(200):
        rank = rng.randint(1, 4)
        data = [rng.choice(DIMS) for _ in range(rank)]
        count = rng.randint(0, rank)
        axes = rng.sample(range(-rank, rank), count) if rng.random() < 0.6 else None
        if axes is not None and len({a % rank for a in axes}) != len(axes):
            axes = None
        axes_spec = None if axes is None else [a for a in axes]
        if axes_spec is None:
            count = rng.randint(0, rank)
        start = [rng.randint(-12, 12) for _ in range(count)]
        stop = [rng.choice([rng.randint(-12, 12), MAX, MIN]) for _ in range(count)]
        step = [rng.choice([1, 2, 3, -1, -2, -3]) for _ in range(count)]
        if rng.random() < 0.3 and count:
            start = ("c", [rng.choice([(0, 5), (2, 8), 3, -2, -1]) for _ in range(count)])
        if rng.random() < 0.2 and count:
            stop = ("c", [rng.choice([(0, 5), (2, 8), 3, -4]) for _ in range(count)])
        done += differential(lambda: slice_model(data, start, stop, step, axes_spec), tmp_path,
                             ["Slice"], f"sl{n}")
    assert done > 100


def _slice_ir(data, values, attrs=None, kind="Slice", version="opset8", shapes=None, et="i64"):
    def build():
        ir = IR()
        x = ir.parameter(data)
        inputs = [x] + [ir.const(v, et, shape=(shapes or {}).get(i)) for i, v in enumerate(values)]
        ir.result(ir.op(kind, inputs, [[9]], attrs or {}, version=version))
        return ir
    return build


@pytest.mark.parametrize("build,kind,words", [
    (_slice_ir("4,5,6", [[1, 0], [3, 2], [1, 1], [2, -1]]), "Slice", "repeat"),
    (_slice_ir("4,5,6", [[0] * 4, [1] * 4, [1] * 4]), "Slice", "more than the rank"),
    (_slice_ir("", [[0], [1], [1]]), "Slice", "scalar"),
    (_slice_ir("4,5,6", [[1], [3], [0]]), "Slice", "step of 0"),
    (_slice_ir("4,5,6", [[1], [3], [1], [3]]), "Slice", "out of the range"),
    (_slice_ir("4,5,6", [[1], [3], [1]], shapes={0: [1, 1]}), "Slice", "1-D"),
    (_slice_ir("10", [[0], [5], [0]], kind="StridedSlice", version="opset1",
               attrs={"begin_mask": "0", "end_mask": "0"}), "StridedSlice", "stride 0 is 0"),
    (_slice_ir("4,5,6", [[0] * 4, [1] * 4, [1] * 4], kind="StridedSlice", version="opset1"),
     "StridedSlice", "address more dims"),
    (_slice_ir("4,5", [[0, 1], [2, 3], [1, 1]], kind="StridedSlice", version="opset1",
               attrs={"end_mask": "0, 0"}), "StridedSlice", "as long as begin_mask"),
    (_slice_ir("4,5", [[0, 1], [2, 3], [1, 1]], kind="StridedSlice", version="opset1",
               attrs={"begin_mask": "2,2"}), "StridedSlice", "0 or 1"),
    (_slice_ir("4,5", [[0, 1], [2, 3], [1, 1]], kind="StridedSlice", version="opset1",
               attrs={"begin_mask": "0,0", "ellipsis_mask": "1,1"}), "StridedSlice", "more than one"),
    (_slice_ir("4,5", [[0, 1], [2, 3, 4], [1, 1]], kind="StridedSlice", version="opset1"),
     "StridedSlice", "hold 2 and 3"),
    (_slice_ir("4,5", [[0], [2], [1]], kind="StridedSlice", version="opset1", shapes={0: []}),
     "StridedSlice", "1-D"),
])
def test_what_the_runtime_refuses(tmp_path, build, kind, words):
    refusal(tmp_path, build, kind, words)


def test_a_slice_without_step_is_refused_without_asking_the_runtime(tmp_path, run):
    # read_model may crash on it (a segfault here; the notes saw "Step must be non-zero")
    [f] = [f for f in run(_slice_ir("4,5,6", [[1], [3]])()) if f.level == "error"]
    assert f.code == "IRV105" and "undefined behaviour" in f.message


def test_stale_dims_name_the_slices(tmp_path):
    path = opcheck.compare(slice_model([4, 5, 6], [1], [3], [1]), tmp_path, ["Slice"])
    assert opcheck.named(opcheck.mutate(path, "s", 0, 0, 4), "s")
    path = opcheck.compare(strided([4, 5], [0, 1], [2, 3], [1, 1]), tmp_path, ["StridedSlice"], stem="b")
    assert opcheck.named(opcheck.mutate(path, "s", 0, 1, 5), "s")


def reference(n, a, b, s):
    """Python's slice length, but for the runtime's one quirk (measured on 2026.4: [3] sliced
    -5:-5:-1 is [1]): a negative step whose start and stop both lie before the first element
    clamps the start to element 0 and keeps it."""
    if s < 0 and a < -n and b < -n:
        return min(n, 1)
    return len(range(n)[a:b:s])


@settings(max_examples=400, deadline=None)
@given(n=st.integers(0, 30), a=st.integers(-40, 40), b=st.integers(-40, 40),
       s=st.sampled_from([1, 2, 3, 5, -1, -2, -3, -7]))
def test_make_dim_is_python_slicing_on_static_dims(n, a, b, s):
    from irvalidate.shapes.dims import Dim
    from irvalidate.shapes.slicing import make_dim
    assert make_dim(Dim(n, n), (a, a), (b, b), s) == Dim(*(2 * [reference(n, a, b, s)]))


@settings(max_examples=300, deadline=None)
@given(lo=st.integers(0, 20), width=st.integers(0, 20), a=st.integers(0, 25),
       b=st.integers(0, 25), s=st.sampled_from([1, 2, 3, 4]))
def test_make_dim_holds_every_size_of_an_interval(lo, width, a, b, s):
    """With a positive step and bounds; otherwise the runtime's interval can miss sizes
    (measured: [0..2] sliced 0:-2:-1 or -1:1:1 is [0], though a dim of 1 gives 1), which
    make_dim copies (the runtime cases above check those)."""
    from irvalidate.shapes.dims import Dim
    from irvalidate.shapes.slicing import make_dim
    got = make_dim(Dim(lo, lo + width), (a, a), (b, b), s)
    for n in range(lo, lo + width + 1):
        assert got.contains(reference(n, a, b, s)), (got, n)
