"""ConvolutionBackpropData and GroupConvolutionBackpropData against the runtime: the notes'
cases (output_shape as a Const, a Parameter and a computed subgraph), hand-written layers,
random layers both ways, refusals and a stale dim."""

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.irsettle import assert_refused, compare_ir, random_differential, refused_ir  # noqa: E402
from support.ovvalues import computed, parameter  # noqa: E402

D = None


def model(data, filters, output_shape=None, grouped=False, **attrs):
    p = parameter(data, name="data")
    params = [p]
    if filters is not None and all(isinstance(d, int) and d >= 0 for d in filters):
        w = opset1.constant(np.ones(filters, dtype=np.float32))
    else:
        w = parameter(filters, name="filters")
        params.append(w)
    extra = []
    if isinstance(output_shape, list):
        extra = [opset1.constant(np.array(output_shape, dtype=np.int64))]
    elif isinstance(output_shape, str):  # a Parameter of that shape
        q = parameter([int(d) if d != "?" else -1 for d in output_shape.split(",")], np.int64)
        params.append(q)
        extra = [q]
    elif isinstance(output_shape, tuple):  # computed from a Parameter's shape
        source, value = computed(*output_shape)
        params.append(source)
        extra = [value]
    k = len(attrs.get("strides", [1, 1]))
    build = opset1.group_convolution_backprop_data if grouped else opset1.convolution_backprop_data
    node = build(p, w, attrs.get("strides", [1] * k), *extra, pads_begin=attrs.get("pads_begin"),
                 pads_end=attrs.get("pads_end"), dilations=attrs.get("dilations"),
                 auto_pad=attrs.get("auto_pad", "explicit"), output_padding=attrs.get("output_padding"),
                 name="deconv")
    return ov.Model([node], params)


@pytest.mark.parametrize("data,filters,output_shape,attrs", [
    ([1, 16, 10, 10], [16, 8, 3, 3], None, {}),
    ([1, 16, 10, 10], [16, 8, 3, 3], None, dict(strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                                                output_padding=[1, 1])),
    ([1, 16, 10, 10], [16, 8, 3, 3], None, dict(strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                                                dilations=[2, 2])),
    ([1, 16, 10, 10], [16, 8, 3, 3], None, dict(strides=[2, 2], auto_pad="same_upper")),
    ([1, 16, 10, 10], [16, 8, 3, 3], None, dict(strides=[2, 2], auto_pad="valid",
                                                pads_begin=[3, 3], pads_end=[3, 3])),
    ([1, 16, 10, 10], [16, 8, 3, 3], [20, 21], dict(strides=[2, 2])),
    ([1, 16, 10, 10], [16, 8, 3, 3], [0, 21], dict(strides=[2, 2])),
    ([1, 16, 10, 10], [16, 8, 3, 3], [20, 21], dict(strides=[2, 2], auto_pad="same_lower")),
    ([1, 16, 10, 10], [16, 8, 3, 3], "2", dict(strides=[2, 2])),
    ([1, 16, 10, 10], [16, 8, 3, 3], "?", dict(strides=[2, 2])),  # the output drops to rank 2
    ([1, 16, 10, 10], [16, 8, 3, 3], ([1, 2, (10, 20), -1], [2, 3]), {}),
    ([1, 16, 10, 10], [16, 8, 3, 3], ([(10, 20), 7], [0, 1], [-3, 0]), {}),
    (D, D, [5, 6], {}),
    (D, D, "3", dict(strides=[1, 1, 1])),
    (D, D, "?", {}),
    (D, D, None, dict(strides=[1, 1])),
    (D, [16, 8, 3, 3], None, dict(strides=[2, 2])),
    ([(1, 2), 16, (1, 10), -1], [16, 8, 3, 3], None, dict(strides=[2, 2])),
    ([1, 16, (1, 10), -1], [16, 8, 3, 3], None, dict(strides=[2, 2], pads_begin=[3, 3], pads_end=[3, 3])),
    ([1, 16, 1, 1], [16, 8, 3, 3], None, dict(pads_begin=[3, 3], pads_end=[3, 3])),  # negative: ?
    ([1, 16, 1, 1], [16, 8, 3, 3], None, dict(pads_begin=[1, 1], pads_end=[1, 0])),
    ([1, 16, 10, 10], [16, 8, 3, 3], None, dict(strides=[2, 2], output_padding=[5, 5])),
    ([1, 16, 10], [16, 8, 3], None, dict(strides=[3])),
    ([1, 16, 4, 10, 10], [16, 8, 2, 3, 3], None, dict(strides=[1, 2, 2])),
])
def test_convolution_backprop_runtime_cases(tmp_path, data, filters, output_shape, attrs):
    opcheck.compare(model(data, filters, output_shape, **attrs), tmp_path, ["ConvolutionBackpropData"])


