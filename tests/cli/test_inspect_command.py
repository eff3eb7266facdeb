"""``irvalidate inspect``: the text table, the JSON document (valid against
schemas/inspect.schema.json and the very document the pydantic models give), folders,
``-o``, and files that are not IRs (named on stderr, the others still reported, exit 2)."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import irvalidate
from irvalidate.cli.main import main
from irvalidate.interface.model import InspectReport, json_schema
from support.irbuilder import IR

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "inspect.schema.json"
HEAD = ROOT / "sample_models" / "reshape" / "classifier-head.xml"


def test_committed_schema_matches_models():
    assert json.loads(SCHEMA.read_text()) == json_schema(), (
        "schemas/inspect.schema.json is stale: regenerate it with "
        "`python -m irvalidate.interface.model > schemas/inspect.schema.json`")


def _model(tmp_path: Path) -> Path:
    ir = IR()
    x = ir.parameter("1,4", name="tokens")
    ir.result(ir.op("Relu", [x], [[1, 4]], name="act"))
    return ir.write(tmp_path, "small")


def test_text_leads_with_the_inputs_and_outputs(tmp_path, capsys):
    path = _model(tmp_path)
    assert main(["inspect", "--reshapeable", "never", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{path}: IR v11"
    # a port without names (this builder writes none) shows its layer
    assert out[1:4] == ["  inputs:", "    #  names                    type  shape  layout",
                        "    0  (no name; layer tokens)  f32   [1,4]  -"]
    assert out[4:7] == ["  outputs:", "    #  names                     type  shape  layout",
                        "    0  (no name; layer result2)  f32   [1,4]  -"]
    assert main(["inspect", "--reshapeable", "never", str(HEAD)]) == 0
    named = capsys.readouterr().out.splitlines()
    assert named[3] == "    0  x      f32   [1,8,8]  -" and named[6] == \
        "    0  logits  f32   [1,10]  -"


def test_json_is_the_models_document_and_valid_against_the_schema(tmp_path, capsys):
    path = _model(tmp_path)
    assert main(["inspect", "--format", "json", str(path), str(HEAD)]) == 0
    document = json.loads(capsys.readouterr().out)
    jsonschema.validate(document, json.loads(SCHEMA.read_text()))
    report = InspectReport.model_validate(document)
    assert [f.file for f in report.files] == [str(path), str(HEAD)]
    for given, file in zip((path, HEAD), document["files"]):
        api = irvalidate.inspect(given).model_dump(mode="json")
        assert file == {**api, "file": str(given)}
    assert document["errors"] == [] and document["schema_version"] == "1"


def test_a_file_that_is_not_an_ir_is_named_and_the_others_reported(tmp_path, capsys):
    broken = tmp_path / "broken.xml"
    broken.write_text("<net version='11'><layers>")
    good = _model(tmp_path)
    assert main(["inspect", "--format", "json", str(broken), str(good)]) == 2
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert [f["file"] for f in document["files"]] == [str(good)]
    assert document["errors"][0]["file"] == str(broken)
    assert f"irvalidate: error: {broken}: " in captured.err and "Traceback" not in captured.err
    with pytest.raises(irvalidate.InspectError):
        irvalidate.inspect(broken)


def test_usage_errors_exit_2_without_a_traceback(tmp_path, capsys):
    assert main(["inspect", str(tmp_path / "missing.xml")]) == 2
    assert main(["inspect", "--reshapeable", "sometimes", str(HEAD)]) == 2
    assert main(["inspect", "-o", str(HEAD), str(HEAD)]) == 2  # never over an input
    import shutil  # (a copy: were the guard gone, the report would replace the weights)
    for suffix in (".xml", ".bin"):
        shutil.copyfile(HEAD.with_suffix(suffix), tmp_path / f"m{suffix}")
    assert main(["inspect", "-o", str(tmp_path / "m.bin"), str(tmp_path / "m.xml")]) == 2
    assert (tmp_path / "m.bin").read_bytes() == HEAD.with_suffix(".bin").read_bytes()
    err = capsys.readouterr().err
    assert "Traceback" not in err and "is one of the input files" in err


def test_folders_and_output_file(tmp_path, capsys):
    _model(tmp_path)
    report = tmp_path / "out" / "interface.json"
    report.parent.mkdir()
    assert main(["inspect", "--format", "json", "--reshapeable", "never", "-o", str(report),
                 str(tmp_path)]) == 0
    assert capsys.readouterr().out == ""
    document = json.loads(report.read_text())
    assert [Path(f["file"]).name for f in document["files"]] == ["small.xml"]
    assert document["files"][0]["inputs"][0]["axes"] is None
    assert document["files"][0]["reshapeable"] is False


def test_the_api_takes_one_file(tmp_path):
    with pytest.raises(IsADirectoryError):
        irvalidate.inspect(tmp_path)
    with pytest.raises(FileNotFoundError):
        irvalidate.inspect(tmp_path / "missing.xml")
    found = irvalidate.inspect(HEAD, reshapeable="always")
    assert found.reshapeable and [a.multiple_of for a in found.inputs[0].axes or []] == [1, 8, 8]


#: the README's example: a wild-corpus file, under the name its repository gives it
README_MODEL = "gh-thutrang147-gaze-estimation/open-closed-eye-0001__FP16__open-closed-eye-0001"


def test_the_readme_example_is_what_the_command_prints(tmp_path, capsys, monkeypatch):
    """README.md's inspect example is today's output (the file copied out of the corpus,
    never into the repository, under the name the README shows)."""
    from support import places
    source = places.CORPUS / README_MODEL
    if not source.with_suffix(".xml").is_file():
        pytest.skip(f"no wild corpus at {places.CORPUS}")
    for suffix in (".xml", ".bin"):
        (tmp_path / f"open-closed-eye-0001{suffix}").write_bytes(
            source.with_suffix(suffix).read_bytes())
    head = "$ irvalidate inspect open-closed-eye-0001.xml\n"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(head) + len(head)
    monkeypatch.chdir(tmp_path)
    assert main(["inspect", "open-closed-eye-0001.xml"]) == 0
    assert capsys.readouterr().out == readme[start:readme.index("```", start)]
