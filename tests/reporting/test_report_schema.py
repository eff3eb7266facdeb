"""The committed JSON Schema matches the pydantic models, and real output validates against it."""
import json
from pathlib import Path

import jsonschema
import pytest

from irvalidate.cli.main import main
from irvalidate.reporting.report import json_schema
from support.irbuilder import IR

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "report.schema.json"


def test_committed_schema_matches_models():
    committed = json.loads(SCHEMA.read_text())
    assert committed == json_schema(), (
        "schemas/report.schema.json is stale: regenerate it with "
        "`python -m irvalidate.reporting.report > schemas/report.schema.json`")


@pytest.fixture
def report(tmp_path, capsys):
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("4")
    ir.result(ir.op("Add", [x, y], [[2, 4]]))
    good = IR()
    good.result(good.parameter("2"))
    bad_xml = tmp_path / "broken.xml"
    bad_xml.write_text("<net version='11'>")
    paths = [str(ir.write(tmp_path, "bad")), str(good.write(tmp_path, "good")), str(bad_xml)]
    code = main(["--format", "json", *paths])
    return code, capsys.readouterr().out


def test_json_output_is_one_document_valid_against_schema(report):
    code, out = report
    document = json.loads(out)  # exactly one document: json.loads rejects trailing data
    jsonschema.validate(document, json.loads(SCHEMA.read_text()))
    assert code == 1


def test_json_output_has_the_contract_fields(report):
    _, out = report
    document = json.loads(out)
    files = {Path(f["path"]).name: f["findings"] for f in document["files"]}
    assert set(files) == {"bad.xml", "good.xml", "broken.xml"}
    assert files["good.xml"] == []
    [finding] = [f for f in files["bad.xml"] if f["rule"] == "IRV102"]
    assert finding["severity"] == "error" and isinstance(finding["line"], int)
    assert finding["layer"] == {"id": "2", "name": "add2", "type": "Add"}
    assert isinstance(finding["message"], str)
    [unreadable] = files["broken.xml"]
    assert unreadable["rule"] == "IRV001" and unreadable["layer"] is None
    assert document["summary"]["errors"] == len([f for fs in files.values() for f in fs
                                                 if f["severity"] == "error"])


def test_contract_schema_fields_are_required():
    """The fields the issue fixes must stay required with their types."""
    schema = json_schema()
    finding = schema["$defs"]["FindingModel"]
    assert {"rule", "severity", "message", "line", "layer"} <= set(finding["required"])
    assert finding["properties"]["severity"]["enum"] == ["error", "warning", "info"]
    assert {"files", "summary"} <= set(schema["required"])
