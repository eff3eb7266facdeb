"""Configuration, rule selection, severity overrides and the Python API."""
import json

import pytest

import irvalidate
from irvalidate.cli.main import main
from irvalidate.settings.config import Config, ConfigError, load
from support.irbuilder import IR


def broken(tmp_path, stem="bad"):
    """Two findings: IRV102 (error) on the Add, IRV211 (warning) on a dangling Relu."""
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("4")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    ir.op("Relu", [x], [[2, 3]], name="dangling")
    return ir.write(tmp_path, stem)


def codes(capsys, *argv):
    code = main(["--format", "json", *map(str, argv)])
    out = capsys.readouterr().out
    return code, sorted(f["rule"] for f in json.loads(out)["files"][0]["findings"]) if out else None


def test_defaults(tmp_path, capsys):
    assert codes(capsys, broken(tmp_path)) == (1, ["IRV102", "IRV211"])


@pytest.mark.parametrize("argv,expected", [
    (["--select", "IRV2"], (0, ["IRV211"])),
    (["--select", "incompatible-broadcast"], (1, ["IRV102"])),
    (["--ignore", "IRV1"], (0, ["IRV211"])),
    (["--ignore", "IRV1", "--select", "IRV102"], (1, ["IRV102"])),   # more specific select wins
    (["--extend-ignore", "unreachable-layer"], (1, ["IRV102"])),
    (["--severity", "IRV102=warning"], (0, ["IRV102", "IRV211"])),
    (["--severity", "IRV2=error"], (1, ["IRV102", "IRV211"])),
    (["--exit-zero"], (0, ["IRV102", "IRV211"])),
])
def test_command_line_selection(tmp_path, capsys, argv, expected):
    assert codes(capsys, *argv, broken(tmp_path)) == expected


def test_per_file_ignores(tmp_path, capsys, monkeypatch):
    (tmp_path / "models" / "legacy").mkdir(parents=True)
    path = broken(tmp_path / "models" / "legacy")
    monkeypatch.chdir(tmp_path)  # command-line patterns are anchored at the working directory
    assert codes(capsys, "--per-file-ignores", "*/legacy/*.xml:IRV1,IRV2", path) == (0, [])


@pytest.mark.parametrize("pattern,ignored", [
    ("bad.xml", True),                 # no "/": the file's name, at any depth
    ("legacy", True),                  # ... or a folder's name: what is in it
    ("./models/legacy/bad.xml", True),  # "./" anchors at the configuration's folder
    ("./legacy", False),
    ("models/*.xml", False),           # "*" does not cross "/"
    ("models/**/*.xml", True),
])
def test_per_file_ignores_match_like_ruff(tmp_path, capsys, monkeypatch, pattern, ignored):
    (tmp_path / "models" / "legacy").mkdir(parents=True)
    path = broken(tmp_path / "models" / "legacy")
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.irvalidate.per-file-ignores]\n"{pattern}" = ["IRV102"]\n')
    monkeypatch.chdir(tmp_path / "models")
    expected = ["IRV211"] if ignored else ["IRV102", "IRV211"]
    assert codes(capsys, path)[1] == expected
    # the same patterns on the command line are anchored at the working directory
    (tmp_path / "pyproject.toml").unlink()
    monkeypatch.chdir(tmp_path)
    assert codes(capsys, "--per-file-ignores", f"{pattern}:IRV102", path)[1] == expected


def test_pyproject_is_discovered_and_command_line_wins(tmp_path, capsys, monkeypatch):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.irvalidate]\nignore = ["IRV102"]\n'
        'severity = { "unreachable-layer" = "error" }\n'
        '[tool.irvalidate.per-file-ignores]\n"skip/*.xml" = ["IRV2"]\n')
    sub = tmp_path / "models"
    sub.mkdir()
    (tmp_path / "skip").mkdir()
    monkeypatch.chdir(sub)  # discovery walks up from the working directory
    path = broken(sub)
    code, found = codes(capsys, path)
    assert (code, found) == (1, ["IRV211"])  # IRV102 ignored; IRV211 raised to error
    assert codes(capsys, "--ignore", "IRV211", path) == (1, ["IRV102"])
    assert codes(capsys, broken(tmp_path / "skip")) == (0, [])   # glob relative to pyproject