@pytest.mark.parametrize("data,filters,output_shape,attrs", [
    ([1, 8, 10, 10], [2, 4, 3, 3, 3], None, {}),
    ([1, 8, 10, 10], [2, 4, 3, 3, 3], None, dict(strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                                                 output_padding=[1, 1])),
    ([1, 8, 10, 10], [2, 4, 3, 3, 3], [20, 20], dict(strides=[2, 2], auto_pad="same_lower")),
    ([(1, 2), -1, (1, 10), -1], [2, 4, 3, 3, 3], None, dict(strides=[2, 2])),
    ([1, (8, 16), 10, 10], [-1, 4, 3, 3, 3], None, {}),
    (D, [2, 4, 3, 3, 3], None, {}),
    (D, D, [7, 8, 9], dict(strides=[1, 2, 1])),
    ([1, 8, 10, 10], D, "?", {}),
    ([1, 8, 10, 10], [2, 4, 3, 3, 3], ([(5, 9), 3, 4], [0, 2]), {}),
])
def test_group_convolution_backprop_runtime_cases(tmp_path, data, filters, output_shape, attrs):
    opcheck.compare(model(data, filters, output_shape, grouped=True, **attrs), tmp_path,
                    ["GroupConvolutionBackpropData"])


def layer(kind, data, filters, attrs, third=None):
    ir = IR()
    inputs = [ir.parameter(data), ir.parameter(filters)]
    if third is not None:
        inputs.append(ir.const(third) if isinstance(third, list) else ir.parameter(third, "i64"))
    ir.result(ir.op(kind, inputs, [[1]], attrs, name="op"))
    return ir


@pytest.mark.parametrize("kind,data,filters,attrs,third", [
    ("ConvolutionBackpropData", "1,16,10,10", "16,8,3,3", {}, None),
    ("ConvolutionBackpropData", "...", "16,3", {}, None),  # filters of rank 2: no spatial axis
    ("ConvolutionBackpropData", "...", "2,3,4", {}, None),
    ("GroupConvolutionBackpropData", "...", "16,3", {}, None),  # k undefined: a dynamic rank
    ("GroupConvolutionBackpropData", "...", "2,3,4", {}, None),
    ("ConvolutionBackpropData", "1,16,10,10", "16,8,3,3", {"strides": "-1,1"}, None),
    ("ConvolutionBackpropData", "1,16,10,10", "16,8,3,3", {"output_padding": ""}, [7, 9]),
    ("ConvolutionBackpropData", "...", "...", {}, "3"),  # k from output_shape's length
    ("ConvolutionBackpropData", "...", "...", {}, [5, 6]),
    ("ConvolutionBackpropData", "...", "...", {}, "?"),  # no k at all: a dynamic rank
])
def test_hand_written_layers(tmp_path, kind, data, filters, attrs, third):
    compare_ir(layer(kind, data, filters, attrs, third), tmp_path, [kind])


