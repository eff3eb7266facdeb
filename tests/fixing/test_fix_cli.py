"""--diff and --fix from the command line: what they print, write, refuse, and exit with.

The broken samples are copied into a temporary folder; the samples themselves are never
touched.  A file is rewritten only through a temporary file and a rename, so the tests
look at bytes, inodes, modes and mtimes.
"""
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import irvalidate
from irvalidate.cli.main import main
from irvalidate.fixing import run as fixing

BROKEN = Path(__file__).resolve().parents[2] / "sample_models" / "broken"
VALID = Path(__file__).resolve().parents[2] / "sample_models" / "valid"
FIXABLE = ["IRV101-output-shape-mismatch", "IRV103-dynamic-dim-declared", "IRV109-static-dim-declared",
           "IRV201-edge-shape-mismatch", "IRV213-precision-mismatch", "IRV214-parameter-port-mismatch"]


def copy(stem, folder, source=BROKEN):
    for suffix in (".xml", ".bin"):
        if (source / f"{stem}{suffix}").exists():
            shutil.copyfile(source / f"{stem}{suffix}", folder / f"{stem}{suffix}")
    return folder / f"{stem}.xml"


def run(args, capsys):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def lines_changed(before: bytes, after: bytes):
    a, b = before.split(b"\n"), after.split(b"\n")
    return len(a) - len(b), [i + 1 for i, (x, y) in enumerate(zip(a, b)) if x != y]


@pytest.mark.parametrize("stem", FIXABLE)
def test_fix_leaves_a_clean_file_and_a_second_run_changes_nothing(stem, tmp_path, capsys):
    path = copy(stem, tmp_path)
    before = path.read_bytes()
    weights = path.with_suffix(".bin").read_bytes()
    code, out, err = run(["--fix", path], capsys)
    assert code == 0, out + err  # nothing remains: every sample's only problem is fixable
    assert "Fixed" in err and "no problems" in out
    after = path.read_bytes()
    assert after != before
    shift, changed = lines_changed(before, after)
    assert shift == 0 and 1 <= len(changed) <= 4  # a dim or a precision here and there
    assert path.with_suffix(".bin").read_bytes() == weights
    assert irvalidate.validate(path).summary.errors + irvalidate.validate(path).summary.warnings == 0
    mtime = os.stat(path).st_mtime_ns
    code, out, err = run(["--fix", path], capsys)
    assert code == 0 and path.read_bytes() == after and os.stat(path).st_mtime_ns == mtime
    assert "Fixed" not in err


def test_a_clean_file_is_not_rewritten(tmp_path, capsys):
    paths = [copy(p.stem, tmp_path, VALID) for p in sorted(VALID.glob("*.xml"))]
    before = {p: (p.read_bytes(), os.stat(p).st_ino, os.stat(p).st_mtime_ns) for p in paths}
    code, out, err = run(["--fix", tmp_path], capsys)
    assert code == 0, out + err
    assert {p: (p.read_bytes(), os.stat(p).st_ino, os.stat(p).st_mtime_ns) for p in paths} == before
    assert run(["--diff", tmp_path], capsys)[:2] == (0, "")


def test_diff_prints_a_patch_git_applies_and_writes_nothing(tmp_path, capsys, monkeypatch):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    work, fixed = tmp_path / "work", tmp_path / "fixed"
    work.mkdir(), fixed.mkdir()
    for stem in FIXABLE:
        copy(stem, work), copy(stem, fixed)
    before = {p.name: p.read_bytes() for p in work.iterdir()}
    monkeypatch.chdir(work)
    code, out, err = run(["--diff", "."], capsys)
    assert code == 1 and out.startswith("--- a/") and "Would fix" in err
    assert {p.name: p.read_bytes() for p in work.iterdir()} == before
    run(["--fix", fixed], capsys)
    subprocess.run(["git", "init", "-q"], check=True)
    done = subprocess.run(["git", "apply", "-"], input=out.encode(), capture_output=True)
    assert done.returncode == 0, done.stderr
    assert {p.name: p.read_bytes() for p in work.iterdir() if p.is_file()} == \
        {p.name: p.read_bytes() for p in fixed.iterdir()}


