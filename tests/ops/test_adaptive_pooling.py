"""AdaptiveAvgPool-8 and AdaptiveMaxPool-8 against the runtime: the notes' cases (output
sizes as Consts, Parameters and computed subgraphs), random layers both ways, refusals and a
stale dim."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset8  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.irsettle import assert_refused, differential, refused_ir  # noqa: E402
from support.ovvalues import computed, parameter  # noqa: E402

D = None


def model(kind, data, sizes, index="i64", et=np.float32):
    p = parameter(data, et)
    params = [p]
    if isinstance(sizes, tuple):
        source, value = computed(*sizes)
        params.append(source)
    elif isinstance(sizes, str):
        value = parameter([-1 if sizes == "?" else int(sizes)], np.int64)
        params.append(value)
    else:
        value = opset8.constant(np.array(sizes))
    if kind == "avg":
        node = opset8.adaptive_avg_pool(p, value, name="pool")
    else:
        node = opset8.adaptive_max_pool(p, value, index, name="pool")
    return ov.Model(node.outputs(), params)


@pytest.mark.parametrize("kind", ["avg", "max"])
@pytest.mark.parametrize("data,sizes", [
    ([1, 3, 10, 10], [2, 3]), ([(1, 2), -1, 10, 10], np.array([2, 3], dtype=np.int32)),
    ([1, 3, 10], [5]), ([1, 3, 10, 10, 10], [5, 6, 7]), ([1, 3, 10, 10], "2"), ([1, 3, 10, 10], "?"),
    (D, [2, 3]), ([1, 3, 10, 10], ([1, 2, (5, 8), -1], [2, 3])), ([1, 3, 10, 10], [0, 3]),
    ([1, 3, 10, 10], [-1, 3]), ([1, 3, 10, 10], [-2, 3]), ([1, 3, 10, 10], np.array([[2], [3]])),
    ([1, 3, 10, 10], np.array([2.7, 3.2], dtype=np.float32)),
])
def test_runtime_cases(tmp_path, kind, data, sizes):
    opcheck.compare(model(kind, data, sizes), tmp_path, ["AdaptiveAvgPool", "AdaptiveMaxPool"])


def test_indices_type_and_boolean_data(tmp_path):
    opcheck.compare(model("max", [1, 3, 10, 10], [2, 3], index="i32"), tmp_path, ["AdaptiveMaxPool"])
    opcheck.compare(model("avg", [1, 3, 10, 10], [2, 3], et=np.bool_), tmp_path, ["AdaptiveAvgPool"],
                    stem="b")


def layer(kind, data, sizes, attrs=None, version="opset8"):
    ir = IR()
    if isinstance(sizes, tuple):  # (values, shape, type)
        value = ir.const(sizes[0], sizes[2], shape=sizes[1])
    elif isinstance(sizes, str):
        value = ir.parameter(sizes, "i64")
    else:
        value = ir.const(sizes)
    outputs = [[1], [1]] if kind == "AdaptiveMaxPool" else [[1]]
    ir.result(ir.op(kind, [ir.parameter(data), value], outputs, attrs or {}, version=version, name="op"))
    return ir


@pytest.mark.parametrize("kind,data,sizes,attrs,words", [
    ("AdaptiveAvgPool", "1,3,10,10", [2, 3, 4], {}, "gives 3 spatial dims for the 2"),
    ("AdaptiveAvgPool", "1,3,10,10", ([2], [], "i64"), {}, "is a scalar"),
    ("AdaptiveAvgPool", "3,10", [2], {}, "must have rank 3, 4 or 5"),
    ("AdaptiveAvgPool", "1,3,10,10", ([2, 3, 4, 5], [2, 2], "i64"), {}, "holds 4 values"),
    ("AdaptiveMaxPool", "1,3,10,10", [2, 3], {"index_element_type": "f32"}, "must be i32 or i64"),
    ("AdaptiveMaxPool", "1,3,10,10", [2, 3], {"index_element_type": "u64"}, "must be i32 or i64"),
    ("AdaptiveAvgPool", "1,3,10,10", "3", {}, "gives 3 spatial dims"),
])
def test_what_the_runtime_refuses(tmp_path, kind, data, sizes, attrs, words):
    assert_refused(layer(kind, data, sizes, attrs), tmp_path, words)


def test_a_computed_negative_size_is_refused(tmp_path):
    ir = IR()
    shape_of = ir.op("ShapeOf", [ir.parameter("5..8,3")], [[2]], {"output_type": "i64"},
                     version="opset3", out_precision="I64")
    value = ir.op("Add", [shape_of, ir.const([-10, 0])], [[2]], out_precision="I64")
    ir.result(ir.op("AdaptiveAvgPool", [ir.parameter("1,3,10,10"), value], [[1]], version="opset8",
                    name="op"))
    assert "lower than zero" in refused_ir(ir, tmp_path)
    assert opcheck.named(ir.write(tmp_path, "mine"), "op")


def random_layer(rng):
    kind = rng.choice(["AdaptiveAvgPool", "AdaptiveMaxPool"])
    rank = rng.randint(3, 5) if rng.random() < 0.95 else 2
    data = "..." if rng.random() < 0.05 else ",".join(
        rng.choice(["1", "3", "?", "2..9", "10"]) for _ in range(rank))
    count = rank - 2 if rng.random() < 0.9 else rank - 1
    roll = rng.random()
    sizes = ([rng.randint(-2, 9) for _ in range(count)] if roll < 0.8 else
             str(count) if roll < 0.9 else "?")
    attrs = {"index_element_type": rng.choice(["i32", "i64"])} if kind == "AdaptiveMaxPool" else {}
    return layer(kind, data, sizes, attrs)


def test_random_adaptive_pools_match_the_runtime(tmp_path):
    rng = random.Random(88)
    loaded = sum(differential(random_layer(rng), tmp_path, ["AdaptiveAvgPool", "AdaptiveMaxPool"],
                              "op", stem=f"m{n}") for n in range(120))
    assert loaded >= 90


def test_a_stale_declared_dim_names_the_layer(tmp_path):
    path = opcheck.compare(model("max", [1, 3, 10, 10], [2, 3]), tmp_path, ["AdaptiveMaxPool"])
    assert opcheck.named(opcheck.mutate(path, "pool", 1, 3, 4), "pool")
