"""The pre-commit hook (.pre-commit-hooks.yaml), run for real by pre-commit in temporary git repos.

pre-commit builds a virtualenv and ``pip install``s irvalidate into it, so these tests need
git, the ``pre-commit`` package (the ``test`` extra) and access to PyPI.

The hook repository is a *snapshot* of this checkout's working tree committed to a temporary
git repo, not the checkout itself.  ``pre-commit try-repo PATH`` without ``--ref`` uses
PATH's HEAD; when tracked files differ from HEAD it commits them to a shadow clone
(``git add -u`` plus whatever is staged) but never picks up untracked files, so a
``.pre-commit-hooks.yaml`` that is not committed or staged yet is "not a file" to it.  The
snapshot behaves the same on a clean CI clone, while developing, and outside git.

try-repo keeps its environments in a temporary store of its own (it ignores PRE_COMMIT_HOME)
and installs irvalidate anew on every call; ``pre-commit run`` with a config naming the
snapshot's commit installs once into the module's PRE_COMMIT_HOME.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pre_commit")

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_models"
GOOD = "models/output-shape-mismatch.xml"
BAD = "models/IRV101-output-shape-mismatch.xml"
POM = "pom.xml"
POM_TEXT = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>demo</artifactId>
  <version>1.0</version>
</project>
"""
#: left out of the snapshot: at the top level / at any depth
_TOP_JUNK = {".git", "build", "dist", ".venv", "venv", ".tox", ".nox", ".hypothesis",
             ".pytest_cache", ".mypy_cache", ".ruff_cache"}
_ANY_JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
TIMEOUT = 600


def _git(cwd: Path, *args: str, env: dict) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout.strip()


def _init(repo: Path, env: dict) -> None:
    """A git repo with a local identity (no global config is touched)."""
    _git(repo, "init", "-q", env=env)
    _git(repo, "config", "user.name", "irvalidate tests", env=env)
    _git(repo, "config", "user.email", "irvalidate-tests@example.invalid", env=env)
    _git(repo, "config", "commit.gpgsign", "false", env=env)


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict:
    """The environment for git and pre-commit: one PRE_COMMIT_HOME for the module, no GIT_*
    leaking in from an enclosing git hook, no SKIP, no colour."""
    home = tmp_path_factory.mktemp("pre-commit-home")
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("GIT_", "PRE_COMMIT")) and k != "SKIP"}
    clean.update(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never", NO_COLOR="1")
    return clean


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory, env) -> tuple:
    """This checkout's working tree, committed to a temporary repo: (path, commit)."""
    repo = tmp_path_factory.mktemp("hook-repo") / "irvalidate"

    def ignore(folder, names):
        junk = set(_ANY_JUNK(folder, names))
        return junk | (_TOP_JUNK & set(names) if Path(folder) == ROOT else set())

    shutil.copytree(ROOT, repo, ignore=ignore)
    assert (repo / ".pre-commit-hooks.yaml").is_file()
    _init(repo, env)
    _git(repo, "add", "-A", env=env)
    _git(repo, "commit", "-q", "--no-verify", "-m", "snapshot", env=env)
    return repo, _git(repo, "rev-parse", "HEAD", env=env)


@pytest.fixture
def user_repo(tmp_path, env) -> Path:
    """A project with a valid IR, a broken IR (IRV101) and a pom.xml, all staged."""
    repo = tmp_path / "project"
    (repo / "models").mkdir(parents=True)
    for source, target in ((SAMPLES / "valid" / "output-shape-mismatch.xml", GOOD),
                           (SAMPLES / "broken" / "IRV101-output-shape-mismatch.xml", BAD)):
        shutil.copyfile(source, repo / target)
        shutil.copyfile(source.with_suffix(".bin"), (repo / target).with_suffix(".bin"))
    (repo / POM).write_text(POM_TEXT)
    _init(repo, env)
    _git(repo, "add", "-A", env=env)
    return repo


def pre_commit(repo: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)
    done.output = done.stdout + done.stderr
    return done


def test_manifest_is_valid(env):
    done = pre_commit(ROOT, env, "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml"))
    assert done.returncode == 0, done.output


def test_try_repo_passes_valid_ir_and_skips_other_xml_quietly(hook_repo, user_repo, env):
    done = pre_commit(user_repo, env, "try-repo", str(hook_repo[0]), "irvalidate",
                      "--verbose", "--color", "never", "--files", GOOD, POM)
    assert done.returncode == 0, done.output
    assert "Passed" in done.output
    # --verbose shows the hook's output even when it passes: there is none
    assert "IRV" not in done.output and POM not in done.output


def test_try_repo_fails_on_broken_ir_and_names_the_finding(hook_repo, user_repo, env):
    done = pre_commit(user_repo, env, "try-repo", str(hook_repo[0]), "irvalidate",
                      "--color", "never", "--files", BAD)
    assert done.returncode == 1, done.output
    assert "Failed" in done.output
    assert f"{BAD}:40:6: IRV101 [error]" in done.output


def _config(repo: Path, hook_repo: tuple, extra: str = "") -> None:
    path, rev = hook_repo
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {path}\n    rev: {rev}\n    hooks:\n      - id: irvalidate\n{extra}")


