"""Configuration files: names and precedence, the hierarchy (nearest file wins), --isolated,
--show-settings, and files that are not TOML."""
import json
import shutil
from pathlib import Path

import pytest
import test_config

from irvalidate.cli.main import main

SAMPLES = Path(__file__).resolve().parents[2] / "sample_models"
IRV101 = SAMPLES / "broken" / "IRV101-output-shape-mismatch.xml"


def broken(folder, stem="bad"):
    """test_config.broken (IRV102 and IRV211) in a folder made on the way."""
    folder.mkdir(parents=True, exist_ok=True)
    return test_config.broken(folder, stem)


def found(capsys, *argv):
    """(exit, {file name: sorted rule codes}) of a json run."""
    code = main(["--format", "json", *map(str, argv)])
    out = capsys.readouterr().out
    files = json.loads(out)["files"] if out else []
    return code, {Path(f["path"]).name: sorted(x["rule"] for x in f["findings"]) for f in files}


@pytest.fixture
def repo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("name", [".irvalidate.toml", "irvalidate.toml"])
def test_dedicated_files_have_top_level_keys(repo, capsys, name):
    (repo / name).write_text('ignore = ["IRV102"]\n')
    assert found(capsys, broken(repo)) == (0, {"bad.xml": ["IRV211"]})


@pytest.mark.parametrize("present,winner", [
    ((".irvalidate.toml", "irvalidate.toml", "pyproject.toml"), ".irvalidate.toml"),
    (("irvalidate.toml", "pyproject.toml"), "irvalidate.toml"),
    ((".irvalidate.toml", "pyproject.toml"), ".irvalidate.toml"),
])
def test_precedence_in_one_folder(repo, capsys, present, winner):
    ignores = {".irvalidate.toml": "IRV211", "irvalidate.toml": "IRV102",
               "pyproject.toml": "IRV1"}
    for name in present:
        table = "[tool.irvalidate]\n" if name == "pyproject.toml" else ""
        (repo / name).write_text(f'{table}ignore = ["{ignores[name]}"]\n')
    expected = sorted({"IRV102", "IRV211"} - {ignores[winner]})
    assert found(capsys, broken(repo))[1] == {"bad.xml": expected}


def test_a_pyproject_without_the_table_does_not_count(repo, capsys):
    (repo / "irvalidate.toml").write_text('ignore = ["IRV102"]\n')
    sub = repo / "sub"
    sub.mkdir()
    (sub / "pyproject.toml").write_text('[project]\nname = "models"\n')
    assert found(capsys, broken(sub))[1] == {"bad.xml": ["IRV211"]}


def test_each_file_uses_the_nearest_configuration(repo, capsys):
    """ruff's model: the closest file wins and parents are not merged into it."""
    (repo / "pyproject.toml").write_text('[tool.irvalidate]\nignore = ["IRV102"]\n')
    (repo / "legacy" / "deeper").mkdir(parents=True)
    (repo / "legacy" / ".irvalidate.toml").write_text('extend-ignore = ["IRV211"]\n')
    top, legacy = broken(repo, "top"), broken(repo / "legacy" / "deeper", "old")
    assert found(capsys, top, legacy) == (1, {"top.xml": ["IRV211"], "old.xml": ["IRV102"]})
    assert found(capsys, repo) == (1, {"top.xml": ["IRV211"], "old.xml": ["IRV102"]})
    # the command line applies on top of each file's configuration
    assert found(capsys, "--extend-ignore", "IRV102", repo) == (0, {"top.xml": ["IRV211"],
                                                                    "old.xml": []})


def test_files_outside_the_working_directory_find_their_own(tmp_path, capsys, monkeypatch):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "irvalidate.toml").write_text('ignore = ["IRV211"]\n')
    path = broken(tmp_path / "elsewhere" / "models")
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    assert found(capsys, path)[1] == {"bad.xml": ["IRV102"]}


