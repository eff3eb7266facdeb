"""sample_models/: valid and spec samples are clean; each broken sample shows its rule."""
import json
from pathlib import Path

import pytest

from irvalidate.cli import main

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


def test_every_rule_has_a_broken_sample():
    from irvalidate.rules import RESHAPE_RULES, RULES
    shown = {p.stem.split("-")[0] for p in BROKEN}
    shown |= {code for _, codes, _ in RESHAPES.values() for code in codes}
    assert {r.CODE for r in RULES} <= shown
    assert len(RESHAPE_RULES) < len(RULES)
