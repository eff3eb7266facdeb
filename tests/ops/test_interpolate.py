"""Interpolate-1, -4 and -11 against the runtime: the notes' cases (sizes, scales and axes as
Consts, Parameters and computed subgraphs), float32 scaling, hand-written attributes,
random layers both ways, refusals and a stale dim."""
import random

import numpy as np
import pytest
from hypothesis import given, strategies as st

ov = pytest.importorskip("openvino")
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from irvalidate.ops.interpolate import scale_dim  # noqa: E402
from irvalidate.shapes.dims import DYNAMIC, Dim  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.irsettle import assert_refused, compare_ir, differential, refused_ir  # noqa: E402
from support.ovvalues import computed, parameter  # noqa: E402

D = None


def value(spec, params):
    """A value input: a list is a Const (floats: f32), "P<n>" an i64 Parameter of length n
    ("F<n>" an f32 one), a tuple a computed ShapeOf(Parameter)[indices] (+ add)."""
    if isinstance(spec, list):
        dtype = np.float32 if any(isinstance(v, float) for v in spec) else np.int64
        return ov.op.Constant(np.array(spec, dtype=dtype))
    if isinstance(spec, str):
        p = parameter([int(spec[1:])] if spec[1:] != "?" else [-1],
                      np.float32 if spec[0] == "F" else np.int64)
        params.append(p)
        return p
    source, node = computed(*spec)
    params.append(source)
    return node


def model(version, data, inputs, attrs):
    p = parameter(data)
    params = [p]
    args = [p] + [value(spec, params) for spec in inputs]
    node = NodeFactory(f"opset{version}").create("Interpolate", args, attrs)
    node.set_friendly_name("resize")
    return ov.Model([node], params)


V4 = dict(mode="nearest", shape_calculation_mode="sizes", coordinate_transformation_mode="half_pixel",
          nearest_mode="round_prefer_floor", antialias=False, pads_begin=[0, 0, 0, 0],
          pads_end=[0, 0, 0, 0], cube_coeff=-0.75)


def v4(**changes):
    return dict(V4, **changes)


@pytest.mark.parametrize("data,inputs,attrs", [
    ([1, 3, 10, 10], [[20, 30]], dict(axes=[2, 3], mode="linear")),
    ([1, 3, 10, 10], [[20, 30]], dict(axes=[3, 2], mode="linear")),
    ([1, 3, 10, 10], [[20, 30, 40]], dict(axes=[2, 3], mode="linear")),
    ([1, 3, 10, 10], ["P2"], dict(axes=[2, 3], mode="linear")),
    ([1, 3, 10, 10], [([(5, 8), -1], [0, 1])], dict(axes=[2, 3], mode="linear")),
    (D, [[20, 30]], dict(axes=[2, 3], mode="linear")),
    ([1, 3, 10, 10], [[-1, 30]], dict(axes=[2, 3], mode="nearest")),
    ([1, 3, 10, 10], [[-2, 30]], dict(axes=[2, 3], mode="cubic")),
    ([(1, 2), 3, -1, 10], [[7]], dict(axes=[1], mode="area")),
])
def test_interpolate_1_runtime_cases(tmp_path, data, inputs, attrs):
    opcheck.compare(model(1, data, inputs, attrs), tmp_path, ["Interpolate"])


