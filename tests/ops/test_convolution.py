"""Convolution, GroupConvolution and BinaryConvolution against the runtime: the notes' cases,
hand-written attributes the openvino API will not build, random layers (both ways: what the
runtime refuses must be an error naming the layer), refusals and a stale dim."""

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.irsettle import assert_refused, compare_ir, random_differential  # noqa: E402
from support.ovvalues import shape  # noqa: E402


def inputs(data, filters, et=np.float32):
    p = opset1.parameter(shape(data), et, name="data")
    if filters is not None and all(isinstance(d, int) and d >= 0 for d in filters):
        w = opset1.constant(np.ones(filters, dtype=et))
        return p, w, [p]
    w = opset1.parameter(shape(filters), et, name="filters")
    return p, w, [p, w]


def conv(data, filters, strides=None, pads=None, dilations=None, auto_pad="explicit", et=np.float32):
    p, w, params = inputs(data, filters, et)
    k = len(strides) if strides else 2
    node = opset1.convolution(p, w, strides or [1] * k, (pads or ([0] * k, [0] * k))[0],
                              (pads or ([0] * k, [0] * k))[1], dilations or [1] * k, auto_pad,
                              name="conv")
    return ov.Model([node], params)


D = None  # a dynamic rank


@pytest.mark.parametrize("data,filters,kw", [
    ([1, 3, 224, 224], [64, 3, 7, 7], dict(strides=[2, 2], pads=([3, 3], [3, 3]))),
    ([1, 3, 10, 10], [8, 3, 3, 3], dict(dilations=[2, 2])),
    ([1, 3, 225, 224], [8, 3, 3, 3], dict(strides=[2, 2], auto_pad="same_upper")),
    ([1, 3, 225, 224], [8, 3, 3, 3], dict(strides=[2, 2], auto_pad="same_lower")),
    ([1, 3, 10, 10], [8, 3, 3, 3], dict(pads=([5, 5], [5, 5]), auto_pad="valid")),
    ([(1, 4), 3, (10, 20), -1], [8, 3, 3, 3], dict(strides=[2, 2], pads=([1, 1], [1, 1]))),
    ([(1, 4), 3, (10, 20), -1], [8, 3, 3, 3], dict(strides=[2, 2], auto_pad="same_upper")),
    ([1, 3, (0, 20), (5, 1 << 62)], [8, 3, 3, 3], dict(strides=[3, 3])),
    ([1, 3, (1, 2), 10], [8, 3, 3, 3], {}),
    (D, [8, 3, 3, 3], dict(strides=[2, 2])),
    (D, D, dict(strides=[1, 1, 1])),
    ([1, 3, 10, 10], D, {}),
    ([1, 3, 10, 10], [8, 3, -1, (1, 2)], {}),
    ([1, 3, 10, 10], [8, 3, 3, 3], dict(pads=([-2, 0], [-2, 0]))),
    ([1, 3, 3, 10], [8, 3, 3, 3], dict(pads=([-1, 0], [0, 0]))),
    ([1, 3, 10], [8, 3, 3], dict(strides=[2], pads=([1], [1]))),
    ([1, 3, 10, 10, 10], [8, 3, 3, 3, 3], dict(strides=[2, 2, 2], pads=([1] * 3, [1] * 3))),
    ([1, 3, 10, 10], [8, 3, 3, 3], dict(et=np.int32)),
    ([-1, -1, -1, -1], [-1, -1, -1, -1], dict(strides=[2, 3], dilations=[2, 1])),
])
def test_convolution_runtime_cases(tmp_path, data, filters, kw):
    opcheck.compare(conv(data, filters, **kw), tmp_path, ["Convolution"])


def group(data, filters, strides=None, pads=None, auto_pad="explicit"):
    p, w, params = inputs(data, filters)
    k = len(strides) if strides else 2
    pb, pe = pads or ([0] * k, [0] * k)
    node = opset1.group_convolution(p, w, strides or [1] * k, pb, pe, [1] * k, auto_pad, name="gconv")
    return ov.Model([node], params)


