"""Findings point at the exact line at any file size: libxml2 keeps lines only up to 65,534
(lxml then answers with a neighbour's), and a ``<dim>``'s line is found when a finding names
one dim.  Every expected line is checked against the file's own text."""
import re
from pathlib import Path

import numpy as np
import pytest

from irvalidate.engine.validation import validate_file

ov = pytest.importorskip("openvino")
from openvino import opset1, opset8  # noqa: E402


def big_model(tmp_path, relus=6000):
    """A genuine serializer-written IR of more than 65,535 lines whose interesting layers
    (an Add, an If with bodies) come after line 65,535."""
    x = opset1.parameter([2, 3], np.float32, name="x")
    out = x
    for i in range(relus):
        out = opset1.relu(out, name=f"relu{i}")
    add = opset1.add(out, opset1.constant(np.ones((1, 3), np.float32), name="bias"), name="add")
    flag = opset1.parameter([], np.bool_, name="flag")
    then_x = opset1.parameter([2, 3], np.float32, name="then_x")
    else_x = opset1.parameter([2, 3], np.float32, name="else_x")
    then_body = ov.Model([opset1.result(opset1.add(then_x, then_x, name="then_add"))], [then_x])
    else_body = ov.Model([opset1.result(opset1.negative(else_x, name="else_neg"))], [else_x])
    branch = opset8.if_op(flag)
    branch.set_then_body(then_body)
    branch.set_else_body(else_body)
    branch.set_input(add.output(0), then_x, else_x)
    branch.set_output(then_body.get_results()[0], else_body.get_results()[0])
    path = tmp_path / "big.xml"
    ov.save_model(ov.Model([opset1.result(branch.output(0), name="out")], [x, flag]), str(path),
                  compress_to_fp16=False)
    return path


def line_of(text, index):
    return text[:index].count("\n") + 1


def set_output_dim(text, layer_name, old, new):
    """``text`` with the first ``<dim>old</dim>`` of the layer's ``<output>`` set to ``new``,
    and that dim's line."""
    at = text.index("<dim>", text.index("<output>", text.index(f'name="{layer_name}"')))
    at = text.index(f"<dim>{old}</dim>", at)
    return text[:at] + f"<dim>{new}</dim>" + text[at + len(f"<dim>{old}</dim>"):], line_of(text, at)


def line_text(path, number):
    return path.read_text().split("\n")[number - 1]


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    path = big_model(tmp_path_factory.mktemp("big"))
    text = path.read_text()
    assert text.count("\n") > 80_000
    ids = {name: re.search(rf'<layer id="(\d+)" name="{name}"', text).group(1)
           for name in ("add", "then_add", "relu5999")}
    # the Add's output dim 3 -> 4: IRV101 at that <dim>, and IRV201 on its edge into the If
    text, dim_line = set_output_dim(text, "add", 3, 4)
    # inside the then-body: the Add's output dim 3 -> 5
    text, body_dim = set_output_dim(text, "then_add", 3, 5)
    # an edge into a missing layer (IRV202), last in the edge list
    end = text.rindex("</edges>")
    text = text[:end] + '<edge from-layer="0" from-port="0" to-layer="99999" to-port="0" />\n\t' \
        + text[end:]
    edge_line = line_of(text, end)
    path.write_text(text)
    return path, dim_line, edge_line, body_dim, ids


def test_lines_past_65535_are_exact(big):
    path, dim_line, edge_line, body_dim, ids = big
    assert min(dim_line, edge_line, body_dim) > 65535
    found = {(f.code, f.layer.name if f.layer else None): f for f in validate_file(str(path)).findings}
    # IRV101 points at the edited <dim> itself
    add = found[("IRV101", "add")]
    assert add.line == dim_line and "<dim>4</dim>" in line_text(path, add.line)
    # IRV201 on the edge from the Add into the If (and on the body's own edge) points at the
    # port to change: the Add's output port, stale where the If's input port is right
    edges = [f for f in validate_file(str(path)).findings if f.code == "IRV201"]
    assert len(edges) == 2 and all("<port id=" in line_text(path, f.line) for f in edges)
    [into_if] = [f for f in edges if f"its producer Add 'add' (id={ids['add']})" in f.message]
    assert dim_line - 4 <= into_if.line < dim_line, (into_if.line, dim_line)
    assert "the producer's output port is stale" in into_if.message
    # IRV202 points at the added edge
    dangling = next(f for f in found.values() if f.code == "IRV202")
    assert dangling.line == edge_line and 'to-layer="99999"' in line_text(path, dangling.line)
    # inside a body
    body = found[("IRV101", "then_add")]
    assert body.line == body_dim and "<dim>5</dim>" in line_text(path, body.line)


