"""Finding files: default exclusions, exclude patterns, .gitignore, explicit files and
--force-exclude, one check per file, --show-files."""
import os
import shutil
import subprocess
import sys

import pytest

from irvalidate.cli.main import main
from support.irbuilder import IR


def ir(folder, stem="m", good=True):
    folder.mkdir(parents=True, exist_ok=True)
    model = IR()
    x, y = model.parameter("2,3"), model.parameter("3" if good else "4")
    model.result(model.op("Add", [x, y], [[2, 3]]))
    return model.write(folder, stem)


def shown(capsys, *argv):
    """(exit, the files --show-files lists, relative to the working directory, sorted)."""
    code = main(["--show-files", *map(str, argv)])
    out = capsys.readouterr().out
    return code, sorted(os.path.relpath(line) for line in out.splitlines())


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_walks_skip_hidden_folders_environments_and_caches(tree, capsys):
    ir(tree / "models")
    for folder in (".git", ".venv", ".hidden", "venv", "node_modules", "__pycache__",
                   "models/.cache", "models/venv"):
        ir(tree / folder, good=False)
    ir(tree / "models", ".dotfile")  # only folders are skipped
    assert shown(capsys, ".") == (0, ["models/.dotfile.xml", "models/m.xml"])
    assert main(["."]) == 0 and capsys.readouterr().out == "2 files checked, no problems.\n"
    # a folder named on the command line is walked even when it is hidden
    assert shown(capsys, ".hidden") == (0, [".hidden/m.xml"])


def test_exclude_and_extend_exclude_on_the_command_line(tree, capsys):
    for folder in ("models", "models/legacy", "old/legacy", "models/tmp", ".hidden"):
        ir(tree / folder)
    everything = ["models/legacy/m.xml", "models/m.xml", "models/tmp/m.xml", "old/legacy/m.xml"]
    assert shown(capsys, ".")[1] == everything
    assert shown(capsys, "--extend-exclude", "legacy", ".")[1] == ["models/m.xml",
                                                                   "models/tmp/m.xml"]
    assert shown(capsys, "--extend-exclude", "./models/legacy, tmp/", ".")[1] == [
        "models/m.xml", "old/legacy/m.xml"]
    assert shown(capsys, "--extend-exclude", "models/*", ".")[1] == ["old/legacy/m.xml"]
    # exclude replaces the list, the defaults with it (as in ruff)
    assert shown(capsys, "--exclude", "old", ".")[1] == [".hidden/m.xml", *everything[:3]]
    # anchored at the working directory, wherever the walk starts
    assert shown(capsys, "--extend-exclude", "./models/legacy", "models")[1] == [
        "models/m.xml", "models/tmp/m.xml"]


def test_exclude_in_configuration_files_is_relative_to_them(tree, capsys):
    for folder in ("a/legacy", "b/legacy", "b/sub/legacy"):
        ir(tree / folder)
    (tree / "b" / ".irvalidate.toml").write_text('extend-exclude = ["./legacy"]\n')
    assert shown(capsys, ".")[1] == ["a/legacy/m.xml", "b/sub/legacy/m.xml"]
    (tree / "irvalidate.toml").write_text('extend-exclude = ["legacy"]\n')
    assert shown(capsys, ".")[1] == ["b/sub/legacy/m.xml"]  # b's own file is nearer for b/


def test_named_files_are_checked_even_when_excluded_unless_force_exclude(tree, capsys):
    bad = ir(tree / "legacy", good=False)
    hidden = ir(tree / ".hidden", good=False)
    (tree / "irvalidate.toml").write_text('extend-exclude = ["legacy"]\n')
    assert shown(capsys, ".")[0] == 2
    assert main([str(bad), str(hidden)]) == 1
    capsys.readouterr()
    assert main(["--force-exclude", str(bad), str(hidden)]) == 2  # nothing left to check
    assert "no IR files found" in capsys.readouterr().err
    assert main(["--force-exclude", "--skip-non-ir", "legacy/m.xml"]) == 0
    (tree / "irvalidate.toml").write_text('extend-exclude = ["legacy"]\nforce-exclude = true\n')
    assert shown(capsys, bad, ir(tree / "models"))[1] == ["models/m.xml"]


def test_one_check_per_file(tree, capsys):
    path = ir(tree / "models")
    os.symlink("m.xml", tree / "models" / "link.xml")
    spellings = [path, "models/m.xml", "./models/m.xml", "models/../models/m.xml", "models",
                 "models/link.xml", tree]
    assert shown(capsys, *spellings) == (0, ["models/m.xml"])
    assert main(list(map(str, spellings))) == 0
    assert capsys.readouterr().out == "1 file checked, no problems.\n"


