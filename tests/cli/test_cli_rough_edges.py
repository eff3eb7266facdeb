"""Issue 23's rough edges of the command line, the settings, the API and the wording."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from irvalidate.cli.main import main
from support.irbuilder import IR
from support.places import ROOT

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


# --- the command line ----------------------------------------------------------------------

def test_an_option_mistake_is_one_line_with_a_suggestion(tmp_path, capsys):
    path = str(invalid(tmp_path))
    assert main(["--selct", "IRV101", path]) == 2
    err = capsys.readouterr().err
    assert err == "irvalidate: error: unrecognized arguments: --selct; did you mean --select?\n"
    assert main(["--format", "yaml", path]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
    assert main(["explain", "--alll"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "irvalidate explain: error: unrecognized arguments: --alll; did you mean --all?"]


def test_format_and_color_names_are_not_case_sensitive(tmp_path, capsys):
    path = str(invalid(tmp_path))
    assert main(["--format", "JSON", "--color", "Never", path]) == 1
    assert json.loads(capsys.readouterr().out)["files"][0]["findings"]


def test_help_names_every_command(capsys):
    assert main(["--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for command in ("irvalidate rules", "irvalidate explain", "irvalidate shapes",
                    "irvalidate reshapeable"):
        assert command in out


def test_a_command_wins_over_a_folder_of_its_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules").mkdir()
    invalid(tmp_path / "rules")
    assert main(["rules"]) == 0
    assert capsys.readouterr().out.startswith("code    slug")
    assert main(["./rules"]) == 1
    assert "bad.xml" in capsys.readouterr().out


def test_explain_takes_a_code_prefix_as_select_does(capsys):
    from irvalidate.rules import ALL
    assert main(["explain", "IRV1"]) == 0
    headings = [line.split()[0] for line in capsys.readouterr().out.splitlines()
                if "(default level:" in line]
    assert headings == [r.CODE for r in ALL if r.CODE.startswith("IRV1")] and len(headings) > 5


@pytest.mark.parametrize("typed, meant", [("IRV2O1", "IRV201"), ("IRV1O1", "IRV101"),
                                          ("irv1o9", "IRV109"), ("IRV2l1", "IRV211"), ("IRV999", "IRV409")])
def test_a_letter_typed_for_a_digit_is_read_as_the_digit(tmp_path, capsys, typed, meant):
    assert main(["explain", typed]) == 2
    assert capsys.readouterr().err.endswith(f"did you mean {meant!r}?\n")
    assert main(["--select", typed, str(invalid(tmp_path))]) == 2
    assert capsys.readouterr().err.endswith(f"did you mean {meant!r}?\n")


def test_an_unknown_configuration_key_gets_a_suggestion(tmp_path, capsys):
    path = str(invalid(tmp_path))
    (tmp_path / ".irvalidate.toml").write_text('ignroe = ["IRV102"]\n')
    assert main(["--config", str(tmp_path / ".irvalidate.toml"), path]) == 2
    assert capsys.readouterr().err.endswith("unknown key 'ignroe'; did you mean 'ignore'?\n")


def _stale(tmp_path):
    """An IR whose declared output --diff repairs."""
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, 4]]))
    return str(ir.write(tmp_path, "stale"))


def test_exit_zero_makes_a_diff_exit_0(tmp_path, capsys):
    path = _stale(tmp_path)
    assert main(["--diff", path]) == 1
    assert "+" in capsys.readouterr().out
    assert main(["--diff", "--exit-zero", path]) == 0


def test_exit_non_zero_on_fix_needs_fix(tmp_path, capsys):
    path = _stale(tmp_path)
    before = open(path, "rb").read()
    assert main(["--exit-non-zero-on-fix", path]) == 2
    assert capsys.readouterr().err == ("irvalidate: error: --exit-non-zero-on-fix goes with "
                                       "--fix\n")
    assert open(path, "rb").read() == before


# --- --severity ----------------------------------------------------------------------------

MISMATCH = ROOT / "sample_models" / "broken" / "IRV101-output-shape-mismatch.xml"


def _levels(capsys, *argv):
    """The level of each rule's finding in a copy of the IRV101 sample in the working
    directory (where a test's configuration file is)."""
    for suffix in (".xml", ".bin"):
        shutil.copy(MISMATCH.with_suffix(suffix), "mismatch" + suffix)
    main(["--format", "json", *argv, "mismatch.xml"])
    found = json.loads(capsys.readouterr().out)["files"][0]["findings"]
    return {f["rule"]: f["severity"] for f in found}


@pytest.mark.parametrize("in_file, given, level", [
    # the command line over a file, however either spells the rule
    ('severity = { output-shape-mismatch = "warning" }', ["IRV101=info"], "info"),
    ('severity = { IRV101 = "warning" }', ["output-shape-mismatch=info"], "info"),
    ('severity = { IRV101 = "warning" }', ["IRV1=info"], "info"),
    # the last setting of a rule wins, however it is spelled
    ("", ["output-shape-mismatch=warning", "IRV101=info"], "info"),
    ("", ["IRV101=info", "output-shape-mismatch=warning"], "warning"),
    ("", ["IRV101=warning", "output-shape-mismatch=error", "IRV101=info"], "info"),
    ('severity = { IRV101 = "info", output-shape-mismatch = "warning" }', [], "warning"),
    # comma lists, as --select takes them
    ("", ["IRV102=error,IRV101=info"], "info"),
])
def test_severity_command_line_over_files_last_setting_wins(tmp_path, monkeypatch, capsys,
                                                            in_file, given, level):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".irvalidate.toml").write_text(in_file + "\n")
    options = [f"--severity={value}" for value in given]
    assert _levels(capsys, *options)["IRV101"] == level


