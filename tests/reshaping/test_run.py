"""``--reshape`` over a repository: a file the request does not fit is told (IRV303) and the
run goes on; several ``--reshape`` requests are each tried on their own and reported by
name, no finding lost or repeated."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from irvalidate.cli.main import main
from support.irbuilder import IR


def image_model(folder: Path, stem: str = "image", pinned: bool = False) -> Path:
    """x[1,3,4,4] -> ReLU; ``pinned``: then a Reshape to the constant [1,48], which only
    x's own shape fits."""
    ir = IR()
    x = ir.parameter("1,3,4,4", name="x")
    out = ir.op("ReLU", [x], [[1, 3, 4, 4]], name="relu")
    if pinned:
        out = ir.op("Reshape", [out, ir.const([1, 48])], [[1, 48]], {"special_zero": "false"},
                    name="flat")
    ir.result(out)
    return ir.write(folder, stem)


def ids_model(folder: Path, stem: str = "text", name: str = "ids") -> Path:
    """ids[1,16] (i64) -> Reshape to the constant [1,16]: any other size breaks it."""
    ir = IR()
    ids = ir.parameter("1,16", "i64", name=name)
    ir.result(ir.op("Reshape", [ids, ir.const([1, 16])], [[1, 16]], {"special_zero": "false"},
                    name="pin"))
    return ir.write(folder, stem)


def two_input_model(folder: Path, stem: str = "both") -> Path:
    """x[1,3,4,4] and mask[1,16], each to its own Result."""
    ir = IR()
    ir.result(ir.op("ReLU", [ir.parameter("1,3,4,4", name="x")], [[1, 3, 4, 4]]))
    ir.result(ir.op("ReLU", [ir.parameter("1,16", name="mask")], [[1, 16]]))
    return ir.write(folder, stem)


def run(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["--format", "json", *argv])
    out = capsys.readouterr().out
    return code, json.loads(out) if out else {}


def by_file(document: dict) -> dict[str, dict]:
    return {Path(f["path"]).stem: f for f in document["files"]}


@pytest.mark.parametrize("pinned,status", [(False, 0), (True, 1)], ids=["works", "breaks"])
def test_a_file_without_the_input_is_told_and_the_others_are_checked(tmp_path, capsys,
                                                                     pinned, status):
    image_model(tmp_path, pinned=pinned)
    ids_model(tmp_path)
    code, document = run(capsys, "--reshape", "x[1,3,8,8]", str(tmp_path))
    assert code == status  # the exit status is the findings': the info does not count
    files = by_file(document)
    [told] = files["text"]["findings"]
    assert (told["rule"], told["slug"], told["severity"]) == \
        ("IRV303", "reshape-not-applicable", "info")
    assert "x[1,3,8,8]" in told["message"] and "'x'" in told["message"]
    assert "ids[1,16]" in told["message"]  # the inputs it has
    assert "reshape" not in files["text"]  # not reshaped
    assert files["image"]["reshape"]["works"] is not pinned
    assert {f["rule"] for f in files["image"]["findings"]} == ({"IRV301"} if pinned else set())


def test_a_request_is_tried_only_whole(tmp_path, capsys):
    """A request naming x and mask: the file with x alone is not reshaped, and the finding
    names the input it lacks and the one it has; the file with both is reshaped."""
    image_model(tmp_path)
    two_input_model(tmp_path)
    code, document = run(capsys, "--reshape", "x[1,3,8,8],mask[1,32]", str(tmp_path))
    assert code == 0
    files = by_file(document)
    [told] = files["image"]["findings"]
    assert told["rule"] == "IRV303"
    assert "no input named 'mask'" in told["message"] and "it has 'x'" in told["message"]
    assert "reshape" not in files["image"]
    shapes = {t["name"]: t["shape"] for t in files["both"]["reshape"]["inputs"]}
    assert shapes == {"x": "[1,3,8,8]", "mask": "[1,32]"}