@pytest.mark.parametrize("data,filters,kw", [
    ([1, 6, 10, 10], [2, 4, 3, 3, 3], {}),
    ([1, 6, 10, 10], [2, 4, 3, 3, 3], dict(strides=[2, 2], pads=([1, 1], [1, 1]), auto_pad="same_upper")),
    ([(1, 2), -1, (10, 20), -1], [2, 4, 3, 3, 3], dict(strides=[2, 2])),
    ([1, 6, 10, 10], [-1, 4, 3, 3, 3], {}),
    ([1, 6, 10, 10], [-1, 4, -1, 3, 3], {}),
    ([1, (6, 12), 10, 10], [-1, 4, 3, 3, 3], {}),
    ([1, (6, 1 << 40), 10, 10], [-1, 4, 3, 3, 3], {}),
    (D, [2, 4, 3, 3, 3], {}),
    ([1, 6, 10, 10], D, dict(strides=[1, 1])),
    (D, D, dict(strides=[1, 1])),
    ([1, 6, 10], [3, 4, 2, 3], dict(strides=[2])),
    ([1, 6, 5, 10, 10], [3, 4, 2, 3, 3, 3], {"strides": [1, 2, 1]}),
])
def test_group_convolution_runtime_cases(tmp_path, data, filters, kw):
    opcheck.compare(group(data, filters, **kw), tmp_path, ["GroupConvolution"])


def binary(data, filters, auto_pad="explicit", strides=(1, 1), et=np.float32, w_et="u1"):
    p = opset1.parameter(shape(data), et, name="data")
    if w_et == "u1":
        w = ov.op.Constant(ov.Type.u1, ov.Shape(filters), [1] * int(np.prod(filters)))
    else:
        w = opset1.constant(np.ones(filters, dtype=w_et))
    node = opset1.binary_convolution(p, w, list(strides), [0, 0], [0, 0], [1, 1], "xnor-popcount",
                                     0.0, auto_pad, name="bconv")
    return ov.Model([node], [p])


@pytest.mark.parametrize("data,filters,kw", [
    ([1, 3, 10, 10], [8, 3, 3, 3], {}),
    ([1, 3, 10, 10], [8, 3, 3, 3], dict(et=np.int8, w_et=np.float16)),
    ([1, 3, 10, 10], [8, 3, 3, 3], dict(strides=(2, 2), auto_pad="same_upper")),
    ([(1, 2), 3, (10, 20), -1], [8, 3, 3, 3], dict(strides=(2, 2))),
    (D, [8, 3, 3, 3], {}),
])
def test_binary_convolution_runtime_cases(tmp_path, data, filters, kw):
    opcheck.compare(binary(data, filters, **kw), tmp_path, ["BinaryConvolution"])


def layer(kind, data, filters, attrs, et="f32"):
    ir = IR()
    ir.result(ir.op(kind, [ir.parameter(data, et), ir.parameter(filters, et)], [[1]], attrs,
                    name="op"))
    return ir


@pytest.mark.parametrize("kind,data,filters,attrs", [
    ("Convolution", "1,3,10,10", "8,3,3,3", {}),  # no attribute at all: 1s and 0s
    ("Convolution", "1,3,10,10", "8,3,3,3", {"strides": "-1,1"}),  # 2^64-1: one window
    ("Convolution", "1,3,10,10", "8,3,3,3", {"strides": "2.5,1"}),  # a prefix parse: 2
    ("Convolution", "1,3,10,10", "8,3,3,3", {"dilations": "-1,1"}),  # a `?` window
    ("Convolution", "1,3,10,10", "8,3,0,3", {}),  # a 0 kernel dilates to 1
    ("Convolution", "1,3,10,10", "8,3,3,3", {"auto_pad": "SAME_LOWER", "strides": "3,3"}),
    ("Convolution", "3", "8", {}),  # rank 1: no spatial count, no check, a dynamic rank
    ("Convolution", "...", "8", {}),
    ("Convolution", "...", "8,3,3,3,3,3", {}),  # rank 6 filters: only data's rank is checked
    ("GroupConvolution", "...", "16,3", {"strides": "1,1"}),
    ("GroupConvolution", "6", "2,3,1,3", {}),
    ("GroupConvolution", "1,6,10,10", "?,4,0,3,3", {}),
    ("BinaryConvolution", "1,3,10,10", "8,3,3,3", {"mode": "XNOR-POPCOUNT", "pad_value": "1.5"}),
])
def test_hand_written_attributes(tmp_path, kind, data, filters, attrs):
    compare_ir(layer(kind, data, filters, attrs), tmp_path, [kind])