def test_the_command_line_leaves_a_file_s_other_rules(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".irvalidate.toml").write_text('severity = { IRV1 = "info" }\n')
    assert _levels(capsys, "--severity", "IRV102=warning")["IRV101"] == "info"
    assert _levels(capsys, "--severity", "IRV10=warning")["IRV101"] == "warning"


# --- shapes --------------------------------------------------------------------------------

def test_shapes_says_why_a_layer_was_refused(tmp_path, capsys):
    path = str(invalid(tmp_path))
    reason = "dimension 3 cannot broadcast with 4 at axis 1"
    assert main(["shapes", path]) == 0
    line = next(l for l in capsys.readouterr().out.splitlines() if l.startswith("Add "))
    assert f"(refused: inputs cannot broadcast (numpy): {reason}" in line
    assert "not modelled" not in line
    assert main(["shapes", "--format", "json", path]) == 0
    rows = {r["type"]: r for r in json.loads(capsys.readouterr().out)["files"][0]["layers"]}
    assert reason in rows["Add"]["refused"] and rows["Add"]["modelled"] is False
    assert rows["Parameter"]["refused"] is None and rows["Result"]["refused"] is None


# --- discovery -----------------------------------------------------------------------------

@pytest.mark.parametrize("how, reason", [
    ("gitignore", "git ignores it (.gitignore or .git/info/exclude)"),
    ("pattern", "it matches the exclude pattern 'bad*'")])
def test_force_exclude_says_what_excluded_a_named_file(tmp_path, monkeypatch, capsys, how,
                                                       reason):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    invalid(tmp_path)
    extra = []
    if how == "gitignore":
        (tmp_path / ".gitignore").write_text("bad.xml\n")
    else:
        extra = ["--extend-exclude", "bad*"]
    assert main(["--force-exclude", *extra, "bad.xml"]) == 2
    assert capsys.readouterr().err == ("irvalidate: no IR files found under bad.xml; "
                                       f"--force-exclude leaves out bad.xml: {reason}\n")


# --- the API -------------------------------------------------------------------------------

