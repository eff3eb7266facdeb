"""``irvalidate compat OLD NEW``: its exit status, its formats and its usage errors, on the
classifier-head sample and a copy with its input renamed; the compat rules through
``rules`` and ``explain`` as every rule."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from irvalidate.cli.main import main

SAMPLE = Path(__file__).resolve().parents[2] / "sample_models" / "reshape" / "classifier-head.xml"


@pytest.fixture
def pair(tmp_path, monkeypatch) -> tuple[str, str]:
    """old.xml (the sample) and new.xml (its input renamed pixel_values), in the working
    directory."""
    monkeypatch.chdir(tmp_path)
    for name in ("old", "new"):
        shutil.copyfile(SAMPLE, tmp_path / f"{name}.xml")
        shutil.copyfile(SAMPLE.with_suffix(".bin"), tmp_path / f"{name}.bin")
    new = tmp_path / "new.xml"
    new.write_text(new.read_text().replace('names="x"', 'names="pixel_values"'))
    return "old.xml", "new.xml"


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["compat", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_renamed_input_fails(pair, capsys):
    assert run(capsys, *pair) == (1, (
        "new.xml:4: IRV401 [error] input 'x' renamed 'pixel_values': none of its tensor names "
        "(x) is kept (line 4 of old.xml) (input-removed)\n"
        "Found 1 error in 1 file checked.\n"), "")


def test_the_same_file_passes(pair, capsys):
    assert run(capsys, "old.xml", "old.xml") == (0, "1 file checked, no problems.\n", "")


def test_severity_and_exit_zero_as_in_a_check(pair, capsys):
    assert run(capsys, *pair, "--severity", "IRV401=warning")[0] == 0
    assert run(capsys, *pair, "--exit-zero")[0] == 0
    assert run(capsys, *pair, "--ignore", "input-removed") == \
        (0, "1 file checked, no problems.\n", "")


def test_configuration_is_read_as_for_a_check(pair, capsys, tmp_path):
    (tmp_path / ".irvalidate.toml").write_text('[severity]\n"input-removed" = "info"\n')
    status, out, _ = run(capsys, *pair)
    assert status == 0 and "IRV401 [info]" in out
    assert run(capsys, *pair, "--isolated")[0] == 1


def test_the_new_file_s_configuration_applies(pair, capsys, tmp_path):
    """The nearest configuration to the new file, as a check would read for it."""
    (tmp_path / "sub").mkdir()
    shutil.move("new.xml", "sub/new.xml")
    (tmp_path / "sub" / ".irvalidate.toml").write_text('ignore = ["IRV4"]\n')
    assert run(capsys, "old.xml", "sub/new.xml")[0] == 0
    assert run(capsys, "sub/new.xml", "old.xml")[0] == 1


def test_json_and_github(pair, capsys):
    status, out, _ = run(capsys, *pair, "--format", "json")
    finding, = json.loads(out)["files"][0]["findings"]
    assert status == 1 and (finding["rule"], finding["line"]) == ("IRV401", 4)
    assert finding["layer"] == {"id": "0", "name": "x", "type": "Parameter"}
    status, out, _ = run(capsys, *pair, "--format", "github")
    assert "::error file=new.xml,line=4,title=IRV401 input-removed::" in out


def test_the_report_to_a_file(pair, capsys, tmp_path):
    assert run(capsys, *pair, "-o", "report.txt") == (1, "", "")
    assert (tmp_path / "report.txt").read_text().startswith("new.xml:4: IRV401")
    before = (tmp_path / "new.bin").read_bytes()
    assert run(capsys, *pair, "-o", "new.bin") == (2, "", (
        "irvalidate: error: --output new.bin: is one of the input files (an IR or its .bin); "
        "refusing to overwrite it\n"))
    assert (tmp_path / "new.bin").read_bytes() == before


@pytest.mark.parametrize("args, message", [
    (("old.xml",), "compat takes OLD NEW, or --against REV [PATH...]"),
    (("old.xml", "missing.xml"), "missing.xml: no such file"),
    ((".", "old.xml"), ".: not a file"),
    (("old.xml", "new.xml", "more.xml"), "compat takes OLD NEW, or --against REV [PATH...]"),
    (("old.xml", "new.xml", "--severity", "IRV401"), "--severity: expected RULE=LEVEL, got "
                                                     "'IRV401'"),
])
def test_usage_errors(pair, capsys, args, message):
    assert run(capsys, *args) == (2, "", f"irvalidate: error: {message}\n")


def test_a_file_that_is_not_an_ir(pair, capsys, tmp_path):
    (tmp_path / "pom.xml").write_text("<project/>\n")
    status, out, err = run(capsys, "pom.xml", "new.xml")
    assert (status, out) == (2, "") and err.startswith("irvalidate: error: pom.xml: ")


def test_rules_and_explain_list_the_compat_rules(capsys):
    assert main(["rules"]) == 0
    assert "IRV413  input-axis-pinned" in capsys.readouterr().out
    assert main(["explain", "input-order-changed"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("IRV408 input-order-changed (default level: warning)")
    assert "Passing" in out and "Failing" in out


def test_a_failure_of_the_tool_is_said_without_a_traceback(pair, capsys, monkeypatch):
    from irvalidate.interface import compat
    monkeypatch.setattr(compat, "compare", lambda *args, **kwargs: 1 / 0)
    assert run(capsys, *pair) == \
        (2, "", "irvalidate: internal error: ZeroDivisionError: division by zero\n")