@pytest.mark.parametrize("kind,data,filters,attrs,words", [
    ("Convolution", "1,4,10,10", "8,3,3,3", {}, "has 4 channels where filters [8,3,3,3] take 3"),
    ("Convolution", "1,3,2,10", "8,3,3,3", {},
     "the window (3 after dilation) is larger than the padded data (2)"),
    ("Convolution", "1,3,10,10", "8,3,3,3", {"pads_begin": "1,1,1", "pads_end": "1,1,1",
                                             "auto_pad": "same_upper"}, "pads_begin has 3 values"),
    ("Convolution", "1,3,10,10", "8,3,3,3", {"strides": "2;2"}, "strides has 1 value (2) for 2 spatial axes"),
    ("Convolution", "1,3,10,10", "8,3,3,3", {"strides": "0,1"}, "strides (0,1) holds a 0"),
    ("Convolution", "1,3,10,10", "8,3,3,3", {"dilations": "1,0"}, "dilations (1,0) holds a 0"),
    ("Convolution", "1,3,10,10,10,10", "8,3,3,3,3,3", {}, "must have rank 3, 4 or 5"),
    ("Convolution", "3,10", "8,3", {}, "has 10 channels"),
    ("Convolution", "3,10", "8,10", {}, "rank 2"),
    ("Convolution", "3", "8", {"strides": "1"}, "no channel dims"),
    ("Convolution", "", "8,3,3,3", {}, "unsigned arithmetic"),
    ("Convolution", "1,3,10,10", "8,3,3,3,3", {}, "filters must have rank 4"),
    ("Convolution", "1,3,10,10", "8,3,3,3", {"auto_pad": "bogus"}, "attribute auto_pad"),
    ("Convolution", "1,3,10,10", "8,3,3,3", {"strides": "a,1"}, "attribute strides"),
    ("GroupConvolution", "1,7,10,10", "2,4,3,3,3", {}, "which are not 2 groups of 3"),
    ("GroupConvolution", "1,6,10,10", "3,4,3,3,3", {}, "which are not 3 groups of 3"),
    ("GroupConvolution", "1,6,10,10", "2,4,3,3", {}, "filters must have rank 5"),
    ("GroupConvolution", "1,6,10,10", "2,4,3,3,11", {}, "the window (11 after dilation)"),
    ("GroupConvolution", "...", "16", {"strides": "1"}, "unsigned arithmetic"),
    ("BinaryConvolution", "1,3,10,10", "8,3,3,3", {"mode": "xnor"}, "attribute mode"),
    ("BinaryConvolution", "1,3,10,10", "8,3,3,3", {"pad_value": "abc"}, "attribute pad_value"),
    ("BinaryConvolution", "1,3,10", "8,3,3", {}, "must have rank 4"),
])
def test_what_the_runtime_refuses(tmp_path, kind, data, filters, attrs, words):
    assert_refused(layer(kind, data, filters, attrs), tmp_path, words)