def test_validate_refuses_a_path_that_does_not_exist(tmp_path):
    import irvalidate
    with pytest.raises(FileNotFoundError) as raised:
        irvalidate.validate(tmp_path / "nonexistent")
    assert raised.value.filename == str(tmp_path / "nonexistent")
    with pytest.raises(FileNotFoundError):
        irvalidate.validate([invalid(tmp_path), tmp_path / "missing.xml"])


def test_validate_of_a_folder_without_ir_raises_as_the_cli_exits_2(tmp_path, capsys):
    import irvalidate
    (tmp_path / "empty").mkdir()
    assert main([str(tmp_path / "empty")]) == 2
    with pytest.raises(irvalidate.NoIRFilesError, match="no IR files found under"):
        irvalidate.validate(tmp_path / "empty")
    assert issubclass(irvalidate.NoIRFilesError, ValueError)


def test_validate_takes_a_list_of_paths(tmp_path):
    import irvalidate
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = invalid(tmp_path / "a"), invalid(tmp_path / "b", "other")
    report = irvalidate.validate([first, str(tmp_path / "b")])
    assert [f.path for f in report.files] == [str(first), str(second)]
    assert all(f.findings for f in report.files)


# --- wording and output --------------------------------------------------------------------

def test_several_contradicted_dims_agree_with_their_verb(tmp_path, capsys):
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[4, 5]]))  # numpy broadcast of [2,3] and [3] is [2,3]
    assert main([str(ir.write(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert "declares [4,5], whose dims at axes 0, 1 contradict [2,3] inferred" in out
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, 5]]))
    assert main([str(ir.write(tmp_path, "one"))]) == 1
    assert "whose dim at axis 1 contradicts [2,3]" in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_walk_of_the_working_directory_names_files_without_dot_slash(tmp_path, monkeypatch,
                                                                       capsys, fmt):
    monkeypatch.chdir(tmp_path)
    invalid(tmp_path)
    assert main(["--format", fmt, "."]) == 1
    out = capsys.readouterr().out
    assert "./" not in out and "bad.xml" in out
    assert main(["--format", fmt, "./bad.xml"]) == 1
    assert "./" not in capsys.readouterr().out


def test_show_files_names_them_as_the_reports_do(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    invalid(tmp_path)
    assert main(["--show-files", "."]) == 0
    assert capsys.readouterr().out == "bad.xml\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("argv", [["--format", "text"], ["--format", "json"], ["rules"]])
def test_a_full_disk_behind_stdout_is_said_in_words(tmp_path, argv):
    args = argv + [str(invalid(tmp_path))] if argv[0] != "rules" else argv
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "irvalidate", *args], stdout=full,
                              stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2
    assert done.stderr == ("irvalidate: error: cannot write the report to standard output: "
                           "No space left on device\n")


def test_statistics_prints_the_counts_instead_of_the_findings(tmp_path, capsys):
    bad = invalid(tmp_path)
    assert main(["--statistics", str(bad)]) == 1
    assert capsys.readouterr().out == ("1     IRV102 incompatible-inputs\n"
                                       "Found 1 error in 1 file checked.\n")


# --- columns -------------------------------------------------------------------------------