@pytest.mark.parametrize("data,inputs,attrs", [
    ([1, 3, 10, 10], [[20, 30], [2.0, 3.0], [2, 3]], v4()),
    ([1, 3, 10, 10], [[20, 30], [2.0, 3.0], [2, 3]], v4(shape_calculation_mode="scales")),
    ([1, 3, 10, 10], [[1, 3, 20, 30], [1.0, 1.0, 2.0, 3.0]], v4(shape_calculation_mode="scales")),
    ([1, 3, 10, 10], [[20, 30], [1.5, 1.5], [2, 3]], v4(shape_calculation_mode="scales",
                                                        pads_begin=[0, 0, 1, 1], pads_end=[0, 0, 1, 2])),
    ([1, 3, 10, 10], [[20, 30], [1.5, 1.5], [2, 3]], v4(pads_begin=[0, 0, 1, 1], pads_end=[0, 0, 1, 2])),
    ([1, 3, 10, 10], [[20, 30], [1.0, 1.0], [2, 3]], v4(shape_calculation_mode="scales",
                                                        pads_begin=[0, 0, 1], pads_end=[0, 0, 0, 0, 5])),
    ([1, 3, (2, 10), -1], [[20, 30], [1.5, 2.0], [2, 3]], v4(shape_calculation_mode="scales")),
    ([1, 3, (2, 10), -1], [[20, 30], [1.5, 2.0], [2, 3]], v4(shape_calculation_mode="scales",
                                                             pads_begin=[0, 0, 1, 1])),
    ([1, 3, 3, 7], [[20, 30], [1.3333333, 0.4285714], [2, 3]], v4(shape_calculation_mode="scales")),
    ([1, 3, 10, 10], [[20, 30], [-1.0, 0.5], [2, 3]], v4(shape_calculation_mode="scales")),
    ([1, 3, 10, 10], ["P2", [2.0, 2.0], [2, 3]], v4()),
    ([1, 3, 10, 10], [[20, 30], [2.0, 2.0], "P2"], v4()),  # unknown axes: every dim `?`
    ([1, 3, 10, 10], [[20, 30], [2.0, 2.0], [3, 2]], v4()),
    ([1, 3, 10, 10], [[20, 30], [2.0, 2.0], [3, 3]], v4()),  # a later repeat wins
    ([1, 3, 10, 10], [[-1, -2], [1.0, 1.0], [2, 3]], v4()),
    (D, [[20, 30], [2.0, 2.0], [2, 3]], v4()),
    ([1, 3, 10, 10], [([(5, 8), -1], [0, 1]), [2.0, 2.0], [2, 3]], v4()),
    ([1, 3, 10, 10], [[20, 30], "F2", [2, 3]], v4(shape_calculation_mode="scales")),
    ([1, 3, 10, 10], [[20, 30], [2.0, 2.0], ([(5, 8), 2, 3], [1, 2])], v4()),  # exact axes
    ([1, 3, 10, 10], [[20, 30], [2.0, 2.0], ([(5, 8), 2, 3], [0, 2])], v4()),  # inexact: `?`
    ([1, 3, 1000001, 10], [[20, 30], [1.1, 2.0], [2, 3]], v4(shape_calculation_mode="scales")),
    ([1, 3, (7, 1 << 40), 10], [[20, 30], [0.7, 2.0], [2, 3]], v4(shape_calculation_mode="scales")),
    ([1, 3, 123456789, 10], [[20, 30], [0.3, 2.0], [2, 3]], v4(shape_calculation_mode="scales")),
])
def test_interpolate_4_runtime_cases(tmp_path, data, inputs, attrs):
    opcheck.compare(model(4, data, inputs, attrs), tmp_path, ["Interpolate"])


@pytest.mark.parametrize("data,inputs,attrs", [
    ([1, 3, 10, 10], [[20, 30], [2, 3]], v4()),
    ([1, 3, 10, 10], [[2.0, 3.0], [2, 3]], v4(mode="linear", shape_calculation_mode="scales")),
    ([1, 3, 10, 10], [[1.0, 1.0, 2.0, 3.0]], v4(mode="bilinear_pillow", shape_calculation_mode="scales")),
    ([1, 3, 10, 10], [[2.0, 3.0], [2, 3]], v4(shape_calculation_mode="scales", pads_begin=[0, 0, 1, 1],
                                              pads_end=[0, 0, 1, 2])),
    ([1, 3, -1, 10], [[2.0, 3.0], [2, 3]], v4(shape_calculation_mode="scales", pads_begin=[0, 0, 1, 1])),
    ([1, 3, 10, 10], [([(5, 8), -1], [0, 1]), [2, 3]], v4()),
    ([1, 3, 10, 10], [[20, 30], "P2"], v4()),
    ([1, 3, 10, 10, 10], [[20, 30, 40, 50, 60]], v4(mode="cubic")),
])
def test_interpolate_11_runtime_cases(tmp_path, data, inputs, attrs):
    opcheck.compare(model(11, data, inputs, attrs), tmp_path, ["Interpolate"])


@pytest.mark.parametrize("dim,scale,out", [
    (Dim(3, 3), 1.3333333, Dim(4, 4)), (Dim(7, 7), 0.4285714, Dim(3, 3)),
    (Dim(10, 10), 1.0, Dim(10, 10)), (Dim(10, 10), -0.2, DYNAMIC),  # -1.99999 truncates to -1: `?`
    (Dim(10, 10), -1.0, Dim(0, 0)), (Dim(2, 10), 1.5, Dim(3, 15)), (DYNAMIC, 2.0, DYNAMIC),
    # float32: the dim rounds to 16777216, the scale to 2.00000095 (measured: 33554448)
    (Dim(16777217, 16777217), 2.0, Dim(33554448, 33554448)),
])
def test_scaling_is_float32_arithmetic(dim, scale, out):
    assert scale_dim(dim, scale) == out


