"""GenerateProposals-9 against the runtime: the notes' cases, the batch merged across inputs,
attribute checks and defaults, random configurations, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import both_ways, model, near_shape, param, refusal, shape_text  # noqa: E402

_ET = {"f32": np.float32, "f16": np.float16, "i32": np.int32}
ATTRS = dict(min_size=0.0, nms_threshold=0.7, post_nms_count=100, pre_nms_count=1000, normalized=True,
             nms_eta=1.0, roi_num_type="i64")
S = [[2, 3], [10, 12, 3, 4], [2, 12, 10, 12], [2, 3, 10, 12]]


def proposals(shapes, attrs=None, types=("f32",) * 4):
    params = [param(s, _ET[t]) for s, t in zip(shapes, types)]
    node = NodeFactory("opset9").create("GenerateProposals", params, {**ATTRS, **(attrs or {})})
    node.set_friendly_name("gp")
    return model(node, params)


def proposals_ir(shapes, attrs=None, types=("f32",) * 4, data=None):
    def build():
        ir = IR()
        refs = [ir.parameter(shape_text(s), t) for s, t in zip(shapes, types)]
        written = data if data is not None else {
            k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in {**ATTRS, **(attrs or {})}.items()}
        layer = ir.op("GenerateProposals", refs, [[9], [9], [9]], written, version="opset9", name="gp")
        for k in range(3):
            ir.result(layer.__class__(layer.layer, str(len(refs) + k), [9], layer.precision))
        return ir
    return build


@pytest.mark.parametrize("shapes,attrs,types", [
    (S, {}, ("f32",) * 4), ([[2, 4]] + S[1:], {"roi_num_type": "i32"}, ("f32",) * 4),
    ([[(1, 3), 3], [-1, -1, -1, 4], [-1, 12, 10, 12], [(2, 5), 3, 10, 12]], {}, ("f32",) * 4),
    ([None] * 4, {}, ("f32",) * 4), ([[(1, 3), (2, 5)], None, None, None], {}, ("f32",) * 4),
    ([[(1, 3), (2, 5)], None, None, [(5, 9), -1, -1, -1]], {}, ("f32",) * 4),
    ([[(1, 3), (2, 5)], None, [7, -1, -1, -1], None], {}, ("f32",) * 4),
    ([S[0], S[1], [2, (8, 13), 10, 12], S[3]], {}, ("f32",) * 4),
    (S, {}, ("f16", "f32", "f32", "f32")), (S, {}, ("i32", "f32", "f32", "f32")),
    ([[0, 3], S[1], [0, 12, 10, 12], [0, 3, 10, 12]], {}, ("f32",) * 4),
    ([[(2, 2 ** 62), 3], None, None, None], {}, ("f32",) * 4),
    ([[-1, 3], None, None, None], {"post_nms_count": 1}, ("f32",) * 4),
    (S, {"post_nms_count": 2 ** 62}, ("f32",) * 4),
])
def test_runtime_cases(tmp_path, shapes, attrs, types):
    opcheck.compare(proposals(shapes, attrs, types), tmp_path, ["GenerateProposals"])


@pytest.mark.parametrize("name,value,loads", [
    ("nms_eta", "1.00000001", True), ("nms_eta", "0.99999999", True), ("nms_eta", "1.0000001", False),
    ("nms_eta", "0.5", False), ("nms_eta", None, True), ("normalized", None, True), ("roi_num_type", None, True),
    ("roi_num_type", "I32", True), ("roi_num_type", "u8", False), ("roi_num_type", "dynamic", False),
    ("roi_num_type", "i32 ", False), ("post_nms_count", None, False), ("pre_nms_count", None, False),
    ("post_nms_count", "-1", False), ("post_nms_count", "1.5", True), ("pre_nms_count", "abc", False),
])
def test_attributes_as_the_reader_reads_them(tmp_path, name, value, loads):
    data = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in ATTRS.items()}
    if value is None:
        del data[name]
    else:
        data[name] = value
    build = proposals_ir(S, data=data)
    if loads:
        path = build().write(tmp_path)
        runtime = opcheck.runtime_shapes(path)["gp"]
        row = opcheck.irvalidate_shapes(path)["gp"]
        assert [o["inferred"] for o in row["outputs"]] == runtime
    else:
        refusal(tmp_path, build, "GenerateProposals", name)


def _random(rng):
    b, a, h, w = rng.choice([1, 2, 3]), rng.choice([1, 3]), rng.choice([5, 10]), rng.choice([6, 12])

    def s(dims):
        return near_shape(rng, dims, same=0.78, close=0.95)
    shapes = [s([b, rng.choice([3, 4])]), s([h, w, a, 4]), s([b, 4 * a, h, w]), s([b, a, h, w])]
    return shapes, {"post_nms_count": rng.choice([1, 7, 100]), "roi_num_type": rng.choice(["i32", "i64"])}


def test_random_configurations_match_the_runtime(tmp_path):
    rng = random.Random(9)
    compared = 0
    for n in range(120):
        shapes, attrs = _random(rng)
        types = tuple(rng.choice(["f32", "f16"]) for _ in range(4))
        compared += both_ways(lambda: proposals(shapes, attrs, types), proposals_ir(shapes, attrs, types),
                              tmp_path, ["GenerateProposals"], f"m{n}")
    assert compared > 50


@pytest.mark.parametrize("shapes,words", [
    ([[2, 5]] + S[1:], "3 or 4 columns"), ([[3, 3]] + S[1:], "deltas [2,12,10,12] and im_info [3,3]"),
    (S[:3] + [[3, 3, 10, 12]], "same batch"), ([S[0], S[1], [2, 8, 10, 12], S[3]], "4 channels per anchor"),
    ([S[0], [10, 12, 4, 4]] + S[2:], "same number of anchors"), ([S[0], [10, 12, 3, 5]] + S[2:], "4 values"),
    ([S[0], [11, 12, 3, 4]] + S[2:], "same height"), ([S[0], [10, 13, 3, 4]] + S[2:], "same width"),
    (S[:3] + [[2, 3, 11, 12]], "same height"), (S[:3] + [[2, 3, 10, 13]], "same width"),
    ([[3]] + S[1:], "2-D"), ([S[0], [10, 12, 3]] + S[2:], "4-D"), (S[:2] + [[2, 12, 10], S[3]], "4-D"),
    (S[:3] + [[2, 3, 10]], "4-D"), (S[:3], "takes 4 inputs"),
])
def test_what_the_runtime_refuses(tmp_path, shapes, words):
    refusal(tmp_path, proposals_ir(shapes, types=("f32",) * len(shapes)), "GenerateProposals", words)


def test_roi_num_takes_its_own_type_and_a_stale_dim_is_named(tmp_path):
    path = opcheck.compare(proposals(S, {"roi_num_type": "i32"}), tmp_path, ["GenerateProposals"])
    # the serializer's own file: no finding at all (no unread attribute, no warning)
    assert not [f for f in validate_file(str(path)).findings if f.layer is not None and f.layer.name == "gp"]
    assert opcheck.named(opcheck.mutate(path, "gp", 2, 0, 3), "gp")
    assert opcheck.named(opcheck.mutate(path, "gp", 0, 1, 5), "gp")