def test_a_finding_has_the_column_of_the_dim_it_names(capsys):
    # line 40 of the sample is five tabs, then <dim>6</dim>: the dim starts at column 6
    assert MISMATCH.read_text().splitlines()[39] == "\t\t\t\t\t<dim>6</dim>"
    assert main([str(MISMATCH)]) == 1
    assert capsys.readouterr().out.startswith(f"{MISMATCH}:40:6: IRV101 [error]")
    assert main(["--format", "json", str(MISMATCH)]) == 1
    finding = json.loads(capsys.readouterr().out)["files"][0]["findings"][0]
    assert (finding["line"], finding["column"]) == (40, 6)
    assert main(["--format", "sarif", str(MISMATCH)]) == 1
    region = json.loads(capsys.readouterr().out)["runs"][0]["results"][0]["locations"][0][
        "physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (40, 6)
    assert main(["--format", "github", str(MISMATCH)]) == 1
    assert ",line=40,col=6,title=IRV101" in capsys.readouterr().out


def test_columns_tell_elements_on_one_line_apart(tmp_path):
    from irvalidate.ir.locate import find_columns
    from irvalidate.ir.records import Edge, Layer, Port
    path = tmp_path / "m.xml"
    path.write_text(encoding="utf-8", data=
        '<net>\n'
        '  <layer id="1" name="\u00e9"/>\t<layer id="2" name="b">\n'                 # line 2
        '\t<port id="0"><dim>1</dim></port> <port id="3"><dim>2</dim>\n'           # line 3
        '    <dim>3</dim> <dim>4</dim></port>\n'                                   # line 4
        '<edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>'
        '<edge from-layer="2" from-port="3" to-layer="\u00e9" to-port="0"/>\n')   # line 5
    layer = Layer._make([None] * len(Layer._fields))._replace(id="2")
    port = Port("3", (2, 3, 4), "FP32", 3)
    second = Edge("2", "3", "\u00e9", "0", 5)
    asks = [(2, ("layer", (("id", "2"),)), None, None),
            (3, ("port", (("id", "3"),)), None, None),
            (3, ("port", (("id", "3"),)), 0, 3),       # its first dim, on its line
            (3, ("port", (("id", "3"),)), 2, 4),       # its third, on the next line
            (5, ("edge", (("from-layer", "2"), ("to-layer", "\u00e9"))), None, None),
            (5, ("layer", (("id", "9"),)), None, None),  # not on that line: no column
            None]
    from irvalidate.ir.locate import mark_of
    assert mark_of(layer) == asks[0][1] and mark_of(port) == asks[1][1]
    assert mark_of(second)[0] == "edge"
    # counted by hand, in characters (the é before the second layer is one)
    assert find_columns(str(path), asks) == [28, 35, 48, 18, 62, None, None]


def test_lines_are_read_alike_across_chunks(tmp_path):
    """The column finder reads lines by 1 MB chunks: every line, wherever a chunk ends."""
    import random

    from irvalidate.ir.locate import _lines_of
    rng = random.Random(23)
    text = "".join(f"line {i} " + "\u00e9x" * rng.randint(0, 150) + "\r\n"[rng.random() < .5:]
                   for i in range(1, 20001)) + "tail"
    path = tmp_path / "long.xml"
    path.write_bytes(text.encode("utf-8"))
    lines = [line.rstrip("\r") for line in text.split("\n")]
    wanted = set(rng.sample(range(1, 20002), 300)) | {1, 20000, 20001}
    assert _lines_of(str(path), wanted) == {n: lines[n - 1] for n in wanted}


def test_a_configured_format_is_not_case_sensitive_either(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    invalid(tmp_path)
    (tmp_path / ".irvalidate.toml").write_text('format = "JSON"\n')
    assert main(["bad.xml"]) == 1
    assert json.loads(capsys.readouterr().out)["files"][0]["path"] == "bad.xml"


@pytest.mark.parametrize("name, place", [
    # libxml2's own position of the syntax error, given in its message
    ("IRV001-unreadable-xml", (55, 29)),
    # the layer a malformed or schema-violating layer's finding names: two tabs, then <layer
    ("IRV004-malformed-ir", (4, 3)), ("IRV005-schema-violation", (44, 3))])
def test_findings_about_a_whole_layer_or_the_xml_have_columns(name, place):
    from irvalidate.engine.validation import validate_file
    path = ROOT / "sample_models" / "broken" / f"{name}.xml"
    finding = validate_file(str(path)).findings[0]
    assert (finding.line, finding.column) == place
    line = path.read_text(errors="replace").splitlines()[place[0] - 1]
    if name != "IRV001-unreadable-xml":
        assert line[place[1] - 1:].startswith("<layer ")
