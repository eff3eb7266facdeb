"""``--format json`` is written from plain dicts (reporting/document.py), without importing
pydantic; the pydantic models of reporting/report.py stay the schema's source.  Every report
here is written both ways and must be the same text, and valid against the schema."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from irvalidate.cli import main as cli
from irvalidate.engine.validation import FileResult
from irvalidate.reporting import document, report
from irvalidate.rules.findings import Cause, Finding, LayerRef

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_models"
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))


@pytest.fixture
def both_ways(monkeypatch):
    """Every JSON report the command line writes, also written by the pydantic models."""
    seen = []
    plain = document.dumps

    def checked(results, version):
        text = plain(results, version)
        assert text == report.dumps(report.build(results, version))
        seen.append(json.loads(text))
        return text
    monkeypatch.setattr(document, "dumps", checked)
    return seen


def _run(args, capsys):
    cli.main(args)
    return capsys.readouterr().out


@pytest.mark.parametrize("args", [
    ["--format", "json", str(SAMPLES)],
    ["--format", "json", "--diff", str(SAMPLES / "broken")],
    ["--format", "json", "--reshape", "x[4,8,8]", str(SAMPLES / "reshape" / "classifier-head.xml")],
    ["--format", "json", "--reshape", "x[4,9,8]", str(SAMPLES / "reshape" / "classifier-head.xml")],
], ids=["samples", "diff", "reshape-works", "reshape-fails"])
def test_the_plain_writer_writes_what_the_models_write(args, both_ways, capsys):
    out = _run(args, capsys)
    assert len(both_ways) == 1 and json.loads(out) == both_ways[0]
    jsonschema.validate(both_ways[0], SCHEMA)
    files = both_ways[0]["files"]
    if "--diff" in args:
        assert any("fix" in f for f in files) and any("fix" in g for f in files for g in f["findings"])
    if "--reshape" in args:
        assert all("reshape" in f for f in files)


@pytest.mark.parametrize("requests", [
    ["x[4,8,8]"],
    ["x[4,8,8]", "x[4,9,8]", "image[1,3,512,928]"],
], ids=["one-request-over-a-folder", "three-requests"])
def test_requests_over_a_folder(requests, both_ways, capsys):
    """The reshape/ samples: each fits one request or two, and is told the others; with
    several requests, ``reshapes`` names each and the findings of one request name it."""
    args = [a for r in requests for a in ("--reshape", r)]
    out = _run(["--format", "json", *args, str(SAMPLES / "reshape")], capsys)
    assert len(both_ways) == 1 and json.loads(out) == both_ways[0]
    jsonschema.validate(both_ways[0], SCHEMA)
    files = both_ways[0]["files"]
    if len(requests) == 1:
        assert ["reshape" in f for f in files] == [True, False]
        return
    assert [[r["request"] for r in f["reshapes"]] for f in files] == \
        [["x[4,8,8]", "x[4,9,8]"], ["image[1,3,512,928]"]]
    assert {g["request"] for f in files for g in f["findings"] if "request" in g} == \
        {"x[4,8,8]", "x[4,9,8]", "image[1,3,512,928]"}


def test_a_name_that_is_not_utf8_carries_its_bytes(tmp_path, both_ways, capsys):
    name = os.fsdecode(b"m\xff.xml")
    src = SAMPLES / "broken" / "IRV101-output-shape-mismatch"
    shutil.copyfile(f"{src}.xml", tmp_path / name)
    shutil.copyfile(f"{src}.bin", tmp_path / (name[:-4] + ".bin"))
    _run(["--format", "json", str(tmp_path / name)], capsys)
    [found] = both_ways[0]["files"]
    assert "path_bytes" in found and "\ufffd" in found["path"]
    jsonschema.validate(both_ways[0], SCHEMA)


def test_roots_and_consequences():
    """caused_by is written on a consequence only, as the models leave it out on roots."""
    root = LayerRef("3", "relu", "Relu")
    base = dict(path="m.xml", line=7, code="IRV101", slug="output-shape-mismatch",
                level="error", message="x", layer=root, port="1", expected="[2,3]",
                declared="[2,4]")
    findings = [Finding(**base), Finding(**{**base, "line": 9, "layer": LayerRef("4", "b", "Relu")})]
    findings[1] = findings[1]._replace(caused_by=Cause("IRV101", root, "1", 7))
    results = [FileResult("m.xml", findings)]
    text = document.dumps(results, "9")
    assert text == report.dumps(report.build(results, "9"))
    written = json.loads(text)["files"][0]["findings"]
    assert "caused_by" not in written[0] and written[1]["caused_by"]["line"] == 7


def test_json_output_does_not_import_pydantic(tmp_path):
    code = ("import sys; from irvalidate.cli.main import main; main(sys.argv[1:]); "
            "print('pydantic' in sys.modules, file=sys.stderr)")
    run = subprocess.run([sys.executable, "-c", code, "--format", "json",
                          str(SAMPLES / "valid")], capture_output=True, text=True, cwd=tmp_path)
    assert run.stderr.strip().splitlines()[-1] == "False", run.stderr
    assert json.loads(run.stdout)["summary"]["errors"] == 0
