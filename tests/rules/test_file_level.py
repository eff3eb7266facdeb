"""IRV001-IRV004: files that cannot be (fully) read."""
import pytest

from irvalidate.engine.validation import validate_file
from support.irbuilder import IR


def check(tmp_path, text, name="m.xml"):
    path = tmp_path / name
    path.write_text(text)
    return validate_file(str(path)).findings


@pytest.mark.parametrize("text", ["", "<net version='11'><layers>", "\x00\x01binary"])
def test_unreadable(tmp_path, text):
    [f] = check(tmp_path, text)
    assert f.code == "IRV001" and f.level == "error"


def test_not_an_ir(tmp_path):
    [f] = check(tmp_path, "<project><modelVersion>4.0.0</modelVersion></project>")
    assert f.code == "IRV002" and "<project>" in f.message


def test_not_an_ir_names_the_real_root_even_when_it_holds_layers(tmp_path):
    text = ("<?xml version='1.0'?>\n<network version='11'>\n<layers>\n"
            "<layer id='0' name='p' type='Parameter' version='opset1'/></layers></network>")
    [f] = check(tmp_path, text)
    assert f.code == "IRV002" and "<network>" in f.message and f.line == 2


def test_net_nested_in_another_root_is_not_an_ir(tmp_path):
    [f] = check(tmp_path, "<wrapper><net version='11'><layers/><edges/></net></wrapper>")
    assert f.code == "IRV002" and "<wrapper>" in f.message


@pytest.mark.parametrize("version", ["7", "12", None])
def test_unsupported_version(tmp_path, version):
    attr = f' version="{version}"' if version else ""
    [f] = check(tmp_path, f"<net name='m'{attr}><layers/><edges/></net>")
    assert f.code == "IRV003"


def test_v10_is_read(tmp_path, run):
    ir = IR(version="10")
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, 4]]))
    assert [f.code for f in run(ir)] == ["IRV101"]


@pytest.mark.parametrize("dim", ["-2", "abc", "", "99999999999999999999999"])
def test_bad_dim_is_malformed_not_a_crash(run, dim):
    ir = IR()
    x = ir.parameter("2")
    ir.result(x)
    text = ir.xml().replace("<dim>2</dim>", f"<dim>{dim}</dim>", 1)
    ir.xml = lambda: text  # type: ignore[method-assign]
    findings = run(ir)
    assert "IRV004" in [f.code for f in findings]


def _with_text(ir, old, new, nth):
    """The IR's XML with the ``nth`` (0-based) occurrence of ``old`` replaced by ``new``."""
    text = ir.xml()
    at = -1
    for _ in range(nth + 1):
        at = text.index(old, at + 1)
    changed = text[:at] + new + text[at + len(old):]
    ir.xml = lambda: changed  # type: ignore[method-assign]
    return ir


def _add_chain():
    ir = IR()
    x, c = ir.parameter("2,3"), ir.const([1.0, 2.0, 3.0], et="f32")
    ir.result(ir.op("Add", [ir.op("Relu", [x], [[2, 3]]), c], [[2, 3]]))
    return ir


# <dim>3</dim> occurrences in _add_chain: 0 Parameter out, 1 Const out, 2 Relu in, 3 Relu out,
# 4 Add in 0, 5 Add in 1, 6 Add out, 7 Result in
@pytest.mark.parametrize("nth,layer,port", [
    (0, "p0", "0"), (1, "c1", "0"), (2, "relu2", "0"), (3, "relu2", "1"),
    (4, "add3", "0"), (6, "add3", "2"), (7, "result4", "0"),
])
def test_a_malformed_dim_is_reported_once_naming_layer_and_port(run, nth, layer, port):
    # read as "?" before, it also made IRV201/IRV101/IRV214/IRV215 fire on the same port
    findings = run(_with_text(_add_chain(), "<dim>3</dim>", "<dim>four</dim>", nth))
    assert [f.code for f in findings] == ["IRV004"], findings
    [f] = findings
    assert f.layer.name == layer and f.port == port
    assert f"port {port}: <dim> value 'four' is not an integer" in f.message


def _hostile(secret, where):
    name = "&x;" if where == "attribute" else "n"
    dim = "&x;" if where == "text" else "2"
    return (f'<?xml version="1.0"?><!DOCTYPE net [<!ENTITY x SYSTEM "file://{secret}">]>'
            f'<net name="{name}" version="11"><layers><layer id="0" name="p" type="Parameter" '
            'version="opset1"><data shape="2" element_type="f32"/><output><port id="0">'
            f'<dim>{dim}</dim></port></output></layer></layers><edges/></net>')


def test_external_entity_in_attribute_is_refused(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    [f] = check(tmp_path, _hostile(secret, "attribute"))
    assert f.code == "IRV001" and "external entity" in f.message
    assert "TOPSECRET" not in f.message


def test_external_entity_in_text_is_not_expanded(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    findings = check(tmp_path, _hostile(secret, "text"))
    assert "TOPSECRET" not in repr(findings)
    messages = [f.message for f in findings if f.code == "IRV004"]
    assert any("DTD" in m for m in messages) and any("not an integer" in m for m in messages)


def test_lfs_pointer_in_place_of_the_xml_is_named(tmp_path, capsys):
    from irvalidate.cli.main import main
    path = tmp_path / "model.xml"
    path.write_bytes(b"version https://git-lfs.github.com/spec/v1\n"
                     b"oid sha256:" + b"ab" * 32 + b"\nsize 1234567\n")
    [f] = validate_file(str(path)).findings
    assert f.code == "IRV001" and f.line is None
    assert f.message.startswith("model.xml is a Git LFS pointer (object of 1,234,567 bytes)")
    assert "git lfs pull" in f.message and "Start tag" not in f.message
    # the pre-commit hook's mode reports it too: it is an IR that could not be read
    assert main(["--skip-non-ir", str(path)]) == 1
    assert "Git LFS pointer" in capsys.readouterr().out
