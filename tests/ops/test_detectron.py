"""The ExperimentalDetectron ops (DetectionOutput, GenerateProposalsSingleImage,
PriorGridGenerator, ROIFeatureExtractor, TopKROIs) against the runtime: the notes' cases,
attribute defaults, random configurations (compared, or refused on both sides), refusals and
stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import both_ways, model, near_shape, param, refusal, shape_text  # noqa: E402

_ET = {"f32": np.float32, "f16": np.float16, "f64": np.float64, "i32": np.int32}
DETECTION = "ExperimentalDetectronDetectionOutput"
PROPOSALS = "ExperimentalDetectronGenerateProposalsSingleImage"
GRID = "ExperimentalDetectronPriorGridGenerator"
FEATURES = "ExperimentalDetectronROIFeatureExtractor"
TOPK = "ExperimentalDetectronTopKROIs"
ATTRS = {
    DETECTION: dict(score_threshold=0.05, nms_threshold=0.5, max_delta_log_wh=4.0, num_classes=5,
                    post_nms_count=100, max_detections_per_image=50, class_agnostic_box_regression=False,
                    deltas_weights=[10.0, 10.0, 5.0, 5.0]),
    PROPOSALS: dict(min_size=0.0, nms_threshold=0.7, post_nms_count=1000, pre_nms_count=1000),
    GRID: dict(flatten=True, h=0, w=0, stride_x=4.0, stride_y=4.0),
    FEATURES: dict(output_size=7, sampling_ratio=2, pyramid_scales=[4, 8, 16], aligned=False),
    TOPK: dict(max_rois=10),
}


def _text(value):
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def op(kind, shapes, attrs=None, et="f32", types=None):
    types = types or [et] * len(shapes)
    params = [param(s, _ET[t]) for s, t in zip(shapes, types)]
    node = NodeFactory("opset6").create(kind, params, {**ATTRS[kind], **(attrs or {})})
    node.set_friendly_name("ed")
    return model(node, params)


def op_ir(kind, shapes, attrs=None, et="f32", types=None, data=None, version="opset6"):
    """The layer by hand: ``data`` replaces the attributes as written (None: ATTRS + attrs)."""
    def build():
        ir = IR()
        refs = [ir.parameter(shape_text(s), t) for s, t in zip(shapes, types or [et] * len(shapes))]
        written = data if data is not None else {k: _text(v) for k, v in {**ATTRS[kind], **(attrs or {})}.items()}
        outs = {DETECTION: 3, PROPOSALS: 2, FEATURES: 2}.get(kind, 1)
        layer = ir.op(kind, refs, [[9]] * outs, written, version=version, name="ed")
        for k in range(outs):
            ir.result(layer.__class__(layer.layer, str(len(refs) + k), [9], layer.precision))
        return ir
    return build


D = [[100, 4], [100, 20], [100, 5], [1, 3]]


@pytest.mark.parametrize("shapes,attrs,et", [
    (D, {}, "f32"), ([[(50, 150), 4], [-1, 20], [-1, -1], [1, 3]], {}, "f32"), ([None] * 4, {}, "f32"),
    (D, {}, "f16"), (D, {}, "f64"), (D, {"max_detections_per_image": 0}, "f32"),
    (D, {"max_detections_per_image": -1}, "f32"), (D, {"max_detections_per_image": -7}, "f32"),
    ([[100, 4], [100, 0], [100, 5], [1, 3]], {"num_classes": -1}, "f32"),
    ([[(50, 150), 4], [(160, 170), 20], None, [1, 3]], {}, "f32"),
    ([[100, (2, 5)], [100, (10, 30)], [100, (0, 5)], [(1, 2), -1]], {}, "f32"),
])
def test_detection_output_runtime_cases(tmp_path, shapes, attrs, et):
    opcheck.compare(op(DETECTION, shapes, attrs, et), tmp_path, [DETECTION])


P = [[3], [4800, 4], [12, 40, 40], [3, 40, 40]]


@pytest.mark.parametrize("shapes,attrs,et", [
    (P, {}, "f32"), ([[(2, 4)], [-1, (3, 5)], [12, (30, 50), 40], [3, 40, (30, 40)]], {}, "f32"),
    ([None] * 4, {}, "f32"), (P, {}, "f16"), (P, {"post_nms_count": -1}, "f32"), (P, {"post_nms_count": -5}, "f32"),
    ([[3], [4800, 4], [12, 40, 40], None], {"post_nms_count": 0}, "f32"),
])
def test_generate_proposals_single_image_runtime_cases(tmp_path, shapes, attrs, et):
    opcheck.compare(op(PROPOSALS, shapes, attrs, et), tmp_path, [PROPOSALS])


G = [[3, 4], [1, 256, 10, 12], [1, 3, 40, 48]]


@pytest.mark.parametrize("flatten", [True, False])
@pytest.mark.parametrize("shapes", [
    G, [[3, 4], [1, 256, (5, 10), -1], [1, 3, 40, 48]], [[3, 4], [1, 256, (5, 10), (2, 3)], [1, 3, 40, 48]],
    [[(1, 3), 4], [1, 256, (5, 10), (2, 3)], [1, 3, 40, 48]], [None, None, None], [[3, 4], None, [1, 3, 40, 48]],
    [None, [1, 256, 10, 12], None], [[3, 4], [2, 256, 10, 12], None], [[3, 4], [1, 256, 0, 12], [1, 3, 40, 48]],
    [[-1, 4], [(1, 2), 8, (3, -1), 5], [(2, 4), 3, 40, 48]],
])
def test_prior_grid_generator_runtime_cases(tmp_path, shapes, flatten):
    opcheck.compare(op(GRID, shapes, {"flatten": flatten, "h": 7, "w": 9}), tmp_path, [GRID])


F = [[100, 4], [1, 256, 80, 80], [1, 256, 40, 40], [1, 256, 20, 20]]


@pytest.mark.parametrize("shapes,attrs,et", [
    (F, {}, "f32"), ([[(50, 200), 4], [1, -1, 80, 80], [1, (200, 300), 40, 40], [-1, 256, 20, 20]], {}, "f32"),
    ([None, None], {}, "f32"), (F, {}, "f16"), (F[:2], {"output_size": -1}, "f32"), (F[:2], {"output_size": -3}, "f32"),
    ([[100, (3, 5)], [(0, 2), (1, 300), 80, 80], None, [1, (200, 400), 1, 1]], {}, "f32"),
    ([None, [1, -1, 8, 8], [1, 16, 4, 4]], {"output_size": 2}, "f32"),
])
def test_roi_feature_extractor_runtime_cases(tmp_path, shapes, attrs, et):
    opcheck.compare(op(FEATURES, shapes, attrs, et), tmp_path, [FEATURES])


@pytest.mark.parametrize("shapes,max_rois,et", [
    ([[100, 4], [100]], 10, "f32"), ([[-1, 4], [(50, 150)]], 10, "f32"), ([None, None], 10, "f32"),
    ([[100, 4], [100]], -1, "f32"), ([[100, 4], [100]], -4, "f32"), ([[100, 4], [100]], 1000, "f64"),
    ([[(2, 8), (3, 6)], [(5, 9)]], 0, "f16"),
])
def test_topk_rois_runtime_cases(tmp_path, shapes, max_rois, et):
    opcheck.compare(op(TOPK, shapes, {"max_rois": max_rois}, et), tmp_path, [TOPK])


@pytest.mark.parametrize("kind,shapes,missing,want", [
    (DETECTION, D, "max_detections_per_image", "[0,4]"), (PROPOSALS, P, "post_nms_count", "[0,4]"),
    (GRID, G, "flatten", "[10,12,3,4]"), (FEATURES, F[:2], "output_size", "[100,256,0,0]"),
    (TOPK, [[100, 4], [100]], "max_rois", "[0,4]"),
])
def test_a_missing_attribute_keeps_the_constructor_default(tmp_path, kind, shapes, missing, want):
    data = {k: _text(v) for k, v in ATTRS[kind].items() if k != missing}
    path = op_ir(kind, shapes, data=data)().write(tmp_path)
    runtime = opcheck.runtime_shapes(path)["ed"]
    assert runtime[0] == want
    assert [o["inferred"] for o in opcheck.irvalidate_shapes(path)["ed"]["outputs"]] == runtime


def test_experimental_version_reads_as_opset6(tmp_path):
    path = op_ir(TOPK, [[100, 4], [100]], version="experimental")().write(tmp_path)
    assert opcheck.runtime_shapes(path)["ed"] == ["[10,4]"]
    assert [o["inferred"] for o in opcheck.irvalidate_shapes(path)["ed"]["outputs"]] == ["[10,4]"]


def _shape(rng, dims):
    return near_shape(rng, dims, dynamic=0.08, extra_axis=0.04, same=0.7, close=0.9)


def _random(rng, kind):
    if kind == DETECTION:
        c = rng.choice([1, 3, 5])
        r = rng.choice([10, 100])
        return [_shape(rng, d) for d in ([r, 4], [r, 4 * c], [r, c], [1, 3])], {
            "num_classes": c, "max_detections_per_image": rng.choice([0, 7, 50, -1])}
    if kind == PROPOSALS:
        h, w = rng.choice([(10, 12), (40, 40)])
        return [_shape(rng, d) for d in ([3], [h * w * 3, 4], [12, h, w], [3, h, w])], {
            "post_nms_count": rng.choice([0, 10, 1000])}
    if kind == GRID:
        n = rng.choice([1, 2])
        return [_shape(rng, d) for d in ([3, 4], [n, 16, 10, 12], [n, 3, 40, 48])], {
            "flatten": rng.random() < 0.5}
    if kind == FEATURES:
        levels = [[1, 16, s, s] for s in rng.sample([40, 20, 10, 5], rng.randint(1, 3))]
        return [_shape(rng, d) for d in [[50, 4]] + levels], {"output_size": rng.choice([1, 7, 14])}
    r = rng.choice([20, 100])
    return [_shape(rng, d) for d in ([r, 4], [r])], {"max_rois": rng.choice([0, 5, 1000, -1])}


@pytest.mark.parametrize("kind", [DETECTION, PROPOSALS, GRID, FEATURES, TOPK])
def test_random_configurations_match_the_runtime(tmp_path, kind):
    rng = random.Random(len(kind))
    compared = 0
    for n in range(100):
        shapes, attrs = _random(rng, kind)
        et = rng.choice(["f32", "f32", "f16"])
        compared += both_ways(lambda: op(kind, shapes, attrs, et), op_ir(kind, shapes, attrs, et), tmp_path,
                              [kind], f"m{n}")
    assert compared > 45


@pytest.mark.parametrize("build,kind,words", [
    (op_ir(DETECTION, [[100, 5]] + D[1:]), DETECTION, "4 columns"),
    (op_ir(DETECTION, [D[0], [100, 16]] + D[2:]), DETECTION, "num_classes (5) * 4"),
    (op_ir(DETECTION, D[:2] + [[100, 6], D[3]]), DETECTION, "num_classes (5) columns"),
    (op_ir(DETECTION, D, data={k: _text(v) for k, v in ATTRS[DETECTION].items() if k != "num_classes"}),
     DETECTION, "num_classes (0) * 4"),
    (op_ir(DETECTION, [D[0], [90, 20]] + D[2:]), DETECTION, "same number of rows"),
    (op_ir(DETECTION, D[:3] + [[3]]), DETECTION, "2-D"),
    (op_ir(DETECTION, D[:3] + [[2, 3]]), DETECTION, "[1,3]"),
    (op_ir(DETECTION, [[100, 4, 1]] + D[1:]), DETECTION, "2-D"),
    (op_ir(DETECTION, D, types=["f16", "f32", "f32", "f32"]), DETECTION, "floating"),
    (op_ir(DETECTION, D, et="i32"), DETECTION, "floating"),
    (op_ir(DETECTION, D[:3]), DETECTION, "takes 4 inputs"),
    (op_ir(DETECTION, D, {"score_threshold": "abc"}), DETECTION, "score_threshold"),
    (op_ir(PROPOSALS, [[4]] + P[1:]), PROPOSALS, "[3]"),
    (op_ir(PROPOSALS, [[1, 3]] + P[1:]), PROPOSALS, "1-D"),
    (op_ir(PROPOSALS, [P[0], [4800, 5]] + P[2:]), PROPOSALS, "4 columns"),
    (op_ir(PROPOSALS, P[:3] + [[3, 41, 40]]), PROPOSALS, "height"),
    (op_ir(PROPOSALS, P[:3] + [[3, 40, 41]]), PROPOSALS, "width"),
    (op_ir(PROPOSALS, P[:2] + [[12, 40], P[3]]), PROPOSALS, "3-D"),
    (op_ir(PROPOSALS, P, types=["f32", "f32", "f32", "f16"]), PROPOSALS, "floating"),
    (op_ir(GRID, [[3, 5]] + G[1:]), GRID, "4 columns"),
    (op_ir(GRID, [G[0], [2, 256, 10, 12], G[2]]), GRID, "same batch"),
    (op_ir(GRID, [[3, 4, 1], None, None]), GRID, "2-D"),
    (op_ir(GRID, [G[0], [2, 256, 10], None]), GRID, "4-D"),
    (op_ir(GRID, [G[0], None, [2, 256, 10]]), GRID, "4-D"),
    (op_ir(GRID, G, types=["f32", "f32", "f16"]), GRID, "floating"),
    (op_ir(FEATURES, F[:1]), FEATURES, "pyramid levels"),
    (op_ir(FEATURES, [[100, 5], F[1]]), FEATURES, "4 columns"),
    (op_ir(FEATURES, [F[0], [2, 256, 80, 80]]), FEATURES, "batch of 1"),
    (op_ir(FEATURES, [F[0], F[1], [1, 128, 40, 40]]), FEATURES, "same channels"),
    (op_ir(FEATURES, [F[0], [1, 256, 80]]), FEATURES, "4-D"),
    (op_ir(FEATURES, [[100, 4, 1], F[1]]), FEATURES, "2-D"),
    (op_ir(FEATURES, F[:2], types=["f32", "f16"]), FEATURES, "floating"),
    (op_ir(TOPK, [[100, 4], [90]]), TOPK, "one probability per roi"),
    (op_ir(TOPK, [[100], [100]]), TOPK, "2-D"),
    (op_ir(TOPK, [[100, 4], [100, 1]]), TOPK, "1-D"),
    (op_ir(TOPK, [[100, 5], [100]]), TOPK, "4 columns"),
    (op_ir(TOPK, [[100, 4], [100]], types=["f16", "f32"]), TOPK, "floating"),
    (op_ir(TOPK, [[100, 4], [100]], et="i32"), TOPK, "floating"),
])
def test_what_the_runtime_refuses(tmp_path, build, kind, words):
    refusal(tmp_path, build, kind, words)


def test_unused_attributes_are_read_not_warned(tmp_path):
    # h and w of the grid generator, deltas_weights and the thresholds are read by the runtime
    path = opcheck.save(op(GRID, G, {"h": 3, "w": 4}), tmp_path)
    path2 = opcheck.save(op(DETECTION, D), tmp_path, "d")
    for p in (path, path2):
        assert "IRV108" not in {f.code for f in validate_file(str(p)).findings}


@pytest.mark.parametrize("kind,shapes,port,axis", [
    (DETECTION, D, 0, 0), (DETECTION, D, 1, 0), (PROPOSALS, P, 1, 0), (GRID, G, 0, 0),
    (FEATURES, F, 0, 1), (FEATURES, F, 1, 0), (TOPK, [[100, 4], [100]], 0, 0),
])
def test_a_stale_declared_dim_names_the_layer(tmp_path, kind, shapes, port, axis):
    path = opcheck.compare(op(kind, shapes), tmp_path, [kind])
    # the serializer's own file: no finding at all (no unread attribute, no warning)
    assert not [f for f in validate_file(str(path)).findings if f.layer is not None and f.layer.name == "ed"]
    assert opcheck.named(opcheck.mutate(path, "ed", port, axis, 3), "ed")
