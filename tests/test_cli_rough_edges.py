"""Issue 23's rough edges of the command line, the settings, the API and the wording."""
import json
import os
import subprocess
import sys

import pytest

from irvalidate.cli import main
from irbuilder import IR
from places import ROOT

COMPUTED = ROOT / "sample_models" / "broken" / "IRV101-computed-target.xml"


def _run(*argv, env=None, cwd=None):
    environment = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "irvalidate", *argv], capture_output=True,
                          env=environment, cwd=cwd)


def invalid(tmp_path, stem="bad"):
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("4")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    return ir.write(tmp_path, stem)


ASCII_CONSOLES = [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "PYTHONUTF8": "0",
                                                  "PYTHONIOENCODING": ""}]


@pytest.mark.parametrize("env", ASCII_CONSOLES)
def test_an_ascii_console_gets_the_whole_text_report(env):
    """The chain of a computed value is drawn with arrows: they become ``->``."""
    done = _run(str(COMPUTED), env=env)
    assert done.returncode == 1, done.stderr
    out = done.stdout.decode("ascii")
    assert "ShapeOf(layer 0 'input_ids' [?,1..128]) -> Gather(" in out
    assert out.rstrip().endswith("in 1 file checked.") and b"internal error" not in done.stderr


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_an_ascii_console_gets_the_same_json_document(fmt):
    utf8 = _run("--format", fmt, str(COMPUTED), env={"PYTHONIOENCODING": "utf-8"})
    ascii_ = _run("--format", fmt, str(COMPUTED), env={"PYTHONIOENCODING": "ascii"})
    assert ascii_.returncode == utf8.returncode == 1
    assert ascii_.stdout.isascii() and json.loads(ascii_.stdout) == json.loads(utf8.stdout)


def test_a_name_outside_ascii_is_escaped_not_lost(tmp_path):
    ir = IR()
    x, y = ir.parameter("2,3", name="\u5165\u529b"), ir.parameter("4")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    done = _run(str(ir.write(tmp_path)), env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 1 and b"\\u5165\\u529b" in done.stdout


def test_explain_all_on_an_ascii_console():
    done = _run("explain", "--all", env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0 and not done.stderr
    assert done.stdout.isascii() and b"IRV000" in done.stdout


def test_the_summary_tells_files_with_findings_from_files_checked(tmp_path, capsys):
    bad = invalid(tmp_path)
    ir = IR()
    ir.result(ir.parameter("2"))
    good = ir.write(tmp_path, "good")
    assert main([str(bad), str(good)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "Found 1 error in 1 of 2 files checked."
    assert main([str(bad)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "Found 1 error in 1 file checked."
