"""ir/details.py: the fast path (the lines of the layers asked about, and the text after the
last ``</edges>``) gives what one lxml pass over the whole file gives, on every sample and
corpus file, and gives way to that pass where a line does not hold the layer it should."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from irvalidate.ir import details, reader
from support import places
from support.irbuilder import IR

FILES = places.SAMPLES + places.CORPUS_FILES


def _asked(doc) -> dict[int, str]:
    """Every top-level layer (the fast path is asked about a few; this asks about all)."""
    return {layer.line: layer.id for layer in doc.graph.layers}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_fast_path_reads_what_lxml_reads(path: Path):
    doc = reader.scan(str(path))
    if doc is None or doc.fatal:
        pytest.skip("not read by the scanner")
    asked = _asked(doc)
    if len(set(asked.values())) != len(asked):
        pytest.skip("two layers on one line")
    try:
        fast = details._by_lines(str(path), asked)
    except (details._Unexpected, etree.XMLSyntaxError):
        pytest.skip("the fast path gives way")
    assert fast == details._whole(str(path), set(asked.values()))


def test_most_files_take_the_fast_path():
    """The skips above are few: the comparison covers most of the files."""
    taken = 0
    for path in FILES:
        doc = reader.scan(str(path))
        if doc is None or doc.fatal:
            continue
        try:
            details._by_lines(str(path), _asked(doc))
            taken += 1
        except (details._Unexpected, etree.XMLSyntaxError):
            pass
    assert taken >= len(FILES) // 2, taken


def test_a_layer_with_bodies_is_read_on_the_fast_path():
    """A TensorIterator's, Loop's or If's text ends at its own </layer>, after its bodies'
    layers: the fast path reads it (it gave way to the whole lxml pass, ten times slower)."""
    path = places.ROOT / "sample_models" / "valid" / "body-port-map.xml"
    doc = reader.scan(str(path))
    asked = _asked(doc)
    assert any(layer.bodies for layer in doc.graph.layers)
    assert details._by_lines(str(path), asked) == details._whole(str(path), set(asked.values()))


def test_a_layer_with_bodies_read_over_many_chunks(monkeypatch):
    """Its text spread over blocks of 64 bytes (a body of megabytes is read so): the
    layers open are carried from block to block, and the text is the same."""
    path = places.ROOT / "sample_models" / "valid" / "body-port-map.xml"
    asked = _asked(reader.scan(str(path)))
    whole = details._whole(str(path), set(asked.values()))
    monkeypatch.setattr(details, "_CHUNK", 64)
    assert details._by_lines(str(path), asked) == whole


def _two_layers_on_a_line(tmp_path: Path) -> Path:
    ir = IR()
    x = ir.parameter("1,4", name="x")
    ir.result(ir.op("Relu", [x], [[1, 4]]))
    text = ir.xml().replace('<port id="1" precision="FP32">', '<port id="1" precision="FP32" '
                            'names="a\\,b,c">')
    # the Parameter's layer and the Relu's start tag on one line
    start, end = text.index('<layer id="0"'), text.index('<layer id="1"')
    text = text[:start] + text[start:end].replace("\n", "") + text[end:]
    path = tmp_path / "m.xml"
    path.write_text(text)
    return path


def test_a_line_with_two_layers_gives_way_to_the_lxml_pass(tmp_path):
    path = _two_layers_on_a_line(tmp_path)
    doc = reader.parse(str(path))
    asked = {layer.line: layer.id for layer in doc.graph.layers if layer.id == "1"}
    with pytest.raises(details._Unexpected):
        details._by_lines(str(path), asked)
    found = details.read(str(path), asked, plain=True)
    assert found.layers["1"].names == {"1": ["a,b", "c"]}


def test_the_models_sections_are_flattened(tmp_path):
    ir = IR()
    ir.result(ir.parameter("1", name="x"))
    text = ir.xml().replace("</net>", '<rt_info><Runtime_version value="2026.4"/>'
                            '<conversion_parameters><framework value="onnx"/>'
                            '<info name="odd name" value="1"/></conversion_parameters>'
                            '<flag/></rt_info></net>')
    path = tmp_path / "m.xml"
    path.write_text(text)
    found = details.read(str(path), {}, plain=reader.scan(str(path)) is not None)
    assert found.sections == {"rt_info": {
        "Runtime_version": "2026.4", "conversion_parameters/framework": "onnx",
        "conversion_parameters/odd name": "1", "flag": ""}}
