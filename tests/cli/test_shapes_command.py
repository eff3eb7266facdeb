"""``irvalidate shapes``: every layer's inferred output shapes beside the declared ones."""
import json
from pathlib import Path

from irvalidate.cli.main import main

SAMPLES = Path(__file__).resolve().parents[2] / "sample_models"


def shapes(capsys, *argv):
    code = main(["shapes", *map(str, argv)])
    return code, capsys.readouterr()


def test_json_lists_every_layer_with_inferred_and_declared_shapes(capsys):
    code, out = shapes(capsys, "--format", "json", SAMPLES / "broken" / "IRV101-output-shape-mismatch.xml")
    assert code == 0
    [entry] = json.loads(out.out)["files"]
    layers = {row["name"]: row for row in entry["layers"]}
    assert [row["type"] for row in entry["layers"]] == ["Parameter", "Parameter", "Add", "Result"]
    add = layers["add"]
    assert add["modelled"] and add["outputs"] == [
        {"port": "2", "inferred": "[2,4,5]", "declared": "[2,4,6]", "consistent": False}]
    assert not layers["add/sink"]["modelled"] and layers["add/sink"]["outputs"] == []
    assert layers["a"]["outputs"][0]["consistent"] is True


def test_intervals_print_as_openvino_prints_them_and_are_consistent_with_minus_one(capsys):
    code, out = shapes(capsys, "--format", "json", SAMPLES / "valid" / "computed-target.xml")
    rows = {row["name"]: row for row in json.loads(out.out)["files"][0]["layers"]}
    assert rows["input_ids"]["outputs"][0] == {"port": "0", "inferred": "[?,1..128]",
                                               "declared": "[?,?]", "consistent": True}
    assert rows["expand"]["outputs"][0]["inferred"] == "[?,8,1..128,1..128]"
    # ShapeOf's own shape is its input's rank (a layer no op models infers nothing: the
    # Result in test_text_marks_the_contradicted_declaration)
    assert rows["shape"]["modelled"] is True and rows["shape"]["outputs"][0]["inferred"] == "[2]"


def test_text_marks_the_contradicted_declaration(capsys):
    code, out = shapes(capsys, SAMPLES / "broken" / "IRV101-output-shape-mismatch.xml")
    assert code == 0
    assert "port 2: inferred [2,4,5], declared [2,4,6]   <- the declaration contradicts it" in out.out
    assert "Result 'add/sink' (id=3)  (not modelled: declared dims passed on)" in out.out


def test_an_unreadable_file_is_a_usage_error(capsys, tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text("<net version='11'><layers>")
    code, out = shapes(capsys, path)
    assert code == 2 and "bad.xml" in out.err


def test_a_folder_is_walked_as_the_check_walks_it(capsys):
    """Every IR file under the folder, as ``irvalidate --show-files`` lists them."""
    folder = SAMPLES / "reshape"
    code, out = shapes(capsys, "--format", "json", folder)
    assert code == 0, out.err
    paths = [f["path"] for f in json.loads(out.out)["files"]]
    assert main(["--show-files", str(folder)]) == 0
    assert paths == capsys.readouterr().out.split()
    assert [Path(p).name for p in paths] == ["classifier-head.xml", "cropped-upsample.xml"]


def test_bin_with_a_folder_of_two_files_is_a_usage_error(capsys):
    folder = SAMPLES / "reshape"
    code, out = shapes(capsys, "--bin", folder / "classifier-head.bin", folder)
    assert code == 2 and out.out == "" and "--bin needs exactly one IR file" in out.err