def test_exit_non_zero_on_fix(tmp_path, capsys):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    assert run(["--fix", "--exit-non-zero-on-fix", path], capsys)[0] == 1
    assert run(["--fix", "--exit-non-zero-on-fix", path], capsys)[0] == 0  # nothing left to fix


def test_json_and_sarif_carry_the_edits(tmp_path, capsys):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    code, out, _ = run(["--diff", "--format", "json", path], capsys)
    [file] = json.loads(out)["files"]
    assert code == 1 and file["fix"]["written"] is False and file["fix"]["fixed"] == 1
    assert [(e["line"], e["old"], e["new"], e["rule"]) for e in file["fix"]["edits"]] == \
        [(40, "6", "5", "IRV101"), (49, "6", "5", "IRV101")]
    [finding] = file["findings"]
    assert len(finding["fix"]["edits"]) == 2 and finding["fix"]["unfixable"] is None
    code, out, _ = run(["--diff", "--format", "sarif", path], capsys)
    [result] = json.loads(out)["runs"][0]["results"]
    [change] = result["fixes"][0]["artifactChanges"]
    assert [r["deletedRegion"]["startLine"] for r in change["replacements"]] == [40, 49]
    assert {r["insertedContent"]["text"] for r in change["replacements"]} == {"5"}
    # an ordinary run keeps its documents as they were: no fix fields at all
    code, out, _ = run(["--format", "json", path], capsys)
    assert '"fix"' not in out


def test_a_const_attribute_edited_by_hand_is_restored_from_its_port(tmp_path, capsys):
    # shape="1, 3" squeezed to "3" by hand; the port and the Add's input still say [1,3]:
    # restoring the attribute changes one declaration, following it would change two
    path = copy("IRV215-const-port-mismatch", tmp_path)
    code, out, err = run(["--fix", path], capsys)
    assert code == 0, out + err
    assert b'shape="1, 3"' in path.read_bytes()


def _tied_const(tmp_path):
    """A Const whose shape="3" disagrees with its port [1,3], read by two Adds, one declaring
    [1,3] and one [3]: either side changes two declarations, so neither is proven."""
    from support.irbuilder import IR
    ir = IR()
    x = ir.parameter("2,3")
    bias = ir.const([1.0, 2.0, 3.0], et="f32", shape=[3])
    bias.dims[:] = [1, 3]
    ir.result(ir.op("Add", [x, bias], [[2, 3]]))
    ir.result(ir.op("Add", [x, bias], [[2, 3]], in_dims={1: [3]}))
    return ir.write(tmp_path)


def test_the_report_says_why_a_finding_cannot_be_fixed(tmp_path, capsys):
    path = _tied_const(tmp_path)
    before = path.read_bytes()
    code, out, err = run(["--fix", path], capsys)
    assert code == 1 and path.read_bytes() == before
    assert "IRV215" in out and "not fixed automatically: neither the attribute nor the port " \
        "is proven: either way 2 declaration(s) of the graph disagree" in out


def test_a_read_only_file_is_left_alone(tmp_path, capsys):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    before = path.read_bytes()
    path.chmod(0o444)
    code, out, err = run(["--fix", path], capsys)
    assert code == 2 and "cannot fix" in err and "read-only" in err
    assert path.read_bytes() == before


