"""IRV005 schema-violation: the structural schema, with findings in plain words and lines."""
import pytest

from irvalidate.engine.validation import validate_file
from support.irbuilder import IR


def run_text(tmp_path, text):
    path = tmp_path / "m.xml"
    path.write_text(text)
    return [f for f in validate_file(str(path)).findings if f.code == "IRV005"]


def model_text():
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    return ir.xml()


def test_builder_output_is_schema_valid(tmp_path):
    assert run_text(tmp_path, model_text()) == []


@pytest.mark.parametrize("old,new,fragment,layer", [
    ('type="Add" version="opset1">', 'type="Add">', "lacks the required attribute 'version'", "Add"),
    ('<layer id="2" ', '<layer id="2" colour="red" ', "attribute 'colour'", "Add"),
    ("<output>\n<port id=\"2\"", "<ouput>\n<port id=\"2\"", "<ouput>", "Add"),
    ('<port id="2" precision="FP32">', '<port precision="FP32">', "lacks the required attribute 'id'", "Add"),
    ('<edge from-layer="0" from-port="0" ', '<edge from-layer="0" ', "'from-port'", None),
    ("</layers>", "<layer id=\"9\" type=\"Relu\" version=\"opset1\"/></layers><junk/>", "<junk>", None),
])
def test_violations_are_explained(tmp_path, old, new, fragment, layer):
    text = model_text()
    assert old in text
    if old == "<output>\n<port id=\"2\"":
        text = text.replace(old, new, 1).replace("</output>\n</layer>\n<layer id=\"3\"",
                                                  "</ouput>\n</layer>\n<layer id=\"3\"", 1)
    else:
        text = text.replace(old, new, 1)
    found = run_text(tmp_path, text)
    assert found, text
    assert any(fragment in f.message for f in found), [f.message for f in found]
    hit = next(f for f in found if fragment in f.message)
    assert isinstance(hit.line, int) and hit.line > 0
    assert (hit.layer.type if hit.layer else None) == layer
    assert "[schema:" in hit.message  # the raw message is kept, after the plain words


def test_a_violation_does_not_hide_other_findings(tmp_path):
    text = model_text().replace('<layer id="2" ', '<layer id="2" colour="red" ', 1)
    text = text.replace('<port id="1" precision="FP32"><dim>3</dim></port>\n</input>',
                        '<port id="1" precision="FP32"><dim>4</dim></port>\n</input>', 1)
    path = tmp_path / "m.xml"
    path.write_text(text)
    codes = {f.code for f in validate_file(str(path)).findings}
    assert {"IRV005", "IRV201"} <= codes


@pytest.mark.parametrize("edge", [
    '<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>',
    '<edge from-layer="0" from-port="0" to-layer="2" to-port="0">\n</edge>',
    '<edge from-layer="0" from-port="0" to-layer="2"/>',
    '<edge from-layer="0" from-port="0" to-layer="2" to-port="0" extra="1"/>',
    '<edge from-layer="0" from-port="0" to-layer="2" to-port="0"><x/></edge>',
    '<edge from-layer="0" from-port="0" to-layer="2" to-port="0">text</edge>',
])
def test_edge_fast_path_agrees_with_the_schema(edge):
    from lxml import etree

    from irvalidate.ir import schema as structure
    elem = etree.fromstring(f"<edges>{edge}</edges>")[0]
    by_schema = structure.validator("edge").validate(elem)
    assert structure.plain_edge(elem) == by_schema