def test_config_run_all_files_reports_only_the_broken_ir(hook_repo, user_repo, env):
    _config(user_repo, hook_repo)
    done = pre_commit(user_repo, env, "run", "--all-files", "--color", "never")
    assert done.returncode == 1, done.output
    assert f"{BAD}:40:6: IRV101 [error]" in done.output
    assert "Found 1 error in 1 of 2 files checked." in done.output  # the two IRs; pom.xml is not counted
    assert GOOD not in done.output and POM not in done.output


def test_a_commit_that_changes_only_the_bin_runs_the_hook(hook_repo, tmp_path, env):
    """The weights are part of the model: truncating model.bin breaks its constants, and a
    commit that stages nothing but the .bin must still be checked (and fail)."""
    repo = tmp_path / "weights-only"
    (repo / "models").mkdir(parents=True)
    source = SAMPLES / "valid" / "computed-target.xml"
    shutil.copyfile(source, repo / "models" / "model.xml")
    shutil.copyfile(source.with_suffix(".bin"), repo / "models" / "model.bin")
    (repo / "models" / "firmware.bin").write_bytes(b"\0" * 8)  # no IR beside it: skipped
    _init(repo, env)
    _config(repo, hook_repo)
    _git(repo, "add", "-A", env=env)
    done = pre_commit(repo, env, "run", "--color", "never")
    assert done.returncode == 0, done.output  # the intact model passes
    _git(repo, "commit", "-q", "--no-verify", "-m", "models", env=env)
    weights = (repo / "models" / "model.bin").read_bytes()
    (repo / "models" / "model.bin").write_bytes(weights[:4])
    _git(repo, "add", "models/model.bin", env=env)
    done = pre_commit(repo, env, "run", "--color", "never")
    assert done.returncode == 1, done.output
    assert "Failed" in done.output
    assert ("models/model.xml:36:3: IRV218 [error] model.bin does not hold this model's "
            "weights: it holds 4 bytes, and ") in done.output


def test_user_args_keep_skip_non_ir_and_files_filter_applies(hook_repo, user_repo, env):
    """``args`` are appended to ``entry``, so --skip-non-ir stays; a ``files`` filter that
    leaves the broken IR out makes the hook pass."""
    _config(user_repo, hook_repo, "        args: [--format, text]\n"
                                  "        files: ^(pom|models/broadcast-.*)\\.xml$\n")
    _git(user_repo, "add", ".pre-commit-config.yaml", env=env)
    done = pre_commit(user_repo, env, "run", "--all-files", "--verbose", "--color", "never")
    assert done.returncode == 0, done.output
    assert "IRV" not in done.output and POM not in done.output


def test_the_fixing_hook_repairs_the_broken_ir_then_passes(hook_repo, user_repo, env):
    original = (user_repo / BAD).read_bytes()
    done = pre_commit(user_repo, env, "try-repo", str(hook_repo[0]), "irvalidate-fix",
                      "--color", "never", "--files", BAD, GOOD, POM)
    # a fixer that changed a file fails the hook, so the fix is staged and looked at
    assert done.returncode == 1, done.output
    assert "Fixed 1 problem in 1 file (2 edits)." in done.output
    fixed = (user_repo / BAD).read_bytes()
    assert fixed != original
    changed = [i + 1 for i, (a, b) in enumerate(zip(original.split(b"\n"), fixed.split(b"\n")))
               if a != b]
    assert changed == [40, 49] and b"<dim>5</dim>" in fixed.split(b"\n")[39]
    assert (user_repo / BAD).with_suffix(".bin").read_bytes() == \
        (SAMPLES / "broken" / "IRV101-output-shape-mismatch.bin").read_bytes()
    _git(user_repo, "add", "-A", env=env)
    again = pre_commit(user_repo, env, "try-repo", str(hook_repo[0]), "irvalidate-fix",
                       "--color", "never", "--files", BAD, GOOD, POM)
    assert again.returncode == 0, again.output
    assert (user_repo / BAD).read_bytes() == fixed


def test_the_compat_hook_fails_a_commit_that_renames_an_input(hook_repo, tmp_path, env):
    """irvalidate-compat compares what is staged with HEAD: an input renamed fails the
    commit; the same change left unstaged is stashed by pre-commit, and passes."""
    repo = tmp_path / "interface"
    (repo / "models").mkdir(parents=True)
    source = SAMPLES / "reshape" / "classifier-head.xml"
    shutil.copyfile(source, repo / "models" / "model.xml")
    shutil.copyfile(source.with_suffix(".bin"), repo / "models" / "model.bin")
    _init(repo, env)
    _git(repo, "add", "-A", env=env)
    _git(repo, "commit", "-q", "--no-verify", "-m", "model", env=env)
    model = repo / "models" / "model.xml"
    model.write_text(model.read_text().replace('names="x"', 'names="pixel_values"'))
    _git(repo, "add", "-A", env=env)
    done = pre_commit(repo, env, "try-repo", str(hook_repo[0]), "irvalidate-compat",
                      "--color", "never")
    assert done.returncode == 1, done.output
    assert "Failed" in done.output
    assert ("models/model.xml:4: IRV401 [error] input 'x' renamed 'pixel_values': none of its "
            "tensor names (x) is kept (line 4 of models/model.xml at HEAD)") in done.output
    _git(repo, "reset", "-q", env=env)
    done = pre_commit(repo, env, "try-repo", str(hook_repo[0]), "irvalidate-compat",
                      "--color", "never")
    assert done.returncode == 0, done.output