def test_unknown_key_is_refused_clearly(tmp_path, capsys, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.irvalidate]\nselct = ["IRV1"]\n')
    monkeypatch.chdir(tmp_path)
    assert main([str(broken(tmp_path))]) == 2
    err = capsys.readouterr().err
    assert "unknown key 'selct'" in err and "pyproject.toml" in err


@pytest.mark.parametrize("text,fragment", [
    ('[tool.irvalidate]\nselect = ["IRV9"]\n', "'IRV9' matches no rule"),
    ('[tool.irvalidate]\nseverity = { IRV101 = "fatal" }\n', "severity.IRV101"),
    ('[tool.irvalidate]\njobs = -1\n', "jobs"),
    ('[tool.irvalidate\n', "cannot read it as TOML"),
])
def test_bad_values_are_refused(tmp_path, text, fragment):
    path = tmp_path / "pyproject.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=fragment):
        load(path)


def test_config_file_option(tmp_path, capsys):
    cfg = tmp_path / "irvalidate.toml"
    cfg.write_text('select = ["IRV2"]\nexit-zero = true\n')
    assert codes(capsys, "--config", cfg, broken(tmp_path)) == (0, ["IRV211"])
    assert main(["--config", str(tmp_path / "none.toml"), str(broken(tmp_path))]) == 2


def test_api_returns_a_pydantic_report(tmp_path):
    report = irvalidate.validate(broken(tmp_path))
    assert type(report).__name__ == "Report" and report.summary.errors == 1
    assert [f.rule for f in report.files[0].findings] == ["IRV102", "IRV211"]
    only = irvalidate.validate(tmp_path, config={"select": ["IRV2"]})
    assert [f.rule for f in only.files[0].findings] == ["IRV211"]
    with pytest.raises(Exception, match="selct"):
        irvalidate.validate(tmp_path, config={"selct": []})


def test_parallel_output_is_identical_and_in_order(tmp_path, capsys):
    paths = []
    for i in range(6):
        (tmp_path / f"d{i}").mkdir()
        paths.append(broken(tmp_path / f"d{i}", stem=f"m{i}"))
    assert main(["-j", "1", *map(str, paths)]) == 1
    serial = capsys.readouterr().out
    assert main(["-j", "3", *map(str, paths)]) == 1
    assert capsys.readouterr().out == serial
    assert [line.split(":")[0] for line in serial.splitlines() if ": IRV102" in line] == list(map(str, paths))


def test_config_json_schema_is_committed():
    from pathlib import Path
    committed = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "config.schema.json").read_text())
    assert committed == Config.model_json_schema(by_alias=True), (
        "regenerate with `python -m irvalidate.settings.config > schemas/config.schema.json`")


def test_file_level_rules_run_whatever_select_says(tmp_path, capsys, monkeypatch):
    """IRV000-IRV005 say the file could not be read as an IR at all: the README's own
    ``select = ["IRV1", "IRV2"]`` must not turn a truncated or garbage model green."""
    (tmp_path / "pyproject.toml").write_text('[tool.irvalidate]\nselect = ["IRV1", "IRV2"]\n')
    monkeypatch.chdir(tmp_path)
    truncated = tmp_path / "truncated.xml"
    truncated.write_text(broken(tmp_path, "whole").read_text()[:300])
    garbage = tmp_path / "garbage.xml"
    garbage.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x01garbage")
    for path in (truncated, garbage):
        assert codes(capsys, path) == (1, ["IRV001"])
        assert codes(capsys, "--select", "IRV2", path) == (1, ["IRV001"])
        # naming them in ignore or per-file-ignores is still honoured
        assert codes(capsys, "--ignore", "IRV001", path) == (0, [])
        assert codes(capsys, "--per-file-ignores", f"{path.name}:unreadable-xml", path) == (0, [])
    old = tmp_path / "old.xml"
    old.write_text(broken(tmp_path, "v9").read_text().replace('version="11"', 'version="9"', 1))
    assert codes(capsys, "--select", "IRV102", old)[1][0] == "IRV003"
    report = irvalidate.validate(garbage, config={"select": ["IRV2"]})
    assert [f.rule for f in report.files[0].findings] == ["IRV001"]


