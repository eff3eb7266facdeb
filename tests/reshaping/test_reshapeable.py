"""irvalidate reshapeable: the constraint on every input axis against Model.reshape.

Each model is built with the openvino API and saved; every axis is probed with sizes 1..64
and a few large ones, the other dims as they are.  Where irvalidate says ``exact``, its
constraint must give the runtime's verdict on every probe; where it does not, every size
it excludes must fail.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
import openvino.opset13 as ops  # noqa: E402
from test_what_if import head, hrnet, interpolate, quartznet, vit  # noqa: E402

from irvalidate.cli.main import main  # noqa: E402
from irvalidate.reshaping.constraints import constraints_of  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "sample_models" / "reshape"
SIZES = list(range(1, 65)) + [100, 127, 128, 224, 255, 256, 320, 512, 640, 1024]


def admits(row: dict, size: int) -> bool:
    """The contract's predicate (issue 27)."""
    return ((row["values"] is None or size in row["values"]) and size >= row["min"]
            and (row["max"] is None or size <= row["max"])
            and (size - row["offset"]) % row["multiple_of"] == 0)


def _works(model_path, name: str, shape: list) -> bool:
    model = ov.Core().read_model(model_path)
    try:
        model.reshape({name: ov.PartialShape(shape)})
    except Exception:  # noqa: BLE001 - a refusal is the verdict
        return False
    return True


def disagreements(path: Path) -> tuple[list[str], int]:
    """Every probe where the constraint and Model.reshape disagree, and the probes made."""
    params = {p.get_friendly_name(): p for p in ov.Core().read_model(path).get_parameters()}
    found, probes = [], 0
    for entry in constraints_of(str(path)):
        param = params[entry["name"]]
        shape, name = list(param.get_partial_shape()), next(iter(param.output(0).get_names()))
        for row in entry["axes"]:
            for size in SIZES:
                tried = list(shape)
                tried[row["axis"]] = ov.Dimension(size)
                works, said = _works(path, name, tried), admits(row, size)
                probes += 1
                residues = row.get("residues")
                exactly = residues is not None or row["exact"]
                if residues is not None:  # the sizes exactly, as several classes
                    said = said and size % residues["modulo"] in residues["classes"]
                if works != said and (exactly or works):
                    found.append(f"{entry['name']} axis {row['axis']} size {size}: runtime "
                                 f"{'works' if works else 'fails'}, irvalidate {row}")
    return found, probes


def _unet():
    """Two stride-2 levels joined back by 2x upsampling and Concat: multiples of 4."""
    x = ops.parameter([1, 3, 64, 64], np.float32, name="image")
    x.output(0).set_names({"image"})

    def conv(v, cin, cout, stride):
        w = ops.constant(np.full((cout, cin, 3, 3), 0.01, np.float32))
        return ops.convolution(v, w, [stride, stride], [1, 1], [1, 1], [1, 1])
    d1 = conv(x, 3, 4, 2)
    d2 = conv(d1, 4, 4, 2)
    up = ops.interpolate(d2, ops.constant(np.array([2.0, 2.0], np.float32)), "nearest", "scales",
                         axes=ops.constant(np.array([2, 3], np.int64)))
    return ov.Model([ops.concat([up, d1], 1)], [x])


@pytest.mark.parametrize("build", [head, hrnet, interpolate, quartznet, vit])
def test_every_probe_agrees_with_model_reshape(tmp_path, build):
    path = tmp_path / "model.xml"
    ov.save_model(build(), path, compress_to_fp16=False)
    found, probes = disagreements(path)
    assert probes >= len(SIZES) and not found, found[:5]


def test_a_flatten_before_a_classifier_takes_multiples_of_8(capsys):
    """The issue's classifier head: 16 works, 1 and 9 fail (SmartReshape makes the flatten's
    target [-1, 64]); the Reshape is named as the cause."""
    path = SAMPLES / "classifier-head.xml"
    rows = constraints_of(str(path))[0]["axes"]
    assert [(r["exact"], r["multiple_of"], r["values"]) for r in rows] == [
        (True, 1, None), (True, 8, None), (True, 8, None)], rows
    assert rows[1]["causes"][0]["layer"] == "flatten" and rows[1]["causes"][0]["type"] == "Reshape"
    found, _ = disagreements(path)
    assert not found, found[:5]
    assert main(["reshapeable", str(path)]) == 0
    out = capsys.readouterr().out
    assert "x axis 1 (now 8): multiple of 8 — Reshape 'flatten' (line " in out, out