def test_a_file_in_a_read_only_folder_is_left_alone(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = copy("IRV101-output-shape-mismatch", folder)
    before = path.read_bytes()
    folder.chmod(0o555)
    try:
        code, out, err = run(["--fix", path], capsys)
    finally:
        folder.chmod(0o755)
    assert code == 2 and "folder is read-only" in err
    assert path.read_bytes() == before and sorted(os.listdir(folder)) == sorted(
        ["IRV101-output-shape-mismatch.xml", "IRV101-output-shape-mismatch.bin"])


def test_a_symlink_has_its_target_fixed_and_stays_a_link(tmp_path, capsys):
    real = copy("IRV101-output-shape-mismatch", tmp_path)
    (tmp_path / "links").mkdir()
    link = tmp_path / "links" / "model.xml"
    link.symlink_to(real)
    (tmp_path / "links" / "model.bin").symlink_to(real.with_suffix(".bin"))
    code, _, err = run(["--fix", link], capsys)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert b"<dim>6</dim>" not in real.read_bytes()


def test_mode_is_kept(tmp_path, capsys):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    path.chmod(0o640)
    assert run(["--fix", path], capsys)[0] == 0
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


def test_a_failed_write_leaves_the_original_and_no_temporary_file(tmp_path, capsys, monkeypatch):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    before = path.read_bytes()

    def full(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(fixing.os, "replace", full)
    code, _, err = run(["--fix", path], capsys)
    assert code == 2 and "No space left on device" in err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.with_suffix(".bin").name, path.name]


CRASH = """
import os, sys
from irvalidate.fixing import run as fixing
real_fsync = os.fsync
def crash(fd):
    os._exit(9)  # the process dies with the temporary file half done
fixing.os.fsync = crash
from irvalidate.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_crash_mid_write_leaves_the_original(tmp_path):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    before = path.read_bytes()
    done = subprocess.run([sys.executable, "-c", CRASH, "--fix", str(path)], capture_output=True)
    assert done.returncode == 9
    assert path.read_bytes() == before


@pytest.mark.parametrize("text,why", [
    ('<!DOCTYPE net [<!ENTITY x "3">]>\n', "document type declaration"),
    ('<!DOCTYPE net SYSTEM "http://example.invalid/ir.dtd">\n', "document type declaration"),
])
def test_a_file_with_a_dtd_is_never_written(tmp_path, capsys, text, why):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    data = path.read_bytes().replace(b"<net ", text.encode() + b"<net ", 1)
    path.write_bytes(data)
    code, out, err = run(["--fix", path], capsys)
    assert path.read_bytes() == data
    assert code == 1 and why in err


#: the same text in encodings told by the first bytes alone (XML 1.0, appendix F), without a
#: byte order mark; with an XML declaration (as the spec has it) or without (as OpenVINO's
#: reader, pugixml, also reads a "<" followed by a zero byte)
UNMARKED = [("utf-16-le", True), ("utf-16-be", True), ("utf-32-le", True), ("utf-32-be", True),
            ("utf-16-le", False), ("utf-16-be", False), ("utf-32-le", False)]


def _reencoded(path, encoding, declared):
    text = path.read_text("utf-8")
    if declared:
        text = text.replace('encoding="UTF-8"', f'encoding="{encoding[:6].upper()}"', 1)
    else:
        text = text[text.index("<net"):]
    data = text.encode(encoding)
    path.write_bytes(data)
    return data


@pytest.mark.parametrize("encoding,declared", UNMARKED, ids=lambda v: str(v))
def test_a_file_in_utf16_or_utf32_without_a_bom_is_neither_diffed_nor_written(
        tmp_path, capsys, encoding, declared):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    data = _reencoded(path, encoding, declared)
    code, out, err = run(["--diff", path], capsys)
    assert code == 1 and out == "", out  # no patch of ASCII bytes into UTF-16 text
    assert "not fixed" not in err or "encoded, and --fix edits UTF-8 only" in err, err
    code, out, err = run(["--fix", path], capsys)
    assert path.read_bytes() == data and "Fixed" not in err


@pytest.mark.parametrize("encoding,declared", UNMARKED, ids=lambda v: str(v))
def test_the_runtime_reads_what_the_encoding_sniffer_names(tmp_path, encoding, declared):
    """The files above are IR files to OpenVINO: the refusal is --fix's, not a reading error."""
    ov = pytest.importorskip("openvino")
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    _reencoded(path, encoding, declared)
    outputs = ov.Core().read_model(str(path)).outputs
    assert [str(o.get_partial_shape()) for o in outputs] == ["[2,4,5]"]
    report = irvalidate.validate(path)  # and irvalidate reads them as the runtime does
    assert [f.rule for f in report.files[0].findings] == ["IRV101"]
    assert fixing.hostile(path.read_bytes()) == (
        f"it is {encoding.upper().replace('-LE', 'LE').replace('-BE', 'BE')}-encoded, "
        f"and --fix edits UTF-8 only")


def test_a_refused_file_gives_no_diff():
    from irvalidate.engine.validation import FileResult
    from irvalidate.fixing.report import diff_text
    from irvalidate.rules.findings import FileFix
    refused = FileResult("a.xml", [], [], FileFix(refused="the file after its edits has IRV001 "
                                                          "errors", diff=b"--- a/a.xml\n"))
    kept = FileResult("b.xml", [], [], FileFix(diff=b"--- a/b.xml\n"))
    assert diff_text([refused, kept]) == b"--- a/b.xml\n"


@pytest.mark.parametrize("old,new", [
    (b"<dim>1</dim>", b"<dim>&x;</dim>"),                       # an undefined entity
    (b"<dim>1</dim>", b"<dim>99999999999999999999999</dim>"),   # a value no dim holds
    (b'to-port="1" />', b'to-port="7" />'),                      # a dangling edge
])
def test_a_file_with_errors_that_forbid_editing_is_never_written(tmp_path, capsys, old, new):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    data = path.read_bytes().replace(old, new, 1)
    assert data != path.read_bytes()
    path.write_bytes(data)
    code, out, err = run(["--fix", path], capsys)
    assert code == 1 and path.read_bytes() == data


def test_jobs_give_the_same_result(tmp_path, capsys):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    for stem in FIXABLE + ["IRV215-const-port-mismatch", "IRV202-dangling-edge"]:
        copy(stem, one), copy(stem, two)
    first = run(["--fix", "-j", "1", "--format", "json", one], capsys)
    second = run(["--fix", "-j", "2", "--format", "json", two], capsys)
    assert first[0] == second[0]
    assert first[1].replace(str(one), "X") == second[1].replace(str(two), "X")
    assert {p.name: p.read_bytes() for p in one.iterdir()} == {p.name: p.read_bytes() for p in two.iterdir()}


def test_the_api_refuses_to_pretend(tmp_path):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    path.chmod(0o444)
    with pytest.raises(irvalidate.FixError, match="read-only"):
        irvalidate.fix(path, write=True)
    assert len(irvalidate.fix(path)) == 2  # write=False only reads
    with pytest.raises(ValueError):
        irvalidate.fix(tmp_path)


def test_a_file_with_hard_links_is_left_alone(tmp_path, capsys):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    os.link(path, tmp_path / "other-name.xml")
    before = path.read_bytes()
    code, _, err = run(["--fix", path], capsys)
    assert code == 2 and "2 hard links" in err and path.read_bytes() == before


def test_a_refused_file_is_named_with_the_reason(tmp_path, capsys):
    path = copy("IRV101-output-shape-mismatch", tmp_path)
    edge = b'<edge from-layer="0" from-port="0" to-layer="2" to-port="0" />'
    data = path.read_bytes().replace(edge, edge + b"\n\t\t" + edge, 1)  # two edges, one port
    path.write_bytes(data)
    code, out, err = run(["--fix", path], capsys)
    assert code == 1 and path.read_bytes() == data
    assert "IRV101" in out  # the Add's stale dim is still reported, and not written
    assert f"irvalidate: not fixed {path}: the file has IRV208 multiple-edges-into-port errors" in err


def test_sarif_with_fixes_validates_against_the_oasis_schema(tmp_path, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parents[1] / "reporting" / "data" / "sarif-schema-2.1.0.json")
                        .read_text())
    for stem in FIXABLE:
        copy(stem, tmp_path)
    code, out, _ = run(["--diff", "--format", "sarif", tmp_path], capsys)
    log = json.loads(out)
    jsonschema.Draft4Validator(schema).validate(log)
    fixed = [r for r in log["runs"][0]["results"] if "fixes" in r]
    assert code == 1 and len(fixed) >= len(FIXABLE)


