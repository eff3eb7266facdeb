"""Report formats: golden files for text, json, sarif and github, plus hand-written checks.

The golden files pin whole reports; they are (re)written with IRVALIDATE_UPDATE_GOLDEN=1 and
must be read before committing.  The other tests restate what matters by hand (escaping,
schema validity, rule coverage, relative uris), so a wrong golden file cannot pass unnoticed.
"""
import json
import os
from pathlib import Path, PurePosixPath
from urllib.parse import quote

import jsonschema
import pytest
from hypothesis import given, strategies as st
from jsonschema.validators import validator_for

from irvalidate.cli import main as cli
from irvalidate.engine.validation import FileResult
from irvalidate.reporting import FORMATTERS, github, sarif
from irvalidate.rules import COMPAT_RULES, INTERNAL_ERROR, RULES
from irvalidate.rules.findings import Cause, Finding, LayerRef
from support.irbuilder import IR

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
SARIF_SCHEMA = json.loads((HERE / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
REPORT_SCHEMA = json.loads((HERE.parents[1] / "schemas" / "report.schema.json")
                           .read_text(encoding="utf-8"))
EXTENSIONS = {"text": "txt", "json": "json", "sarif": "sarif", "github": "github.txt",
              "concise": "concise.txt"}
ARGS = ["models", "broken.xml", "empty.xml"]
CWD_URI = "file:///CWD/"


def build_tree(root: Path) -> None:
    """Six files: an incompatible broadcast in a layer whose name needs escaping, a clean
    file, a missing .bin, a nested file with an error and a warning, and two unreadable files
    (one with a line, one without)."""
    (root / "models" / "sub").mkdir(parents=True)
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("4")
    ir.result(ir.op("Add", [x, y], [[2, 3]], name="add%1,x:y"))
    ir.write(root / "models", "bad")
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    ir.write(root / "models", "good")
    ir = IR()
    x = ir.parameter("2,3")
    ir.result(ir.op("Add", [x, ir.const([1, 2, 3], et="f32", shape=[3])], [[2, 3]]))
    ir.write(root / "models", "noweights", with_bin=False)
    ir = IR()
    x, y = ir.parameter("2,1,5"), ir.parameter("4,1")
    ir.result(ir.op("Add", [x, y], [[2, 4, 6]]))
    a, b = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Multiply", [a, b], [[2, -1]]))
    ir.write(root / "models" / "sub", "out")
    (root / "broken.xml").write_text("<net version='11'>\n<layers>\n")
    (root / "empty.xml").write_text("")


@pytest.fixture
def report(tmp_path, monkeypatch, capsys):
    """Run the CLI from inside the tree with relative paths; returns format -> (exit, output)."""
    build_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "__version__", "1.2.3")
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    cwd_uri = Path(os.path.realpath(tmp_path)).as_uri() + "/"

    def _run(fmt, args=ARGS):
        code = cli.main(["--format", fmt, *args])
        out = capsys.readouterr().out
        return code, out.replace(cwd_uri, CWD_URI) if fmt == "sarif" else out
    return _run


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("IRVALIDATE_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(actual)
    assert path.exists(), f"no {path}; write it with IRVALIDATE_UPDATE_GOLDEN=1, then read it"
    with open(path, encoding="utf-8", newline="") as f:
        assert actual == f.read()


@pytest.mark.parametrize("fmt", sorted(EXTENSIONS))
def test_golden(report, fmt):
    code, out = report(fmt)
    assert code == 1
    check_golden(f"report.{EXTENSIONS[fmt]}", out)


def test_every_format_is_registered():
    assert set(FORMATTERS) == set(cli.FORMAT_NAMES) - {"auto"}


# --- sarif -------------------------------------------------------------------------------

def test_sarif_validates_against_the_oasis_schema(report):
    log = json.loads(report("sarif")[1])
    jsonschema.Draft4Validator.check_schema(SARIF_SCHEMA)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    # the copy declares draft-07 and uses only draft-04 keywords: both dialects must agree
    validator_for(SARIF_SCHEMA)(SARIF_SCHEMA).validate(log)


SAMPLES = HERE.parents[1] / "sample_models"


def valid_sarif(text: str) -> dict:
    log = json.loads(text)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    return log


@pytest.mark.parametrize("args", [[str(SAMPLES)], ["--diff", str(SAMPLES / "broken")]],
                         ids=["samples", "diff"])
@pytest.mark.parametrize("inside", [True, False], ids=["relative", "file-uri"])
def test_sarif_of_the_samples_validates(args, inside, tmp_path, monkeypatch, capsys):
    """Every sample, with the fixes --diff offers, from the tree (relative uris) and from
    elsewhere (file:// uris)."""
    monkeypatch.chdir(SAMPLES.parent if inside else tmp_path)
    cli.main(["--format", "sarif", *args])
    results = valid_sarif(capsys.readouterr().out)["runs"][0]["results"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert results and all(u.startswith("file://") != inside for u in uris)
    assert any("fixes" in r for r in results) == ("--diff" in args)


def test_sarif_of_a_consequence_and_a_name_not_utf8_validates():
    root = LayerRef("3", "relu", "Relu")
    base = dict(path=os.fsdecode(b"m\xff.xml"), line=7, code="IRV101",
                slug="output-shape-mismatch", level="error", message="x", layer=root, port="1")
    consequence = Finding(**{**base, "line": 9, "layer": LayerRef("4", "b", "Relu")})
    results = [FileResult(base["path"], [Finding(**base), consequence._replace(
        caused_by=Cause("IRV101", root, "1", 7))])]
    log = valid_sarif(sarif.render(results, "1.2.3"))
    assert "relatedLocations" in log["runs"][0]["results"][1]


def test_sarif_has_what_github_code_scanning_requires(report):
    log = json.loads(report("sarif")[1])
    assert log["$schema"] and log["version"] == "2.1.0" and len(log["runs"]) == 1
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "irvalidate" and driver["version"] == "1.2.3"
    assert driver["semanticVersion"] == "1.2.3"
    assert "informationUri" not in driver  # optional; no index page to point at
    for rule in driver["rules"]:
        for text in (rule["id"], rule["name"], rule["shortDescription"]["text"],
                     rule["fullDescription"]["text"], rule["help"]["text"],
                     rule["help"]["markdown"]):
            assert text.strip()
        assert len(rule["shortDescription"]["text"]) <= 1024
        assert len(rule["fullDescription"]["text"]) <= 1024
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
        assert rule["properties"]["tags"]
    for result in log["runs"][0]["results"]:
        assert result["message"]["text"].strip() and result["partialFingerprints"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1


def test_sarif_rules_cover_the_registry():
    rules = json.loads(sarif.render([], "1.2.3"))["runs"][0]["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert len(ids) == len(set(ids))
    assert set(ids) == {r.CODE for r in RULES + COMPAT_RULES} | {INTERNAL_ERROR.CODE}
    by_id = {rule["id"]: rule for rule in rules}
    assert by_id[INTERNAL_ERROR.CODE]["name"] == INTERNAL_ERROR.SLUG
    levels = {"error": "error", "warning": "warning", "info": "note"}
    for r in RULES + COMPAT_RULES:
        rule = by_id[r.CODE]
        assert rule["name"] == r.SLUG and rule["shortDescription"]["text"] == r.SUMMARY
        assert rule["defaultConfiguration"]["level"] == levels[r.LEVEL]
        assert "Passing" in rule["help"]["text"] and "Failing" in rule["help"]["text"]
        assert "Passing" not in rule["fullDescription"]["text"]
        assert r.CODE not in rule["help"]["text"].splitlines()[0]  # the heading is not repeated


def test_sarif_help_markdown_fences_the_examples():
    rules = json.loads(sarif.render([], "1"))["runs"][0]["tool"]["driver"]["rules"]
    markdown = {rule["id"]: rule["help"]["markdown"] for rule in rules}["IRV101"]
    assert ("Failing (the output declares 6 where the inputs give 5):\n\n```xml\n<output>"
            in markdown)
    assert markdown.count("```xml") == 2 and "``" not in markdown.replace("```", "")
    irv001 = {rule["id"]: rule["help"]["markdown"] for rule in rules}["IRV001"]
    assert "a &lt;net version=\"11\"&gt; with no closing tag" in irv001


def test_sarif_results_point_at_their_rules(report):
    run = json.loads(report("sarif")[1])["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = {rule["id"] for rule in rules}
    assert [r["ruleId"] for r in run["results"]] == [
        "IRV102", "IRV204", "IRV101", "IRV103", "IRV001", "IRV001"]
    for result in run["results"]:
        assert result["ruleId"] in ids
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_sarif_uris_are_relative_with_forward_slashes(report):
    run = json.loads(report("sarif")[1])["runs"][0]
    uris = []
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location["uriBaseId"] == "%SRCROOT%"
        assert "\\" not in location["uri"] and not location["uri"].startswith("/")
        assert ":" not in location["uri"]
        uris.append(location["uri"])
    assert "models/sub/out.xml" in uris
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == CWD_URI


def test_sarif_unknown_line_is_line_1_and_says_so(report):
    results = json.loads(report("sarif")[1])["runs"][0]["results"]
    empty = [r for r in results if r["locations"][0]["physicalLocation"]["artifactLocation"]
             ["uri"] == "empty.xml"]
    assert len(empty) == 1
    assert empty[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 1
    assert empty[0]["properties"]["lineKnown"] is False
    assert all(r["properties"]["lineKnown"] for r in results if r is not empty[0])


def test_sarif_carries_the_shape_table_and_layer(report):
    results = json.loads(report("sarif")[1])["runs"][0]["results"]
    irv101 = next(r for r in results if r["ruleId"] == "IRV101")
    assert irv101["message"]["text"].endswith("\n           Declared: (2, 4, 6)\n"
                                              "                            ^")
    assert irv101["properties"] == {"lineKnown": True, "layerId": "2", "layerName": "add2",
                                    "layerType": "Add", "port": "2", "expected": "[2,4,5]",
                                    "declared": "[2,4,6]"}


def finding(**kw):
    base = dict(path="m.xml", line=3, code="IRV101", slug="output-shape-mismatch",
                level="error", message="Add 'a' (id=4): output port 2 declares [2,4,6]",
                layer=LayerRef("4", "a", "Add"), port="2")
    base.update(kw)
    return Finding(**base)


def results_of(log: str):
    return json.loads(log)["runs"][0]["results"]


def test_sarif_uri_outside_the_working_directory_is_a_file_uri(tmp_path, monkeypatch):
    (tmp_path / "inside").mkdir()
    monkeypatch.chdir(tmp_path / "inside")
    outside = tmp_path / "x y.xml"
    location = results_of(sarif.render([FileResult(str(outside), [finding()])], "1"))[0][
        "locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": Path(os.path.realpath(outside)).as_uri()}
    assert location["uri"].startswith("file:///") and location["uri"].endswith("/x%20y.xml")
    odd = results_of(sarif.render([FileResult("d/a b,c:d.xml", [finding()])], "1"))[0]
    assert odd["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
        "d/a%20b%2Cc%3Ad.xml"


def test_sarif_fingerprints_are_stable_and_distinct(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def fp(*findings):
        log = sarif.render([FileResult("m.xml", list(findings))], "1")
        assert log == sarif.render([FileResult("m.xml", list(findings))], "1")  # deterministic
        return [r["partialFingerprints"]["irvalidateFindingHash/v1"] for r in results_of(log)]
    base = fp(finding())[0]
    assert base.endswith(":1") and len(base) == 34
    # moved lines, renumbered ids and changed shapes: the same problem
    assert fp(finding(line=90, message="Add 'a' (id=7): output port 2 declares [2,4,7]"))[0] == base
    assert fp(finding(code="IRV102"))[0] != base
    assert fp(finding(layer=LayerRef("4", "b", "Add")))[0] != base
    twice = fp(finding(), finding(line=9))
    assert twice == [base, base[:-1] + "2"]


def test_sarif_levels_and_unknown_codes():
    results = [FileResult("m.xml", [finding(level="info", code="IRV999", slug="future-rule")])]
    run = json.loads(sarif.render(results, "0+unknown"))["runs"][0]
    result = run["results"][0]
    assert result["level"] == "note"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "IRV999"
    assert "semanticVersion" not in run["tool"]["driver"]  # not a semver: left out
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(json.loads(sarif.render(results, "1")))


# --- github ------------------------------------------------------------------------------

def test_github_escaping_by_hand(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = finding(path="dir/a,b:c%.xml", line=7, message="100% sure, a:b\r\nnext %0A")
    out = github.render([FileResult("dir/a,b:c%.xml", [f])], "1").splitlines()
    assert out == [
        "::group::dir/a,b:c%25.xml",
        "::error file=dir/a%2Cb%3Ac%25.xml,line=7,title=IRV101 output-shape-mismatch"
        "::100%25 sure, a:b%0D%0Anext %250A",
        "::endgroup::",
        "Found 1 error in 1 file checked.",
    ]
    assert github.escape_data("%\r\n:,") == "%25%0D%0A:,"
    assert github.escape_property("%\r\n:,") == "%25%0D%0A%3A%2C"


def test_github_cli_output_by_hand(report):
    code, out = report("github")
    lines = out.splitlines()
    assert lines[:3] == [
        "::group::models/bad.xml",
        "::error file=models/bad.xml,line=16,col=1,title=IRV102 incompatible-inputs::Add "
        "'add%251,x:y' (id=2): inputs cannot broadcast (numpy): dimension 3 cannot broadcast "
        "with 4 at axis 1: they differ and neither is 1%0A    A = 'p0' (id 0): (2, 3)%0A"
        "    B = 'p1' (id 1): (   4)%0A                         ^",
        "::endgroup::",
    ]
    assert ("::error file=empty.xml,title=IRV001 unreadable-xml::XML syntax error: no element "
            "found") in lines  # no line=
    assert "::error file=models/noweights.xml,line=10,col=1,title=IRV204 missing-weights::" in out
    assert lines.count("::endgroup::") == 5  # good.xml, with no finding, has no group
    assert lines[-1] == "Found 5 errors, 1 warning in 5 of 6 files checked."
    assert all("\n" not in line and "\r" not in line for line in lines)


def test_github_levels_and_the_step_limit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    many = [finding(line=n) for n in range(1, 13)] + [finding(level="info", line=None)]
    lines = github.render([FileResult("m.xml", many)], "1").splitlines()
    assert sum(line.startswith("::error ") for line in lines) == 12  # all printed
    assert "::notice file=m.xml,title=IRV101 output-shape-mismatch::" in lines[13]
    assert lines[-2] == "Found 12 errors, 1 info in 1 file checked."
    assert lines[-1].startswith("GitHub annotates at most 10 errors") and "2 error" in lines[-1]
    assert not lines[-1].startswith("::")
    assert github.render([FileResult("m.xml", [])], "1") == ""


def test_auto_is_github_under_actions_and_text_elsewhere(report, monkeypatch):
    _, text_out = report("text")
    _, github_out = report("github")
    assert report("auto")[1] == text_out
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert report("auto")[1] == github_out
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    assert report("auto")[1] == text_out


# --- json and text -----------------------------------------------------------------------

def test_json_validates_against_the_report_schema(report):
    document = json.loads(report("json")[1])
    validator_for(REPORT_SCHEMA)(REPORT_SCHEMA).validate(document)
    assert document["tool"] == {"name": "irvalidate", "version": "1.2.3"}
    assert [f["path"] for f in document["files"]] == [
        "models/bad.xml", "models/good.xml", "models/noweights.xml", "models/sub/out.xml",
        "broken.xml", "empty.xml"]


def test_text_summary_and_no_line(report):
    lines = report("text")[1].splitlines()
    assert lines[-1] == "Found 5 errors, 1 warning in 5 of 6 files checked."
    assert "empty.xml: IRV001 [error] XML syntax error: no element found (unreadable-xml)" in lines


def test_sarif_fingerprint_recipe_by_hand(report):
    """The documented recipe, recomputed independently for the first golden result."""
    import hashlib
    result = results_of(report("sarif")[1])[0]
    message = ("Add 'add%0,x:y' (id=0): inputs cannot broadcast (numpy): dimension 0 cannot "
               "broadcast with 0 at axis 0: they differ and neither is 0")
    key = "\0".join(["IRV102", "models/bad.xml", "Add:add%1,x:y", "", "", message])
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    assert result["partialFingerprints"] == {"irvalidateFindingHash/v1": f"{digest}:1"}


# --- file names that are not UTF-8 -------------------------------------------------------

RAW_NAME = b"\xff\xfe-latin1-\xe9.xml"


@pytest.fixture
def latin1(tmp_path, monkeypatch, capsys):
    """A broken IR whose name is Latin-1 bytes, run from its folder: (name, format -> output)."""
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("4")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    clean = ir.write(tmp_path, "bad")
    name = os.fsdecode(RAW_NAME)
    os.rename(clean, tmp_path / name)
    monkeypatch.chdir(tmp_path)

    def _run(fmt):
        assert cli.main(["--format", fmt, name]) == 1
        return capsys.readouterr().out
    return name, _run


def test_engine_keeps_the_real_path_for_the_formatters(latin1):
    from irvalidate.engine.validation import validate_file
    name, _ = latin1
    result = validate_file(name)
    assert result.path == name and all(f.path == name for f in result.findings)


def test_json_gives_a_displayable_path_and_the_raw_bytes(latin1):
    import base64
    _, run = latin1
    document = json.loads(run("json"))
    validator_for(REPORT_SCHEMA)(REPORT_SCHEMA).validate(document)
    [entry] = document["files"]
    assert entry["path"] == "\ufffd\ufffd-latin1-\ufffd.xml"
    raw = base64.b64decode(entry["path_bytes"], validate=True)
    assert raw == RAW_NAME and os.path.isfile(raw)  # a program finds the file again


def test_json_has_no_path_bytes_for_utf8_names(report):
    document = json.loads(report("json")[1])
    assert all("path_bytes" not in entry for entry in document["files"])
    assert "path_bytes" not in REPORT_SCHEMA["$defs"]["FileModel"].get("required", [])


def test_sarif_uri_percent_encodes_the_raw_bytes(latin1):
    from urllib.parse import unquote_to_bytes
    _, run = latin1
    log = json.loads(run("sarif"))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location["uri"] == "%FF%FE-latin1-%E9.xml"
    assert unquote_to_bytes(location["uri"]) == RAW_NAME


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_text_and_github_show_the_name_with_replacement_characters(latin1, fmt):
    _, run = latin1
    out = run(fmt)
    out.encode("utf-8")  # no lone surrogate reaches the stream
    assert "\ufffd\ufffd-latin1-\ufffd.xml" in out


@pytest.mark.skipif(os.name != "posix", reason="elsewhere file_uri is pathlib's own")
@given(st.lists(st.text(alphabet="a/. %#?é\udcff\u4e2d:", max_size=6), max_size=4))
def test_sarif_file_uri_is_pathlibs(parts):
    path = os.path.normpath("/" + "/".join(parts))  # a realpath's form, as file_uri is given
    assert sarif.file_uri(path) == PurePosixPath(path).as_uri()


@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("/%~\udc80\udcff"),
               max_size=12))
def test_sarif_quoted_is_urllibs(name):
    assert sarif.quoted(name) == quote(os.fsencode(name), safe="/")
