"""The Parameters' tensor names, which --reshape matches as Model.reshape does."""
from irvalidate.ir.tensor_names import parameter_names, split_names


def test_names_split_on_commas_but_not_escaped_ones():
    assert split_names("a, b,c") == ["a", "b", "c"]
    assert split_names(r"a\,b,c") == ["a,b", "c"]
    assert split_names("") == [] and split_names(" , ") == []


def test_only_top_level_parameters_are_read(tmp_path):
    xml = tmp_path / "model.xml"
    xml.write_text('''<?xml version="1.0"?>
<net name="n" version="11"><layers>
 <layer id="0" name="x" type="Parameter" version="opset1"><data shape="1" element_type="f32"/>
  <output><port id="0" precision="FP32" names="x,input:0"><dim>1</dim></port></output></layer>
 <layer id="1" name="loop" type="Loop" version="opset5"><body><layers>
  <layer id="0" name="inner" type="Parameter" version="opset1"><data shape="1" element_type="f32"/>
   <output><port id="0" precision="FP32" names="inner_name"><dim>1</dim></port></output></layer>
 </layers></body></layer>
 <layer id="2" name="y" type="Parameter" version="opset1"><data shape="1" element_type="f32"/>
  <output><port id="0" precision="FP32"><dim>1</dim></port></output></layer>
</layers><edges/></net>''')
    assert parameter_names(str(xml)) == {"0": ["x", "input:0"], "2": []}
    from irvalidate.ir.tensor_names import names_at
    assert names_at(str(xml), 3) == ["x", "input:0"] and names_at(str(xml), 9) == []
    assert parameter_names(str(tmp_path / "missing.xml")) == {}


def test_names_at_a_layers_line():
    """names_at (a streamed --reshape reads a Parameter's names from its own lines) gives
    what parameter_names gives, on every sample and corpus file the reader reads."""
    from irvalidate.ir.reader import parse
    from irvalidate.ir.tensor_names import names_at, parameter_names
    from support.places import CORPUS_FILES, SAMPLES
    compared = named = 0
    for path in SAMPLES + CORPUS_FILES:
        doc = parse(str(path))
        if doc.fatal:
            continue
        whole = parameter_names(str(path))
        for layer in doc.graph.layers:
            if layer.type.lower() == "parameter" and layer.id in whole:
                assert names_at(str(path), layer.line) == whole[layer.id], (path, layer.name)
                compared += 1
                named += bool(whole[layer.id])
    assert compared >= 50 and named >= 20, (compared, named)
