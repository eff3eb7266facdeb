"""Root causes (irvalidate.engine.linking): a declared dim contradicted only because what reaches its
layer already contradicts upstream is linked to the root it follows from, and the text report
leads with the roots.

The two scenarios of issue 23, on a model built by hand with tests/irbuilder (shapes worked
out by hand: Relu, Sigmoid and a numpy Add of a [1,3,1,1] Const keep their input's shape):
one Parameter resized by hand (its shape attribute and its port), the layers after it left
as they were; one producer's output <dim> edited.
"""
import json

import pytest

from irvalidate.cli import main as cli
from irvalidate.engine import streaming
from irvalidate.engine.validation import validate_file
from support.irbuilder import IR
from support.places import ROOT


def chain(size: int = 8, declared: int = 8, relu_out=None) -> IR:
    """Parameter [1,3,size,size] -> Relu -> Sigmoid -> Add(Const [1,3,1,1]) -> Result, every
    port after the Parameter declaring [1,3,declared,declared] (the Relu's output
    ``relu_out`` when given)."""
    ir = IR()
    dims = [1, 3, declared, declared]
    x = ir.parameter(f"1,3,{size},{size}", name="x")
    relu = ir.op("Relu", [x], [relu_out or dims], in_dims={0: dims}, name="relu")
    sig = ir.op("Sigmoid", [relu], [dims], in_dims={0: dims}, name="sig")
    bias = ir.const([0.0, 1.0, 2.0], et="f32", shape=[1, 3, 1, 1])
    ir.result(ir.op("Add", [sig, bias], [dims], data={"auto_broadcast": "numpy"}, name="add"))
    return ir


@pytest.fixture
def check(tmp_path):
    def _check(ir, stem="model"):
        return validate_file(str(ir.write(tmp_path, stem))).findings
    return _check


def by_layer(findings):
    return {(f.code, f.layer.name): f for f in findings}


def test_a_resized_input_has_one_root_and_its_consequences_link_to_it(check):
    found = by_layer(check(chain(size=10)))
    assert set(found) == {("IRV201", "relu"), ("IRV101", "relu"), ("IRV101", "sig"),
                          ("IRV101", "add")}
    root = found[("IRV201", "relu")]
    assert root.caused_by is None
    for key in [("IRV101", "relu"), ("IRV101", "sig"), ("IRV101", "add")]:
        cause = found[key].caused_by
        assert cause is not None, key
        assert (cause.code, cause.layer.name, cause.port, cause.line) == \
            ("IRV201", "relu", "0", root.line)


def test_an_edited_producer_dim_is_the_root_of_the_edge_beside_it(check):
    found = by_layer(check(chain(relu_out=[1, 3, 9, 8])))
    assert set(found) == {("IRV101", "relu"), ("IRV201", "sig")}
    root, edge = found[("IRV101", "relu")], found[("IRV201", "sig")]
    assert root.caused_by is None and "set this <dim> to 8" in root.message
    assert (edge.caused_by.code, edge.caused_by.layer.name, edge.caused_by.line) == \
        ("IRV101", "relu", root.line)


def test_findings_whose_inputs_agree_are_roots(check):
    # two independent edits: the Relu's output dim and the Add's own output dim; the Sigmoid
    # between them gets the right shape, so the Add's contradiction is a root of its own
    ir = chain(relu_out=[1, 3, 9, 8])
    ir.layers[-2].outputs[0].dims = [1, 3, 8, 7]
    found = by_layer(check(ir))
    assert found[("IRV101", "relu")].caused_by is None
    assert found[("IRV101", "add")].caused_by is None
    assert found[("IRV201", "sig")].caused_by.layer.name == "relu"


def test_the_stream_links_as_the_whole_check_does(check, monkeypatch):
    ir = chain(size=10)
    whole = check(ir, "whole")
    monkeypatch.setattr(streaming, "MIN_BYTES", 0)
    called = []
    real = streaming.check
    monkeypatch.setattr(streaming, "check", lambda *a: called.append(1) or real(*a))
    streamed = check(ir, "streamed")
    assert called and streamed[0].path.endswith("streamed.xml")
    strip = lambda fs: [f._replace(path="") for f in fs]  # noqa: E731
    assert strip(streamed) == strip(whole)
    assert sum(f.caused_by is not None for f in streamed) == 3


