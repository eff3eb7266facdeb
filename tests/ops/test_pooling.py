"""MaxPool-1/-8/-14 and AvgPool-1/-14/-16 against the runtime: the notes' cases in every
version (both outputs of MaxPool-8/-14), hand-written attributes, random layers both ways,
refusals and stale dims."""

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1, opset8, opset14, opset16  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.irsettle import assert_refused, compare_ir, random_differential  # noqa: E402
from support.ovvalues import parameter  # noqa: E402

D = None


def max_pool(version, data, kernel, strides, pads=None, rounding="floor", auto_pad="explicit",
             dilations=None, et=np.float32, **kw):
    p = parameter(data, et)
    pb, pe = pads or ([0] * len(kernel), [0] * len(kernel))
    if version == 1:
        node = opset1.max_pool(p, strides, pb, pe, kernel, rounding, auto_pad, name="pool")
    else:
        build = opset8.max_pool if version == 8 else opset14.max_pool
        node = build(p, strides, dilations or [1] * len(kernel), pb, pe, kernel, rounding, auto_pad,
                     name="pool", **kw)
    return ov.Model(node.outputs(), [p])


def avg_pool(version, data, kernel, strides, pads=None, exclude_pad=False, rounding="floor",
             auto_pad="explicit", dilations=None):
    p = parameter(data)
    pb, pe = pads or ([0] * len(kernel), [0] * len(kernel))
    if version == 16:
        node = opset16.avg_pool(p, strides, pb, pe, kernel, exclude_pad, rounding, auto_pad,
                                dilations=dilations, name="pool")
    else:
        build = opset1.avg_pool if version == 1 else opset14.avg_pool
        node = build(p, strides, pb, pe, kernel, exclude_pad, rounding, auto_pad, name="pool")
    return ov.Model([node], [p])


COMMON = [
    ([1, 3, 10, 10], [3, 3], [2, 2], {}),
    ([1, 3, 10, 10], [3, 3], [2, 2], dict(rounding="ceil")),
    ([1, 3, 5, 5], [2, 2], [3, 3], dict(pads=([0, 0], [2, 2]), rounding="ceil")),
    ([1, 3, (10, 20), -1], [3, 3], [2, 2], dict(rounding="ceil")),
    ([1, 3, (10, 20), -1], [3, 3], [2, 2], {}),
    ([1, 3, (10, 20), 9], [3, 3], [2, 2], dict(auto_pad="same_upper")),
    ([1, 3, -1, 10], [3, 3], [2, 2], dict(rounding="ceil")),
    ([1, 3, 10, 9], [3, 3], [2, 2], dict(auto_pad="same_lower")),
    ([1, 3, 10, 9], [3, 3], [2, 2], dict(pads=([5, 5], [5, 5]), auto_pad="valid")),
    (D, [3, 3], [2, 2], {}),
    ([1, 3, 10], [3], [2], dict(pads=([1], [1]))),
    ([1, 3, 10, 10, 10], [3, 3, 3], [2, 2, 2], dict(pads=([1] * 3, [1] * 3))),
    ([1, 3, 2, 10], [3, 3], [1, 1], dict(pads=([1, 0], [0, 0]))),
    ([1, 3, 10, 10], [1, 1], [4, 4], dict(auto_pad="same_upper", rounding="ceil")),
    ([(1, 2), (3, 5), (0, 7), (9, 1 << 40)], [2, 3], [3, 1], dict(pads=([1, 0], [0, 2]))),
]


@pytest.mark.parametrize("version", [1, 8, 14])
@pytest.mark.parametrize("data,kernel,strides,kw", COMMON)
def test_max_pool_runtime_cases(tmp_path, version, data, kernel, strides, kw):
    opcheck.compare(max_pool(version, data, kernel, strides, **kw), tmp_path, ["MaxPool"])


@pytest.mark.parametrize("version", [1, 14, 16])
@pytest.mark.parametrize("data,kernel,strides,kw", COMMON)
def test_avg_pool_runtime_cases(tmp_path, version, data, kernel, strides, kw):
    opcheck.compare(avg_pool(version, data, kernel, strides, **kw), tmp_path, ["AvgPool"])


