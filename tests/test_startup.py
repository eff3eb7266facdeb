"""Start-up laziness: ``irvalidate FILE`` (the pre-commit case) imports only what it uses.

pydantic with its first model costs ~60 ms and importlib.metadata ~20 ms, more than a small
IR takes to validate (benchmarks/startup.py).  Each probe runs the CLI in a fresh interpreter,
since this one has imported everything already.
"""
import json
import subprocess
import sys

from irvalidate.settings.config import Config, Defaults
from support.irbuilder import IR

PROBE = """
import json, sys
from pathlib import Path
import irvalidate, irvalidate.settings.config
from irvalidate.cli.main import main
code = main(sys.argv[1:])
here = Path.cwd().resolve()
print(json.dumps({"code": code, "modules": sorted(sys.modules),
                  "config_file": any(irvalidate.settings.config.config_file_in(folder) is not None
                                     for folder in (here, *here.parents)),
                  "config_model": "Config" in vars(irvalidate.settings.config),
                  "version": "__version__" in vars(irvalidate)}))
"""


def probe(tmp_path, ir, *argv):
    path = ir.write(tmp_path)
    out = subprocess.run([sys.executable, "-c", PROBE, *argv, str(path)], cwd=tmp_path,
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
