"""irvalidate reshapeable: every verdict of every trial against Model.reshape."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ov = pytest.importorskip("openvino")

from test_what_if import head, hrnet, interpolate, quartznet, vit  # noqa: E402

from irvalidate.cli.main import main  # noqa: E402
from irvalidate.reshaping.reshapeable import axes_of  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "sample_models" / "reshape"


def _works(path, name, shape) -> bool:
    model = ov.Core().read_model(path)
    try:
        model.reshape({name: ov.PartialShape(shape)})
    except Exception:  # noqa: BLE001 - a refusal is the verdict
        return False
    return True


@pytest.mark.parametrize("build", [head, hrnet, interpolate, quartznet, vit])
def test_every_trial_agrees_with_model_reshape(tmp_path, build):
    path = tmp_path / "model.xml"
    ov.save_model(build(), path, compress_to_fp16=False)
    rows = axes_of(str(path))
    params = {p.get_friendly_name(): p for p in ov.Core().read_model(path).get_parameters()}
    assert rows and {r["input"] for r in rows} == set(params)
    for row in rows:
        shape = list(params[row["input"]].get_partial_shape())
        name = next(iter(params[row["input"]].output(0).get_names()))
        for value, ok in [("?", row["dynamic"])] + list(row["values"].items()):
            tried = list(shape)
            tried[row["axis"]] = ov.Dimension() if value == "?" else ov.Dimension(int(value))
            assert ok == _works(path, name, tried), (row, value)
        assert (row["verdict"] == "any") == (row["dynamic"] and all(row["values"].values()))


def test_the_pin_is_named_and_json_is_complete(capsys):
    path = SAMPLES / "cropped-upsample.xml"
    assert main(["reshapeable", "--format", "json", str(path)]) == 0
    rows = json.loads(capsys.readouterr().out)["files"][0]["axes"]
    width = next(r for r in rows if r["axis"] == 3)
    assert width["dim"] == "512" and width["verdict"] == "pinned"
    assert width["values"] == {"1": True, "513": False, "1024": False}
    assert width["pinned_by"]["const"] == "crop/stop" and width["pinned_by"]["type"] == "Slice"
    batch = next(r for r in rows if r["axis"] == 0)
    assert batch["verdict"] == "any" and batch["pinned_by"] is None
    assert main(["reshapeable", str(path)]) == 0
    assert "by the value of Const 'crop/stop'" in capsys.readouterr().out
    assert main(["reshapeable", str(path) + ".missing"]) == 2
