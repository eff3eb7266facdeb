"""Gather (v1, v7, v8), GatherND (v5, v8) and GatherElements against the runtime: the notes'
cases, computed axes, random configurations, refusals, stale dims, and Gather's value with
batch_dims through a shape subgraph."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import (  # noqa: E402
    both_ways,
    computed_scalar,
    const,
    differential,
    model,
    param,
    random_dim,
    refusal,
    shape_text,
)


def gather(data, indices, axis, batch=0, version=8, iet=np.int64):
    x = param(data)
    params = [x]
    i = param(indices, iet)
    params.append(i)
    a = axis(params) if callable(axis) else (const(axis) if not isinstance(axis, str) else
                                             params.append(param([], np.int64)) or params[-1])
    attrs = {} if version == 1 else {"batch_dims": batch}
    node = NodeFactory(f"opset{version}").create("Gather", [x, i, a], attrs)
    node.set_friendly_name("g")
    return model(node, params)


@pytest.mark.parametrize("version", [1, 7, 8])
@pytest.mark.parametrize("data,indices,axis", [
    ([2, 3, 4], [2], 1), ([2, 3, 4], [], 1), ([2, 3, 4], [1, 3], -1), ([2, 3, 4], [1], [1]),
    ([5], [], 0), ([5], [(1, 3), -1], 0), ([(1, 8), -1, 4], [(2, 5)], 1), (None, [2, 3], 0),
    ([2, 3], None, 0), ([2, 3, 4], [2], "unknown"), ([2, 3, 4], [2], lambda ps: computed_scalar(2, params=ps)),
    ([2, 3, 4], [2], lambda ps: computed_scalar((1, 2), params=ps)),
])
def test_gather_runtime_cases(tmp_path, data, indices, axis, version):
    opcheck.compare(gather(data, indices, axis, 0, version), tmp_path, ["Gather"])


@pytest.mark.parametrize("version", [7, 8])
@pytest.mark.parametrize("data,indices,axis,batch", [
    ([2, 3, 4], [2, 5], 1, 1), ([2, 3, 4], [2, 5], 2, 1), ([2, 3, 4], [2, 5], -1, -1),
    ([2, 3, 4], [2, 3], 2, 2), ([(1, 4), 3, 4], [(2, 6), 5], 1, 1), ([-1, 3, 4], [2, 5], 2, 1),
    ([2, 3, 4], [2, 5], "unknown", 1), ([(1, 3), 4], [(2, 6), 5], "unknown", 1),
    ([3, 4], [3, 4, 5], "unknown", 2),
])
def test_gather_batch_dims(tmp_path, data, indices, axis, batch, version):
    opcheck.compare(gather(data, indices, axis, batch, version), tmp_path, ["Gather"])


def test_v1_takes_float_indices(tmp_path):
    opcheck.compare(gather([2, 3, 4], [1], 0, 0, 1, np.float32), tmp_path, ["Gather"])


def test_random_gathers_match_the_runtime(tmp_path):
    rng = random.Random(3)
    done = 0
    for n in range(200):
        version = rng.choice([1, 7, 8])
        rd, ri = rng.randint(1, 4), rng.randint(0, 3)
        data = [random_dim(rng) for _ in range(rd)]
        indices = [random_dim(rng) for _ in range(ri)]
        batch = 0 if version == 1 or rng.random() < 0.5 else rng.randint(-ri, min(ri, rd - 1))
        b = batch + ri if batch < 0 else batch
        for i in range(min(b, rd, ri)):
            indices[i] = data[i] if rng.random() < 0.7 else rng.choice([-1, (1, 8)])
        axis = rng.randint(-rd, rd - 1)
        if rng.random() < 0.1:
            axis = "unknown"
        if rng.random() < 0.05:
            data = None
        done += differential(lambda: gather(data, indices, axis, batch, version), tmp_path,
                             ["Gather"], f"g{n}")
    assert done > 100


def test_random_constant_gathers_refused_or_not_as_the_runtime(tmp_path):
    rng = random.Random(4)
    compared = 0
    for n in range(120):
        rd, ri = rng.randint(0, 3), rng.randint(0, 3)
        data = [random_dim(rng) for _ in range(rd)]
        indices = [random_dim(rng) for _ in range(ri)]
        # (below -ri the runtime builds garbage, refused here on purpose: tested on its own)
        batch = rng.randint(-ri, ri + 1)
        for i in range(min(rd, ri)):
            if rng.random() < 0.6:
                indices[i] = data[i]
        axis = rng.randint(-rd - 1, rd)
        compared += both_ways(lambda: gather(data, indices, axis, batch, 8),
                              _gather_ir(shape_text(data), shape_text(indices), [axis], batch),
                              tmp_path, ["Gather"], f"g{n}")
    assert 20 < compared < 110


def _gather_ir(data, indices, axis, batch=None, version="opset8", axis_shape=None, data_et="f32"):
    def build():
        ir = IR()
        x = ir.parameter(data, data_et)
        i = ir.parameter(indices, "i64")
        attrs = {} if batch is None else {"batch_dims": str(batch)}
        ir.result(ir.op("Gather", [x, i, ir.const(axis, shape=axis_shape)], [[9]], attrs,
                        version=version))
        return ir
    return build


def _gather_unknown_axis(data, indices, batch):
    def build():
        ir = IR()
        x, i, a = ir.parameter(data), ir.parameter(indices, "i64"), ir.parameter("", "i64")
        ir.result(ir.op("Gather", [x, i, a], [[9]], {"batch_dims": str(batch)}, version="opset8"))
        return ir
    return build


@pytest.mark.parametrize("build,words", [
    (_gather_ir("2,3,4", "1", [3]), "out of the range"),
    (_gather_ir("2,3,4", "2,3", [1], 2), "must not exceed the axis"),
    (_gather_ir("2,3,4", "3,5", [1], 1), "batch dim 0"),
    (_gather_ir("2,3,4", "2", [1, 2]), "one element"),
    (_gather_ir("", "", [0]), "scalar"),
    (_gather_unknown_axis("3", "3", 1), "no dim to gather from"),
    (_gather_unknown_axis("3", "3,2", 2), "no dim to gather from"),
])
def test_gather_refusals(tmp_path, build, words):
    refusal(tmp_path, build, "Gather", words)


def test_a_batch_dims_below_the_indices_rank_is_refused(tmp_path, run):
    # the runtime gives a meaningless [2,5,2,5,4] for it, refused here
    ir = IR()
    x, i = ir.parameter("2,3,4"), ir.parameter("2,5", "i64")
    ir.result(ir.op("Gather", [x, i, ir.const([1])], [[2, 5, 2, 5, 4]], {"batch_dims": "-3"},
                    version="opset8"))
    assert "IRV104" in {f.code for f in run(ir)}


def test_v1_ignores_batch_dims(tmp_path, run):
    ir = IR()
    x, i = ir.parameter("2,3,4"), ir.parameter("2,5", "i64")
    ir.result(ir.op("Gather", [x, i, ir.const([1])], [[2, 2, 5, 4]], {"batch_dims": "1"}))
    found = {f.code for f in run(ir)}
    assert "IRV101" not in found and "IRV108" in found


def gather_nd(data, indices, batch, version):
    x, i = param(data), param(indices, np.int64)
    node = NodeFactory(f"opset{version}").create("GatherND", [x, i], {"batch_dims": batch})
    node.set_friendly_name("g")
    return model(node, [x, i])


@pytest.mark.parametrize("version", [5, 8])
@pytest.mark.parametrize("data,indices,batch", [
    ([2, 3, 4], [5, 2], 0), ([2, 3, 4], [5, 3], 0), ([2, 3, 4], [2], 0), ([2, 3, 4], [5, 0], 0),
    ([2, 3, 4], [2, 1], 1), ([2, 3, 4], [2, 3, 1], 2), ([2, 3, 4], [2, 3, 5, 1], 2),
    ([(1, 4), 3, 4], [(2, 6), 1], 1), ([-1, 3, 4], [2, 7, 1], 1),
    ([-1, (2, 3), 4], [-1, (2, 3), 5, 1], 2), ([2, 3, 4], [5, -1], 0), (None, [5, 2], 0),
    ([2, 3, 4], None, 0),
])
def test_gather_nd_runtime_cases(tmp_path, data, indices, batch, version):
    opcheck.compare(gather_nd(data, indices, batch, version), tmp_path, ["GatherND"])


def test_random_gather_nds_match_the_runtime(tmp_path):
    rng = random.Random(9)
    done = 0
    for n in range(80):
        rd, ri = rng.randint(1, 4), rng.randint(1, 4)
        batch = rng.randint(0, min(rd, ri) - 1)
        data = [random_dim(rng) for _ in range(rd)]
        indices = [data[i] if i < batch else random_dim(rng) for i in range(ri)]
        indices[-1] = rng.randint(0, rd - batch)
        done += differential(lambda: gather_nd(data, indices, batch, rng.choice([5, 8])),
                             tmp_path, ["GatherND"], f"n{n}")
    assert done > 40


def gather_elements(data, indices, axis):
    x, i = param(data), param(indices, np.int64)
    node = NodeFactory("opset6").create("GatherElements", [x, i], {"axis": axis})
    node.set_friendly_name("g")
    return model(node, [x, i])


@pytest.mark.parametrize("data,indices,axis", [
    ([2, 3, 4], [2, 3, 4], 0), ([2, 3, 4], [7, 3, 4], 0), ([2, 3, 4], [2, 3, 7], -1),
    ([2, -1, 4], [-1, 3, (1, 6)], 2), ([(1, 5), 3], [(3, 8), 3], 1), ([(1, 5), 3], [(3, 8), 3], 0),
    ([2, 3], [2, 0], 1), (None, [2, 3], 1), ([2, 3], None, 1), (None, None, 0),
])
def test_gather_elements_runtime_cases(tmp_path, data, indices, axis):
    opcheck.compare(gather_elements(data, indices, axis), tmp_path, ["GatherElements"])


def _two_ir(kind, data, indices, attrs, version, iet="i64"):
    def build():
        ir = IR()
        x, i = ir.parameter(data), ir.parameter(indices, iet)
        ir.result(ir.op(kind, [x, i], [[9]], attrs, version=version))
        return ir
    return build


@pytest.mark.parametrize("build,kind,words", [
    (_two_ir("GatherND", "2,3,4", "4", {}, "opset8"), "GatherND", "exceed the rank"),
    (_two_ir("GatherND", "2,3,4", "3,1", {"batch_dims": "1"}, "opset8"), "GatherND", "batch dim 0"),
    (_two_ir("GatherND", "2,3", "1", {"batch_dims": "1"}, "opset5"), "GatherND", "below the rank"),
    (_two_ir("GatherND", "", "1", {}, "opset8"), "GatherND", "scalar"),
    (_two_ir("GatherND", "2,3", "1", {"batch_dims": "-1"}, "opset8"), "GatherND", None),
    (_two_ir("GatherElements", "2,3,4", "2,7,4", {"axis": "0"}, "opset6"), "GatherElements", "dim 1"),
    (_two_ir("GatherElements", "2,3,4", "2,3", {"axis": "0"}, "opset6"), "GatherElements", "same rank"),
    (_two_ir("GatherElements", "2,3", "2,5", {}, "opset6"), "GatherElements", "dim 1"),
    (_two_ir("GatherElements", "2,3", "2,3", {"axis": "2"}, "opset6"), "GatherElements", "out of the range"),
    (_two_ir("GatherElements", "2,3", "2,3", {}, "opset6", "u8"), "GatherElements", "i32 or i64"),
])
def test_nd_and_elements_refusals(tmp_path, build, kind, words):
    refusal(tmp_path, build, kind, words)


def test_stale_dims_name_the_gathers(tmp_path):
    path = opcheck.compare(gather([2, 3, 4], [2], 1), tmp_path, ["Gather"])
    assert opcheck.named(opcheck.mutate(path, "g", 0, 1, 7), "g")
    path = opcheck.compare(gather_nd([2, 3, 4], [5, 2], 0, 8), tmp_path, ["GatherND"], stem="n")
    assert opcheck.named(opcheck.mutate(path, "g", 0, 0, 7), "g")


@pytest.mark.parametrize("batch,axis,indices,source", [
    (1, 1, [[1], [0]], [2, (3, 9)]), (0, 0, [[1, 0]], [5, (2, 4)]), (-1, 1, [[0], [0]], [(1, 3), 4]),
    (1, 1, [[3], [-1]], [2, (3, 9)]),
])
def test_gather_values_with_batch_dims_follow_the_runtime(tmp_path, batch, axis, indices, source):
    # a 2-D shape value (Reshape of ShapeOf to [2,1] ... via Concat/Unsqueeze), gathered with
    # batch_dims, then flattened into a Reshape target: irvalidate reads what read_model reads
    x = param(source)
    s = opset1.shape_of(x)
    stacked = opset1.reshape(opset1.concat([s, s], 0), const([2, 2]), False)
    g = NodeFactory("opset8").create("Gather", [stacked, const(indices), const(axis)],
                                     {"batch_dims": batch})
    target = opset1.reshape(g, const([-1]), False)
    y = param([-1] * int(np.prod(np.array(indices).shape) * 1))
    y = param(None)
    r = opset1.reshape(y, target, False)
    r.set_friendly_name("r")
    opcheck.compare(model(r, [x, y]), tmp_path, ["Reshape", "Gather"])
