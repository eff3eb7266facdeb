"""The Python API (api.py): ``irvalidate.compat(old, new)`` returns the report's pydantic
model, as ``validate`` and ``reshape`` do."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import irvalidate

SAMPLE = Path(__file__).resolve().parents[1] / "sample_models" / "reshape" / "classifier-head.xml"


@pytest.fixture
def pair(tmp_path) -> tuple[Path, Path]:
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    shutil.copyfile(SAMPLE, old)
    new.write_text(SAMPLE.read_text().replace('names="x"', 'names="pixel_values"'))
    return old, new


def test_compat_returns_the_report_of_the_new_file(pair):
    report = irvalidate.compat(*pair)
    file, = report.files
    finding, = file.findings
    assert file.path.endswith("new.xml") and (finding.rule, finding.line) == ("IRV401", 4)
    assert finding.severity == "error" and finding.layer is not None
    assert f"(line 4 of {pair[0]})" in finding.message
    assert report.summary.errors == 1


def test_compat_takes_a_configuration(pair):
    report = irvalidate.compat(*pair, config={"severity": {"input-removed": "info"}})
    assert [f.severity for f in report.files[0].findings] == ["info"]
    with pytest.raises(irvalidate.ConfigError):
        irvalidate.compat(*pair, config={"severity": {"IRV999": "info"}})


def test_compat_of_the_same_file_finds_nothing(pair):
    assert irvalidate.compat(pair[0], pair[0]).files[0].findings == []


def test_compat_refuses_what_it_cannot_compare(pair, tmp_path):
    with pytest.raises(FileNotFoundError):
        irvalidate.compat(pair[0], tmp_path / "missing.xml")
    (tmp_path / "pom.xml").write_text("<project/>\n")
    with pytest.raises(ValueError, match="pom.xml"):
        irvalidate.compat(tmp_path / "pom.xml", pair[1])