def test_the_text_report_leads_with_the_roots(tmp_path, capsys):
    path = str(chain(size=10).write(tmp_path))
    assert cli.main([path]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[1].split()[0] for line in out if line.startswith(path)] == ["IRV201"]
    assert "    and 3 more declared dims downstream follow from it" in out
    assert out[-1] == "Found 4 errors in 1 file checked."
    for flag in ("-v", "--show-consequences"):
        assert cli.main([flag, path]) == 1
        every = capsys.readouterr().out.splitlines()
        listed = [line for line in every if line.startswith(path)]
        assert [line.split(": ")[1].split()[0] for line in listed] == ["IRV201"] + ["IRV101"] * 3
        root_line = listed[0].split(":")[1]
        assert all(line.endswith(f"(follows from IRV201 on line {root_line}) "
                                 "(output-shape-mismatch)") for line in listed[1:])
        assert not any("more declared dim" in line for line in every)


def test_one_consequence_is_counted_in_the_singular(tmp_path, capsys):
    path = str(chain(relu_out=[1, 3, 9, 8]).write(tmp_path))
    cli.main([path])
    assert "    and 1 more declared dim downstream follows from it" in \
        capsys.readouterr().out.splitlines()


def _schema(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_json_keeps_every_finding_and_names_each_consequences_root(tmp_path, capsys):
    import jsonschema
    path = str(chain(size=10).write(tmp_path))
    assert cli.main(["--format", "json", path]) == 1
    report = json.loads(capsys.readouterr().out)
    jsonschema.validate(report, _schema(ROOT / "schemas" / "report.schema.json"))
    findings = report["files"][0]["findings"]
    assert len(findings) == 4 and report["summary"]["errors"] == 4
    [root] = [f for f in findings if "caused_by" not in f]
    assert root["rule"] == "IRV201"
    causes = [f["caused_by"] for f in findings if "caused_by" in f]
    assert causes == [{"rule": "IRV201", "layer": root["layer"], "port": "0",
                       "line": root["line"]}] * 3


def test_sarif_gives_a_consequence_its_root_as_a_related_location(tmp_path, capsys):
    import jsonschema
    path = str(chain(size=10).write(tmp_path))
    cli.main(["--format", "sarif", path])
    log = json.loads(capsys.readouterr().out)
    sarif = ROOT / "tests" / "reporting" / "data" / "sarif-schema-2.1.0.json"
    jsonschema.validate(log, _schema(sarif))
    results = log["runs"][0]["results"]
    [root] = [r for r in results if "relatedLocations" not in r]
    root_line = root["locations"][0]["physicalLocation"]["region"]["startLine"]
    related = [r["relatedLocations"] for r in results if "relatedLocations" in r]
    assert len(related) == 3
    for [where] in related:
        assert where["physicalLocation"]["region"]["startLine"] == root_line
        assert where["message"]["text"].startswith("the root finding this one follows from: IRV201")


def test_concise_prints_one_line_per_finding(tmp_path, capsys):
    from irvalidate.reporting import FORMATTERS
    from irvalidate.rules.findings import Finding
    path = str(chain(size=10).write(tmp_path))
    assert cli.main(["--format", "concise", path]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 5 and out[-1] == "Found 4 errors in 1 file checked."
    assert [line.split(": ")[1].split()[:2] for line in out[:4]] == \
        [["IRV201", "[error]"]] + [["IRV101", "[error]"]] * 3
    assert all(line.startswith(path + ":") for line in out[:4])
    # a name holding a line break (a hostile file) does not break the one line
    odd = Finding("m.xml", 3, "IRV108", "unknown-attribute", "warning", "Add 'a\nb': x")
    assert FORMATTERS["concise"]([type("R", (), {"findings": [odd]})()], "") == \
        "m.xml:3: IRV108 [warning] Add 'a\\x0ab': x\nFound 1 warning in 1 file checked.\n"


def test_a_parameter_whose_port_was_left_behind_is_the_root(check):
    # only the shape attribute resized (the runtime reads it; the port still says 8): no edge
    # disagrees, and every contradiction after it follows from IRV214
    ir = chain()
    ir.layers[0].data["shape"] = "1,3,10,10"
    found = by_layer(check(ir))
    assert set(found) == {("IRV214", "x"), ("IRV101", "relu"), ("IRV101", "sig"),
                          ("IRV101", "add")}
    root = found[("IRV214", "x")]
    assert root.caused_by is None
    assert {(f.caused_by.code, f.caused_by.line) for k, f in found.items() if k != ("IRV214", "x")} \
        == {("IRV214", root.line)}


FACE_DETECTOR = "face-detection-retail-0004__FP32__face-detection-retail-0004.xml"


def resized_copy(tmp_path, source, size):
    """The model with its Parameter resized by hand, as a person would: the shape attribute
    and the port's <dim>s, nothing after it."""
    import re
    import shutil
    text = source.read_text()
    head, rest = text.split("</layer>", 1)
    assert 'type="Parameter"' in head, "the first layer is the Parameter"
    head = re.sub(r'shape="1, 3, 300, 300"', f'shape="1, 3, {size}, {size}"', head)
    head = head.replace("<dim>300</dim>", f"<dim>{size}</dim>")
    path = tmp_path / source.name
    path.write_text(head + "</layer>" + rest)
    shutil.copy(source.with_suffix(".bin"), path.with_suffix(".bin"))
    return path


def test_a_resized_face_detector_leads_with_its_roots(tmp_path, capsys):
    from support.places import CORPUS_FILES
    found = [p for p in CORPUS_FILES if p.name == FACE_DETECTOR]
    if not found:
        pytest.skip("the wild corpus is not here")
    path = str(resized_copy(tmp_path, found[0], 320))
    findings = validate_file(path).findings
    roots = [f for f in findings if f.caused_by is None]
    # 120 findings (655 lines of text before issue 23); the edge into the first layer is the
    # root of almost all (a PriorBoxClustered reached through ShapeOf is a root of its own)
    assert len(findings) >= 100 and len(roots) <= 2
    assert roots[0].code == "IRV201" and roots[0].layer.id == "2"
    cli.main([path])
    out = capsys.readouterr().out.splitlines()
    assert len(out) < 20 and out[-1] == f"Found {len(findings)} errors in 1 file checked."


def test_the_resized_chain_is_what_the_runtime_infers(tmp_path):
    # the shapes the consequences expect are openvino's own for the resized model
    ov = pytest.importorskip("openvino")
    path = chain(size=10).write(tmp_path)
    runtime = {n.get_friendly_name(): str(n.get_output_partial_shape(0))
               for n in ov.Core().read_model(str(path)).get_ops() if n.get_output_size()}
    found = validate_file(str(path)).findings
    expected = {f.layer.name: f.expected for f in found if f.code == "IRV101"}
    assert expected == {name: runtime[name] for name in ("relu", "sig", "add")}
    assert set(expected.values()) == {"[1,3,10,10]"}


def test_links_stay_within_a_body_and_its_root_is_the_set_parameter(tmp_path):
    """An If (condition true) whose bodies were declared for x [2,3], x resized by hand to
    [4,3]: the then body's Parameter (the runtime sets it to [4,3]) is that body's one root,
    both Relus after it follow from it, and no link crosses from a body to the model."""
    ov = pytest.importorskip("openvino")
    import numpy as np
    import openvino.opset8 as o8
    from lxml import etree

    def body(declared):
        p = o8.parameter(ov.PartialShape(declared), np.float32)
        return ov.Model([o8.result(o8.relu(o8.relu(p)))], [p]), p

    x = o8.parameter([2, 3], np.float32, name="x")
    node = o8.if_op(o8.constant(np.array(True)).output(0))
    (then, tp), (other, ep) = body([2, 3]), body([2, 3])
    node.set_then_body(then)
    node.set_else_body(other)
    node.set_input(x.output(0), tp, ep)
    node.set_output(then.get_results()[0], other.get_results()[0])
    path = tmp_path / "if.xml"
    ov.save_model(ov.Model([o8.result(node.output(0))], [x]), str(path), compress_to_fp16=False)
    tree = etree.parse(str(path))
    outer_x = tree.find("layers/layer[@name='x']")
    outer_x.find("data").set("shape", "4,3")
    outer_x.find("output/port/dim").text = "4"
    tree.write(str(path))
    assert [str(o.get_partial_shape()) for o in ov.Core().read_model(str(path)).outputs] == \
        ["[4,3]"]  # the runtime takes the resize through the body

    findings = validate_file(str(path)).findings
    scope_of = {(f.layer.id, f.line): f.scope for f in findings}
    then_body = [f for f in findings if f.scope.startswith("then")]
    roots = [f for f in then_body if f.caused_by is None]
    assert [(f.code, f.layer.type) for f in roots] == [("IRV101", "Parameter")], then_body
    assert sorted(f.layer.type for f in then_body if f.caused_by is not None) == \
        ["ReLU", "ReLU"]
    for f in findings:
        if f.caused_by is not None:
            assert scope_of[(f.caused_by.layer.id, f.caused_by.line)] == f.scope, f