@pytest.mark.parametrize("data,kernel,strides,kw", [
    ([1, 3, 5, 5], [2, 2], [3, 3], dict(pads=([0, 0], [2, 2]))),
    ([1, 3, 5, 5], [2, 2], [3, 3], dict(pads=([1, 1], [1, 1]))),
    ([1, 3, (5, 6), 5], [2, 2], [3, 3], dict(pads=([0, 0], [2, 2]))),
    ([1, 3, (5, 1 << 50), -1], [2, 2], [3, 3], dict(pads=([0, 0], [2, 2]))),
    ([1, 3, 10, 10, 10], [3, 3, 3], [2, 2, 2], dict(pads=([1] * 3, [0] * 3))),
    ([1, 3, 10, 10], [3, 3], [2, 2], dict(auto_pad="same_upper")),
])
def test_ceil_torch(tmp_path, data, kernel, strides, kw):
    opcheck.compare(max_pool(14, data, kernel, strides, rounding="ceil_torch", **kw), tmp_path,
                    ["MaxPool"], stem="max")
    opcheck.compare(avg_pool(16, data, kernel, strides, rounding="ceil_torch", **kw), tmp_path,
                    ["AvgPool"], stem="avg")


@pytest.mark.parametrize("version", [8, 14])
@pytest.mark.parametrize("data,kw", [
    ([1, 3, 10, 10], dict(dilations=[2, 2])),
    ([1, 3, 10, 10], dict(index_element_type="i32")),
    ([1, 3, 10, 10], dict(et=np.int32, axis=-4)),
    ([1, 3, 10, 10], dict(et=np.bool_)),
    (D, dict(axis=7)),  # unchecked on a dynamic rank
])
def test_max_pool_indices(tmp_path, version, data, kw):
    opcheck.compare(max_pool(version, data, [3, 3], [1, 1], **kw), tmp_path, ["MaxPool"])


@pytest.mark.parametrize("kw", [dict(dilations=[2, 2]), dict(dilations=[2, 2], exclude_pad=True,
                                                             pads=([3, 0], [0, 0]))])
def test_avg_pool_16_dilations(tmp_path, kw):
    opcheck.compare(avg_pool(16, [1, 3, 10, 10], [3, 3], [1, 1], **kw), tmp_path, ["AvgPool"])


def layer(kind, version, data, attrs, outputs=1, et="f32"):
    ir = IR()
    ir.result(ir.op(kind, [ir.parameter(data, et)], [[1]] * outputs, attrs, version=version,
                    name="op"))
    return ir


@pytest.mark.parametrize("kind,version,data,attrs", [
    ("MaxPool", "opset1", "...", {}),  # no kernel: rank 2
    ("MaxPool", "opset1", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "pads_begin": "-2,0"}),
    ("MaxPool", "opset1", "1,3,?,10", {"kernel": "3,3", "strides": "1,1", "pads_begin": "-1,0"}),
    ("MaxPool", "opset1", "1,3,?,10", {"kernel": "0,3", "strides": "1,1"}),
    ("MaxPool", "opset8", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "index_element_type": "f32"}),
    ("MaxPool", "opset5", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "rounding_type": "CEIL"}),
    ("AvgPool", "opset1", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "dilations": "2,2"}),
    ("AvgPool", "opset1", "1,3,?,10", {"kernel": "3,3", "strides": "1,1", "pads_begin": "3,0"}),
    ("AvgPool", "opset1", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "pads_begin": "3,0",
                                        "exclude-pad": "false"}),
    ("AvgPool", "opset1", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "exclude-pad": "maybe"}),
])
def test_hand_written_attributes(tmp_path, kind, version, data, attrs):
    outputs = 2 if kind == "MaxPool" and version == "opset8" else 1
    compare_ir(layer(kind, version, data, attrs, outputs), tmp_path, [kind])


