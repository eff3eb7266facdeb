"""ROIPooling, ROIAlign-3/-9 and PSROIPooling against the runtime: the notes' cases, random
configurations both ways, attribute refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.ovmodels import differential_batches, make, model_of, near_dims, param  # noqa: E402

POOL = dict(output_roi=[7, 6], spatial_scale=0.0625, method="max")
ALIGN = dict(pooled_h=7, pooled_w=6, sampling_ratio=2, spatial_scale=0.0625, mode="avg")
PS = dict(output_dim=8, group_size=7, spatial_scale=0.0625, mode="average")


def roi_pooling(feat, rois, attrs, ets=(np.float32, np.float32), name="roi"):
    return make("opset2", "ROIPooling", [param(feat, ets[0]), param(rois, ets[1])], attrs, name)


def roi_align(opset, data, rois, indices, attrs, et=np.int32, name="roi"):
    return make(opset, "ROIAlign", [param(data), param(rois), param(indices, et)], attrs, name)


def psroi(feat, rois, attrs, ets=(np.float32, np.float32), name="roi"):
    return make("opset1", "PSROIPooling", [param(feat, ets[0]), param(rois, ets[1])], attrs, name)


@pytest.mark.parametrize("feat,rois,attrs", [
    ([1, 256, 14, 14], [100, 5], POOL),
    ([1, 256, 14, 14], [100, 5], dict(POOL, method="bilinear")),
    ([-1, -1, -1, -1], [-1, -1], POOL),
    (None, None, POOL),
    ([1, (256, 512), 14, 14], [(10, 100), 5], POOL),
])
def test_roi_pooling_cases(tmp_path, feat, rois, attrs):
    opcheck.compare(model_of(roi_pooling(feat, rois, attrs)), tmp_path, ["ROIPooling"])


@pytest.mark.parametrize("opset", ["opset3", "opset9"])
@pytest.mark.parametrize("data,rois,indices,attrs", [
    ([2, 256, 14, 14], [100, 4], [100], ALIGN),
    ([2, 256, 14, 14], [100, 4], [100], dict(ALIGN, mode="max")),
    ([-1, -1, -1, -1], [-1, -1], [-1], ALIGN),
    (None, None, None, ALIGN),
    ([2, (256, 512), 14, 14], [(10, 100), 4], [(50, 200)], ALIGN),
    ([2, 256, 14, 14], [-1, 4], [100], ALIGN),
    ([2, 256, 14, 14], [100, 4], [100], dict(ALIGN, pooled_h=0)),
    ([2, 256, 14, 14], [100, 4], [100], dict(ALIGN, spatial_scale=0.0)),
])
def test_roi_align_cases(tmp_path, opset, data, rois, indices, attrs):
    node = roi_align(opset, data, rois, indices, attrs, np.int64 if opset == "opset9" else np.int32)
    opcheck.compare(model_of(node), tmp_path, ["ROIAlign"])


@pytest.mark.parametrize("feat,rois,attrs", [
    ([1, 392, 14, 14], [100, 5], PS),
    ([1, 120, 14, 14], [100, 5], dict(output_dim=20, group_size=5, mode="bilinear",
                                      spatial_bins_x=2, spatial_bins_y=3, spatial_scale=0.0625)),
    ([-1, -1, -1, -1], [-1, -1], PS),
    (None, None, PS),
    ([1, 392, 14, 14], [(10, 100), 5], PS),
    ([1, (300, 400), 14, 14], [10, 5], PS),
])
def test_psroi_pooling_cases(tmp_path, feat, rois, attrs):
    opcheck.compare(model_of(psroi(feat, rois, attrs)), tmp_path, ["PSROIPooling"])


def test_psroi_rois_may_be_f16(tmp_path):
    node = psroi([1, 392, 14, 14], [100, 5], PS, (np.float32, np.float16))
    opcheck.compare(model_of(node), tmp_path, ["PSROIPooling"])


def _pool_configs(rng, count):
    for _ in range(count):
        r, c = rng.choice([1, 10, 100]), rng.choice([3, 64])
        attrs = dict(output_roi=[rng.randint(1, 8), rng.randint(1, 8)],
                     spatial_scale=rng.choice([1.0, 0.0625]), method=rng.choice(["max", "bilinear"]))
        yield [(near_dims(rng, [1, c, 14, 14]), np.float32),
               (near_dims(rng, [r, 5]), np.float32)], attrs


def _align_configs(rng, count):
    for _ in range(count):
        r, c = rng.choice([1, 10, 100]), rng.choice([3, 64])
        opset = rng.choice(["opset3", "opset9"])
        attrs = dict(pooled_h=rng.randint(0, 8), pooled_w=rng.randint(0, 8), sampling_ratio=2,
                     spatial_scale=0.5, mode=rng.choice(["avg", "max"]))
        inputs = [(near_dims(rng, [2, c, 14, 14]), np.float32), (near_dims(rng, [r, 4]), np.float32),
                  (near_dims(rng, [r]), rng.choice([np.int32, np.int64]))]
        yield inputs, (opset, attrs)


def _psroi_configs(rng, count):
    for _ in range(count):
        out, group = rng.choice([1, 2, 8]), rng.choice([1, 3, 7])
        bins = rng.choice([1, 2]), rng.choice([1, 3])
        mode = rng.choice(["average", "bilinear"])
        channels = out * (group * group if mode == "average" else bins[0] * bins[1])
        attrs = dict(output_dim=out, group_size=group, spatial_scale=0.25, mode=mode,
                     spatial_bins_x=bins[0], spatial_bins_y=bins[1])
        inputs = [(near_dims(rng, [1, channels, 14, 14]), np.float32),
                  (near_dims(rng, [rng.choice([1, 10]), 5]), rng.choice([np.float32, np.float16]))]
        yield inputs, attrs


def test_random_roi_pooling(tmp_path):
    build = lambda ps, attrs, name: make("opset2", "ROIPooling", ps, attrs, name)  # noqa: E731
    compared, refused = differential_batches(tmp_path, _pool_configs(random.Random(1), 200), build,
                                     ["ROIPooling"])
    assert compared > 100 and refused > 20, (compared, refused)


def test_random_roi_align(tmp_path):
    build = lambda ps, extra, name: make(extra[0], "ROIAlign", ps, extra[1], name)  # noqa: E731
    compared, refused = differential_batches(tmp_path, _align_configs(random.Random(2), 200), build,
                                     ["ROIAlign"])
    assert compared > 100 and refused > 20, (compared, refused)


def test_random_psroi_pooling(tmp_path):
    build = lambda ps, attrs, name: make("opset1", "PSROIPooling", ps, attrs, name)  # noqa: E731
    compared, refused = differential_batches(tmp_path, _psroi_configs(random.Random(3), 200), build,
                                     ["PSROIPooling"])
    assert compared > 100 and refused > 20, (compared, refused)


def _layer(type_, version, shapes, data, ets=("f32", "f32", "i32")):
    ir = IR()
    ins = [ir.parameter(",".join(map(str, s)), et) for s, et in zip(shapes, ets)]
    ir.result(ir.op(type_, ins, [[100, 256, 7, 6]], data, version=version, name="victim"))
    return ir


@pytest.mark.parametrize("type_,version,shapes,data,code,words", [
    ("ROIPooling", "opset2", ([1, 256, 14, 14], [100, 5]), {"spatial_scale": "1"}, "IRV104",
     "must be positive"),
    ("ROIPooling", "opset1", ([1, 256, 14, 14], [100, 5]),
     {"pooled_h": "7", "pooled_w": "6"}, "IRV104", "spatial_scale"),
    ("ROIPooling", "opset2", ([1, 256, 14, 14], [100, 5]),
     {"pooled_h": "7", "pooled_w": "6", "spatial_scale": "1e-40"}, "IRV104", "spatial_scale"),
    ("ROIPooling", "opset2", ([1, 256, 14, 14], [100, 5]),
     {"pooled_h": "7", "pooled_w": "6", "spatial_scale": "1", "method": "MAX"}, "IRV104", "method"),
    ("ROIPooling", "opset2", ([1, 256, 14, 14], [100, 4]),
     {"pooled_h": "7", "pooled_w": "6", "spatial_scale": "1"}, "IRV102", "dim 1 must be 5"),
    ("ROIAlign", "opset3", ([2, 256, 14, 14], [100, 4], [99]), {"pooled_h": "7"}, "IRV102",
     "batch_indices"),
    ("ROIAlign", "opset9", ([2, 256, 14, 14], [100, 4], [100]), {"aligned_mode": "bogus"},
     "IRV104", "aligned_mode"),
    ("ROIAlign", "opset3", ([2, 256, 14, 14], [100, 4], [100]), {"mode": "sum"}, "IRV104", "mode"),
    ("PSROIPooling", "opset1", ([1, 392, 14, 14], [100, 5]), {"group_size": "7",
     "output_dim": "8", "spatial_scale": "1"}, "IRV104", "mode"),
    ("PSROIPooling", "opset1", ([1, 392, 14, 14], [100, 5]), {"output_dim": "8",
     "spatial_scale": "1", "mode": "average"}, "IRV104", "group_size"),
    ("PSROIPooling", "opset1", ([1, 393, 14, 14], [100, 5]), {"output_dim": "8",
     "group_size": "7", "spatial_scale": "1", "mode": "average"}, "IRV102", "channels"),
    ("PSROIPooling", "opset1", ([1, 392, 14, 14], [100, 5]), {"output_dim": "8",
     "group_size": "7", "spatial_scale": "1", "mode": "bilinear"}, "IRV104", "bins"),
])
def test_refusals(tmp_path, type_, version, shapes, data, code, words):
    path = _layer(type_, version, shapes, data).write(tmp_path)
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == code]
    assert found and words in found[0].message and found[0].layer.name == "victim", found


def test_roi_pooling_reads_every_pooled_size_attribute(tmp_path, run):
    """output_size, then output_roi, then pooled_h/pooled_w: each overwrites the one before."""
    for data, dims in (({"output_size": "3,4", "output_roi": "5,6", "spatial_scale": "1"}, [5, 6]),
                       ({"output_size": "3,4", "spatial_scale": "1"}, [3, 4]),
                       ({"output_roi": "3,4", "pooled_w": "9", "spatial_scale": "1"}, [3, 9])):
        ir = IR()
        ins = [ir.parameter("1,8,14,14"), ir.parameter("10,5")]
        ir.result(ir.op("ROIPooling", ins, [[10, 8] + dims], data, version="opset2", name="victim"))
        path = ir.write(tmp_path)
        runtime = opcheck.runtime_shapes(path)["victim"]
        assert runtime == [f"[10,8,{dims[0]},{dims[1]}]"]
        assert not [f for f in validate_file(str(path)).findings if f.level == "error"]


@pytest.mark.parametrize("build,type_", [
    (lambda: roi_pooling([1, 256, 14, 14], [100, 5], POOL, name="victim"), "ROIPooling"),
    (lambda: roi_align("opset9", [2, 256, 14, 14], [100, 4], [100], ALIGN, name="victim"),
     "ROIAlign"),
    (lambda: psroi([1, 392, 14, 14], [100, 5], PS, name="victim"), "PSROIPooling"),
])
def test_a_stale_declared_dim_names_the_layer(tmp_path, build, type_):
    path = opcheck.compare(model_of(build()), tmp_path, [type_])
    assert opcheck.named(opcheck.mutate(path, "victim", 0, 1, 3), "victim")
    assert opcheck.named(opcheck.mutate(path, "victim", 0, 3, 1), "victim")
