"""``irvalidate reshapeable``'s command line: folders found as the check finds them, and
``--bin`` for one IR file."""
import json
import shutil
from pathlib import Path

from irvalidate.cli.main import main
from support.irbuilder import IR


def pinned_model(folder: Path, stem: str = "pinned") -> Path:
    """ids[1,16] -> Reshape to the constant [1,16], read from the .bin: the pin is only
    known with the weights."""
    folder.mkdir(parents=True, exist_ok=True)
    ir = IR()
    ids = ir.parameter("1,16", "i64", name="ids")
    ir.result(ir.op("Reshape", [ids, ir.const([1, 16])], [[1, 16]], {"special_zero": "false"},
                    name="pin"))
    return ir.write(folder, stem)


def reshapeable(capsys, *argv) -> tuple[int, str, str]:
    code = main(["reshapeable", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_folder_is_walked_as_the_check_walks_it(tmp_path, capsys):
    pinned_model(tmp_path / "models")
    pinned_model(tmp_path / "models" / "sub", "other")
    pinned_model(tmp_path / "models" / ".hidden")  # excluded by default, as by the check
    (tmp_path / "models" / "notes.xml").write_text("<notes/>")  # not an IR: skipped
    code, out, err = reshapeable(capsys, "--format", "json", tmp_path / "models")
    assert code == 0, err
    paths = [Path(f["path"]) for f in json.loads(out)["files"]]
    assert [p.relative_to(tmp_path / "models").as_posix() for p in paths] == \
        ["pinned.xml", "sub/other.xml"]
    assert main(["--show-files", str(tmp_path / "models")]) == 0
    assert [Path(p) for p in capsys.readouterr().out.split()] == paths


def test_a_folder_without_ir_files_exits_2(tmp_path, capsys):
    code, out, err = reshapeable(capsys, tmp_path)
    assert code == 2 and out == "" and "no IR files found" in err


def test_bin_names_the_weights(tmp_path, capsys):
    """The model's .bin elsewhere, under another name: --bin reads it, and the rows are those
    of the model with its .bin beside it."""
    beside = pinned_model(tmp_path / "beside")
    alone = tmp_path / "alone" / "pinned.xml"
    alone.parent.mkdir()
    shutil.copy(beside, alone)
    weights = tmp_path / "weights.bin"
    shutil.copy(beside.with_suffix(".bin"), weights)
    axes = []
    for argv in ([beside], ["--bin", weights, alone], [alone]):
        code, out, err = reshapeable(capsys, "--format", "json", *argv)
        assert code == 0, err
        axes.append(json.loads(out)["files"][0]["inputs"][0]["axes"])
    assert axes[1] == axes[0] and axes[2] != axes[0]
    assert [(row["exact"], row["values"]) for row in axes[0]] == [(True, [1]), (True, [16])]
    assert not any(row["exact"] for row in axes[2])  # without the weights, nothing is exact


def test_bin_needs_exactly_one_ir_file(tmp_path, capsys):
    beside = pinned_model(tmp_path)
    pinned_model(tmp_path, "other")
    for argv in (["--bin", beside.with_suffix(".bin"), tmp_path],
                 ["--bin", beside.with_suffix(".bin"), beside, tmp_path / "other.xml"]):
        code, out, err = reshapeable(capsys, *argv)
        assert (code, out) == (2, "") and "--bin needs exactly one IR file" in err
    code, out, err = reshapeable(capsys, "--bin", tmp_path / "nope.bin", beside)
    assert code == 2 and "--bin" in err and "no such file" in err