def test_two_residue_classes_are_not_exact_and_the_superset_holds(tmp_path, capsys):
    """Two stride-2 levels joined back: the sizes are 3 and 0 mod 4 (ceil(ceil(s/2)/2)*2
    must be ceil(s/2)), which one residue class cannot state: not exact, and the superset
    (>= 3) holds every size that works."""
    path = tmp_path / "unet.xml"
    ov.save_model(_unet(), path, compress_to_fp16=False)
    rows = constraints_of(str(path))[0]["axes"]
    assert not rows[2]["exact"] and "residue" in rows[2]["why_inexact"], rows[2]
    assert rows[2]["min"] == 3 and rows[2]["multiple_of"] == 1, rows[2]
    # the sizes exactly, in the form of several classes: 3, 4, 7, 8, 11, 12, ...
    assert rows[2]["residues"] == {"modulo": 4, "classes": [0, 3]}, rows[2]
    found, _ = disagreements(path)
    assert not found, found[:5]
    assert main(["reshapeable", "--format", "json", str(path)]) == 0
    document = json.loads(capsys.readouterr().out)
    axis = document["files"][0]["inputs"][0]["axes"][2]
    assert set(axis) >= {"axis", "now", "exact", "min", "max", "multiple_of", "offset", "values",
                         "equal_to", "causes"}, axis
    assert main(["reshapeable", str(path)]) == 0
    assert "axis 2 (now 64): 0 or 3 mod 4, ≥ 3 — " in capsys.readouterr().out


def test_a_file_that_does_not_read_is_a_usage_error():
    assert main(["reshapeable", str(SAMPLES / "classifier-head.xml") + ".missing"]) == 2


def test_without_the_bin_no_axis_is_exact(tmp_path):
    """A missing .bin is never "any size": a target or a stop may be among the Consts."""
    (tmp_path / "model.xml").write_bytes((SAMPLES / "classifier-head.xml").read_bytes())
    rows = constraints_of(str(tmp_path / "model.xml"))[0]["axes"]
    assert rows and all(not r["exact"] and "could not be read" in r["why_inexact"]
                        for r in rows), rows


def test_a_cropped_branch_caps_the_size_and_names_the_slice():
    """openvinotoolkit/openvino#16177's pattern: a Slice's constant stop caps one branch at
    256, the other halves the input, and the Add joins them: sizes up to 512 work."""
    path = SAMPLES / "cropped-upsample.xml"
    rows = constraints_of(str(path))[0]["axes"]
    for row in rows[2:]:
        assert row["exact"] and row["max"] == 512 and row["min"] == 1, row
        assert {(c["type"], c["layer"]) for c in row["causes"]} >= {("Add", "sum"),
                                                                      ("Slice", "crop")}, row
    found, _ = disagreements(path)
    assert not found, found[:5]


@pytest.mark.parametrize("name", ["unet", "audio"])
def test_the_benchmark_nets_agree_with_model_reshape(tmp_path, name):
    """The UNet (max-pools down, transposed convolutions up, Concat) takes multiples of 16
    on its spatial axes; the audio model's samples axis a minimum from its first window."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import make_models  # (benchmarks/ is not a package)
    path = make_models.make(name, 0, tmp_path)
    rows = constraints_of(str(path))[0]["axes"]
    if name == "unet":
        assert [(r["exact"], r["multiple_of"]) for r in rows[2:]] == [(True, 16)] * 2, rows
    else:
        assert rows[1]["exact"] and rows[1]["min"] == 400, rows[1]
    found, _ = disagreements(path)
    assert not found, found[:5]


def test_the_readme_example_is_what_the_command_prints(capsys, monkeypatch):
    """README.md's reshapeable example on sample_models/reshape/ is today's output."""
    root = SAMPLES.parents[1]
    head = "$ irvalidate reshapeable sample_models/reshape/\n"
    readme = (root / "README.md").read_text(encoding="utf-8")
    start = readme.index(head) + len(head)
    monkeypatch.chdir(root)
    assert main(["reshapeable", "sample_models/reshape/"]) == 0
    assert capsys.readouterr().out == readme[start:readme.index("```", start)]


def test_an_ascii_console_gets_stand_ins(tmp_path):
    """'≥', '≤' and '—' on a console that cannot print them (LC_ALL=C without UTF-8 mode)."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, LC_ALL="C", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0",
               PYTHONIOENCODING="")
    done = subprocess.run([sys.executable, "-m", "irvalidate", "reshapeable",
                           str(SAMPLES / "cropped-upsample.xml")], capture_output=True, env=env)
    assert done.returncode == 0, done.stderr
    assert b"<= 512 -- Add 'sum'" in done.stdout and b"\\u" not in done.stdout, done.stdout