@pytest.fixture
def bind_mounted(tree):
    """``mirror/``, the same folder as ``models/`` through a bind mount (root only)."""
    if sys.platform != "linux" or os.geteuid() != 0:
        pytest.skip("a bind mount needs Linux and root")
    (tree / "models").mkdir()
    (tree / "mirror").mkdir()
    done = subprocess.run(["mount", "--bind", str(tree / "models"), str(tree / "mirror")],
                          capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot bind-mount: {done.stderr.decode(errors='replace')}")
    yield tree
    subprocess.run(["umount", str(tree / "mirror")], check=True)


def test_one_check_per_file_through_a_bind_mount_or_a_hard_link(bind_mounted, capsys):
    tree = bind_mounted
    ir(tree / "models")
    os.link(tree / "models" / "m.xml", tree / "models" / "linked.xml")
    assert shown(capsys, "models", "mirror") == (0, ["models/linked.xml"])
    assert shown(capsys, "mirror/m.xml", "models/m.xml") == (0, ["mirror/m.xml"])


def test_fix_with_jobs_through_a_bind_mount_fixes_each_file_once(bind_mounted, capsys):
    """-j 2 --fix of one folder named twice: each file once, and a report that agrees with
    itself (each file was fixed through one name and reported with its errors through the
    other: "Fixed N problems" beside "Found N errors")."""
    import json
    tree = bind_mounted
    sample = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "sample_models", "broken",
                          "IRV101-output-shape-mismatch")
    for i in range(4):
        for suffix in (".xml", ".bin"):
            shutil.copyfile(sample + suffix, tree / "models" / f"m{i}{suffix}")
    code = main(["-j", "2", "--fix", "--format", "json", "models", "mirror"])
    out, err = capsys.readouterr()
    assert code == 0, err
    files = json.loads(out)["files"]
    assert sorted(f["path"] for f in files) == [f"models/m{i}.xml" for i in range(4)]
    assert all(f["findings"] == [] and f["fix"]["written"] for f in files), files
    assert "Fixed 4 problems in 4 files" in err


def test_show_files_with_nothing_to_check(tree, capsys):
    (tree / "empty").mkdir()
    assert shown(capsys, "empty") == (2, [])
    assert shown(capsys, "--skip-non-ir", "empty") == (0, [])


# --- .gitignore ---------------------------------------------------------------------------

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

GITIGNORE_TREE = {
    ".gitignore": "build/\n*.tmp.xml\n/top-only.xml\nmodels/**/scratch\n!keep.tmp.xml\n",
    "models/.gitignore": "old/\n!old-but-kept.xml\nlocal-*.xml\n",
    "models/sub/.gitignore": "!local-shared.xml\n",
    "info-exclude": "private/\n",
}
GITIGNORE_FILES = [
    "top-only.xml", "sub/top-only.xml", "build/m.xml", "models/build/m.xml", "a.tmp.xml",
    "keep.tmp.xml", "models/m.xml", "models/old/m.xml", "models/old-but-kept.xml",
    "models/local-1.xml", "models/sub/local-shared.xml", "models/sub/local-2.xml",
    "models/x/scratch/m.xml", "scratch/m.xml", "private/m.xml", "models/private/m.xml",
]


def git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                          check=True).stdout


@needs_git
def test_gitignore_is_obeyed_as_git_obeys_it(tree, capsys):
    """Nested .gitignore files, negation, anchoring, folders and .git/info/exclude: the walk
    finds exactly the .xml files git does not ignore."""
    git(tree, "init", "-q")
    for name, text in GITIGNORE_TREE.items():
        target = tree / ".git" / "info" / "exclude" if name == "info-exclude" else tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    for name in GITIGNORE_FILES:
        ir((tree / name).parent, (tree / name).stem)
    listed = git(tree, "ls-files", "--others", "--exclude-standard", "--", "*.xml").split()
    expected = sorted(os.path.normpath(p) for p in listed)
    assert len(expected) < len(GITIGNORE_FILES) - 6  # the case does exclude things
    assert shown(capsys, ".") == (0, expected)
    # the same from a folder below the root: the root's rules still apply
    assert shown(capsys, "models")[1] == [p for p in expected if p.startswith("models/")]
    # --no-respect-gitignore and respect-gitignore = false walk everything
    assert len(shown(capsys, "--no-respect-gitignore", ".")[1]) == len(GITIGNORE_FILES)
    (tree / "irvalidate.toml").write_text("respect-gitignore = false\n")
    assert len(shown(capsys, ".")[1]) == len(GITIGNORE_FILES)


@needs_git
def test_gitignore_and_named_files(tree, capsys):
    git(tree, "init", "-q")
    (tree / ".gitignore").write_text("generated/\n")
    ir(tree / "generated" / "deep")
    assert shown(capsys, ".")[0] == 2
    assert shown(capsys, "generated/deep/m.xml")[1] == ["generated/deep/m.xml"]
    assert shown(capsys, "--force-exclude", "generated/deep/m.xml")[0] == 2
    # a folder git ignores, named on the command line, is walked (as ruff does)
    assert shown(capsys, "generated")[1] == ["generated/deep/m.xml"]
    assert shown(capsys, "generated/deep")[1] == ["generated/deep/m.xml"]
    assert shown(capsys, "--force-exclude", "generated")[0] == 2