def test_layer_lines_past_65535_are_exact(big, tmp_path):
    path, _, _, _, ids = big
    # an unknown type on the last Relu: IRV212 points at its <layer> line
    copy = tmp_path / "typo.xml"
    text, count = re.subn(r'(name="relu5999" type=")\w+"', r'\1Reluu"', path.read_text())
    assert count == 1
    copy.write_text(text)
    (tmp_path / "typo.bin").write_bytes(path.with_suffix(".bin").read_bytes())
    [f] = [f for f in validate_file(str(copy)).findings if f.code == "IRV212"]
    assert f.line > 65535 and 'name="relu5999" type="Reluu"' in line_text(copy, f.line)
    assert "did you mean 'Relu'?" in f.message


def test_a_dim_line_in_a_small_file(tmp_path):
    x = opset1.parameter([2, 3], np.float32, name="x")
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([opset1.relu(x, name="relu")], [x]), str(path))
    text = path.read_text()
    at = text.index("<output>", text.index('name="relu"'))
    dim = text[:text.index("<dim>3</dim>", at)].count("\n") + 1
    lines = text.split("\n")
    lines[dim - 1] = lines[dim - 1].replace("<dim>3</dim>", "<dim>7</dim>")
    path.write_text("\n".join(lines))
    [f] = [f for f in validate_file(str(path)).findings if f.code == "IRV101"]
    assert f.line == dim and "set this <dim> to 3" in f.message


def every_record(doc):
    for graph in doc.graphs():
        yield from graph.edges
        for layer in graph.layers:
            yield layer
            yield from layer.inputs
            yield from layer.outputs
            yield from layer.port_maps
            yield from layer.back_edges


HERE = Path(__file__).resolve().parent
SAMPLES = sorted((HERE.parents[1] / "sample_models").glob("*/*.xml"))
WILD = HERE.parents[2] / "shared" / "wild-corpus"  # real files, when present
REAL = sorted(WILD.glob("*/*.xml")) if WILD.is_dir() else []


@pytest.mark.parametrize("path", SAMPLES + REAL, ids=lambda p: p.stem)
def test_the_locator_names_every_record_as_the_parser_does(path):
    # lxml's lines are exact up to 65,534: there the scan must find each record at its line;
    # past it (three real files), the line found must hold that very element
    from irvalidate.ir.locate import MAX_EXACT_LINE, find_lines, record_keys
    from irvalidate.ir.parser import parse
    from irvalidate.ir.records import Edge, Layer, Port
    doc = parse(str(path))
    records = list(every_record(doc))
    keys = record_keys(doc, records)
    assert len(keys) == len(records)
    found = find_lines(str(path), keys.values())
    lines = path.read_bytes().decode("utf-8", "replace").split("\n")
    for record in records:
        line = found.get(keys[id(record)])
        if record.line <= MAX_EXACT_LINE:
            assert line == record.line, (keys[id(record)], record)
            continue
        text = lines[line - 1]
        if isinstance(record, Layer):
            assert f'<layer id="{record.id}"' in text, (record.describe(), text)
        elif isinstance(record, Port):
            assert f'<port id="{record.id}"' in text, (record, text)
        elif isinstance(record, Edge):
            assert (f'from-layer="{record.from_layer}" from-port="{record.from_port}" '
                    f'to-layer="{record.to_layer}" to-port="{record.to_port}"') in text, text