def _padded_tiled_squeezed():
    """Reflect padding by 2 (the size must exceed the pad), a Tile doubling a size that an
    Add then meets, and a Squeeze of an axis whose size decides the rank."""
    x = ops.parameter([1, 3, 16, 16], np.float32, name="x")
    x.output(0).set_names({"x"})
    pads = ops.constant(np.array([0, 0, 2, 2], np.int64))
    padded = ops.pad(x, pads, pads, "reflect")
    pooled = ops.max_pool(padded, [1, 1], [1, 1], [0, 0], [0, 0], [5, 5]).output(0)
    y = ops.parameter([1, 3, 32], np.float32, name="y")
    y.output(0).set_names({"y"})
    tiled = ops.tile(y, ops.constant(np.array([1, 1, 2], np.int64)))
    other = ops.parameter([1, 3, 64], np.float32, name="z")
    other.output(0).set_names({"z"})
    summed = ops.add(tiled, other)
    w = ops.parameter([1, 5], np.float32, name="w")
    w.output(0).set_names({"w"})
    squeezed = ops.squeeze(w, ops.constant(np.array([0], np.int64)))  # [5] at size 1 only
    joined = ops.concat([squeezed, ops.constant(np.zeros(3, np.float32))], 0)
    return ov.Model([pooled, summed.output(0), joined.output(0)], [x, y, other, w], "ops")


def test_pad_tile_and_squeeze_are_followed(tmp_path):
    """Pad's reflect mode gives a minimum (size > 2), Tile's repeat doubles a size that an
    Add compares (y's axis 2 is 32 only, or 1 by broadcasting), and a Squeeze whose axis
    may stop being 1 is named as not followed; every probe agrees with Model.reshape."""
    path = tmp_path / "ops.xml"
    ov.save_model(_padded_tiled_squeezed(), path, compress_to_fp16=False)
    inputs = {i["name"]: i["axes"] for i in constraints_of(str(path))}
    x2, y2, w0 = inputs["x"][2], inputs["y"][2], inputs["w"][0]
    assert (x2["exact"], x2["min"], x2["max"]) == (True, 3, None), x2
    assert any(c["type"] == "Pad" for c in x2["causes"]), x2
    assert (y2["exact"], y2["values"]) == (True, [32]), y2
    assert not w0["exact"] and "Squeeze" in w0["why_inexact"], w0
    found, probes = disagreements(path)
    assert probes and not found, found[:5]


def test_dynamic_inputs_a_broadcast_joins_are_stated_as_partners(tmp_path):
    """ids[?,?] and mask[?,?] meet in an Add: each alone takes any size (the other is
    dynamic), and they are stated as partners; the runtime takes both set together."""
    ids = ops.parameter([-1, -1], np.float32, name="ids")
    ids.output(0).set_names({"ids"})
    mask = ops.parameter([-1, -1], np.float32, name="mask")
    mask.output(0).set_names({"mask"})
    path = tmp_path / "pair.xml"
    ov.save_model(ov.Model([ops.add(ids, mask).output(0)], [ids, mask], "pair"), path)
    inputs = {i["name"]: i["axes"] for i in constraints_of(str(path))}
    assert inputs["ids"][1]["equal_to"] == [{"input": "mask", "axis": 1}], inputs["ids"][1]
    assert inputs["mask"][0]["equal_to"] == [{"input": "ids", "axis": 0}], inputs["mask"][0]
    for size in (1, 7, 64):
        model = ov.Core().read_model(path)
        model.reshape({"ids": ov.PartialShape([size, size]), "mask": ov.PartialShape([size, size])})
        assert model.output(0).get_partial_shape() == ov.PartialShape([size, size])


