"""Proposal-1/-4 against the runtime: the notes' cases, random configurations both ways,
refusals and a stale dim."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.ovmodels import differential_batches, make, model_of, near_dims, param  # noqa: E402

B = dict(base_size=16, pre_nms_topn=6000, post_nms_topn=300, nms_thresh=0.7, feat_stride=16,
         min_size=16, ratio=[0.5, 1., 2.], scale=[8., 16., 32.])


def proposal(opset, shapes, attrs, ets=(np.float32,) * 3, name="prop"):
    params = [param(s, et) for s, et in zip(shapes, ets)]
    return make(opset, "Proposal", params, attrs, name)


@pytest.mark.parametrize("opset", ["opset1", "opset4"])
@pytest.mark.parametrize("shapes,attrs", [
    (([2, 18, 14, 14], [2, 36, 14, 14], [3]), B),
    (([2, 18, 14, 14], [2, 36, 14, 14], [4]), B),
    (([-1, 18, 14, 14], [2, 36, 14, 14], [3]), B),
    (([(1, 4), -1, -1, -1], [-1, -1, -1, -1], [-1]), B),
    ((None, None, None), B),
    (([2, 18, 14, 14], [2, 36, 15, 14], [3]), B),
    (([2, 18, 14, 14], [2, 36, 14, 14], [3]), dict(B, post_nms_topn=0)),
    (([2, 18, 14, 14], [2, 36, 14, 14], [3]), dict(B, framework="bogus")),
    (([2, 18, 14, 14], [2, 36, 14, 14], [(3, 5)]), B),
    ((None, [(1, 3), 36, 14, 14], [3]), B),
])
def test_the_runtime_cases(tmp_path, opset, shapes, attrs):
    opcheck.compare(model_of(proposal(opset, shapes, attrs)), tmp_path, ["Proposal"])


@pytest.mark.parametrize("opset", ["opset1", "opset4"])
def test_types(tmp_path, opset):
    shapes = ([2, 18, 14, 14], [2, 36, 14, 14], [3])
    opcheck.compare(model_of(proposal(opset, shapes, B, (np.float16,) * 3)), tmp_path, ["Proposal"])
    node = proposal(opset, shapes, B, (np.float32, np.float16, np.float32), "mixed")
    opcheck.compare(model_of(node), tmp_path, ["Proposal"], stem="mixed")


@pytest.mark.parametrize("version", ["opset1", "opset4"])
@pytest.mark.parametrize("topn,dim", [("-1", "?"), ("", None), ("-2", "0")])
def test_post_nms_topn_as_the_reader_reads_it(tmp_path, version, topn, dim):
    ir = IR()
    ins = [ir.parameter("2,18,14,14"), ir.parameter("2,36,14,14"), ir.parameter("3")]
    data = {} if not topn else {"post_nms_topn": topn}
    ir.result(ir.op("Proposal", ins, [[-1, 5]] + ([[-1]] if version == "opset4" else []), data,
                    version=version, name="victim"))
    path = ir.write(tmp_path)
    runtime = opcheck.runtime_shapes(path)["victim"]
    assert runtime[0] == f"[{dim if dim is not None else 0},5]"
    assert opcheck.irvalidate_shapes(path)["victim"]["outputs"][0]["inferred"] == runtime[0]


def _configs(rng, count):
    for _ in range(count):
        n, a = rng.choice([1, 2]), rng.choice([1, 3, 9])
        shapes = [[n, 2 * a, 14, 14], [n, 4 * a, rng.choice([14, 15]), 14], [rng.choice([3, 4])]]
        shapes = [near_dims(rng, s, other_rank=0) for s in shapes]
        if rng.random() < 0.05:
            shapes[rng.randrange(3)] = [2, 3]
        attrs = dict(B, post_nms_topn=rng.choice([0, 1, 300]))
        yield [(s, np.float32) for s in shapes], (rng.choice(["opset1", "opset4"]), attrs)


def test_random_configurations_against_the_runtime(tmp_path):
    build = lambda ps, extra, name: make(extra[0], "Proposal", ps, extra[1], name)  # noqa: E731
    compared, refused = differential_batches(tmp_path, _configs(random.Random(4), 300), build, ["Proposal"])
    assert compared > 150 and refused > 30, (compared, refused)


@pytest.mark.parametrize("shapes,ets,code,words", [
    (("2,18,14,14", "3,36,14,14", "3"), ("f32",) * 3, "IRV102", "batch"),
    (("2,18,14,14", "2,35,14,14", "3"), ("f32",) * 3, "IRV102", "4 per anchor"),
    (("2,18,14", "2,36,14,14", "3"), ("f32",) * 3, "IRV102", "4-D"),
    (("2,18,14,14", "2,36,14,14", "5"), ("f32",) * 3, "IRV102", "3 or 4"),
    (("2,18,14,14", "2,36,14,14", "3"), ("i32",) * 3, "IRV106", "floating point"),
])
def test_refusals(tmp_path, shapes, ets, code, words):
    ir = IR()
    ins = [ir.parameter(s, et) for s, et in zip(shapes, ets)]
    ir.result(ir.op("Proposal", ins, [[600, 5], [600]], {"post_nms_topn": "300"},
                    version="opset4", name="victim"))
    path = ir.write(tmp_path)
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == code]
    assert found and words in found[0].message and found[0].layer.name == "victim", found


@pytest.mark.parametrize("opset,port", [("opset1", 0), ("opset4", 0), ("opset4", 1)])
def test_a_stale_declared_dim_names_the_layer(tmp_path, opset, port):
    shapes = ([2, 18, 14, 14], [2, 36, 14, 14], [3])
    path = opcheck.compare(model_of(proposal(opset, shapes, B, name="victim")), tmp_path, ["Proposal"])
    assert opcheck.named(opcheck.mutate(path, "victim", port, 0, 599), "victim")
