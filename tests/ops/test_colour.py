"""The colour conversions against the runtime: NV12/I420 to RGB/BGR (one, two or three
planes) and RGB/BGR to NV12 (one plane or two), the notes' cases, random planes, refusals,
stale dims, and Dimension division against exact arithmetic."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from hypothesis import given, settings, strategies as st  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import model, param, refusal, shape_text  # noqa: E402

TO_RGB = ("NV12toRGB", "NV12toBGR", "I420toRGB", "I420toBGR")
TO_NV12 = ("RGBtoNV12", "BGRtoNV12")
TYPES = {"u8": np.uint8, "f16": np.float16, "f32": np.float32, "f64": np.float64, "i32": np.int32}


def convert(kind, shapes, et="u8", attrs=None):
    opset = "opset17" if kind in TO_NV12 else "opset8"
    params = [param(s, TYPES[et]) for s in shapes]
    node = NodeFactory(opset).create(kind, params, attrs or {})
    node.set_friendly_name("c")
    return model(node, params)


@pytest.mark.parametrize("kind", ["NV12toRGB", "NV12toBGR"])
@pytest.mark.parametrize("shapes,et", [
    ([[1, 6, 4, 1]], "u8"), ([[1, 6, 4, 1]], "f32"), ([[(1, 3), (3, 9), -1, 1]], "u8"),
    ([[1, (4, 8), (5, 9), 1]], "u8"), ([[1, (2, 4), 4, 1]], "u8"), ([[1, 9, 4, 1]], "u8"), ([None], "u8"),
    ([[1, 4, 4, 1], [1, 2, 2, 2]], "u8"), ([None, [2, 3, 5, 2]], "u8"), ([[-1, (3, 9), -1, 1], [2, -1, (1, 3), 2]], "u8"),
    # more
    ([[1, 6, 4, 1]], "f64"), ([[1, 6, 4, (0, 1)]], "f32"), ([[1, (3, -1), 4, 1]], "f32"),
    ([[1, 6, (3, 5), 1]], "f32"), ([[1, -1, 4, 1], [1, 3, 2, -1]], "f32"),
    ([[1, (2, 8), 4, 1], [1, (1, 3), 2, -1]], "f32"), ([[1, (2, 8), 4, 1], None], "f32"),
    ([[1, 0, 0, 1]], "u8"), ([[(1, 5), (6, -1), (2, -1), 1], [-1, (4, 9), -1, 2]], "f16"),
])
def test_nv12_cases(tmp_path, kind, shapes, et):
    opcheck.compare(convert(kind, shapes, et), tmp_path, [kind])


@pytest.mark.parametrize("kind", ["I420toRGB", "I420toBGR"])
@pytest.mark.parametrize("shapes,et", [
    ([[1, 6, 4, 1]], "u8"), ([[(1, 3), (3, 9), -1, 1]], "u8"), ([[1, (4, 8), (5, 9), 1]], "u8"),
    ([None], "u8"), ([[1, 6, 4, 1]], "f16"), ([[1, 4, 4, 1], [1, 2, 2, 1], [1, 2, 2, 1]], "u8"),
    ([[-1, (3, 9), -1, 1], [2, -1, (1, 3), 1], [-1, (1, 4), -1, 1]], "u8"),
    ([None, None, [2, 3, 5, 1]], "u8"), ([[1, 4, 4, 1], None, None], "u8"),
    # more
    ([[1, -1, 4, 1], [1, 3, 2, 1], [1, 3, 2, 1]], "f32"), ([[1, -1, 4, 1], None, [1, (1, 2), 2, 1]], "f32"),
    ([[1, -1, 4, 1], [1, (1, 3), 2, 1], [1, (2, 4), 2, 1]], "f32"), ([[1, (3, -1), 4, 1]], "f64"),
    ([[1, 6, 4, (0, 1)]], "f32"), ([[1, 6, (3, 5), 1]], "f32"), ([[1, -1, -1, -1], [-1, -1, -1, -1], None], "f32"),
])
def test_i420_cases(tmp_path, kind, shapes, et):
    opcheck.compare(convert(kind, shapes, et), tmp_path, [kind])


@pytest.mark.parametrize("kind", TO_NV12)
@pytest.mark.parametrize("single", [True, False, None])
@pytest.mark.parametrize("shape,et", [
    ([1, 4, 6, 3], "u8"), ([1, (2, 8), -1, 3], "u8"), (None, "u8"), ([1, (3, 9), (1, 5), -1], "f32"),
    ([(2, 3), (5, 9), 4, 3], "f16"), ([1, (3, -1), 4, 3], "u8"), ([1, (7, 8), 4, 3], "f32"),
    ([1, 0, 0, 3], "u8"), ([1, (0, 1), 4, 3], "u8"), ([1, -1, -1, (2, 4)], "f64"), ([1, (3, 5), (5, 7), 3], "f16"),
])
def test_to_nv12_cases(tmp_path, kind, single, shape, et):
    attrs = {} if single is None else {"single_plane": single}
    opcheck.compare(convert(kind, [shape], et, attrs), tmp_path, [kind])


DIMS = (1, 2, 3, 4, 6, 8, 9, 12, 0, -1, (1, 5), (2, 9), (4, 12), (3, -1), (0, 2))


def _plane(rng, channels):
    return [rng.choice(DIMS) for _ in range(3)] + [rng.choice([channels, channels, -1, (0, 3)])]


def test_random_conversions_match_the_runtime(tmp_path):
    """Random planes (many illegal: those the runtime refuses are skipped here)."""
    rng = random.Random(41)
    done = 0
    for n in range(400):
        kind = rng.choice(TO_RGB + TO_NV12)
        if kind in TO_NV12:
            shapes, attrs = [None if rng.random() < 0.05 else _plane(rng, 3)], {"single_plane": rng.random() < 0.5}
        else:
            y = _plane(rng, 1)
            if rng.random() < 0.5:
                shapes = [y]
            elif kind.startswith("NV12"):
                shapes = [y, [y[0], rng.choice(DIMS), rng.choice(DIMS), rng.choice([2, -1])]]
            else:
                u = [y[0], rng.choice(DIMS), rng.choice(DIMS), 1]
                shapes = [y, u, [d if rng.random() < 0.7 else rng.choice(DIMS) for d in u]]
            shapes = [None if rng.random() < 0.05 else s for s in shapes]
            attrs = {}
        try:
            built = convert(kind, shapes, rng.choice(["u8", "f32"]), attrs)
        except RuntimeError:
            continue
        opcheck.compare_types(opcheck.compare(built, tmp_path, [kind], stem=f"m{n}"), [kind])
        done += 1
    assert done > 100


def _ir(kind, shapes, et="u8", attrs=None, ets=None):
    def build():
        ir = IR()
        planes = [ir.parameter(shape_text(s), (ets or {}).get(i, et)) for i, s in enumerate(shapes)]
        outputs = [[9, 9, 9, 9]] * (2 if (attrs or {}).get("single_plane") == "false" else 1)
        ir.result(ir.op(kind, planes, outputs, attrs or {},
                        version="opset17" if kind in TO_NV12 else "opset8"))
        return ir
    return build


@pytest.mark.parametrize("kind,shapes,words", [
    ("NV12toRGB", [[1, 5, 4, 1]], "not divisible by 3"), ("NV12toBGR", [[1, 6, 3, 1]], "width must be even"),
    ("NV12toRGB", [[1, 3, 4, 1], [1, -1, 2, 2]], "height must be even"),
    ("NV12toRGB", [[1, 6, 4, 3]], "must have 1 channel"), ("NV12toRGB", [[6, 4, 1]], "must have 4 dims"),
    ("NV12toRGB", [[1, 4, 4, 1], [1, 2, 3, 2]], "do not match"),
    ("NV12toRGB", [[1, 4, 4, 1], [1, 2, 2, 1]], "with 2 channels"),
    ("NV12toRGB", [[1, 4, 4, 1], [1, 2, 2]], "with 2 channels"),
    ("I420toRGB", [[1, 4, 4, 1], [1, 2, 2, 1], [1, 2, 3, 1]], "do not match"),
    ("I420toBGR", [[1, 4, 4, 1], [1, 2, 2, 2], [1, 2, 2, 2]], "with 1 channel"),
    ("I420toRGB", [[1, 3, 4, 1], [1, -1, 2, 1], None], "height must be even"),
    ("I420toRGB", [[1, 5, 4, 1]], "not divisible by 3"), ("I420toRGB", [[1, 6, 3, 1]], "width must be even"),
    ("I420toRGB", [[1, 6, 4, 3]], "must have 1 channel"), ("I420toRGB", [[1, 6, 4]], "must have 4 dims"),
    ("I420toRGB", [[1, -1, 4, 1], [1, 3, 2, 1], [1, 3, 2]], "do not match"),
    ("I420toRGB", [[1, -1, 4, 1], [1, 3, 2], [1, 3, 2, 1]], "with 1 channel"),
    ("I420toRGB", [[1, -1, 4, 1], [1, 4, 2, 1], [1, 3, 2, 1]], "do not match"),
    ("RGBtoNV12", [[4, 6, 3]], "must have 4 dims"), ("BGRtoNV12", [[1, 4, 6, 2]], "3 channels"),
    ("RGBtoNV12", [[1, 5, 6, 3]], "height must be even"), ("BGRtoNV12", [[1, 4, 5, 3]], "width must be even"),
    ("RGBtoNV12", [[1, (3, 3), 6, 3]], "height must be even"),
])
def test_what_the_runtime_refuses(tmp_path, kind, shapes, words):
    refusal(tmp_path, _ir(kind, shapes), kind, words)


@pytest.mark.parametrize("kind,count", [("NV12toRGB", 3), ("I420toBGR", 2), ("RGBtoNV12", 2),
                                        ("NV12toBGR", 4), ("I420toRGB", 4)])
def test_input_counts_the_runtime_refuses(tmp_path, kind, count):
    shapes = [[1, 4, 4, 1]] + [[1, 2, 2, 1]] * (count - 1)
    refusal(tmp_path, _ir(kind, shapes), kind, "inputs")


@pytest.mark.parametrize("kind,shapes,ets", [
    ("NV12toRGB", [[1, 6, 4, 1]], {0: "i32"}), ("I420toRGB", [[1, 6, 4, 1]], {0: "i32"}),
    ("RGBtoNV12", [[1, 4, 6, 3]], {0: "i32"}), ("NV12toBGR", [[1, 4, 4, 1], [1, 2, 2, 2]], {1: "f16"}),
    ("I420toBGR", [[1, 4, 4, 1], [1, 2, 2, 1], [1, 2, 2, 1]], {1: "f16"}),
])
def test_element_types_the_runtime_refuses(tmp_path, kind, shapes, ets):
    refusal(tmp_path, _ir(kind, shapes, ets=ets), kind, "u8" if len(shapes) == 1 else "one element type")


def test_single_plane_is_read_as_the_runtime_reads_it(tmp_path, run):
    """A bool other than true/false/1/0 keeps the default (one plane); no IRV108 for it."""
    for text, outputs in (("false", 2), ("0", 2), ("TRUE", 1), ("maybe", 1)):
        ir = IR()
        x = ir.parameter("1,4,6,3")
        dims = [[1, 6, 6, 1]] if outputs == 1 else [[1, 4, 6, 1], [1, 2, 3, 2]]
        ir.result(ir.op("BGRtoNV12", [x], dims, {"single_plane": text}, version="opset17"))
        assert [f.code for f in run(ir) if f.level == "error" or f.code == "IRV108"] == [], text


@pytest.mark.parametrize("kind,shapes,attrs,port,axis", [
    ("NV12toRGB", [[1, 6, 4, 1]], {}, 0, 1), ("I420toBGR", [[1, 4, 4, 1], [1, 2, 2, 1], [1, 2, 2, 1]], {}, 0, 3),
    ("RGBtoNV12", [[1, 4, 6, 3]], {}, 0, 1), ("BGRtoNV12", [[1, 4, 6, 3]], {"single_plane": False}, 1, 2),
])
def test_a_stale_declared_dim_names_the_conversion(tmp_path, kind, shapes, attrs, port, axis):
    path = opcheck.compare(convert(kind, shapes, "u8", attrs), tmp_path, [kind])
    assert opcheck.named(opcheck.mutate(path, "c", port, axis, 7), "c")


@settings(max_examples=300, deadline=None)
@given(lo=st.integers(0, 200), width=st.integers(0, 60), n=st.integers(1, 7))
def test_divide_holds_exactly_the_multiples(lo, width, n):
    """``Dimension / n`` on a bounded interval: the quotients of its multiples of n, or None
    when it holds none."""
    from irvalidate.shapes import arith
    from irvalidate.shapes.dims import Dim
    quotients = [v // n for v in range(lo, lo + width + 1) if v % n == 0]
    found = arith.divide(Dim(lo, lo + width), n)
    assert found == (Dim(min(quotients), max(quotients)) if quotients else None)