@given(st.integers(0, 1 << 40), st.floats(-4, 64, allow_nan=False, width=32))
def test_scaling_matches_float32_arithmetic(size, scale):
    """Against numpy's float32: floor(size * (scale + 1e-6)), truncated, -1 read as `?`."""
    if np.float32(scale) == np.float32(1):
        assert scale_dim(Dim(size, size), scale) == Dim(size, size)
        return
    factor = np.float32(scale) + np.float32(1e-6)
    value = int(np.float32(size) * factor)
    want = DYNAMIC if value == -1 else Dim(max(value, 0), max(value, 0))
    assert scale_dim(Dim(size, size), scale) == want


def layer(version, data, inputs, attrs, et="f32"):
    ir = IR()
    args = [ir.parameter(data, et)]
    for spec in inputs:
        if isinstance(spec, list):
            real = any(isinstance(v, float) for v in spec)
            args.append(ir.const(spec, "f32" if real else "i64"))
        else:
            args.append(ir.parameter(spec, "i64"))
    ir.result(ir.op("Interpolate", args, [[1]], attrs, version=version, name="op"))
    return ir


@pytest.mark.parametrize("version,data,inputs,attrs", [
    ("opset1", "1,3,10,10", [[20, 30]], {}),  # no axes: nothing resized
    ("opset1", "1,3,10,10", [[20, 30]], {"axes": "2,2"}),
    ("opset1", "1,3,10,10", [[20, 30]], {"axes": "2,3", "mode": "bogus"}),  # never checked
    ("opset4", "1,3,10,10", [[20, 30], [2.0, 2.0], [2, 3]], {}),  # nearest, sizes
    ("opset4", "1,3,10,10", [[20, 30], [2.0, 2.0], [2, 3]], {"pads_begin": "0,0,1.5,2x"}),
    ("opset4", "1,3,10,10", [[20, 30], [2.0, 2.0], [2, 3]], {"pads_begin": " 0, 0, 1, 1",
                                                             "shape_calculation_mode": "SCALES"}),
    ("opset11", "1,3,10,10", [[20, 30], [2, 3]], {}),
])
def test_hand_written_attributes(tmp_path, version, data, inputs, attrs):
    compare_ir(layer(version, data, inputs, attrs), tmp_path, ["Interpolate"])


@pytest.mark.parametrize("version,data,inputs,attrs,words", [
    ("opset1", "1,3,10,10", [[20, 30]], {"axes": "-1,2"}, "axis 18446744073709551615 is out"),
    ("opset1", "1,3,10,10", [[20, 30]], {"axes": "2,4"}, "axis 4 is out of the range"),
    ("opset1", "1,3,10,10", [[20, 30]], {"axes": "2,3", "pads_begin": "0,-1"}, "has a sign"),
    ("opset4", "1,3,10,10", [[20], [2.0, 2.0], [2, 3]], {}, "sizes (input 1) has 1 value for 2"),
    ("opset4", "1,3,10,10", [[20, 30], [2.0, 2.0]], {}, "has 2 values for 4 axes"),
    ("opset4", "1,3,10,10", [[20, 30], [2.0, 2.0], [2, 3]], {"mode": "bilinear_pillow"},
     "needs Interpolate-11"),
    ("opset4", "1,3,10,10", [[20, 30], [2.0, 2.0], [-1, 3]], {}, "axis -1 is out"),
    ("opset4", "1,3,10,10", [[20, 30], [2.0, 2.0]], {"shape_calculation_mode": "scales"},
     "scales (input 2) has 2 values for 4 axes"),
    ("opset4", "1,3,10,10", [[20, 30], [2.0, 2.0], [2, 3]], {"pads_begin": "+1"}, "has a sign"),
    ("opset4", "1,3,10,10", [[20, 30], [2.0, 2.0], [2, 3]], {"mode": "bogus"}, "attribute mode"),
    ("opset11", "1,3,10,10", [[20, 30]], {}, "has 2 values for 4 axes"),
    ("opset11", "1,3,10,10", [], {}, "takes 2 or 3 inputs"),
])
def test_what_the_runtime_refuses(tmp_path, version, data, inputs, attrs, words):
    assert_refused(layer(version, data, inputs, attrs), tmp_path, words)