def test_json_with_fixes_validates_against_the_report_schema(tmp_path, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "report.schema.json")
                        .read_text())
    for stem in FIXABLE + ["IRV215-const-port-mismatch"]:
        copy(stem, tmp_path)
    for mode in ("--diff", "--fix"):
        code, out, _ = run([mode, "--format", "json", tmp_path], capsys)
        jsonschema.validators.validator_for(schema)(schema).validate(json.loads(out))


def test_nothing_to_fix_says_why_each_error_remains(tmp_path, capsys):
    path = copy("IRV102-incompatible-inputs", tmp_path)
    code, out, err = run(["--diff", path], capsys)
    assert code == 1 and out == ""
    assert err.splitlines() == [
        "Nothing to fix.", "1 error not fixed:",
        f"  {path}:23: IRV102 incompatible-inputs: the runtime refuses the layer's inputs, and no "
        "declaration of the file says what they should be; change the model"]
    code, out, err = run(["--fix", "--format", "json", path], capsys)
    assert code == 1 and f"{path}:23: IRV102 incompatible-inputs: the runtime refuses" in err


def test_errors_a_fix_leaves_are_listed_with_their_reasons(tmp_path, capsys):
    # the Const's attribute against its port is a tie (see the test above): not fixed
    path = _tied_const(tmp_path)
    code, out, err = run(["--diff", path], capsys)
    assert code == 1
    assert "2 errors not fixed:" in err and "IRV215 const-port-mismatch: neither the attribute " \
        "nor the port is proven" in err
    # the second Add's port says what inference gives: the Const's port is the stale end
    assert "IRV201 edge-shape-mismatch: this end already declares what inference gives" in err