def test_gitignore_outside_a_work_tree_is_not_obeyed(tree, capsys):
    """Decision: as git and ruff, only inside a git work tree (a .git above)."""
    (tree / ".gitignore").write_text("models/\n")
    ir(tree / "models")
    assert shown(capsys, ".")[1] == ["models/m.xml"]
    (tree / ".git").mkdir()  # a work tree from here on
    assert shown(capsys, ".")[0] == 2


def test_a_linked_worktree_reads_the_common_info_exclude(tree, capsys):
    """A ``.git`` file (``git worktree``, submodules) points at the repository."""
    common = tree / "repo.git"
    (common / "info").mkdir(parents=True)
    (common / "info" / "exclude").write_text("private/\n")
    (common / "worktrees" / "wt").mkdir(parents=True)
    (common / "worktrees" / "wt" / "commondir").write_text("../..\n")
    work = tree / "wt"
    work.mkdir()
    (work / ".git").write_text(f"gitdir: {common / 'worktrees' / 'wt'}\n")
    ir(work / "private")
    ir(work / "public")
    assert shown(capsys, "wt")[1] == ["wt/public/m.xml"]


# --- a .bin stands for the IR beside it (pre-commit passes staged .bin files) --------------

def test_a_bin_is_checked_through_the_xml_beside_it(tree, capsys):
    bad = ir(tree / "models", good=False)
    weights = bad.with_suffix(".bin")
    assert main([str(weights)]) == 1
    assert capsys.readouterr().out.startswith(f"{bad}:")
    # staged together: one check
    assert shown(capsys, weights, bad) == (0, ["models/m.xml"])
    assert main([str(bad), str(weights)]) == 1
    assert capsys.readouterr().out.endswith("in 1 file checked.\n")


def test_a_bin_without_its_xml(tree, capsys):
    (tree / "firmware.bin").write_bytes(b"\0" * 8)
    assert main(["--skip-non-ir", "firmware.bin"]) == 0  # the hook's mode: quietly skipped
    assert capsys.readouterr() == ("", "")
    good = ir(tree / "models")
    assert main(["--skip-non-ir", "firmware.bin", str(good)]) == 0
    assert capsys.readouterr().out == "1 file checked, no problems.\n"
    assert main(["firmware.bin"]) == 2
    assert capsys.readouterr().err == ("irvalidate: error: firmware.bin: a .bin is checked "
                                       "through the .xml beside it, and there is no "
                                       "firmware.xml\n")


# --- which .xml a directory walk checks ------------------------------------------------------

HEADS = [
    b'<?xml version="1.0"?>\n<net name="m" version="11">', b"<net/>", b"<net>", b"\n\t<net\n>",
    b'\xef\xbb\xbf<?xml version="1.0" encoding="UTF-8"?><net version="10">',
    b'<?xml version="1.0" encoding="bogus"?><net>', b"<netx/>", b"<network/>", b"<ne",
    b"<project/>", b"<!-- a model --><net/>", b"<!-- a pom --><project/>", b"",
    b'<x:net xmlns:x="urn:x"/>', b'<svg xmlns="http://www.w3.org/2000/svg"/>',
    b"<?pi?><net/>", b"<!DOCTYPE net><net/>", b"<Net/>", b"not xml at all",
    '<?xml version="1.0" encoding="UTF-16"?><net/>'.encode("utf-16"),
    '<?xml version="1.0" encoding="UTF-16"?><project/>'.encode("utf-16"),
]


@pytest.mark.parametrize("head", HEADS)
def test_the_quick_look_at_a_files_start_agrees_with_lxml(tmp_path, head):
    """reader.net_or_broken tells serializer-like starts from their bytes, without lxml:
    it must decide as the parser's sniff_root does, whatever the file starts with."""
    from irvalidate.ir.parser import sniff_root
    from irvalidate.ir.reader import net_or_broken
    path = tmp_path / "m.xml"
    path.write_bytes(head + b"\n")
    assert net_or_broken(str(path)) == (sniff_root(str(path)) in ("net", None))


def test_a_walk_tells_plain_irs_without_lxml(tmp_path):
    """A folder of serializer-written IRs is sorted from other XML by their first bytes: the
    walk imports no lxml (~15 ms of a start, before -j forks its workers)."""
    ir(tmp_path / "models")
    ir(tmp_path / "models", "n")
    code = ("import sys; from irvalidate.api import discover_files; "
            f"found = discover_files({str(tmp_path)!r}); "
            "print(len(found), 'lxml' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["2", "False"]
