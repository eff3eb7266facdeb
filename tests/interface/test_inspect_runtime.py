"""``inspect`` on models built with the runtime and written by ``ov.save_model``: its inputs
and outputs are ``read_model``'s (every tensor name, element types, shapes with intervals and
a dynamic rank), its layer counts the model's own ops, and its weights and compression
shares the numbers computed here from the arrays the models were built with.
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("openvino")  # the models are built and read with it
import openvino as ov
import openvino.opset13 as ops

from irvalidate.interface.inspect import interface_of


def _saved(model, path, compress: bool = False) -> str:
    ov.save_model(model, str(path), compress_to_fp16=compress)
    return str(path)


def _runtime_ports(outputs) -> list[tuple]:
    return [(sorted(o.get_names()), o.get_element_type().get_type_name(),
             str(o.get_partial_shape())) for o in outputs]


def _named_model():
    """Two inputs (an interval, a dynamic rank), several names per tensor (one with a
    comma), a layout, and three outputs: one named apart from its producer's port, one
    fed by a Parameter (its dynamic rank kept), one with two names."""
    x = ops.parameter(ov.PartialShape([1, 3, ov.Dimension(1, 8), -1]), ov.Type.f32, name="x")
    for name in ("x", "x:0", "pixel,values"):  # one at a time: a set's order is the hash's,
        x.output(0).add_names({name})        # and the recording keeps the calls' arguments
    x.set_layout(ov.Layout("NCHW"))
    y = ops.parameter(ov.PartialShape.dynamic(), ov.Type.i64, name="y")
    y.output(0).set_names({"y"})
    added = ops.add(x, ops.constant(np.ones((1, 3, 1, 1), np.float32)))
    added.output(0).add_names({"logits"})
    added.output(0).add_names({"out"})
    relu = ops.relu(added)
    relu.output(0).set_names({"relu"})
    first = ops.result(added)
    first.set_friendly_name("res")
    first.set_layout(ov.Layout("NC..."))
    return ov.Model([first, ops.result(y), ops.result(relu)], [x, y], "named")


def test_names_types_and_shapes_are_read_models(tmp_path):
    path = _saved(_named_model(), tmp_path / "named.xml")
    read = ov.Core().read_model(path)
    found = interface_of(path, reshapeable="never")
    ours = [(sorted(t.names), t.element_type, t.shape_text) for t in found.inputs]
    assert ours == _runtime_ports(read.inputs)
    assert ours[0][0] == ["pixel,values", "x", "x:0"]  # the escaped comma read as the reader does
    outputs = [(sorted(t.names), t.element_type) for t in found.outputs]
    assert outputs == [(n, t) for n, t, _ in _runtime_ports(read.outputs)]
    # the Parameter-fed output keeps its dynamic rank; a port writes 1..8 as -1 (declared)
    assert [t.shape_text for t in found.outputs] == ["[1,3,?,?]", "[...]", "[1,3,?,?]"]
    assert str(read.outputs[1].get_partial_shape()) == "[...]"
    assert found.inputs[0].layout == str(read.inputs[0].get_node().get_layout()) == "[N,C,H,W]"
    assert found.outputs[0].layout == "[N,C,...]"
    assert [d.model_dump() for d in found.inputs[0].shape or []][2] == {"lo": 1, "hi": 8}


def test_layer_counts_are_the_models_ops(tmp_path):
    model = _named_model()
    path = _saved(model, tmp_path / "named.xml")
    ops_read = ov.Core().read_model(path).get_ordered_ops()
    expected = Counter((op.get_type_name(), op.get_type_info().version_id) for op in ops_read)
    found = interface_of(path, reshapeable="never")
    assert {(row.type, row.opset): row.count for row in found.layers} == dict(expected)


def test_reshapeable_axes_are_computed_on_a_small_file_and_not_when_told(tmp_path):
    path = _saved(_named_model(), tmp_path / "named.xml")
    computed = interface_of(path)
    assert computed.reshapeable
    assert [a.axis for a in computed.inputs[0].axes or []] == [0, 1, 2, 3]
    assert computed.inputs[1].axes == []  # a dynamic rank has no axes to state
    skipped = interface_of(path, reshapeable="never")
    assert not skipped.reshapeable and skipped.inputs[0].axes is None


def _matmul_model(weight: np.ndarray):
    x = ops.parameter([1, weight.shape[0]], ov.Type.f32, name="x")
    return ov.Model([ops.result(ops.matmul(x, ops.constant(weight), False, False))], [x], "mm")


def test_fp16_compression_counts_the_weights_as_f16(tmp_path):
    weight = np.arange(64 * 48, dtype=np.float32).reshape(64, 48) / 7
    path = _saved(_matmul_model(weight), tmp_path / "fp16.xml", compress=True)
    found = interface_of(path, reshapeable="never")
    rows = {row.element_type: row for row in found.weights}
    assert rows["f16"].elements == weight.size and rows["f16"].bytes == weight.size * 2
    assert "f32" not in rows
    assert found.compression == []  # f16 is not a low-precision weight type
    assert found.inputs[0].element_type == "f32"


def _decompressed(weight: np.ndarray, kind, zero_point: bool):
    """An NNCF-like decompression of ``weight``: Convert (-> Subtract) -> Multiply."""
    low = ops.constant(weight, kind)
    value = ops.convert(low, ov.Type.f32)
    if zero_point:
        zp = ops.convert(ops.constant(np.full((weight.shape[0], 1), 8, np.uint8), ov.Type.u8),
                         ov.Type.f32)
        value = ops.subtract(value, zp)
    return ops.multiply(value, ops.constant(np.full((weight.shape[0], 1), 0.5, np.float32)))


def test_u8_and_u4_weights_behind_the_decompression_pattern_are_counted(tmp_path):
    u8 = np.arange(32 * 16, dtype=np.uint8).reshape(32, 16)
    u4 = (np.arange(32 * 16) % 16).astype(np.uint8).reshape(32, 16)
    stray = np.arange(32, dtype=np.uint8).reshape(1, 32)  # u8 behind Convert -> Add: not one
    x = ops.parameter([1, 32], ov.Type.f32, name="x")
    h = ops.matmul(x, _decompressed(u8, ov.Type.u8, zero_point=True), False, False)
    y = ops.parameter([1, 16], ov.Type.f32, name="y")
    g = ops.matmul(y, _decompressed(u4.T.copy(), ov.Type.u4, zero_point=False), False, False)
    k = ops.add(x, ops.convert(ops.constant(stray, ov.Type.u8), ov.Type.f32))
    model = ov.Model([ops.result(h), ops.result(g), ops.result(k)], [x, y], "nncf")
    path = _saved(model, tmp_path / "nncf.xml")
    read = ov.Core().read_model(path)
    every = sum(math.prod(list(op.get_output_shape(0))) for op in read.get_ordered_ops()
                if op.get_type_name() == "Constant")
    # the zero point (32 x 1 u8) and the scales (32 and 16 f32) and the stray u8
    assert every == u8.size + u4.size + 32 + 32 + 16 + stray.size
    found = interface_of(path, reshapeable="never")
    shares = {row.element_type: (row.elements, row.share) for row in found.compression}
    assert shares == {"u8": (u8.size, round(u8.size / every, 6)),
                      "u4": (u4.size, round(u4.size / every, 6))}
    rows = {row.element_type: row for row in found.weights}
    assert rows["u4"].bytes == u4.size // 2 and rows["u8"].constants == 3


def test_producer_and_rt_info_are_read_from_the_models_rt_info(tmp_path):
    model = _matmul_model(np.ones((4, 2), np.float32))
    model.set_rt_info("pytorch", ["conversion_parameters", "framework"])
    model.set_rt_info("1.24.0", ["optimum", "optimum_version"])
    model.set_rt_info("int4_asym", ["nncf", "weight_compression", "mode"])
    model.set_rt_info("[N,C]", ["layout"])
    path = _saved(model, tmp_path / "rt.xml")
    found = interface_of(path, reshapeable="never")
    assert found.producer["framework"] == "pytorch"
    assert found.producer["optimum"] == "1.24.0"
    assert found.producer["nncf_weight_compression"] == "int4_asym"
    assert found.producer["openvino"].startswith(ov.get_version().split("-")[0])
    assert found.rt_info["layout"] == "[N,C]"
    assert found.rt_info["conversion_parameters/framework"] == "pytorch"
    assert found.ir_version == 11 and found.extensions == []
    assert found.bin_bytes == (tmp_path / "rt.bin").stat().st_size


def test_a_results_output_names_win_over_its_producers_port(tmp_path):
    """2026 serializers write both, alike; where a hand edit makes them differ, read_model
    names the output by ``output_names``."""
    x = ops.parameter([1, 2], ov.Type.f32, name="x")
    inner = ops.relu(x)
    inner.output(0).set_names({"inner"})
    path = _saved(ov.Model([ops.result(inner)], [x], "m"), tmp_path / "m.xml")
    text = (tmp_path / "m.xml").read_text()
    assert text.count('output_names="inner"') == 1
    (tmp_path / "m.xml").write_text(text.replace('output_names="inner"',
                                                 'output_names="renamed,b\\,c"'))
    read = ov.Core().read_model(path)
    found = interface_of(path, reshapeable="never")
    assert sorted(found.outputs[0].names) == sorted(read.outputs[0].get_names()) == \
        ["b,c", "renamed"]