def test_fewer_target_values_than_axes_is_refused_where_the_runtime_reads_garbage(tmp_path):
    # Interpolate-1 does not count the values: it reads past the Const (measured: [1,3,20,..2257],
    # a different upper bound on each run); irvalidate refuses the layer
    ir = layer("opset1", "1,3,10,10", [[20]], {"axes": "2,3"})
    from irvalidate.engine.validation import validate_file
    found = [f for f in validate_file(str(ir.write(tmp_path))).findings if f.level == "error"]
    assert found and "has 1 value for 2 axes" in found[0].message


@pytest.mark.parametrize("version,data,inputs,attrs,words", [
    ("opset1", "1,3,10,10", [[20.0, 30.0]], {"axes": "2,3"}, "must be an integer tensor"),
    ("opset4", "1,3,10,10", [[20, 30], [2, 2], [2, 3]], {}, "scales (input 2) must be f32"),
    ("opset11", "1,3,10,10", [[2.0, 3.0], [2, 3]], {}, "sizes (input 1) must be i32"),
])
def test_element_types_the_runtime_refuses(tmp_path, version, data, inputs, attrs, words):
    assert_refused(layer(version, data, inputs, attrs), tmp_path, words, code="IRV106")


def test_boolean_data_is_refused_from_version_4(tmp_path):
    ir = layer("opset4", "1,3,10,10", [[20, 30], [2.0, 2.0], [2, 3]], {}, et="boolean")
    refused_ir(ir, tmp_path)
    assert opcheck.named(ir.write(tmp_path, "mine"), "op")
    compare_ir(layer("opset1", "1,3,10,10", [[20, 30]], {"axes": "2,3"}, et="boolean"), tmp_path,
               ["Interpolate"])


def random_layer(rng):
    version = rng.choice(["opset1", "opset4", "opset4", "opset11", "opset11"])
    rank = rng.randint(1, 5)

    def dim():
        n = rng.randint(0, 12)
        roll = rng.random()
        return str(n) if roll < 0.7 else (f"{n}..{n + rng.randint(1, 9)}" if roll < 0.85 else "?")
    data = "..." if rng.random() < 0.05 else ",".join(dim() for _ in range(rank))
    axes = rng.sample(range(rank), rng.randint(1, rank))
    sizes = [rng.randint(-2, 30) if rng.random() < 0.95 else -1 for _ in axes]
    scales = [round(rng.choice([0.5, 1.0, 1.5, 2.0, 3.0, 0.25, 1.3333333, 0.7]), 7) for _ in axes]
    if version == "opset1":
        return layer(version, data, [sizes], {"axes": ",".join(map(str, axes)), "mode": "linear"})
    calc = rng.choice(["sizes", "scales"])
    attrs = {"shape_calculation_mode": calc,
             "mode": rng.choice(["nearest", "linear", "cubic"])}
    for name in ("pads_begin", "pads_end"):
        if rng.random() < 0.4:
            attrs[name] = ",".join(str(rng.randint(0, 2)) for _ in range(rng.randint(0, 5)))
    with_axes = rng.random() < 0.8
    if not with_axes:  # every axis, in order
        sizes = [rng.randint(0, 30) for _ in range(rank)]
        scales = [rng.choice([0.5, 1.0, 2.0]) for _ in range(rank)]
    if rng.random() < 0.05:  # refused both ways: an axis out of range, or too few values
        axes = axes + [rank]
    elif rng.random() < 0.05:
        sizes, scales = sizes[:-1], scales[:-1]
    first = scales if version == "opset11" and calc == "scales" else sizes
    inputs = [first] if version == "opset11" else [sizes, scales]
    if with_axes:
        inputs.append(axes)
    return layer(version, data, inputs, attrs)


def test_random_interpolates_match_the_runtime(tmp_path):
    rng = random.Random(31337)
    loaded = sum(differential(random_layer(rng), tmp_path, ["Interpolate"], "op", stem=f"m{n}")
                 for n in range(250))
    assert loaded >= 210


def test_a_stale_declared_dim_names_the_interpolate(tmp_path):
    path = opcheck.compare(model(11, [1, 3, 10, 10], [[20, 30], [2, 3]], v4()), tmp_path,
                           ["Interpolate"])
    assert opcheck.named(opcheck.mutate(path, "resize", 0, 2, 21), "resize")