@pytest.mark.parametrize("kind,data,filters,attrs,third,words", [
    ("ConvolutionBackpropData", "1,16,10,10", "16,8,3,3", {}, [-1, 21], "holds -1"),
    ("ConvolutionBackpropData", "1,16,10,10", "16,8,3,3", {}, [-2, 21], "holds -2"),
    ("ConvolutionBackpropData", "1,16,10,10", "16,8,3,3", {}, [20, 21, 3], "gives 3 spatial dims"),
    ("ConvolutionBackpropData", "1,15,10,10", "16,8,3,3", {}, None, "has 15 channels"),
    ("ConvolutionBackpropData", "1,16,10,10", "16,8,3,3", {"output_padding": "1"}, None,
     "output_padding has 1 value"),
    ("ConvolutionBackpropData", "16", "16", {}, None, "unsigned arithmetic"),
    ("ConvolutionBackpropData", "...", "16", {"strides": "1"}, None, "unsigned arithmetic"),
    ("ConvolutionBackpropData", "1,16,10,10", "16,8,3,3", {}, "1,2", "must be a 1-D tensor"),
    ("ConvolutionBackpropData", "...", "...", {}, [], "empty Const with no bytes"),
    ("GroupConvolutionBackpropData", "1,9,10,10", "2,4,3,3,3", {}, None, "not 2 groups of 4"),
    ("GroupConvolutionBackpropData", "1,8,10,10", "2,4,3,3", {}, None, "filters must have rank 5"),
    ("GroupConvolutionBackpropData", "1,8,10,10", "2,4,3,3,3", {}, [20, 20, 20], "gives 3 spatial"),
    ("GroupConvolutionBackpropData", "...", "16,3", {"strides": "1"}, None, "has no dim 2"),
])
def test_what_the_runtime_refuses(tmp_path, kind, data, filters, attrs, third, words):
    assert_refused(layer(kind, data, filters, attrs, third), tmp_path, words)


def test_a_computed_negative_output_shape_is_refused(tmp_path):
    # ShapeOf([10..20,7]) + [-13,0] is [-3..7,7]: the runtime refuses a bound below zero (the
    # openvino API refuses to build it, so the IR is written by hand)
    ir = IR()
    shape_of = ir.op("ShapeOf", [ir.parameter("10..20,7")], [[2]], {"output_type": "i64"},
                     version="opset3", out_precision="I64")
    value = ir.op("Add", [shape_of, ir.const([-13, 0])], [[2]], out_precision="I64")
    ir.result(ir.op("ConvolutionBackpropData", [ir.parameter("1,16,10,10"),
                                                ir.parameter("16,8,3,3"), value], [[1]], name="op"))
    assert "can't be lower than zero" in refused_ir(ir, tmp_path)
    assert opcheck.named(ir.write(tmp_path, "mine"), "op")


def random_layer(rng):
    grouped = rng.random() < 0.4
    kind = "GroupConvolutionBackpropData" if grouped else "ConvolutionBackpropData"
    k = rng.randint(1, 3)
    groups, per_group, out_c = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3)
    data = [rng.randint(1, 2), groups * per_group] + [rng.randint(1, 9) for _ in range(k)]
    kernel = [rng.randint(1, 4) for _ in range(k)]
    filters = ([groups, per_group, out_c] if grouped else [groups * per_group, out_c]) + kernel

    def dims(values):
        if rng.random() < 0.08:
            return "..."
        return ",".join(str(v) if rng.random() < 0.75 else rng.choice(["?", f"{v}..{v + 3}"])
                        for v in values)
    attrs = {name: ",".join(str(rng.randint(lo, hi)) for _ in range(k))
             for name, lo, hi in (("strides", 1, 3), ("dilations", 1, 2), ("pads_begin", 0, 3),
                                  ("pads_end", 0, 3), ("output_padding", 0, 2))
             if rng.random() < 0.7}
    if rng.random() < 0.5:
        attrs["auto_pad"] = rng.choice(["explicit", "valid", "same_upper", "same_lower"])
    third = None
    if rng.random() < 0.3:
        third = [rng.randint(1, 30) for _ in range(k)] if rng.random() < 0.7 else f"{k}"
    return kind, layer(kind, dims(data), dims(filters), attrs, third)


def test_random_backprops_match_the_runtime(tmp_path):
    loaded = random_differential(random_layer, 4242, 200, tmp_path)
    assert loaded >= 150


def test_a_stale_declared_dim_names_the_layer(tmp_path):
    path = opcheck.compare(model([1, 16, 10, 10], [16, 8, 3, 3]), tmp_path, ["ConvolutionBackpropData"])
    assert opcheck.named(opcheck.mutate(path, "deconv", 0, 3, 13), "deconv")
