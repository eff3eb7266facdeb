"""Start-up laziness: ``irvalidate FILE`` (the pre-commit case) imports only what it uses.

pydantic with its first model costs ~60 ms and importlib.metadata ~20 ms, more than a small
IR takes to validate (benchmarks/startup.py).  Each probe runs the CLI in a fresh interpreter,
since this one has imported everything already.
"""
import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import irvalidate
from irvalidate.reporting import FORMATTERS
from irvalidate.settings.config import Config, Defaults
from support.irbuilder import IR

#: the probe runs as an installed irvalidate starts: ``python -S``, then the sources and the
#: environment's site-packages on the path (as benchmarks/run.py does), so that what site and
#: an editable install load first (pathlib, urllib.parse, ...) does not hide what a run imports
PATHS = [str(Path(irvalidate.__file__).resolve().parents[1]), sysconfig.get_paths()["purelib"]]
PROBE = """
import json, os, sys
sys.path[:0] = [sys.argv.pop(1)]
sys.path.append(sys.argv.pop(1))
before = sorted(sys.modules)  # the interpreter's own
import irvalidate, irvalidate.settings.config
from irvalidate.cli.main import main
code = main(sys.argv[1:])
folders = [os.path.realpath(os.getcwd())]
while os.path.dirname(folders[-1]) != folders[-1]:
    folders.append(os.path.dirname(folders[-1]))
print(json.dumps({"code": code, "modules": sorted(sys.modules), "before": before,
                  "config_file": any(irvalidate.settings.config.config_file_in(folder) is not None
                                     for folder in folders),
                  "config_model": "Config" in vars(irvalidate.settings.config),
                  "version": "__version__" in vars(irvalidate)}))
"""


def probe(tmp_path, ir, *argv):
    path = ir.write(tmp_path)
    out = subprocess.run([sys.executable, "-S", "-c", PROBE, *PATHS, *argv, str(path)], cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout
    seen = json.loads(out.splitlines()[-1])
    assert not seen["config_file"], "a [tool.irvalidate] table above the test folder"
    return seen


def test_an_ir_without_broadcasting_layers_imports_no_pydantic(tmp_path):
    ir = IR()
    ir.result(ir.op("Relu", [ir.parameter("2,3")], [[2, 3]]))
    seen = probe(tmp_path, ir)
    assert seen["code"] == 0
    heavy = [m for m in seen["modules"] if m.split(".")[0] in ("pydantic", "pydantic_core")
             or m.startswith("importlib.metadata") or m in ("irvalidate.reporting.report", "email")]
    assert heavy == []


def test_the_text_report_builds_no_config_or_report_model(tmp_path):
    # the Add's auto_broadcast goes through attrs' pydantic model; nothing else may follow
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    seen = probe(tmp_path, ir)
    assert seen["code"] == 0
    assert not seen["config_model"] and not seen["version"]
    assert not {"irvalidate.reporting.report", "irvalidate.reporting.json_format"} & set(seen["modules"])


def test_defaults_hold_what_the_model_holds():
    assert Defaults().as_dict() == {**Config().model_dump(), "root": Config().root}
    assert Defaults().merged(select=None, jobs=None) == Defaults()
    assert Defaults().merged(select=["IRV1"]) == Config(select=["IRV1"])


#: what no report of a small plain file imports, in any format: each was on some format's way
#: (pydantic: the report model; importlib.metadata and email: the version; argparse: the
#: options; inspect, hashlib, pathlib and urllib.parse: SARIF; lxml: files the scanner reads)
HEAVY = ("pydantic", "pydantic_core", "importlib.metadata", "email", "zipfile", "argparse",
         "inspect", "hashlib", "pathlib", "urllib.parse", "dataclasses", "lxml", "jsonschema",
         "irvalidate.reporting.report", "irvalidate.ir.schema", "irvalidate.ir.parser")


@pytest.mark.parametrize("fmt", sorted(FORMATTERS))
def test_no_format_imports_what_a_small_file_does_not_need(tmp_path, fmt):
    ir = IR()
    ir.result(ir.op("Relu", [ir.parameter("2,3")], [[2, 4]]))  # declared 2x4: a finding
    seen = probe(tmp_path, ir, "--skip-non-ir", "--force-exclude", "--format", fmt)
    assert seen["code"] == 1
    loaded = set(seen["modules"]) - set(seen["before"])
    assert [m for m in sorted(loaded) if any(m == h or m.startswith(h + ".") for h in HEAVY)] == []
    # the rules' documentation is the SARIF log's rule table; no other format reads it
    assert ("irvalidate.reporting.docs" in seen["modules"]) == (fmt == "sarif")
