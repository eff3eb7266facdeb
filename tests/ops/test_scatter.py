"""ScatterUpdate, ScatterNDUpdate (v3, v15) and ScatterElementsUpdate (v3, v12) against the
runtime: the notes' cases, random configurations, refusals, stale dims, and ScatterUpdate's
value through a shape subgraph."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1, opset3  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import const, differential, model, param, random_dim, refusal  # noqa: E402


def build(kind, version, data, indices, updates, axis=None, attrs=None):
    x, i, u = param(data), param(indices, np.int64), param(updates)
    params = [x, i, u]
    inputs = [x, i, u]
    if axis == "unknown":
        params.append(param([], np.int64))
        inputs.append(params[-1])
    elif axis is not None:
        inputs.append(const(axis))
    node = NodeFactory(f"opset{version}").create(kind, inputs, attrs or {})
    node.set_friendly_name("s")
    return model(node, params)


@pytest.mark.parametrize("data,indices,updates,axis", [
    ([4, 3], [2], [2, 3], 0), ([4, 3], [2], [4, 2], 1), ([4, 3], [], [3], 0), ([4, 3], [2, 5], [2, 5, 3], 0),
    ([4, 3], [2], [(1, 3), (2, 5)], 0), ([(2, 6), -1], [2], [(1, 3), 5], 0), (None, [2], [2, 3], 5),
    ([4, 3], None, [2, 3], 1), ([4, 3], [2], [2, 3], "unknown"), ([4, 3], [2], [4, 2], -1),
])
def test_scatter_update(tmp_path, data, indices, updates, axis):
    opcheck.compare(build("ScatterUpdate", 3, data, indices, updates, axis), tmp_path, ["ScatterUpdate"])


@pytest.mark.parametrize("version,attrs", [(4, {}), (15, {"reduction": "sum"}), (15, {})])
@pytest.mark.parametrize("data,indices,updates", [
    ([4, 3], [2, 1], [2, 3]), ([4, 3], [2, 2], [2]), ([4, 3, 5], [2, 7, 1], [2, 7, 3, 5]),
    ([4, 3], [2, -1], [2, 3]), ([(2, 6), 3], [(1, 4), 1], [-1, 3]), (None, [2, 1], [2, 3]),
    ([4, 3], None, [2, 3]),
])
def test_scatter_nd_update(tmp_path, data, indices, updates, version, attrs):
    opcheck.compare(build("ScatterNDUpdate", version, data, indices, updates, None, attrs), tmp_path,
                    ["ScatterNDUpdate"])


@pytest.mark.parametrize("version,attrs", [(3, {}), (12, {"reduction": "mean", "use_init_val": False})])
@pytest.mark.parametrize("data,indices,updates,axis", [
    ([4, 3], [2, 3], [2, 3], 0), ([4, 3], [7, 7], [7, 7], -1), ([], [], [], 0), ([(2, 6), 3], [-1, 3], [2, (1, 4)], 1),
    (None, [2, 3], [2, 3], 5), ([4, 3], [2, 3], [2, 3], "unknown"),
])
def test_scatter_elements_update(tmp_path, data, indices, updates, axis, version, attrs):
    opcheck.compare(build("ScatterElementsUpdate", version, data, indices, updates, axis, attrs), tmp_path,
                    ["ScatterElementsUpdate"])


def test_random_scatters_match_the_runtime(tmp_path):
    rng = random.Random(31)
    done = 0
    for n in range(120):
        rd = rng.randint(1, 3)
        data = [random_dim(rng) for _ in range(rd)]
        kind = rng.choice(["ScatterUpdate", "ScatterNDUpdate", "ScatterElementsUpdate"])
        if kind == "ScatterUpdate":
            indices = [random_dim(rng) for _ in range(rng.randint(0, 2))]
            a = rng.randrange(rd)
            updates = data[:a] + indices + data[a + 1:]
            args = (kind, 3, data, indices, updates, a)
        elif kind == "ScatterNDUpdate":
            k = rng.randint(0, rd)
            indices = [random_dim(rng) for _ in range(rng.randint(0, 2))] + [k]
            updates = indices[:-1] + data[k:]
            args = (kind, rng.choice([4, 15]), data, indices, updates, None)
        else:
            indices = [random_dim(rng) for _ in range(rd)]
            args = (kind, rng.choice([3, 12]), data, indices, list(indices), rng.randrange(-rd, rd))
        done += differential(lambda: build(*args), tmp_path, [kind], f"s{n}")
    assert done > 80


def _ir(kind, data, indices, updates, axis=None, version="opset3", attrs=None, uet="f32", iet="i64"):
    def make():
        ir = IR()
        inputs = [ir.parameter(data), ir.parameter(indices, iet), ir.parameter(updates, uet)]
        if axis is not None:
            inputs.append(ir.const([axis], shape=[]))
        ir.result(ir.op(kind, inputs, [[9]], attrs or {}, version=version))
        return ir
    return make


@pytest.mark.parametrize("make,kind,words", [
    (_ir("ScatterUpdate", "4,3", "2", "2,4", 0), "ScatterUpdate", "dim 1 differs"),
    (_ir("ScatterUpdate", "4,3", "2", "2", 0), "ScatterUpdate", "rank"),
    (_ir("ScatterUpdate", "4,3", "2", "2,3", 5), "ScatterUpdate", "out of the range"),
    (_ir("ScatterUpdate", "4,3", "2", "2,3", 0, uet="i32"), "ScatterUpdate", "element type"),
    (_ir("ScatterNDUpdate", "4,3", "2,3", "2", version="opset4"), "ScatterNDUpdate", "exceeds the rank"),
    (_ir("ScatterNDUpdate", "4,3", "2,1", "2", version="opset4"), "ScatterNDUpdate", "rank"),
    (_ir("ScatterNDUpdate", "4,3", "2,1", "2,4", version="opset4"), "ScatterNDUpdate", "dim 1 differs"),
    (_ir("ScatterNDUpdate", "4,3", "2,1", "2,3", version="opset4", iet="u8"), "ScatterNDUpdate", "i32 or i64"),
    (_ir("ScatterNDUpdate", "4,3", "2,1", "2,3", version="opset15", attrs={"reduction": "mean"}),
     "ScatterNDUpdate", "reduction"),
    (_ir("ScatterElementsUpdate", "4,3", "2", "2", 0), "ScatterElementsUpdate", "rank of data"),
    (_ir("ScatterElementsUpdate", "4,3", "2,3", "2,4", 0), "ScatterElementsUpdate", "one shape"),
    (_ir("ScatterElementsUpdate", "4,3", "2,3", "2,3", 2), "ScatterElementsUpdate", "out of the range"),
    (_ir("ScatterElementsUpdate", "4,3", "2,3", "2,3", 0, version="opset12", attrs={"reduction": "sub"}),
     "ScatterElementsUpdate", "reduction"),
])
def test_what_the_runtime_refuses(tmp_path, make, kind, words):
    refusal(tmp_path, make, kind, words)


def test_stale_dims_name_the_scatter(tmp_path):
    path = opcheck.compare(build("ScatterUpdate", 3, [4, 3], [2], [2, 3], 0), tmp_path, ["ScatterUpdate"])
    assert opcheck.named(opcheck.mutate(path, "s", 0, 0, 5), "s")


def test_a_scattered_shape_value_drives_a_reshape(tmp_path):
    # ShapeOf(x[2..5,3,4]) with element 1 replaced by 12, element 2 by 1: [2..5,12,1]
    x = param([(2, 5), 3, 4])
    s = opset3.scatter_update(opset1.shape_of(x), const([1, 2]), const([12, 1]), const(0))
    s.set_friendly_name("s")
    y = param(None)
    r = opset1.reshape(y, s, False)
    r.set_friendly_name("r")
    path = opcheck.compare(model(r, [x, y]), tmp_path, ["Reshape", "ScatterUpdate"])
    assert opcheck.runtime_shapes(path)["r"] == ["[2..5,12,1]"]
