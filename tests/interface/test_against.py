"""``compat --against REV`` on temporary git repositories: a changed IR, a renamed one (git's
rename followed), one deleted at HEAD, one untracked and named, a pom.xml, a commit that
changes only a .bin, and the usage errors (exit 2)."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from irvalidate.cli.main import main

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

SAMPLE = Path(__file__).resolve().parents[2] / "sample_models" / "reshape" / "classifier-head.xml"


def git(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    done = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def init(repo: Path) -> None:
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q")
    git(repo, "config", "user.name", "irvalidate tests")
    git(repo, "config", "user.email", "irvalidate-tests@example.invalid")
    git(repo, "config", "commit.gpgsign", "false")


def place(repo: Path, name: str) -> Path:
    target = repo / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SAMPLE, target)
    shutil.copyfile(SAMPLE.with_suffix(".bin"), target.with_suffix(".bin"))
    return target


def rename_input(path: Path, new: str = "pixel_values") -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count('names="x"') == 1
    path.write_text(text.replace('names="x"', f'names="{new}"'), encoding="utf-8")


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    """models/{a,b,c}.xml and a pom.xml committed; the working directory is the repo."""
    root = tmp_path / "repo"
    init(root)
    for name in ("a", "b", "c"):
        place(root, f"models/{name}.xml")
    (root / "pom.xml").write_text("<project/>\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "models")
    monkeypatch.chdir(root)
    return root


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["compat", "--against", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_nothing_changed_is_silent_and_clean(repo, capsys):
    assert run(capsys, "HEAD") == (0, "", "")


def test_a_renamed_input_a_renamed_file_and_a_deleted_one(repo, capsys):
    rename_input(repo / "models" / "a.xml")
    git(repo, "mv", "models/b.xml", "models/moved.xml")
    git(repo, "mv", "models/b.bin", "models/moved.bin")
    rename_input(repo / "models" / "moved.xml", "image")
    git(repo, "rm", "-q", "models/c.xml", "models/c.bin")
    (repo / "pom.xml").write_text("<project><version>2</version></project>\n")
    status, out, err = run(capsys, "HEAD", "--format", "concise")
    assert (status, err) == (1, "")
    assert out.splitlines() == [
        "models/a.xml:4: IRV401 [error] input 'x' renamed 'pixel_values': none of its tensor "
        "names (x) is kept (line 4 of models/a.xml at HEAD)",
        "models/c.xml: IRV416 [error] the IR models/c.xml at HEAD is gone: its callers break",
        # the rename followed: compared with b.xml, not new
        "models/moved.xml:4: IRV401 [error] input 'x' renamed 'image': none of its tensor "
        "names (x) is kept (line 4 of models/b.xml at HEAD)",
        "Found 3 errors in 3 files checked.",
    ]


def test_a_rename_is_followed_when_only_the_new_path_is_given(repo, capsys):
    git(repo, "mv", "models/b.xml", "models/moved.xml")
    (repo / "models" / "moved.xml").write_text(SAMPLE.read_text(encoding="utf-8") + "\n")
    assert run(capsys, "HEAD", "models/moved.xml") == (0, "1 file checked, no problems.\n", "")


def test_the_paths_given_limit_the_comparison(repo, capsys, monkeypatch):
    rename_input(repo / "models" / "a.xml")
    assert run(capsys, "HEAD", "models/b.xml")[0] == 0
    monkeypatch.chdir(repo / "models")
    status, out, _ = run(capsys, "HEAD", ".", "--format", "concise")
    assert status == 1 and out.startswith("a.xml:4: IRV401 [error]")


def test_an_untracked_ir_named_is_new(repo, capsys):
    place(repo, "models/new.xml")
    assert run(capsys, "HEAD")[0] == 0  # not named: git does not track it
    status, out, _ = run(capsys, "HEAD", "models/new.xml", "--format", "concise")
    assert status == 1 and out.splitlines()[0] == \
        "models/new.xml: IRV416 [error] this IR is new since HEAD: there is nothing to " \
        "compare it with"


def test_weights_changed_alone_are_no_interface_change(repo, capsys):
    weights = repo / "models" / "a.bin"
    weights.write_bytes(bytes(len(weights.read_bytes())))
    assert run(capsys, "HEAD") == (0, "", "")


def test_against_an_older_revision(repo, capsys):
    rename_input(repo / "models" / "a.xml")
    git(repo, "commit", "-q", "-am", "renamed")
    assert run(capsys, "HEAD")[0] == 0
    assert run(capsys, "HEAD~1")[0] == 1


def test_the_first_commit_compares_with_nothing(tmp_path, monkeypatch, capsys):
    init(tmp_path)
    place(tmp_path, "model.xml")
    git(tmp_path, "add", "-A")
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "HEAD", "--format", "concise")
    assert status == 1 and "model.xml: IRV416 [error] this IR is new since HEAD" in out


def test_levels_from_the_command_line(repo, capsys):
    git(repo, "rm", "-q", "models/c.xml", "models/c.bin")
    status, out, _ = run(capsys, "HEAD", "--severity", "model-file-unmatched=warning")
    assert status == 0 and "IRV416 [warning]" in out


@pytest.mark.parametrize("rev, message", [
    ("no-such-branch", "irvalidate: error: --against no-such-branch: not a revision git knows"),
    ("HEAD:models", "irvalidate: error: --against HEAD:models: not a revision git knows"),
])
def test_a_revision_git_does_not_know_is_a_usage_error(repo, capsys, rev, message):
    assert run(capsys, rev) == (2, "", message + "\n")


def test_outside_a_work_tree_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert run(capsys, "HEAD") == \
        (2, "", "irvalidate: error: not in a git work tree: --against needs one\n")


def test_sarif_locates_the_finding_in_the_working_tree_file(repo, capsys):
    import json
    rename_input(repo / "models" / "a.xml")
    status, out, _ = run(capsys, "HEAD", "--format", "sarif")
    result, = json.loads(out)["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert status == 1 and result["ruleId"] == "IRV401"
    assert location["artifactLocation"]["uri"] == "models/a.xml"
    assert location["region"]["startLine"] == 4


def test_the_readme_example_is_what_the_command_prints(tmp_path, monkeypatch, capsys):
    """README.md's compat --against example: the sample's input renamed, in a commit."""
    head = "$ irvalidate compat --against HEAD models/\n"
    readme = (SAMPLE.parents[2] / "README.md").read_text(encoding="utf-8")
    start = readme.index(head) + len(head)
    init(tmp_path)
    place(tmp_path, "models/classifier-head.xml")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "model")
    rename_input(tmp_path / "models" / "classifier-head.xml")
    git(tmp_path, "add", "-A")
    monkeypatch.chdir(tmp_path)
    assert main(["compat", "--against", "HEAD", "models/"]) == 1
    assert capsys.readouterr().out == readme[start:readme.index("```", start)]


def test_the_report_never_overwrites_a_compared_ir(repo, capsys):
    """-o naming an IR git lists (or its .bin) is refused, as for the files named."""
    rename_input(repo / "models" / "a.xml")
    for target in ("models/a.xml", "models/a.bin"):
        before = (repo / target).read_bytes()
        status, _, err = run(capsys, "HEAD", ".", "-o", target)
        assert status == 2 and "is one of the input files" in err, err
        assert (repo / target).read_bytes() == before