def _positions(length):
    """BERT's embeddings: the position ids sliced to the sequence's length (a stop read from
    ShapeOf), looked up in a table of 512 rows and added to the words' embeddings."""
    ids = ops.parameter([1, length], np.int64, name="ids")
    ids.output(0).set_names({"ids"})
    words = ops.gather(ops.constant(np.ones((100, 8), np.float32)), ids, 0)
    seq = ops.gather(ops.shape_of(ids), ops.constant(np.array([1], np.int64)), 0)
    table = ops.constant(np.arange(512, dtype=np.int64).reshape(1, 512))
    where = ops.slice(table, ops.constant(np.array([0], np.int64)), seq,
                      ops.constant(np.array([1], np.int64)), ops.constant(np.array([1], np.int64)))
    positions = ops.gather(ops.constant(np.ones((512, 8), np.float32)), where, 0)
    return ov.Model([ops.add(words, positions).output(0)], [ids], "positions")


@pytest.mark.parametrize("length", [128, -1])
def test_a_slice_to_the_sequence_length_gives_the_position_tables_maximum(tmp_path, length):
    """issue 27's example: a position-embedding lookup over 512 rows gives a maximum, through
    a Slice whose stop is the sequence's length (min(length, 512) must equal the length)."""
    path = tmp_path / "positions.xml"
    ov.save_model(_positions(length), path, compress_to_fp16=False)
    row = constraints_of(str(path))[0]["axes"][1]
    assert (row["exact"], row["min"], row["max"]) == (True, 1, 512), row
    assert any(c["type"] == "Slice" for c in row["causes"]), row
    found, probes = disagreements(path)
    assert probes and not found, found[:5]


def test_partners_set_together_take_the_position_tables_maximum(tmp_path):
    """ids[1,?] and mask[1,?]: the mask meets the embeddings in an Add, so each alone takes
    whatever the other's ? allows (not exact), but set together they take <= 512, the
    position table's rows, which the runtime confirms size by size."""
    from support.constraint_check import check_together
    model = _positions(-1)
    ids = model.get_parameters()[0]
    mask = ops.parameter([1, -1], np.float32, name="mask")
    mask.output(0).set_names({"mask"})
    masked = ops.add(model.get_results()[0].input_value(0), ops.unsqueeze(mask, 2))
    path = tmp_path / "masked.xml"
    ov.save_model(ov.Model([masked.output(0)], [ids, mask], "masked"), path,
                  compress_to_fp16=False)
    report = {"files": [{"path": "masked.xml", "inputs": constraints_of(str(path))}]}
    row = report["files"][0]["inputs"][0]["axes"][1]
    assert row["equal_to"] == [{"input": "mask", "axis": 1}], row
    assert row["together"]["exact"] and row["together"]["max"] == 512, row["together"]
    problems, probes = check_together(report, lambda _: path)
    assert probes and not problems, problems


def test_a_constant_reshape_target_pins_an_axis_that_is_dynamic_now(tmp_path):
    """x[1,?,16] into a constant [1,128,16]: once the axis is set, the runtime compares the
    element counts, so only 128 works (a dynamic axis is not exempt from the count)."""
    x = ops.parameter([1, -1, 16], np.float32, name="x")
    x.output(0).set_names({"x"})
    target = ops.constant(np.array([1, 128, 16], np.int64))
    path = tmp_path / "pinned.xml"
    ov.save_model(ov.Model([ops.reshape(x, target, False).output(0)], [x], "pinned"), path)
    row = constraints_of(str(path))[0]["axes"][1]
    assert (row["exact"], row["values"]) == (True, [128]), row
    found, probes = disagreements(path)
    assert probes and not found, found[:5]


def test_a_range_counted_to_a_size_is_followed(tmp_path):
    """Range(0, x's width) meets a constant of 16 values in an Add: the width is 1 or 16."""
    x = ops.parameter([1, 16], np.float32, name="x")
    x.output(0).set_names({"x"})
    width = ops.squeeze(ops.gather(ops.shape_of(x), ops.constant(np.array([1], np.int64)), 0),
                        ops.constant(np.array([0], np.int64)))
    counted = ops.range(ops.constant(np.int64(0)), width, ops.constant(np.int64(1)), "f32")
    summed = ops.add(counted, ops.constant(np.zeros(16, np.float32)))
    path = tmp_path / "range.xml"
    ov.save_model(ov.Model([summed.output(0)], [x], "range"), path)
    row = constraints_of(str(path))[0]["axes"][1]
    assert (row["exact"], row["values"]) == (True, [1, 16]), row
    assert any(c["type"] == "Range" for c in row["causes"]), row
    found, probes = disagreements(path)
    assert probes and not found, found[:5]


