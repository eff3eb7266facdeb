"""ROIAlignRotated-15 and DeformablePSROIPooling-1 against the runtime: the notes' cases,
attribute defaults and checks, random configurations, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import both_ways, model, near_shape, param, refusal, shape_text  # noqa: E402

_ET = {"f32": np.float32, "f16": np.float16, "f64": np.float64, "i32": np.int32, "i64": np.int64,
       "u8": np.uint8, "bf16": ov.Type.bf16}
ROTATED = dict(pooled_h=7, pooled_w=5, sampling_ratio=2, spatial_scale=0.5, clockwise_mode=False)
DEFORMABLE = dict(output_dim=8, spatial_scale=0.0625, group_size=3, mode="bilinear_deformable",
                  spatial_bins_x=4, spatial_bins_y=4, trans_std=0.1, part_size=3)
KINDS = {"ROIAlignRotated": (15, ROTATED), "DeformablePSROIPooling": (1, DEFORMABLE)}


def _written(attrs):
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in attrs.items()}


def roi(kind, shapes, attrs=None, types=None):
    version, defaults = KINDS[kind]
    types = types or (["f32", "f32", "i32"] if kind == "ROIAlignRotated" else ["f32"] * len(shapes))
    params = [param(s, _ET[t]) for s, t in zip(shapes, types)]
    node = NodeFactory(f"opset{version}").create(kind, params, {**defaults, **(attrs or {})})
    node.set_friendly_name("roi")
    return model(node, params)


def roi_ir(kind, shapes, attrs=None, types=None, data=None):
    def build():
        version, defaults = KINDS[kind]
        ir = IR()
        ets = types or (["f32", "f32", "i32"] if kind == "ROIAlignRotated" else ["f32"] * len(shapes))
        refs = [ir.parameter(shape_text(s), t) for s, t in zip(shapes, ets)]
        written = data if data is not None else _written({**defaults, **(attrs or {})})
        ir.result(ir.op(kind, refs, [[9]], written, version=f"opset{version}", name="roi"))
        return ir
    return build


R = [[2, 256, 40, 40], [10, 5], [10]]


@pytest.mark.parametrize("shapes,attrs,types", [
    (R, {}, None), ([[(1, 3), -1, 40, 40], [(5, 20), 5], [-1]], {}, ["f32", "f32", "i64"]),
    ([R[0], [(5, 20), 5], [(8, 30)]], {}, None), ([None, None, None], {}, None), ([None, [10, 5], None], {}, None),
    ([None, [10, (3, 6)], [(2, 12)]], {}, None), ([None, None, [10]], {}, None), (R, {"pooled_h": -2}, None),
    (R, {"pooled_h": -1}, None), (R, {"pooled_w": 0}, None), (R, {}, ["f16", "f16", "u8"]),
    (R, {}, ["bf16", "bf16", "i64"]), (R, {}, ["f64", "f64", "i32"]), ([[2, 0, 4, 4], [0, 5], [0]], {}, None),
])
def test_roi_align_rotated_runtime_cases(tmp_path, shapes, attrs, types):
    opcheck.compare(roi("ROIAlignRotated", shapes, attrs, types), tmp_path, ["ROIAlignRotated"])


D = [[2, 72, 16, 16], [10, 5]]


@pytest.mark.parametrize("shapes,attrs,types", [
    (D, {}, None), (D + [[10, 2, 3, 3]], {}, None), ([[(1, 3), -1, 16, 16], [(5, 20), 5]], {}, None),
    ([None, None], {}, None), ([None, None, None], {}, None), (D, {"group_size": 1}, None),
    ([D[0], [10, 4]], {}, None), ([D[0], [10, 4], [9, 2, 3, 3]], {}, None), (D, {}, ["i32", "f16"]),
    ([[2, 70, 16, 16], [-1, -1]], {"output_dim": 2 ** 40, "group_size": 5}, None),
])
def test_deformable_psroi_pooling_runtime_cases(tmp_path, shapes, attrs, types):
    opcheck.compare(roi("DeformablePSROIPooling", shapes, attrs, types), tmp_path, ["DeformablePSROIPooling"])


@pytest.mark.parametrize("kind,shapes,name,value,want", [
    ("ROIAlignRotated", R, "pooled_h", None, "[10,256,0,5]"), ("ROIAlignRotated", R, "pooled_w", None, "[10,256,7,0]"),
    ("ROIAlignRotated", R, "sampling_ratio", None, "[10,256,7,5]"), ("ROIAlignRotated", R, "spatial_scale", None, None),
    ("ROIAlignRotated", R, "clockwise_mode", "maybe", None),
    ("DeformablePSROIPooling", D, "group_size", None, "[10,8,1,1]"), ("DeformablePSROIPooling", D, "mode", "foo", None),
    ("DeformablePSROIPooling", D, "spatial_bins_x", "0", None), ("DeformablePSROIPooling", D, "part_size", None, None),
    ("DeformablePSROIPooling", D, "trans_std", None, None), ("DeformablePSROIPooling", D, "spatial_scale", None, None),
])
def test_attributes_as_the_reader_reads_them(tmp_path, kind, shapes, name, value, want):
    data = _written(KINDS[kind][1])
    if value is None:
        del data[name]
    else:
        data[name] = value
    path = roi_ir(kind, shapes, data=data)().write(tmp_path)
    runtime = opcheck.runtime_shapes(path)["roi"]
    assert want is None or runtime == [want]
    assert [o["inferred"] for o in opcheck.irvalidate_shapes(path)["roi"]["outputs"]] == runtime
    assert not {f.code for f in validate_file(str(path)).findings} & {"IRV102", "IRV104", "IRV105", "IRV108"}


def _random(rng, kind):
    n, c, r = rng.choice([1, 2]), rng.choice([8, 72]), rng.choice([4, 10])

    def s(dims):
        return near_shape(rng, dims)
    if kind == "ROIAlignRotated":
        shapes = [s([n, c, 16, 16]), s([r, 5]), s([r])]
        return shapes, {"pooled_h": rng.choice([1, 7, -1, 0]), "pooled_w": rng.choice([1, 5, -3])}
    shapes = [s([n, c, 16, 16]), s([r, 5])] + ([s([r, 2, 3, 3])] if rng.random() < 0.5 else [])
    return shapes, {"output_dim": rng.choice([1, 8]), "group_size": rng.choice([1, 3, 7])}


@pytest.mark.parametrize("kind", list(KINDS))
def test_random_configurations_match_the_runtime(tmp_path, kind):
    rng = random.Random(len(kind))
    compared = 0
    for n in range(80):
        shapes, attrs = _random(rng, kind)
        et = rng.choice(["f32", "f16"])
        types = [et, et, rng.choice(["i32", "i64", "u8"])] if kind == "ROIAlignRotated" else [et] * len(shapes)
        compared += both_ways(lambda: roi(kind, shapes, attrs, types), roi_ir(kind, shapes, attrs, types),
                              tmp_path, [kind], f"m{n}")
    assert compared > 45


@pytest.mark.parametrize("build,kind,words", [
    (roi_ir("ROIAlignRotated", [R[0], [10, 4], R[2]]), "ROIAlignRotated", "5 values per box"),
    (roi_ir("ROIAlignRotated", [R[0], R[1], [9]]), "ROIAlignRotated", "one index per roi"),
    (roi_ir("ROIAlignRotated", [[2, 256, 40], R[1], R[2]]), "ROIAlignRotated", "4-D"),
    (roi_ir("ROIAlignRotated", [R[0], [10, 5, 1], R[2]]), "ROIAlignRotated", "2-D"),
    (roi_ir("ROIAlignRotated", [R[0], R[1], [10, 1]]), "ROIAlignRotated", "1-D"),
    (roi_ir("ROIAlignRotated", R, types=["f16", "f32", "i32"]), "ROIAlignRotated", "floating"),
    (roi_ir("ROIAlignRotated", R, types=["i32", "i32", "i32"]), "ROIAlignRotated", "floating"),
    (roi_ir("ROIAlignRotated", R, types=["f32", "f32", "f32"]), "ROIAlignRotated", "integer"),
    (roi_ir("ROIAlignRotated", R[:2]), "ROIAlignRotated", "takes 3 inputs"),
    (roi_ir("DeformablePSROIPooling", [[2, 72, 16], D[1]]), "DeformablePSROIPooling", "4-D"),
    (roi_ir("DeformablePSROIPooling", [D[0], [10, 5, 1]]), "DeformablePSROIPooling", "2-D"),
    (roi_ir("DeformablePSROIPooling", D + [[10, 2, 3]]), "DeformablePSROIPooling", "4-D"),
    (roi_ir("DeformablePSROIPooling", D, {"output_dim": 0}), "DeformablePSROIPooling", "output_dim"),
    (roi_ir("DeformablePSROIPooling", D, data=_written({k: v for k, v in DEFORMABLE.items() if k != "output_dim"})),
     "DeformablePSROIPooling", "output_dim"),
    (roi_ir("DeformablePSROIPooling", D, {"group_size": 0}), "DeformablePSROIPooling", "group_size"),
    (roi_ir("DeformablePSROIPooling", D, {"group_size": -1}), "DeformablePSROIPooling", "group_size"),
    (roi_ir("DeformablePSROIPooling", D[:1]), "DeformablePSROIPooling", "takes 2 or 3 inputs"),
])
def test_what_the_runtime_refuses(tmp_path, build, kind, words):
    refusal(tmp_path, build, kind, words)


@pytest.mark.parametrize("kind,shapes", [("ROIAlignRotated", R), ("DeformablePSROIPooling", D)])
def test_a_stale_declared_dim_names_the_layer(tmp_path, kind, shapes):
    path = opcheck.compare(roi(kind, shapes), tmp_path, [kind])
    # the serializer's own file: no finding at all (no unread attribute, no warning)
    assert not [f for f in validate_file(str(path)).findings if f.layer is not None and f.layer.name == "roi"]
    for axis in range(4):
        assert opcheck.named(opcheck.mutate(path, "roi", 0, axis, 11), "roi")
