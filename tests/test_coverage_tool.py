"""benchmarks/coverage.py decides each mutant from one analysis; writing the mutant and
validating it must give the same verdict."""
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import coverage as tool  # noqa: E402


def test_every_verdict_matches_a_real_mutant():
    checked = 0
    for path in sorted((ROOT / "sample_models" / "valid").glob("*.xml")):
        found = tool.mutants(str(path))
        agree, count = tool.verify(str(path), found, len(found), random.Random(0))
        assert agree == count, path.name
        checked += count
    assert checked > 50


def test_only_a_modelled_layer_is_caught():
    from irvalidate.cli.shapes import layers_of
    path = ROOT / "sample_models" / "valid" / "computed-target.xml"
    modelled = {row["id"] for row in layers_of(str(path)) if row["modelled"]}
    found = tool.mutants(str(path))
    assert {(layer_id, caught) for layer_id, _, kind, _, _, caught in found if kind == "Broadcast"} \
        == {(layer_id, True) for layer_id, _, kind, _, _, _ in found if kind == "Broadcast"}
    assert all(layer_id in modelled for layer_id, *_, caught in found if caught)
