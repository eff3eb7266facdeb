"""The specification's examples that fit an IR, run through the CLI as real IR files.

Examples are read from the seed document itself (``../shared/seeds/000_*.txt``, the rST
"Broadcast Rules For Elementwise Operations"), so a changed document changes the tests.
"""
import json
import re
from pathlib import Path

import pytest

from irvalidate.cli.main import main
from support.irbuilder import IR

SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"
SEED = next(iter(sorted(SEEDS.glob("000_*.txt"))), None) if SEEDS.exists() else None
pytestmark = pytest.mark.skipif(SEED is None, reason="the seed documents are not beside the repo")

_SHAPE = re.compile(r"Shape\(([^)]*)\)")


def _shape(text):
    """'2, 3' -> '2,3'; ',' or '' (scalar) -> ''."""
    dims = [d.strip() for d in text.split(",") if d.strip()]
    return ",".join(dims)


def examples(section):
    """(A, B, result-or-None, axis) of one section: numpy, pdpd or bidirectional."""
    if SEED is None:
        return []
    text = SEED.read_text()
    heads = {"numpy": "Numpy examples", "pdpd": "PDPD examples",
             "bidirectional": "Bidirectional examples"}
    body = text.split(heads[section], 1)[1]
    for other in heads.values():
        if other != heads[section] and other in body:
            body = body.split(other, 1)[0]
    found = []
    for item in body.split("* ``A:")[1:]:
        a, b = _SHAPE.findall(item)[:2]
        result = _SHAPE.findall(item)[2] if "won't happen" not in item else None
        axes = re.findall(r"axis\s*=\s*(-?\d+)", item)
        found.append((_shape(a), _shape(b), None if result is None else _shape(result), axes))
    return found


def run_json(path, capsys):
    code = main(["--format", "json", str(path)])
    return code, json.loads(capsys.readouterr().out)["files"][0]["findings"]


def test_the_document_has_all_its_examples():
    assert (len(examples("numpy")), len(examples("pdpd")), len(examples("bidirectional"))) == (11, 6, 5)


@pytest.mark.parametrize("a,b,result,_", examples("numpy"))
def test_numpy_examples_as_add(tmp_path, capsys, a, b, result, _):
    ir = IR()
    x, y = ir.parameter(a), ir.parameter(b)
    out = [int(d) for d in result.split(",")] if result else []  # '' is the scalar example
    ir.result(ir.op("Add", [x, y], [out]))
    code, findings = run_json(ir.write(tmp_path), capsys)
    if result is None:  # the two examples the document rejects
        assert code == 1 and [f["rule"] for f in findings] == ["IRV102"]
        assert findings[0]["layer"]["id"] == "2"
    else:
        assert (code, findings) == (0, [])


@pytest.mark.parametrize("a,b,result,axes", examples("pdpd"))
def test_pdpd_examples_as_add_with_the_stated_axis(tmp_path, capsys, a, b, result, axes):
    for axis in axes or [None]:
        ir = IR()
        x, y = ir.parameter(a), ir.parameter(b)
        data = {"auto_broadcast": "pdpd"}
        if axis is not None:
            data["auto_broadcast.auto_broadcast_axis"] = axis
        ir.result(ir.op("Add", [x, y], [[int(d) for d in result.split(",")]], data))
        code, findings = run_json(ir.write(tmp_path), capsys)
        if axis is None and b:
            # the document's default axis is -1; the runtime reads a missing axis as 0:
            # B (5,) at axis 0 meets A's 2, so OpenVINO refuses what the document accepts
            assert code == 1 and sorted(f["rule"] for f in findings) == ["IRV102", "IRV107"]
        else:
            assert (code, findings) == (0, []), (axis, findings)


@pytest.mark.parametrize("a,b,result,_", examples("bidirectional"))
def test_bidirectional_examples_as_broadcast3(tmp_path, capsys, a, b, result, _):
    ir = IR()
    x = ir.parameter(a)
    target = ir.const([int(d) for d in b.split(",")] if b else [], shape=[len(b.split(",")) if b else 0])
    ir.result(ir.op("Broadcast", [x, target], [[int(d) for d in result.split(",")]],
                    {"mode": "bidirectional"}, version="opset3"))
    assert run_json(ir.write(tmp_path), capsys) == (0, [])


@pytest.mark.parametrize("data,target,axes,out", [
    ("16,1,1", [1, 16, 50, 50], None, [1, 16, 50, 50]),
    ("16", [1, 16, 50, 50], [1], [1, 16, 50, 50]),
    ("50,50", [1, 50, 50, 16], [1, 2], [1, 50, 50, 16]),
])
def test_broadcast1_spec_examples(tmp_path, capsys, data, target, axes, out):
    ir = IR()
    inputs = [ir.parameter(data), ir.const(target)] + ([ir.const(axes)] if axes else [])
    mode = "explicit" if axes else "numpy"
    ir.result(ir.op("Broadcast", inputs, [out], {"mode": mode}, version="opset1"))
    assert run_json(ir.write(tmp_path), capsys) == (0, [])
    # the same layer declaring the data's rank instead of the target's is caught
    bad = IR()
    inputs = [bad.parameter(data), bad.const(target)] + ([bad.const(axes)] if axes else [])
    bad.result(bad.op("Broadcast", inputs, [out[1:]], {"mode": mode}, version="opset1"))
    code, findings = run_json(bad.write(tmp_path), capsys)
    assert code == 1 and [f["rule"] for f in findings] == ["IRV101"]