@pytest.mark.parametrize("argv,message", [
    (["--ignore", "IRV999"], "--ignore: 'IRV999' matches no rule code or slug; did you mean 'IRV409'?"),
    (["--select", "FOO"], "--select: 'FOO' matches no rule code or slug; `irvalidate rules` lists them"),
    (["--extend-ignore", "unreachable-layers"],
     "--extend-ignore: 'unreachable-layers' matches no rule code or slug; did you mean "
     "'unreachable-layer'?"),
    (["--severity", "IRV101=fatal"], "--severity: IRV101: Input should be 'error', 'warning' or 'info'"),
    (["--severity", "IRV101"], "--severity: expected RULE=LEVEL, got 'IRV101'"),
    (["-j", "-1"], "-j/--jobs: Input should be greater than or equal to 0"),
    (["--per-file-ignores", "bad"], "--per-file-ignores: expected GLOB:RULES, got 'bad'"),
    (["--per-file-ignores", "*.xml:IRV9"], "--per-file-ignores: *.xml: 'IRV9' matches no rule code or slug; did you mean 'IRV409'?"),
    (["--extend-exclude", "./"], "--extend-exclude: './' is an empty pattern"),
])
def test_command_line_mistakes_get_one_line_naming_the_option(tmp_path, capsys, argv, message):
    assert main([*argv, str(broken(tmp_path))]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"irvalidate: error: {message}\n"


def test_configuration_file_mistakes_get_the_same_suggestion(tmp_path, capsys, monkeypatch):
    (tmp_path / "irvalidate.toml").write_text('ignore = ["IRV999"]\n')
    monkeypatch.chdir(tmp_path)
    assert main([str(broken(tmp_path))]) == 2
    assert capsys.readouterr().err == (
        f"irvalidate: error: {tmp_path / 'irvalidate.toml'}: ignore: 'IRV999' matches no rule "
        f"code or slug; did you mean 'IRV409'?\n")


def test_api_raises_config_error(tmp_path):
    path = broken(tmp_path)
    assert issubclass(irvalidate.ConfigError, ValueError)
    with pytest.raises(irvalidate.ConfigError, match=r"ignore: 'IRV999' matches no rule code or "
                       r"slug; did you mean 'IRV409'\?") as caught:
        irvalidate.validate(path, config={"ignore": ["IRV999"]})
    assert "pydantic" not in str(caught.value)
    with pytest.raises(irvalidate.ConfigError, match="unknown key 'selct'"):
        irvalidate.validate(path, config={"selct": []})


@pytest.mark.parametrize("old,new,code", [
    ("broadcast-output-mismatch", "output-shape-mismatch", "IRV101"),
    ("incompatible-broadcast", "incompatible-inputs", "IRV102"),
    ("invalid-broadcast-attribute", "invalid-attribute", "IRV104"),
])
def test_former_slugs_still_name_their_rules(old, new, code):
    from irvalidate.rules import get
    from irvalidate.settings.config import Config
    assert get(old).CODE == code and get(old).SLUG == new
    config = Config(ignore=[old], severity={old: "warning"})
    assert config.ignore == [new] and config.severity == {new: "warning"}


@pytest.mark.parametrize("given", [dict(jobs=2), dict(jobs=0, exit_zero=True),
                                   dict(format="json", force_exclude=True,
                                        respect_gitignore=False)])
def test_plain_options_on_the_defaults_hold_what_the_model_holds(given):
    """-j, --format and the flags come from argparse in their final type: Defaults takes them
    without building the model, and must hold what the model would."""
    from irvalidate.settings.config import Defaults
    merged = Defaults().merged(**given)
    assert isinstance(merged, Defaults)
    model = Config(**given)
    assert merged.as_dict() == {**model.model_dump(), "root": model.root}


def test_out_of_range_or_other_options_still_go_through_the_model():
    from irvalidate.settings.config import Defaults, plain
    assert not plain(dict(jobs=-1)) and not plain(dict(select=["IRV001"]))
    assert not plain(dict(jobs=True))  # a bool is an int to isinstance, not to the model
    assert isinstance(Defaults().merged(select=["IRV001"]), Config)
    with pytest.raises(Exception, match="greater than or equal to 0"):
        Defaults().merged(jobs=-1)


def test_a_parallel_run_with_plain_options_builds_no_model(tmp_path):
    """``-j 2`` alone used to build the pydantic model (~80 ms of the parent's start, which
    the workers wait for)."""
    import subprocess
    import sys
    model = IR()
    model.result(model.op("Relu", [model.parameter("2,3")], [[2, 3]]))
    path = model.write(tmp_path, "m")
    code = ("import sys; from irvalidate.cli.main import main; "
            f"rc = main(['-j', '2', '--exit-zero', {str(path)!r}]); "
            "print(rc, 'pydantic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-2:] == ["0", "False"]
