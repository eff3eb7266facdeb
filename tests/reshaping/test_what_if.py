"""--reshape on the issue's patterns, against Model.reshape (the runtime is the oracle).

Each model is built with the openvino API and saved; the runtime's verdict comes from
``read_model`` + ``Model.reshape`` (or, for --no-smart-reshape, the Parameters' shapes set
and ``validate_nodes_and_infer_types``: no SmartReshape), and must equal irvalidate's; where
the runtime refuses, the node its message names must be a layer of an IRV301 finding, and
where a constant pins the dim, that finding must name it.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
import openvino.opset8 as op8  # noqa: E402
import openvino.opset13 as ops  # noqa: E402

import irvalidate  # noqa: E402
from irvalidate.cli.main import main  # noqa: E402


def _c(values, dtype=np.int64, name=None):
    node = ops.constant(np.array(values, dtype=dtype))
    if name:
        node.set_friendly_name(name)
    return node


def _n(node, name):
    node.set_friendly_name(name)
    return node


def _param(shape, name):
    p = ops.parameter(shape, np.float32, name=name)
    p.output(0).set_names({name})
    return p


def _conv(x, cin, cout, stride, name, seed):
    w = ops.constant(np.full((cout, cin, 1, 1), seed / 1000, np.float32))
    return _n(ops.convolution(x, w, [stride, stride], [0, 0], [0, 0], [1, 1]), name)


def hrnet():  # openvinotoolkit/openvino#16177: a Slice's constant stop pins the width
    img = _param([1, 3, 512, 512], "image")
    crop = op8.slice(ops.relu(_conv(img, 3, 17, 2, "c0", 1)), _c([0, 0]), _c([256, 256], name="stop"),
                     _c([1, 1]), _c([2, 3]))
    return ov.Model([_n(ops.add(_n(crop, "/Slice_1"), _conv(img, 3, 17, 2, "c1", 2)), "/Add")], [img])


def quartznet():  # #8612: the Reshape's constant target [1,64,29] pins the time axis
    x = _param([1, 64, 128], "audio")
    c = ops.convolution(x, ops.constant(np.ones((29, 64, 1), np.float32)), [2], [0], [0], [1])
    flat = ops.reshape(ops.transpose(c, _c([0, 2, 1])), _c([-1, 29]), False)
    out = ops.reshape(ops.log_softmax(flat, 1), _c([1, 64, 29], name="1288"), False)
    return ov.Model([_n(out, "output")], [x])


def head(second_consumer=False):  # a baked flatten before a classifier: ReshapeAMatMul
    x = _param([1, 8, 8], "x")
    flat = _n(ops.reshape(x, _c([1, 64], name="target"), False), "flatten")
    fc = _n(ops.matmul(flat, ops.constant(np.ones((64, 10), np.float32)), False, False), "fc")
    outs = [fc] + ([ops.relu(flat)] if second_consumer else [])
    return ov.Model(outs, [x])


def vit():  # a position embedding of baked length added to the tokens
    x = _param([1, 16, 8], "tokens")
    pos = ops.constant(np.ones((1, 16, 8), np.float32))
    pos.set_friendly_name("pos_embed")
    return ov.Model([_n(ops.add(x, pos), "add_pos")], [x])


def interpolate():  # constant sizes pin the spatial dims; the Concat shows it
    x = _param([1, 3, 8, 8], "x")
    up = ops.interpolate(x, _c([16, 16], name="sizes"), "nearest", "sizes", axes=_c([2, 3]))
    other = ops.convolution(x, ops.constant(np.ones((3, 3, 1, 1), np.float32)), [1, 1], [0, 0],
                            [0, 0], [2, 2])
    other = ops.interpolate(other, _c([2.0, 2.0], np.float32), "nearest", "scales", axes=_c([2, 3]))
    return ov.Model([_n(ops.concat([_n(up, "up"), other], 1), "cat")], [x])


def runtime(model_path, request, smart):
    model = ov.Core().read_model(model_path)
    try:
        if smart:
            model.reshape(request)
        else:
            for param in model.get_parameters():
                param.set_partial_shape(ov.PartialShape(request))
            model.validate_nodes_and_infer_types()
    except Exception as err:  # noqa: BLE001 - the runtime's refusal is the verdict
        named = re.search(r"with friendly_name '([^']*)'", str(err))
        return False, named.group(1) if named else None, None
    return True, None, {r.get_friendly_name(): str(r.get_output_partial_shape(0))
                        for r in model.get_results()}


CASES = [
    (hrnet, [1, 3, 512, 928], "stop"), (hrnet, [2, 3, 512, 512], None),
    (hrnet, [1, 3, 1024, 1024], "stop"), (quartznet, [1, 64, 1120], "1288"),
    (quartznet, [1, 64, 128], None), (head, [4, 8, 8], "target"), (head, [-1, 8, 8], "target"),
    (head, [(1, 4), 8, 8], "target"), (vit, [1, 32, 8], "pos_embed"), (vit, [3, 16, 8], None),
    (interpolate, [1, 3, 16, 16], "sizes"), (interpolate, [2, 3, 8, 8], None),
]


def _partial(request):
    return ov.PartialShape([ov.Dimension(*d) if isinstance(d, tuple) else ov.Dimension(d)
                            for d in request])


@pytest.mark.parametrize("smart", [True, False], ids=["Model.reshape", "plain"])
@pytest.mark.parametrize("build,request_,pin", CASES,
                         ids=[f"{b.__name__}-{r}" for b, r, _ in CASES])
def test_verdict_and_cause_agree_with_the_runtime(tmp_path, build, request_, pin, smart):
    path = tmp_path / "model.xml"
    ov.save_model(build(), path, compress_to_fp16=False)
    works, named, outputs = runtime(path, _partial(request_), smart)
    report = irvalidate.reshape(path, request_, smart_reshape=smart).files[0]
    assert report.reshape.works == works, [f.message for f in report.findings]
    errors = [f for f in report.findings if f.severity == "error"]
    assert all(f.rule == "IRV301" for f in errors)
    if works:
        assert not errors
        assert {o.name: o.shape for o in report.reshape.outputs} == outputs
    else:
        assert errors
        if named is not None:
            assert named in {f.layer.name for f in errors}
        if pin is not None:
            assert any(f"'{pin}'" in f.message for f in errors), [f.message for f in errors]


def test_a_second_consumer_stops_the_rewrite(tmp_path):
    path = tmp_path / "model.xml"
    ov.save_model(head(second_consumer=True), path, compress_to_fp16=False)
    assert runtime(path, _partial([4, 8, 8]), True)[0] is False
    assert not irvalidate.reshape(path, [4, 8, 8]).files[0].reshape.works


def test_the_rewrite_is_reported_and_the_cli_exits_by_the_verdict(tmp_path, capsys):
    path = tmp_path / "model.xml"
    ov.save_model(head(), path, compress_to_fp16=False)
    assert main(["--reshape", "x[4,8,8]", str(path)]) == 0
    out = capsys.readouterr().out
    assert "IRV302" in out and "ReshapeAMatMul" in out and "[4,10]" in out
    assert main(["--reshape", "x[4,8,8]", "--no-smart-reshape", str(path)]) == 1
    assert "IRV301" in capsys.readouterr().out
    assert main(["--reshape", "[4,8,8]", "--format", "json", str(path)]) == 0
    assert '"works": true' in capsys.readouterr().out


@pytest.mark.parametrize("spec,words", [
    ("y[4,8,8]", "no input is named 'y'"), ("x[4,8]", "has rank 3"), ("x[4,8,8", "not closed"),
    ("x[1,8,8],x[2,8,8]", "given twice"),
])
def test_usage_errors_list_the_inputs(tmp_path, capsys, spec, words):
    path = tmp_path / "model.xml"
    ov.save_model(head(), path, compress_to_fp16=False)
    assert main(["--reshape", spec, str(path)]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    if "input" in words or "rank" in words:
        assert "x[1,8,8]" in err


def _matmul_head():
    x = _param([1, 64], "x")
    return ov.Model([_n(ops.matmul(x, ops.constant(np.ones((64, 10), np.float32)), False, False),
                        "fc")], [x])


def _variadic_split():
    x = _param([8, 8], "x")
    parts = ops.variadic_split(x, _c(0), _c([4, -1]))
    parts.set_friendly_name("split")
    return ov.Model([ops.relu(parts.output(0)), ops.relu(parts.output(1))], [x])


def _topk():
    x = _param([2, 4], "x")
    top = ops.topk(x, _c(3), 1, "max", "value")
    top.set_friendly_name("top")
    return ov.Model([ops.relu(top.output(0))], [x])


def _lstm_sequence():
    x, hidden = _param([2, 5, 16], "x"), 8
    zeros = lambda *s: ops.constant(np.zeros(s, np.float32))  # noqa: E731
    seq = ops.lstm_sequence(x, zeros(2, 1, hidden), zeros(2, 1, hidden), _c([5, 5], np.int32),
                            zeros(1, 4 * hidden, 16), zeros(1, 4 * hidden, hidden),
                            zeros(1, 4 * hidden), hidden, "forward")
    seq.set_friendly_name("lstm")
    return ov.Model([ops.relu(seq.output(0))], [x])


@pytest.mark.parametrize("build,request_,layer", [
    (_matmul_head, [1, (65, 80)], "fc"), (_variadic_split, [3, 8], "split"),
    (_topk, [2, 1], "top"), (_lstm_sequence, [2, 5, 20], "lstm"),
])
def test_what_the_runtime_accepts_but_cannot_run_is_a_warning(tmp_path, build, request_, layer):
    """Model.reshape works, so irvalidate's verdict is 'works' (exit 0), with an IRV107
    warning on the layer no input can run."""
    path = tmp_path / "model.xml"
    ov.save_model(build(), path, compress_to_fp16=False)
    assert runtime(path, _partial(request_), True)[0] is True
    report = irvalidate.reshape(path, request_).files[0]
    assert report.reshape.works
    warned = [f for f in report.findings if f.rule == "IRV107"]
    assert [f.layer.name for f in warned] == [layer], [f.message for f in report.findings]
    assert "fails at inference" in warned[0].message
    # the model as it is draws no warning: the new shapes do
    assert not irvalidate.reshape(path, _original(path)).files[0].findings


def _original(path):
    return [d.get_length() for d in ov.Core().read_model(path).inputs[0].get_partial_shape()]


def _dense_on_3d():
    """[1,16,32] -> Reshape [-1,32] -> MatMul [32,8] -> Reshape [1,16,8]: ReshapeSinkingMatMul."""
    x = _param([1, 16, 32], "x")
    flat = _n(ops.reshape(x, _c([-1, 32]), False), "to2d")
    fc = ops.matmul(flat, ops.constant(np.ones((32, 8), np.float32)), False, False)
    return ov.Model([_n(ops.reshape(fc, _c([1, 16, 8]), False), "to3d")], [x])


def test_a_new_sequence_length_through_reshape_sinking_works_with_a_warning(tmp_path):
    """The runtime accepts [1,20,32] and answers [1,16,8] (special_zero's 0s skip the
    element count); irvalidate agrees, and warns that to3d cannot run."""
    path = tmp_path / "model.xml"
    ov.save_model(_dense_on_3d(), path, compress_to_fp16=False)
    works, _, outputs = runtime(path, _partial([1, 20, 32]), True)
    report = irvalidate.reshape(path, [1, 20, 32]).files[0]
    assert works and report.reshape.works
    assert {o.name: o.shape for o in report.reshape.outputs} == outputs
    assert {(f.rule, f.layer.name) for f in report.findings} == {
        ("IRV302", "to2d"), ("IRV302", "to3d"), ("IRV107", "to3d")}
    batch = irvalidate.reshape(path, [4, 16, 32]).files[0]
    assert batch.reshape.works and not [f for f in batch.findings if f.rule == "IRV107"]


_PROPOSAL = dict(base_size=np.uint32(16), pre_nms_topn=np.uint32(100), post_nms_topn=np.uint32(10),
                 nms_thresh=np.float32(0.7), feat_stride=np.uint32(16), min_size=np.uint32(16),
                 ratio=np.array([1.0], np.float32), scale=np.array([1.0], np.float32),
                 clip_before_nms=True, clip_after_nms=False, normalize=False,
                 box_size_scale=np.float32(1.0), box_coordinate_scale=np.float32(1.0), framework="")


def _faster_rcnn(version, info=3, convert=False, rank3=False):
    """im_info [1,3] (or [1,4], through a Convert, or [1,1,3]) flattened into Proposal's
    input 2: Proposal1Scales/Proposal4Scales slice it back to 3 (or 4) values."""
    import openvino.opset1 as op1
    import openvino.opset4 as op4
    cls, box = _param([1, 2, 8, 8], "cls"), _param([1, 4, 8, 8], "box")
    im_info = _param([1, 1, info] if rank3 else [1, info], "im_info")
    src = ops.convert(ops.convert(im_info, np.float16), np.float32) if convert else im_info
    flat = _n(ops.reshape(src, _c([info]), False), "im_info_flat")
    prop = (op4 if version == 4 else op1).proposal(cls, box, flat, _PROPOSAL)
    prop.set_friendly_name("proposal")
    return ov.Model(prop.outputs(), [cls, box, im_info])


@pytest.mark.parametrize("version,info,convert,rank3,batch", [
    (4, 3, False, False, 2), (1, 3, False, False, 2), (4, 4, False, False, 2),
    (4, 3, True, False, 2), (4, 3, False, False, -1), (4, 3, False, True, 2),
])
def test_proposal_scales(tmp_path, version, info, convert, rank3, batch):
    path = tmp_path / "model.xml"
    ov.save_model(_faster_rcnn(version, info, convert, rank3), path, compress_to_fp16=False)
    request = {"cls": [batch, 2, 8, 8], "box": [batch, 4, 8, 8],
               "im_info": [batch, 1, info] if rank3 else [batch, info]}
    model = ov.Core().read_model(path)
    try:
        model.reshape({k: _partial(v) for k, v in request.items()})
        works = True
        outputs = {r.get_friendly_name(): str(r.get_output_partial_shape(0))
                   for r in model.get_results()}
    except Exception:  # noqa: BLE001 - the runtime's refusal is the verdict
        works, outputs = False, None
    report = irvalidate.reshape(path, request).files[0]
    assert report.reshape.works == works, [f.message for f in report.findings]
    if works:
        assert {o.name: o.shape for o in report.reshape.outputs} == outputs
        assert {r.transformation for r in report.reshape.rewrites} >= {
            "Proposal4Scales" if version == 4 else "Proposal1Scales"}


def _pool_and_upsample():
    """x -> MaxPool 2 -> Interpolate x2 (scales) -> Concat with x: an odd size breaks the
    Concat, and no constant is to blame (the scales and axes hold no dim of the clash)."""
    import openvino.opset8 as op8
    x = _param([1, 3, 8, 8], "x")
    pooled = op8.max_pool(x, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2]).output(0)
    up = ops.interpolate(pooled, ops.constant(np.array([2.0, 2.0], np.float32)), "nearest",
                         "scales", axes=_c([2, 3]))
    transposed = ops.transpose(ops.transpose(up, _c([0, 2, 3, 1])), _c([0, 3, 1, 2]))
    return ov.Model([_n(ops.concat([x, transposed], 1), "cat")], [x])


def test_no_constant_is_blamed_for_an_odd_size(tmp_path):
    path = tmp_path / "model.xml"
    ov.save_model(_pool_and_upsample(), path, compress_to_fp16=False)
    works, named, _ = runtime(path, _partial([1, 3, 9, 9]), True)
    assert not works and named == "cat"
    errors = [f for f in irvalidate.reshape(path, [1, 3, 9, 9]).files[0].findings
              if f.rule == "IRV301"]
    assert [f.layer.name for f in errors] == ["cat"]
    assert "pins it" not in errors[0].message, errors[0].message  # not the axes, nor an order
    assert irvalidate.reshape(path, [1, 3, 16, 16]).files[0].reshape.works