def test_the_api_raises_when_it_leaves_a_file_with_errors_alone(tmp_path):
    incompatible = copy("IRV102-incompatible-inputs", tmp_path)
    before = incompatible.read_bytes()
    with pytest.raises(irvalidate.FixError, match="no error can be fixed; IRV102 at line 23"):
        irvalidate.fix(incompatible, write=True)
    assert incompatible.read_bytes() == before
    assert irvalidate.fix(incompatible) == []  # without write: nothing to propose, no error
    pointer = copy("IRV204-lfs-pointer", tmp_path)
    with pytest.raises(irvalidate.FixError, match="IRV204 at line 13: --fix needs the .bin"):
        irvalidate.fix(pointer, write=True)
    assert irvalidate.fix(copy("output-shape-mismatch", tmp_path, VALID), write=True) == []


@pytest.mark.parametrize("stem", ["IRV204-missing-weights", "IRV204-lfs-pointer"])
def test_a_file_without_its_weights_is_refused_in_words_that_hold(tmp_path, capsys, stem):
    path = copy(stem, tmp_path)
    data = path.read_bytes()
    path.write_bytes(data.replace(b"<dim>3</dim>", b"<dim>7</dim>", 1))  # something to fix
    code, out, err = run(["--fix", path], capsys)
    assert code == 1
    assert "current.xml" not in out + err and "(OpenVINO reads the )" not in err
    assert f"irvalidate: not fixed {path}: the file has IRV204 missing-weights errors" in err
    if stem.endswith("missing-weights"):
        assert f"put {stem}.bin beside {stem}.xml or pass --bin (--ignore IRV204 checks the " \
            "XML alone; --fix needs the .bin)" in out
    else:
        assert "check out with LFS enabled)); fix those first" in err