def test_other_misfits_are_told_too(tmp_path, capsys):
    """Another rank, or a bare [dims] on a model with two inputs, does not fit either."""
    image_model(tmp_path)
    two_input_model(tmp_path)
    ids_model(tmp_path, name="x")  # x[1,16]
    code, document = run(capsys, "--reshape", "x[2,3]", "--reshape", "[2,16]", str(tmp_path))
    assert code == 1  # both fit the rank-2 x, and break it
    told = {stem: sorted(f["message"] for f in entry["findings"] if f["rule"] == "IRV303")
            for stem, entry in by_file(document).items()}
    assert [m for m in told["image"] if "x[2,3]" in m and "rank 4" in m]
    assert [m for m in told["both"] if "x[2,3]" in m and "rank 4" in m]
    assert [m for m in told["both"] if "[2,16] does not apply" in m and "one input" in m]
    assert len(told["image"]) == len(told["both"]) == 2 and told["text"] == []


def test_a_request_that_fits_no_file_is_a_usage_error(tmp_path, capsys):
    """A name mistyped must not pass CI: exit 2, no report, and each file's inputs said."""
    image_model(tmp_path)
    ids_model(tmp_path)
    code = main(["--reshape", "image[1,3,8,8]", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "image[1,3,8,8] fits none of the 2 files" in err
    assert "x[1,3,4,4]" in err and "ids[1,16]" in err and "Traceback" not in err


def test_in_the_hook_mode_a_request_that_fits_no_file_is_no_error(tmp_path, capsys):
    image_model(tmp_path)
    code, document = run(capsys, "--skip-non-ir", "--reshape", "ids[2,16]", str(tmp_path))
    assert code == 0 and document["summary"]["infos"] == 1


def test_a_spec_that_does_not_parse_stays_a_usage_error(tmp_path, capsys):
    image_model(tmp_path)
    ids_model(tmp_path)
    code = main(["--reshape", "x[1,3,8,8]", "--reshape", "ids[1,", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "not closed" in err


def test_the_same_request_twice_is_a_usage_error(tmp_path, capsys):
    image_model(tmp_path)
    code = main(["--reshape", "x[1,3,8,8]", "--reshape", "x[1, 3, 8, 8]", str(tmp_path)])
    assert code == 2 and "given twice" in capsys.readouterr().err


def test_several_requests_each_reported_by_name(tmp_path, capsys):
    """One request works on its file, the other breaks its file: each outcome and each
    finding names its request, and each file tells the request it does not take."""
    image_model(tmp_path)
    ids_model(tmp_path)
    code, document = run(capsys, "--reshape", "x[1,3,8,8]", "--reshape", "ids[2,16]",
                         str(tmp_path))
    assert code == 1
    files = by_file(document)
    assert "reshape" not in files["image"] and "reshape" not in files["text"]
    assert [(r["request"], r["works"]) for r in files["image"]["reshapes"]] == \
        [("x[1,3,8,8]", True)]
    assert [(r["request"], r["works"]) for r in files["text"]["reshapes"]] == \
        [("ids[2,16]", False)]
    refused = [f for f in files["text"]["findings"] if f["rule"] == "IRV301"]
    assert [(f["request"], f["message"].startswith("--reshape ids[2,16]: ")) for f in refused] \
        == [("ids[2,16]", True)]
    told = {f["message"].split(" does not apply")[0]: f.get("request")
            for entry in files.values() for f in entry["findings"] if f["rule"] == "IRV303"}
    assert told == {"--reshape ids[2,16]": None, "--reshape x[1,3,8,8]": None}


def test_one_request_keeps_the_old_report(tmp_path, capsys):
    """With one request nothing names it: no request field, and ``reshape`` as before."""
    path = ids_model(tmp_path)
    code, document = run(capsys, "--reshape", "ids[2,16]", str(path))
    [entry] = document["files"]
    assert code == 1 and "reshapes" not in entry and "request" not in entry["reshape"]
    assert all("request" not in f and not f["message"].startswith("--reshape")
               for f in entry["findings"])


@pytest.mark.parametrize("fmt", ["text", "concise", "sarif", "github"])
def test_every_format_names_the_request(tmp_path, capsys, fmt):
    ids_model(tmp_path)
    image_model(tmp_path)
    code = main(["--format", fmt, "--reshape", "ids[2,16]", "--reshape", "ids[4,16]",
                 str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    for request in ("ids[2,16]", "ids[4,16]"):
        assert f"--reshape {request}: " in out, out
    if fmt == "text":  # the outcome of each request, named
        assert "--reshape ids[4,16]: reshape to ids[4,16]: breaks" in out, out


def broken_elsewhere(folder: Path) -> Path:
    """A model an unknown op type breaks whatever the request (IRV212, about the file),
    whose Reshape to a constant breaks with any other size of x (IRV301, per request), and
    whose TopK takes 3 along axis 3: the runtime reads it with 2 there, but it then fails at
    inference (IRV107, a rule about the file that only some requests make speak)."""
    ir = IR()
    x = ir.parameter("1,3,4,4", name="x")
    ir.result(ir.op("Reshape", [x, ir.const([1, 48])], [[1, 48]], {"special_zero": "false"},
                    name="flat"))
    ir.result(ir.op("NoSuchOp", [x], [[1, 3, 4, 4]], name="odd"))
    top = ir.op("TopK", [x, ir.const([3], shape=[])], [[1, 3, 4, 3], [1, 3, 4, 3]],
                {"axis": "3", "mode": "max", "sort": "value"}, name="top")
    ir.result(top)
    ir.result(ir.layers[-2].outputs[1])
    return ir.write(folder, "odd")


def test_no_finding_is_lost_or_repeated_across_requests(tmp_path, capsys):
    """The findings of a run of several requests are those of the runs of each alone: the
    ones all give alike once, without a request; the others once per request, named."""
    path = str(broken_elsewhere(tmp_path))
    requests = ["x[2,3,4,4]", "x[1,3,8,8]", "x[1,3,4,4]", "x[1,3,4,2]"]
    alone = {}
    for request in requests:
        _, document = run(capsys, "--reshape", request, path)
        alone[request] = sorted((f["rule"], f["line"], f["message"])
                                for f in document["files"][0]["findings"])
    code, document = run(capsys, *[a for r in requests for a in ("--reshape", r)], path)
    findings = document["files"][0]["findings"]
    assert code == 1
    for request in requests:
        mine = sorted((f["rule"], f["line"], f["message"].removeprefix(f"--reshape {request}: "))
                      for f in findings if f.get("request") in (None, request))
        assert mine == alone[request], request
    shared = [f["rule"] for f in findings if "request" not in f]
    assert shared == ["IRV212"]  # about the file: once
    assert sorted(f["request"] for f in findings if f["rule"] == "IRV301") == \
        ["x[1,3,4,2]", "x[1,3,8,8]", "x[2,3,4,4]"]  # x[1,3,4,4] changes nothing
    assert [f["request"] for f in findings if f["rule"] == "IRV107"] == ["x[1,3,4,2]"]


def test_workers_give_the_same_report(tmp_path, capsys):
    image_model(tmp_path, pinned=True)
    ids_model(tmp_path)
    argv = ["--reshape", "x[1,3,8,8]", "--reshape", "ids[2,16]", str(tmp_path)]
    one = run(capsys, *argv)
    assert run(capsys, "-j", "2", *argv) == one


def test_the_runtime_agrees_on_these_models(tmp_path):
    """What the tests above expect of the models, as Model.reshape says it."""
    pytest.importorskip("openvino")
    from support.runtime_oracle import runtime_reshape
    assert runtime_reshape(image_model(tmp_path), {"x": [1, 3, 8, 8]}).works
    assert not runtime_reshape(image_model(tmp_path, "pinned", True), {"x": [1, 3, 8, 8]}).works
    ids = ids_model(tmp_path)
    assert not runtime_reshape(ids, {"ids": [2, 16]}).works
    assert not runtime_reshape(ids, {"ids": [4, 16]}).works
    assert runtime_reshape(ids, {"ids": [1, 16]}).works
    assert runtime_reshape(two_input_model(tmp_path), {"x": [1, 3, 8, 8], "mask": [1, 32]}).works


def test_a_file_no_request_fits_is_still_checked_as_read(tmp_path, capsys):
    """What makes the runtime refuse to read a file is said whatever the requests: the
    model with an unknown op type, which no request fits, has its IRV212 (exit 1)."""
    broken_elsewhere(tmp_path)
    ids_model(tmp_path)
    code, document = run(capsys, "--reshape", "ids[1,16]", "--reshape", "ids[1,8..32]",
                         str(tmp_path))
    assert code == 1
    files = by_file(document)
    assert sorted(f["rule"] for f in files["odd"]["findings"]) == ["IRV212", "IRV303", "IRV303"]
    assert files["text"]["findings"] == []
    assert [r["works"] for r in files["text"]["reshapes"]] == [True, True]