def test_sizes_multiplied_as_values_are_followed(tmp_path):
    """A Reshape target computed as height x 8 (ShapeOf -> Gather -> Multiply -> Concat) meets
    a constant of 64 values in an Add: only height 8 works (or the target's 1 broadcasts)."""
    x = ops.parameter([1, 8, 8], np.float32, name="x")
    x.output(0).set_names({"x"})
    height = ops.gather(ops.shape_of(x), ops.constant(np.array([1], np.int64)), 0)
    flat = ops.multiply(height, ops.constant(np.array([8], np.int64)))
    target = ops.concat([ops.constant(np.array([1], np.int64)), flat], 0)
    summed = ops.add(ops.reshape(x, target, False), ops.constant(np.zeros(64, np.float32)))
    path = tmp_path / "multiplied.xml"
    ov.save_model(ov.Model([summed.output(0)], [x], "multiplied"), path)
    row = constraints_of(str(path))[0]["axes"][1]
    assert row["exact"] and row["values"] == [8], row
    found, probes = disagreements(path)
    assert probes and not found, found[:5]


@pytest.mark.parametrize("name", ["yolov8n-dynamic", "bert-optimum"])
def test_the_readme_examples_on_real_exports_are_what_the_command_prints(capsys, monkeypatch,
                                                                         name):
    """README.md's reshapeable examples on sample_models/real/ are today's output (their
    verdicts are held to Model.reshape with the other samples': test_constraints_recorded)."""
    root = SAMPLES.parents[1]
    command = f"sample_models/real/{name}.xml"
    head = f"$ irvalidate reshapeable {command}\n"
    readme = (root / "README.md").read_text(encoding="utf-8")
    start = readme.index(head) + len(head)
    monkeypatch.chdir(root)
    assert main(["reshapeable", command]) == 0
    assert capsys.readouterr().out == readme[start:readme.index("```", start)]


def test_the_real_detector_takes_the_sizes_below_each_multiple_of_32():
    """YOLOv8n (dynamic=True): 0 or 25..31 mod 32 from 25, exactly, on height and width."""
    rows = constraints_of(str(SAMPLES.parent / "real" / "yolov8n-dynamic.xml"))[0]["axes"]
    for row in rows[2:]:
        assert row["residues"] == {"modulo": 32, "classes": [0, *range(25, 32)]}, row
        assert row["min"] == 25 and not row["why_inexact"].startswith("a condition"), row


def test_a_size_converted_to_a_real_is_not_taken_as_a_number(tmp_path):
    """Interpolate sizes computed as float(h) * 2.0: the real no longer carries the size, so
    the axes are not exact (they said 'only 16', where the runtime takes 8, 17, 40...)."""
    x = ops.parameter([1, 3, 16, 16], np.float32, name="x")
    x.output(0).set_names({"x"})
    axes = ops.constant(np.array([2, 3], np.int64))
    sizes = ops.gather(ops.shape_of(x), axes, ops.constant(np.int64(0)))
    doubled = ops.multiply(ops.convert(sizes, "f32"), ops.constant(np.array([2.0], np.float32)))
    a = ops.interpolate(x, ops.convert(doubled, "i64"), "nearest", "sizes", axes=axes)
    b = ops.interpolate(x, ops.constant(np.array([2.0, 2.0], np.float32)), "nearest", "scales",
                        axes=axes)
    path = tmp_path / "real.xml"
    ov.save_model(ov.Model([ops.add(a, b).output(0)], [x], "real"), path)
    rows = constraints_of(str(path))[0]["axes"]
    assert not rows[2]["exact"] and "Convert" in rows[2]["why_inexact"], rows[2]
    found, probes = disagreements(path)
    assert probes and not found, found[:5]


def test_a_grouped_convolution_divides_a_channel_axis_dynamic_now(tmp_path):
    """x[1,?,8,8] into a GroupConvolution of 2 groups of 3 channels: only 6 works (the
    dynamic axis was kept whole, and 'only 2' said)."""
    x = ops.parameter([1, -1, 8, 8], np.float32, name="x")
    x.output(0).set_names({"x"})
    filters = ops.constant(np.full((2, 4, 3, 3, 3), 0.01, np.float32))
    y = ops.group_convolution(x, filters, [1, 1], [1, 1], [1, 1], [1, 1])
    path = tmp_path / "grouped.xml"
    ov.save_model(ov.Model([y.output(0)], [x], "grouped"), path)
    row = constraints_of(str(path))[0]["axes"][1]
    assert (row["exact"], row["values"]) == (True, [6]), row
    found, probes = disagreements(path)
    assert probes and not found, found[:5]
