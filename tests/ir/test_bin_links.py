"""A ``.bin`` that is a symbolic link to a regular file: read as the runtime reads it (the
Hugging Face cache lays every model out as ``snapshots/REV/model.bin -> ../../blobs/SHA``),
except a link that leaves the git work tree the model is in, which IRV204 refuses and says
why (a pull request must not make CI read files outside the repository)."""
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from irvalidate.cli.shapes import layers_of
from irvalidate.engine.validation import validate_file

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset8")


def _model(folder: Path) -> Path:
    """x [1] broadcast to a Const target [2,3]: the output shape needs the .bin's bytes."""
    x = ops.parameter([1], np.float32, name="x")
    target = ops.constant(np.array([2, 3], np.int64))
    out = ops.broadcast(x, target, name="spread")
    path = folder / "model.xml"
    folder.mkdir(parents=True, exist_ok=True)
    ov.save_model(ov.Model([ops.result(out)], [x], "m"), str(path), compress_to_fp16=False)
    return path


def _link_bin(path: Path, blob: Path) -> None:
    """Move the model's .bin to ``blob`` and leave a relative link in its place."""
    blob.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(path.with_suffix(".bin")), str(blob))
    path.with_suffix(".bin").symlink_to(os.path.relpath(blob, path.parent))


def _read_as_the_runtime_does(path: Path) -> None:
    runtime = ov.Core().read_model(str(path))
    spread = [op for op in runtime.get_ordered_ops() if op.get_friendly_name() == "spread"][0]
    assert str(spread.get_output_partial_shape(0)) == "[2,3]"
    assert validate_file(str(path)).findings == []
    [row] = [r for r in layers_of(str(path)) if r["name"] == "spread"]
    assert row["outputs"][0]["inferred"] == "[2,3]"  # the target's bytes were read


@pytest.mark.parametrize("xml_linked", [False, True], ids=["bin", "bin and xml"])
def test_a_hugging_face_cache_layout_is_read(tmp_path, xml_linked):
    """No git work tree: a link to a regular file is followed, as read_model follows it."""
    snapshot = tmp_path / "models--org--m" / "snapshots" / "rev1"
    path = _model(snapshot)
    blobs = tmp_path / "models--org--m" / "blobs"
    _link_bin(path, blobs / "5f1e0c")
    if xml_linked:
        shutil.move(str(path), str(blobs / "9ab3d2"))
        path.symlink_to(os.path.relpath(blobs / "9ab3d2", path.parent))
    _read_as_the_runtime_does(path)


@pytest.mark.parametrize("dot_git", ["folder", "file"])
def test_a_link_within_the_git_work_tree_is_read(tmp_path, dot_git):
    """models/m/model.bin -> ../../weights/blob, all inside the repository."""
    repo = tmp_path / "repo"
    repo.mkdir()
    if dot_git == "folder":
        (repo / ".git").mkdir()
    else:  # a linked worktree or a submodule: .git is a file naming the repository
        (repo / ".git").write_text("gitdir: /elsewhere/.git/worktrees/repo\n")
    path = _model(repo / "models" / "m")
    _link_bin(path, repo / "weights" / "blob")
    _read_as_the_runtime_does(path)


def test_a_git_annex_link_is_read(tmp_path):
    """git-annex keeps the content under .git/annex/objects, inside the work tree."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    path = _model(repo / "models")
    _link_bin(path, repo / ".git" / "annex" / "objects" / "Xk" / "7q" / "SHA256E-s96" / "SHA256E-s96")
    _read_as_the_runtime_does(path)


def test_a_link_leaving_the_git_work_tree_is_refused_with_the_reason(tmp_path):
    """The runtime reads it; irvalidate does not, and says that this is why."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    path = _model(repo / "models")
    _link_bin(path, tmp_path / "cache" / "blob")
    runtime = ov.Core().read_model(str(path))  # no refusal here
    assert runtime.get_ordered_ops()
    [finding] = validate_file(str(path)).findings
    assert finding.code == "IRV204"
    assert "leaves the git work tree" in finding.message
    assert "outside the repository" in finding.message
    assert "OpenVINO refuses" not in finding.message
    assert "--bin" in finding.message


def test_a_link_leaving_a_nested_work_tree_is_refused(tmp_path):
    """A submodule is the work tree the model is in, not the project around it."""
    outer = tmp_path / "project"
    (outer / ".git").mkdir(parents=True)
    sub = outer / "vendor" / "models"
    sub.mkdir(parents=True)
    (sub / ".git").write_text("gitdir: ../../.git/modules/models\n")
    path = _model(sub / "m")
    _link_bin(path, outer / "weights" / "blob")
    [finding] = validate_file(str(path)).findings
    assert finding.code == "IRV204" and "leaves the git work tree" in finding.message


def test_bin_named_with_the_option_is_read_wherever_it_is(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    path = _model(repo / "models")
    _link_bin(path, tmp_path / "cache" / "blob")
    assert validate_file(str(path), str(tmp_path / "cache" / "blob")).findings == []
