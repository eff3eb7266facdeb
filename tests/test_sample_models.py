"""sample_models/: valid and spec samples are clean; each broken sample shows its rule."""
import json
from pathlib import Path

import pytest

from irvalidate.cli.main import main

SAMPLES = Path(__file__).parent.parent / "sample_models"
BROKEN = sorted(SAMPLES.glob("broken/**/IRV*.xml"))


def report(paths, capsys):
    code = main(["--format", "json", *map(str, paths)])
    return code, json.loads(capsys.readouterr().out)


def test_valid_and_spec_samples_have_no_findings(capsys):
    paths = sorted(SAMPLES.glob("valid/*.xml")) + sorted(SAMPLES.glob("spec/*.xml"))
    assert len(paths) >= 14
    code, document = report(paths, capsys)
    assert code == 0 and document["summary"]["errors"] + document["summary"]["warnings"] == 0


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_sample_shows_its_rule(path, capsys):
    expected = path.stem.split("-")[0]
    code, document = report([path], capsys)
    rules = {f["rule"] for f in document["files"][0]["findings"]}
    assert rules == {expected}


#: reshape/ samples: the SPEC each is tried with, the codes it shows, and the exit status
RESHAPES = {
    "classifier-head.xml": (["--reshape", "x[4,8,8]"], {"IRV302"}, 0),
    "cropped-upsample.xml": (["--reshape", "image[1,3,512,928]"], {"IRV301"}, 1),
}


@pytest.mark.parametrize("name", sorted(RESHAPES))
def test_reshape_sample_shows_its_rules(name, capsys):
    path = SAMPLES / "reshape" / name
    spec, expected, status = RESHAPES[name]
    assert main([str(path)]) == 0  # a valid model as it is
    capsys.readouterr()
    code = main(["--format", "json", *spec, str(path)])
    document = json.loads(capsys.readouterr().out)
    assert code == status
    assert {f["rule"] for f in document["files"][0]["findings"]} == expected


#: the reshape/ folder with a request that one sample fits: the other is told (IRV303)
FOLDER_SPEC = ["--reshape", "x[4,8,8]"]
FOLDER_CODES = {"classifier-head.xml": {"IRV302"}, "cropped-upsample.xml": {"IRV303"}}


def test_reshape_over_the_samples_folder(capsys):
    code = main(["--format", "json", *FOLDER_SPEC, str(SAMPLES / "reshape")])
    document = json.loads(capsys.readouterr().out)
    assert code == 0  # an info for the file without an input x, and a reshape that works
    found = {Path(f["path"]).name: {g["rule"] for g in f["findings"]} for f in document["files"]}
    assert found == FOLDER_CODES
    outcomes = {Path(f["path"]).name: f.get("reshape") for f in document["files"]}
    assert outcomes["classifier-head.xml"]["works"] and outcomes["cropped-upsample.xml"] is None


def test_every_rule_has_a_broken_sample():
    from irvalidate.rules import RESHAPE_RULES, RULES
    shown = {p.stem.split("-")[0] for p in BROKEN}
    shown |= {code for _, codes, _ in RESHAPES.values() for code in codes}
    shown |= {code for codes in FOLDER_CODES.values() for code in codes}
    assert {r.CODE for r in RULES} <= shown
    assert len(RESHAPE_RULES) < len(RULES)


def _reshape_spec(path: Path) -> str:
    """A SPEC keeping the last input whose shape reads as it is ("[1]" when none reads)."""
    from irvalidate.ir.reader import parse
    from irvalidate.ops.parameter_const import outputs_of
    from irvalidate.shapes.dims import format_shape
    doc = parse(str(path))
    specs = ["[1]"]
    for layer in ([] if doc.fatal else doc.graph.layers):
        shapes = outputs_of(layer)[0] if layer.type.lower() == "parameter" else None
        if shapes and shapes[0] is not None:
            specs.append(layer.name + format_shape(shapes[0], False))
    return specs[-1]


#: broken samples the runtime refuses only without an extension: IRV217 is an info
NEEDS_AN_EXTENSION = {"IRV217-extension-op"}


@pytest.mark.parametrize("path", [p for p in BROKEN if p.stem not in NEEDS_AN_EXTENSION],
                         ids=lambda p: p.stem)
def test_reshape_reports_every_reason_the_runtime_cannot_read_a_sample(path, capsys):
    """A what-if run of a file read_model refuses never says it works with no error:
    the schema, the edges and the body port maps are checked as a plain run checks them."""
    ov = pytest.importorskip("openvino")
    try:
        ov.Core().read_model(str(path))
    except RuntimeError:
        pass
    else:
        pytest.skip("the runtime reads this sample")
    code = main(["--format", "json", "--reshape", _reshape_spec(path), str(path)])
    document = json.loads(capsys.readouterr().out)
    errors = {f["rule"] for f in document["files"][0]["findings"] if f["severity"] == "error"}
    assert code == 1 and errors & {path.stem.split("-")[0], "IRV301"}, errors
