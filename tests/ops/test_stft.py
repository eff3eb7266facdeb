"""STFT and ISTFT against the runtime: the notes' cases, frame values given as Consts,
computed or unknown, signal lengths computed by shape subgraphs, random configurations,
refusals, stale dims, and the frame counts against plain arithmetic."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from hypothesis import given, settings, strategies as st  # noqa: E402
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import (  # noqa: E402
    computed,
    computed_scalar,
    const,
    model,
    param,
    refusal,
    scalar_input,
    shape_text,
)

F32, F16 = np.float32, np.float16


def scalar(v, params):
    """A number is an i64 Const; ("i32", n) an i32 one; [n] a 1-element Const; "unknown" a
    Parameter; ("c", dim) a scalar computed from a dim; ("c1", dim) a 1-element one;
    ("sub", dim, n) a computed scalar minus n."""
    if isinstance(v, tuple) and v[0] == "c":
        return computed_scalar(v[1], params=params)
    if isinstance(v, tuple) and v[0] == "c1":
        return computed([v[1]], params=params)
    if isinstance(v, tuple) and v[0] == "sub":
        return opset1.subtract(computed_scalar(v[1], params=params), const(v[2]))
    if isinstance(v, tuple) and v[0] == "i32":
        return const(v[1], np.int32)
    if isinstance(v, list):
        return const(v)
    return scalar_input(v, params)


def stft(kind, data, window, size, step, length=None, attrs=None, et=F32, window_et=None):
    x, w = param(data, et), param(window, et if window_et is None else window_et)
    params = [x, w]
    inputs = [x, w, scalar(size, params), scalar(step, params)]
    if length is not None:
        inputs.append(scalar(length, params))
    node = NodeFactory("opset16").create(kind, inputs, attrs or {})
    node.set_friendly_name("s")
    return model(node, params)


@pytest.mark.parametrize("data,window,size,step,attrs,et", [
    # STFT.md
    ([2, 48], [16], 16, 8, {}, F32), ([2, 48], [16], 16, 8, {"transpose_frames": True}, F32),
    ([48], [10], 16, 5, {}, F32), ([(1, 4), (20, 60)], [16], 16, 4, {}, F32), ([2, -1], [16], 16, 4, {}, F32),
    ([2, (10, 20)], [16], 16, 4, {}, F32), ([2, 48], [16], "unknown", 4, {}, F32), (None, [16], 16, 4, {}, F32),
    ([2, 48], None, 16, 4, {}, F32),
    # more
    ([-1], [16], 16, 4, {}, F32), ([48], [16], "unknown", 4, {"transpose_frames": True}, F32),
    ([2, 48], [16], ("c", 16), 4, {}, F32), ([2, 48], [16], ("c", (14, 16)), 4, {}, F32),
    (None, [16], "unknown", 4, {}, F32), ([2, 48], [-1], 16, 4, {}, F32), ([2, 48], [(1, 20)], 16, 4, {}, F32),
    ([2, 48], [16], 16, 4, {}, F16), ([2, 48], [16], ("i32", 16), ("i32", 4), {}, F32),
    ([2, 48], [16], 48, 4, {}, F32), ([2, 48], [16], 16, 50, {}, F32), ([2, (10, 15)], [15], 15, 4, {}, F32),
    ([(0, 3), (20, -1)], [7], 9, 3, {"transpose_frames": True}, F32), ([2, 48], [16], 16, "unknown", {}, F32),
])
def test_stft_cases(tmp_path, data, window, size, step, attrs, et):
    opcheck.compare(stft("STFT", data, window, size, step, None, attrs, et), tmp_path, ["STFT"])


@pytest.mark.parametrize("data,window,size,step,length,attrs,et", [
    # ISTFT.md
    ([9, 13, 2], [16], 16, 4, None, {}, F32), ([9, 13, 2], [16], 16, 4, None, {"center": True}, F32),
    ([3, 9, 13, 2], [16], 16, 4, None, {}, F32), ([9, 13, 2], [16], 16, 4, 40, {}, F32),
    ([9, 13, 2], [16], 16, 4, [40], {}, F32), ([9, 13, 2], [16], 16, 4, "unknown", {}, F32),
    ([9, 13, 2], [16], 16, 4, ("c", (30, 50)), {}, F32), ([9, 13, 2], [16], 16, 4, -5, {}, F32),
    ([9, (5, 20), 2], [16], 16, 4, None, {}, F32), ([9, (12, 14), 2], [16], 16, 4, None, {"center": True}, F32),
    ([9, -1, 2], [16], 16, 4, None, {"center": True}, F32), ([(1, 3), 9, 13, 2], [16], "unknown", 4, None, {}, F32),
    ([9, 13, 2], [16], 17, 4, None, {"center": True}, F32), (None, [16], 16, 4, None, {}, F32),
    # more
    ([9, 13, 2], [16], 16, 4, ("c1", (30, 50)), {}, F32), ([9, 13, 2], [16], 16, 4, ("sub", (30, 50), 10), {}, F32),
    ([9, 13, 2], [16], 16, 4, -1, {}, F32), ([9, -1, 2], [16], 16, 4, None, {}, F32),
    ([8, -1, 2], [16], 16, 4, None, {}, F32), ([9, 13, 3], [16], 16, 4, None, {}, F32),
    ([9, 13, 2], [16], 16, 4, None, {}, F16), ([9, 1, 2], [16], 16, 4, None, {"center": True}, F32),
    ([9, 0, 2], [16], 16, 4, None, {}, F32), ([9, 13, 2], [-1], 16, 4, None, {}, F32),
    ([(2, 4), 9, (3, -1), 2], [16], 16, ("c", 4), None, {"center": True}, F32),
    ([9, 13, 2], [16], 16, "unknown", None, {}, F32), ([2, 9, 13, 2], [16], 16, 4, ("c", (0, 9)), {}, F32),
])
def test_istft_cases(tmp_path, data, window, size, step, length, attrs, et):
    opcheck.compare(stft("ISTFT", data, window, size, step, length, attrs, et), tmp_path, ["ISTFT"])


def test_a_dynamic_data_type_takes_the_window_type(tmp_path):
    for kind, data in (("STFT", [2, 48]), ("ISTFT", [9, 13, 2])):
        x = opset1.parameter(data, ov.Type.dynamic, name="x")
        w = opset1.parameter([16], ov.Type.f16, name="w")
        node = NodeFactory("opset16").create(kind, [x, w, const(16), const(4)], {})
        node.set_friendly_name("s")
        path = opcheck.compare(model(node, [x, w]), tmp_path, [kind], stem=kind)
        opcheck.compare_types(path, [kind])


DIMS = (1, 2, 5, 9, 16, 33, -1, (1, 8), (10, 40), (20, -1), (0, 3))


def test_random_transforms_match_the_runtime(tmp_path):
    rng = random.Random(11)
    done = 0
    for n in range(300):
        size = rng.choice([1, 2, 4, 7, 8, 16, 17, "unknown", ("c", (4, 9)), ("c", 8)])
        step = rng.choice([1, 2, 3, 4, 9, "unknown", ("c", 3)])
        window = [rng.choice([1, 2, 4, 7, 8, 16, -1, (1, 9)])] if rng.random() > 0.05 else None
        if n % 2:
            data = None if rng.random() < 0.05 else [rng.choice(DIMS) for _ in range(rng.randint(1, 2))]
            args = ("STFT", data, window, size, step, None, {"transpose_frames": rng.random() < 0.5})
        else:
            bins = (size // 2 + 1) if isinstance(size, int) and rng.random() < 0.7 else rng.choice(DIMS)
            data = [bins, rng.choice(DIMS), rng.choice([2, 2, -1])]
            if rng.random() < 0.5:
                data.insert(0, rng.choice(DIMS))
            length = rng.choice([None, None, 30, [12], -1, -3, "unknown", ("c", (5, 40)), ("c1", 20)])
            args = ("ISTFT", None if rng.random() < 0.05 else data, window, size, step, length,
                    {"center": rng.random() < 0.5, "normalized": rng.random() < 0.5})
        try:
            built = stft(*args)
        except RuntimeError:
            continue
        opcheck.compare_types(opcheck.compare(built, tmp_path, [args[0]], stem=f"m{n}"), [args[0]])
        done += 1
    assert done > 150


def _ir(kind, data, window, values, shapes=None, attrs=None, ets=None):
    ets = ets or {}

    def build():
        ir = IR()
        x = ir.parameter(shape_text(data), ets.get(0, "f32"))
        w = ir.parameter(shape_text(window), ets.get(1, "f32"))
        scalars = [ir.const([v], ets.get(i + 2, "i64"), shape=(shapes or {}).get(i + 2, []))
                   for i, v in enumerate(values)]
        ir.result(ir.op(kind, [x, w] + scalars, [[9]], attrs or {},
                        version="opset15" if kind == "STFT" else "opset16"))
        return ir
    return build


@pytest.mark.parametrize("kind,data,window,values,shapes,ets,words", [
    ("STFT", [2, 48], [16], [50, 4], None, None, "must lie in [1, 48]"),
    ("STFT", [2, (10, 15)], [16], [16, 4], None, None, "must lie in [1, 10..15]"),
    ("STFT", [2, 48], [16], [16, 0], None, None, "frame_step 0 must be greater"),
    ("STFT", [2, 48], [17], [16, 4], None, None, "window length 17"),
    ("STFT", [2, 48], [0], [16, 4], None, None, "window length 0"),
    ("STFT", [2, 2, 48], [16], [16, 4], None, None, "rank 1 or 2"),
    ("STFT", [2, 48], [16], [16, 4], {2: [1]}, None, "frame_size must be a scalar"),
    ("STFT", [2, 48], [16, 1], [16, 4], None, None, "window must be 1-D"),
    ("STFT", [2, 48], [16], [16, 4], None, {0: "i32", 1: "i32"}, "floating-point"),
    ("STFT", [2, 48], [16], [16, 4], None, {1: "f16"}, "window (input 1) is f16"),
    ("STFT", [2, 48], [16], [16, 4], None, {2: "f32"}, "i32 or i64"),
    ("ISTFT", [8, 13, 2], [16], [16, 4], None, None, "frequency bins"),
    ("ISTFT", [9, 13], [16], [16, 4], None, None, "rank 3 or 4"),
    ("ISTFT", [9, 13, 2], [17], [16, 4], None, None, "window length 17"),
    ("ISTFT", [9, 13, 2], [16], [0, 4], None, None, "frame_size 0 must be greater"),
    ("ISTFT", [9, 13, 2], [16], [16, -2], None, None, "frame_step -2 must be greater"),
    ("ISTFT", [9, 13, 2], [16], [16, 4, 40], {4: [2]}, None, "signal_length (input 4)"),
    ("ISTFT", [9, 13, 2], [16], [16, 4, 40], {4: [1, 1]}, None, "signal_length (input 4)"),
    ("ISTFT", [9, 13, 2], [16], [16, 4], {3: [1]}, None, "frame_step must be a scalar"),
    ("ISTFT", [9, 13, 2], [16], [16, 4], None, {1: "f16"}, "window (input 1) is f16"),
])
def test_what_the_runtime_refuses(tmp_path, kind, data, window, values, shapes, ets, words):
    refusal(tmp_path, _ir(kind, data, window, values, shapes, ets=ets), kind, words)


def test_input_counts_are_refused(tmp_path):
    refusal(tmp_path / "a", _ir("STFT", [2, 48], [16], [16]), "STFT", "takes 4 inputs")
    refusal(tmp_path / "b", _ir("ISTFT", [9, 13, 2], [16], [16, 4, 40, 1]), "ISTFT", "takes 4 or 5")


def test_a_computed_length_that_can_be_negative_is_refused(tmp_path):
    assert "lower than zero" in opcheck.refused(
        lambda: stft("ISTFT", [9, 13, 2], [16], 16, 4, ("sub", (3, 50), 10)), tmp_path)

    def build():  # the same subgraph by hand: ShapeOf(x[3..50]) -> Gather(0) -> Subtract 10
        ir = IR()
        x, w, y = ir.parameter("9,13,2"), ir.parameter("16"), ir.parameter("3..50")
        shape = ir.op("ShapeOf", [y], [[1]], {"output_type": "i64"}, version="opset3",
                      out_precision="I64")
        first = ir.op("Gather", [shape, ir.const([0], shape=[]), ir.const([0], shape=[])], [[]],
                      {"batch_dims": "0"}, version="opset8")
        length = ir.op("Subtract", [first, ir.const([10], shape=[])], [[]])
        sizes = [ir.const([v], shape=[]) for v in (16, 4)]
        ir.result(ir.op("ISTFT", [x, w] + sizes + [length], [[-1]], {}, version="opset16"))
        return ir
    refusal(tmp_path / "ir", build, "ISTFT", "lower than zero")


@pytest.mark.parametrize("kind,args,axis", [
    ("STFT", ([2, 48], [16], 16, 8), 1), ("STFT", ([48], [16], 16, 8), 1),
    ("ISTFT", ([9, 13, 2], [16], 16, 4), 0), ("ISTFT", ([3, 9, 13, 2], [16], 16, 4), 1)])
def test_a_stale_declared_dim_names_the_transform(tmp_path, kind, args, axis):
    path = opcheck.compare(stft(kind, *args), tmp_path, [kind])
    assert opcheck.named(opcheck.mutate(path, "s", 0, axis, 3), "s")


@settings(max_examples=300, deadline=None)
@given(lo=st.integers(0, 80), width=st.integers(0, 40), size=st.integers(1, 30), step=st.integers(1, 9))
def test_frame_counts_hold_every_signal_length(lo, width, size, step):
    """STFT's frame count on an interval spans the counts of its lengths (a length shorter
    than a frame counts one frame, as the clipped subtraction makes it); ISTFT's length is
    exact on each frame count."""
    from irvalidate.shapes import arith
    from irvalidate.shapes.dims import Dim, static
    d = Dim(lo, lo + width)
    frames = arith.add(arith.floor_div(arith.sub(d, static(size)), step), static(1))
    counts = [max(n - size, 0) // step + 1 for n in range(d.lo, d.hi + 1)]
    assert (frames.lo, frames.hi) == (min(counts), max(counts))
    length = arith.add(arith.mul(arith.sub(d, static(1)), static(step)), static(size))
    lengths = [max(t - 1, 0) * step + size for t in range(d.lo, d.hi + 1)]
    assert (length.lo, length.hi) == (min(lengths), max(lengths))
