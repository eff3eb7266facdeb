"""``inspect`` on hand-written IRs: what only an old or unusual file has (the legacy
``<meta_data>``, an extension op), and what no file may do to it (a traceback)."""
from __future__ import annotations

import pytest

from irvalidate.interface.inspect import InspectError, interface_of
from support.irbuilder import IR


def test_the_legacy_meta_data_names_the_producer(tmp_path):
    ir = IR()
    ir.result(ir.parameter("1,3", name="x"))
    text = ir.xml().replace("</net>", '<meta_data><MO_version value="2022.2"/>'
                            '<Runtime_version value="2022.2-x"/><cli_parameters>'
                            '<framework value="onnx"/><layout value="x(NC)"/>'
                            '</cli_parameters></meta_data></net>')
    (tmp_path / "m.xml").write_text(text)
    found = interface_of(str(tmp_path / "m.xml"), reshapeable="never")
    assert found.producer == {"openvino": "2022.2-x", "mo": "2022.2", "framework": "onnx"}
    assert found.rt_info["meta_data/cli_parameters/layout"] == "x(NC)"


def test_extension_ops_are_listed_and_opset_ops_are_not(tmp_path):
    ir = IR()
    x = ir.parameter("4", et="i32", name="x")
    y = ir.op("RegexSplit", [x], [[4]], version="extension")
    z = ir.op("Relu", [y], [[4]], version="opset1")
    ir.result(ir.op("NoSuchOp", [z], [[4]], version="opset1"))
    path = ir.write(tmp_path)
    found = interface_of(str(path), reshapeable="never")
    assert found.extensions == ["NoSuchOp", "RegexSplit"]
    assert {(row.type, row.opset) for row in found.layers} >= {("RegexSplit", "extension")}


@pytest.mark.parametrize("text", ["", "not xml", "<net version='9'><layers/><edges/></net>",
                                  "<net version='11'><layers><layer", "<other/>"])
def test_a_file_that_is_not_an_ir_is_an_inspect_error(tmp_path, text):
    path = tmp_path / "m.xml"
    path.write_text(text)
    with pytest.raises(InspectError):
        interface_of(str(path))


def test_a_tensors_own_rt_info_is_kept_without_fused_names(tmp_path, capsys):
    """MO's old_api_map_element_type and preprocessing marks sit on the Parameter layer, a
    layout on its port; fused_names, which every export rewrites, is left out."""
    ir = IR()
    ir.result(ir.op("Relu", [ir.parameter("1,3", name="x")], [[1, 3]]))
    text = ir.xml().replace(
        '<data shape="1,3" element_type="f32"/>',
        '<data shape="1,3" element_type="f32"/><rt_info><attribute name="fused_names" '
        'version="0" value="x"/><attribute name="old_api_map_element_type" version="0" '
        'value="f16"/><attribute name="preprocessing" version="0"/></rt_info>', 1).replace(
        '<port id="0" precision="FP32"><dim>1</dim><dim>3</dim></port>\n</output>',
        '<port id="0" precision="FP32"><dim>1</dim><dim>3</dim><rt_info><attribute '
        'name="layout" version="0" layout="[N,C]"/></rt_info></port>\n</output>', 1)
    (tmp_path / "m.xml").write_text(text)
    found = interface_of(str(tmp_path / "m.xml"), reshapeable="never")
    assert found.inputs[0].rt_info == {"old_api_map_element_type": "f16", "preprocessing": "",
                                       "layout": "[N,C]"}
    assert found.inputs[0].layout == "[N,C]" and found.outputs[0].rt_info == {}
    from irvalidate.cli.main import main
    assert main(["inspect", "--reshapeable", "never", str(tmp_path / "m.xml")]) == 0
    assert "        rt_info: old_api_map_element_type=f16, preprocessing\n" in \
        capsys.readouterr().out


def test_layers_that_share_a_line_keep_their_names(tmp_path):
    """A file written on one line (every layer shares line 1): each input and output keeps
    its tensor names, as in the same file written line by line."""
    from pathlib import Path
    source = Path(__file__).resolve().parents[2] / "sample_models" / "valid" / "computed-target.xml"
    (tmp_path / "one.xml").write_text(" ".join(source.read_text().split("\n")))
    one = interface_of(str(tmp_path / "one.xml"), reshapeable="never")
    lined = interface_of(str(source), reshapeable="never")
    assert [t.names for t in one.inputs] == [t.names for t in lined.inputs] != [[]]
    assert [t.names for t in one.outputs] == [t.names for t in lined.outputs]


def test_the_axes_are_solved_on_the_records_inspect_read(tmp_path, monkeypatch):
    """inspect hands reshapeable's whole run the records it read: the file is not parsed a
    second time, and the axes are those reshapeable gives."""
    from irvalidate.reshaping import constraints
    ir = IR()
    x = ir.parameter("1,?,8", name="x")
    ir.result(ir.op("Add", [x, ir.const([0.0] * 32, "f32", [1, 4, 8])], [[1, 4, 8]]))
    path = str(ir.write(tmp_path))
    expected = constraints.constraints_of(path)[0]["axes"][1]

    def refused(_path):
        raise AssertionError("parsed again")
    monkeypatch.setattr(constraints, "parse", refused)
    axis = interface_of(path).inputs[0].axes[1]
    assert (axis.values, axis.exact) == (expected["values"], expected["exact"]) == ([1, 4], True)