def test_run_wide_settings_come_from_the_working_directory(repo, capsys):
    (repo / "irvalidate.toml").write_text('format = "json"\nexit-zero = true\n')
    (repo / "sub").mkdir()
    (repo / "sub" / "irvalidate.toml").write_text('format = "github"\nexit-zero = false\n')
    path = broken(repo / "sub")
    assert main([str(path)]) == 0  # exit-zero of the working directory's file
    assert json.loads(capsys.readouterr().out)["summary"]["errors"] == 1


def test_config_option_applies_to_every_file(repo, capsys):
    (repo / "sub").mkdir()
    (repo / "sub" / "irvalidate.toml").write_text('ignore = ["IRV102"]\n')
    (repo / "chosen.toml").write_text('ignore = ["IRV211"]\n')
    path = broken(repo / "sub")
    assert found(capsys, "--config", repo / "chosen.toml", path)[1] == {"bad.xml": ["IRV102"]}


def test_isolated_reads_no_configuration(repo, capsys):
    (repo / "irvalidate.toml").write_text('ignore = ["IRV102"]\n')
    (repo / "sub").mkdir()
    (repo / "sub" / "pyproject.toml").write_text("[tool.irvalidate\n")  # not even read
    path = broken(repo / "sub")
    assert found(capsys, "--isolated", path)[1] == {"bad.xml": ["IRV102", "IRV211"]}
    assert main(["--isolated", "--config", str(repo / "irvalidate.toml"), str(path)]) == 2
    assert "--isolated" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["pyproject.toml", ".irvalidate.toml", "irvalidate.toml"])
def test_a_file_that_is_not_toml_is_an_error_not_skipped(repo, capsys, name):
    """A broken pyproject.toml beside the model used to be skipped, and the parent's
    configuration (which ignores IRV101) silently took its place: the IRV101 was hidden."""
    (repo / "pyproject.toml").write_text('[tool.irvalidate]\nignore = ["IRV101"]\n')
    models = repo / "models"
    models.mkdir()
    shutil.copyfile(IRV101, models / "model.xml")
    shutil.copyfile(IRV101.with_suffix(".bin"), models / "model.bin")
    (models / name).write_text('[tool.irvalidate]\nselect = ["IRV1"\n')
    assert main([str(models / "model.xml")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"irvalidate: error: {models / name}: cannot read it as TOML")
    assert main([str(repo)]) == 2


def test_folders_are_looked_up_once(repo, capsys, monkeypatch):
    import irvalidate.settings.config
    seen = []
    real = irvalidate.settings.config.config_file_in
    monkeypatch.setattr(irvalidate.settings.config, "config_file_in", lambda f: seen.append(f) or real(f))
    for i in range(5):
        broken(repo / "models", f"m{i}")
    assert main([str(repo / "models")]) == 1
    assert len(seen) == len(set(seen))


def test_show_settings_says_where_each_value_comes_from(repo, capsys):
    (repo / "pyproject.toml").write_text('[tool.irvalidate]\nignore = ["IRV102"]\njobs = 2\n')
    (repo / "legacy").mkdir()
    (repo / "legacy" / "irvalidate.toml").write_text('select = ["IRV2"]\n')
    assert main(["--show-settings", "--exit-zero", "--extend-ignore", "IRV211"]) == 0
    lines = capsys.readouterr().out.splitlines()
    pyproject = str(repo / "pyproject.toml")
    assert f"# configuration file: {pyproject}" in lines
    assert f'ignore = ["IRV102"]  # {pyproject}' in lines
    assert f"jobs = 2  # {pyproject}" in lines
    assert "exit-zero = true  # command line" in lines
    assert 'extend-ignore = ["IRV211"]  # command line' in lines
    assert "select = []  # default" in lines
    assert "per-file-ignores = {}  # default" in lines
    assert "respect-gitignore = true  # default" in lines
    path = broken(repo / "legacy")
    assert main(["--show-settings", str(path)]) == 0
    out = capsys.readouterr().out
    assert f'select = ["IRV2"]  # {repo / "legacy" / "irvalidate.toml"}' in out
    assert "ignore = []  # default" in out
    assert main(["--show-settings", "--isolated"]) == 0
    assert "# configuration file: none (--isolated)" in capsys.readouterr().out
    assert main(["--show-settings", str(path), str(path)]) == 2