@pytest.mark.parametrize("kind,types,words", [
    ("Convolution", ("f32", "f16"), "must have the same element type"),
    ("Convolution", ("boolean", "boolean"), "must be a number"),
    ("BinaryConvolution", ("boolean", "u1"), "must hold numbers"),
])
def test_element_types_the_runtime_refuses(tmp_path, kind, types, words):
    ir = IR()
    ir.result(ir.op(kind, [ir.parameter("1,3,10,10", types[0]), ir.parameter("8,3,3,3", types[1])],
                    [[1, 8, 8, 8]], name="op"))
    assert_refused(ir, tmp_path, words, code="IRV106")


def test_a_group_convolution_reading_before_its_filters_is_refused(tmp_path):
    # three spatial axes from strides, two filter dims: the runtime reads memory before the
    # shape (its result is garbage); irvalidate refuses such a layer
    ir = layer("GroupConvolution", "...", "16,3", {"strides": "1,1,1"})
    path = ir.write(tmp_path)
    assert opcheck.named(path, "op")


def random_dim(rng, size):
    roll = rng.random()
    if roll < 0.7:
        return str(size)
    if roll < 0.85:
        return f"{max(size - rng.randint(0, 3), 0)}..{size + rng.randint(0, 5)}"
    return "?"


def random_layer(rng):
    kind = rng.choice(["Convolution", "Convolution", "GroupConvolution", "BinaryConvolution"])
    k = 2 if kind == "BinaryConvolution" else rng.randint(1, 3)
    groups = rng.randint(1, 3) if kind == "GroupConvolution" else 1
    per_group = rng.randint(1, 3)
    kernel = [rng.randint(1, 4) for _ in range(k)]
    data = [rng.randint(1, 3), per_group * groups] + [rng.randint(1, 12) for _ in range(k)]
    out_c = rng.randint(1, 4)
    lead = [groups, out_c, per_group] if kind == "GroupConvolution" else [out_c * groups, per_group]
    filters = lead + kernel
    attrs = {}
    if rng.random() < 0.8:
        attrs["strides"] = ",".join(str(rng.randint(1, 3)) for _ in range(k))
    if rng.random() < 0.7:
        attrs["dilations"] = ",".join(str(rng.randint(1, 3)) for _ in range(k))
    if rng.random() < 0.8:
        attrs["pads_begin"] = ",".join(str(rng.randint(-2, 3)) for _ in range(k))
        attrs["pads_end"] = ",".join(str(rng.randint(-2, 3)) for _ in range(k))
    if rng.random() < 0.7:
        attrs["auto_pad"] = rng.choice(["explicit", "valid", "same_upper", "same_lower"])
    data_text = None if rng.random() < 0.08 else ",".join(random_dim(rng, d) for d in data)
    filter_text = None if rng.random() < 0.08 else ",".join(random_dim(rng, d) for d in filters)
    ir = IR()
    et = "f32"
    w = ir.parameter(filter_text or "...", "u1" if kind == "BinaryConvolution" else et)
    ir.result(ir.op(kind, [ir.parameter(data_text or "...", et), w], [[1]], attrs, name="op"))
    return kind, ir


def test_random_convolutions_match_the_runtime(tmp_path):
    loaded = random_differential(random_layer, 20261, 300, tmp_path)
    assert loaded >= 250  # most random layers are valid ones: the comparison is the point


def test_a_stale_declared_dim_names_the_convolution(tmp_path):
    path = opcheck.compare(conv([1, 3, 10, 10], [8, 3, 3, 3]), tmp_path, ["Convolution"])
    assert opcheck.named(opcheck.mutate(path, "conv", 0, 2, 9), "conv")
    path = opcheck.compare(group([1, 6, 10, 10], [2, 4, 3, 3, 3]), tmp_path, ["GroupConvolution"],
                           stem="g")
    assert opcheck.named(opcheck.mutate(path, "gconv", 0, 1, 9), "gconv")


def test_string_tensors_pass_the_numeric_check(tmp_path):
    # the runtime refuses only booleans as "not numeric" (measured)
    compare_ir(layer("Convolution", "1,3,10,10", "8,3,3,3", {}, et="string"), tmp_path,
               ["Convolution"])