@pytest.mark.parametrize("kind,version,data,attrs,words", [
    ("MaxPool", "opset8", "1,3,5,5", {"kernel": "2,2", "strides": "3,3", "rounding_type": "ceil_torch"},
     "ceil_torch is refused by MaxPool-8"),
    ("AvgPool", "opset1", "1,3,5,5", {"kernel": "2,2", "strides": "3,3", "rounding_type": "ceil_torch"},
     "ceil_torch is refused by AvgPool-1"),
    ("MaxPool", "opset1", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "pads_begin": "-1,0"},
     "add up to -1"),
    ("MaxPool", "opset1", "1,3,10,10", {"kernel": "3,3"}, "strides has 0 values"),
    ("MaxPool", "opset1", "1,3,10,10", {}, "kernel has 0 values"),
    ("MaxPool", "opset1", "0,3,10,10", {"kernel": "3,3", "strides": "1,1"}, "a batch dim of 0"),
    ("MaxPool", "opset1", "1,0,10,10", {"kernel": "3,3", "strides": "1,1"}, "a channel dim of 0"),
    ("MaxPool", "opset1", "1,3,10,10", {"kernel": "0,3", "strides": "1,1"}, "is larger than the padded"),
    ("MaxPool", "opset8", "1,3,10,10", {"kernel": "3,3", "strides": "2,2", "axis": "4"}, "axis 4 is out"),
    ("MaxPool", "opset1", "1,3,10,10", {"kernel": "3,3", "strides": "2,2", "rounding_type": "x"},
     "attribute rounding_type"),
    ("MaxPool", "opset1", "1,3,10,10", {"kernel": "3,3", "strides": "0,1"}, "strides (0,1) holds a 0"),
    ("MaxPool", "opset8", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "dilations": "0,1"},
     "dilations (0,1) holds a 0"),
    ("MaxPool", "opset1", "3,10", {"kernel": "3", "strides": "2"}, "rank 3, 4 or 5"),
    ("MaxPool", "opset1", "1,3,10,10", {"kernel": "3,3", "strides": "2,2", "pads_begin": "1,1,1"},
     "pads_begin has 3 values"),
    ("AvgPool", "opset1", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "pads_begin": "3,0"},
     "larger than both pads"),
    ("AvgPool", "opset14", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "pads_begin": "-5,0"},
     "larger than both pads"),
    ("AvgPool", "opset16", "1,3,10,10", {"kernel": "3,3", "strides": "1,1", "dilations": "2"},
     "dilations has 1 value"),
])
def test_what_the_runtime_refuses(tmp_path, kind, version, data, attrs, words):
    outputs = 2 if kind == "MaxPool" and version != "opset1" else 1
    assert_refused(layer(kind, version, data, attrs, outputs), tmp_path, words)


def random_layer(rng):
    kind = rng.choice(["MaxPool", "AvgPool"])
    version = rng.choice(["opset1", "opset8", "opset14"] if kind == "MaxPool" else
                         ["opset1", "opset14", "opset16"])
    k = rng.randint(1, 3)
    kernel = [rng.randint(1, 4) for _ in range(k)]
    attrs = {"kernel": ",".join(map(str, kernel)),
             "strides": ",".join(str(rng.randint(1, 4)) for _ in range(k))}
    for name in ("pads_begin", "pads_end"):
        if rng.random() < 0.7:
            attrs[name] = ",".join(str(rng.randint(0, 3) if rng.random() < 0.95 else -2)
                                   for _ in range(k))
    if version != "opset1" and rng.random() < 0.6:
        attrs["dilations"] = ",".join(str(rng.randint(1, 3)) for _ in range(k))
    torch = ["ceil_torch"] * 2 if version != "opset1" else []
    attrs["rounding_type"] = rng.choice(["floor", "ceil"] + torch)
    if rng.random() < 0.5:
        attrs["auto_pad"] = rng.choice(["explicit", "valid", "same_upper", "same_lower"])
    if kind == "AvgPool":
        attrs["exclude-pad"] = rng.choice(["true", "false", "false"])

    def dim(n):
        roll = rng.random()
        return str(n) if roll < 0.7 else (f"{n}..{n + rng.randint(1, 6)}" if roll < 0.85 else "?")
    data = "..." if rng.random() < 0.05 else ",".join(
        dim(n) for n in [rng.randint(1, 2), rng.randint(1, 4)] + [rng.randint(1, 14) for _ in range(k)])
    return kind, layer(kind, version, data, attrs, 2 if kind == "MaxPool" and version != "opset1" else 1)


def test_random_pools_match_the_runtime(tmp_path):
    loaded = random_differential(random_layer, 7117, 300, tmp_path)
    assert loaded >= 200


def test_stale_declared_dims_name_the_pools(tmp_path):
    path = opcheck.compare(max_pool(8, [1, 3, 10, 10], [3, 3], [2, 2]), tmp_path, ["MaxPool"])
    assert opcheck.named(opcheck.mutate(path, "pool", 1, 2, 5), "pool")  # the indices output
    path = opcheck.compare(avg_pool(1, [1, 3, 10, 10], [3, 3], [2, 2]), tmp_path, ["AvgPool"], stem="a")
    assert opcheck.named(opcheck.mutate(path, "pool", 0, 3, 5), "pool")
