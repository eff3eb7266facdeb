"""IRV216 body-port-map, on genuine TensorIterator and If models with one hand edit each."""
import numpy as np
import pytest

from irvalidate.engine.validation import validate_file

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset16")


def tensor_iterator(path):
    x = ops.parameter([2, 5, 3], ov.Type.f32, name="x")
    bp = ops.parameter([2, 1, 3], ov.Type.f32, name="bp")
    acc = ops.parameter([2, 1, 3], ov.Type.f32, name="acc")
    total = ops.add(bp, acc)
    body = ov.Model([ops.result(total)], [bp, acc], "body")
    ti = ops.tensor_iterator()
    ti.set_body(body)
    ti.set_sliced_input(bp, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(acc, ops.constant(np.zeros((2, 1, 3), np.float32)).output(0), total.output(0))
    out = ti.get_iter_value(total.output(0), -1)
    ov.save_model(ov.Model([out], [x], "ti"), str(path), compress_to_fp16=False)
    return path


def codes(path):
    return [(f.code, f.layer.type if f.layer else None) for f in validate_file(str(path)).findings]


def test_genuine_tensor_iterator_is_clean(tmp_path):
    assert codes(tensor_iterator(tmp_path / "m.xml")) == []


@pytest.mark.parametrize("old,new,fragment", [
    ('<input axis="1" external_port_id="0" internal_layer_id="0"',
     '<input axis="1" external_port_id="7" internal_layer_id="0"', "external port '7'"),
    ('<input external_port_id="1" internal_layer_id="1"',
     '<input external_port_id="1" internal_layer_id="9"', "internal layer '9'"),
    ('<output external_port_id="2" internal_layer_id="3"',
     '<output external_port_id="2" internal_layer_id="1"', "maps to a body Result"),
    ('<edge from-layer="3" to-layer="1"', '<edge from-layer="3" to-layer="8"', "to-layer '8'"),
])
def test_broken_port_map_entries(tmp_path, old, new, fragment):
    path = tensor_iterator(tmp_path / "m.xml")
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV216"]
    assert len(found) == 1 and fragment in found[0].message
    assert found[0].layer.type == "TensorIterator"
