"""IRV218 weights-mismatch: another model's .bin is one finding, not cryptic ones per layer."""
import shutil
import struct

import pytest

from irvalidate.engine.validation import validate_file
from support.irbuilder import IR
from support.places import CORPUS_FILES, ROOT, SAMPLES

SAMPLE = ROOT / "sample_models" / "broken" / "IRV218-weights-mismatch.xml"
#: another model's weights: eight float32 numbers, 32 bytes read as four int64
FOREIGN = struct.pack("<8f", 0.5, -1.25, 3.0, 7.5, 0.125, -2.0, 1.0, 0.25)


def gather_after_reshape(tmp_path):
    """data [2,3,4] -> Reshape [6,4] -> Gather(indices [1], axis 0): three i64 Consts, 32 bytes."""
    ir = IR()
    data = ir.parameter("2,3,4")
    flat = ir.op("Reshape", [data, ir.const([6, 4])], [[6, 4]], {"special_zero": "false"})
    row = ir.op("Gather", [flat, ir.const([1]), ir.const([0], shape=[])], [[1, 4]],
                {"batch_dims": "0"}, version="opset8")
    ir.result(row)
    return ir.write(tmp_path)


def test_its_own_weights_are_clean_and_another_model_s_are_one_finding(tmp_path):
    path = gather_after_reshape(tmp_path)
    assert validate_file(str(path)).findings == []
    path.with_suffix(".bin").write_bytes(FOREIGN)
    found = validate_file(str(path)).findings
    # before IRV218: two IRV102 about a pattern element and an axis of 4e18
    assert [f.code for f in found] == ["IRV218"], [f.message for f in found]
    target = struct.unpack("<q", FOREIGN[:8])[0]
    assert (f"model.bin does not hold this model's weights: Const 'c1' (id=1) gives {target} "
            "as the target shape of Reshape") in found[0].message
    assert "findings that rest on its values are left out" in found[0].message


def test_ignoring_it_brings_back_what_it_masks(tmp_path):
    from irvalidate.settings.config import Config
    path = gather_after_reshape(tmp_path)
    path.with_suffix(".bin").write_bytes(FOREIGN)
    found = validate_file(str(path), config=Config(ignore=["IRV218"])).findings
    assert {f.code for f in found} == {"IRV102"}


def test_the_runtime_refuses_the_sample_and_irvalidate_says_it_once():
    ov = pytest.importorskip("openvino")
    with pytest.raises(Exception, match="invalid bounds"):
        ov.Core().read_model(str(SAMPLE))
    assert [f.code for f in validate_file(str(SAMPLE)).findings] == ["IRV218"]


def test_slice_bounds_of_int64_max_are_not_absurd(tmp_path):
    """Slice and StridedSlice hold INT64_MAX for "to the end" on purpose: not a role read."""
    ir = IR()
    x = ir.parameter("4,6")
    big = 2 ** 63 - 1
    sliced = ir.op("Slice", [x, ir.const([1]), ir.const([big]), ir.const([1]), ir.const([1])],
                   [[4, 5]], version="opset8")
    ir.result(sliced)
    found = validate_file(str(ir.write(tmp_path))).findings
    assert "IRV218" not in {f.code for f in found}


def test_a_few_consts_past_the_end_stay_invalid_constant(tmp_path):
    """Up to three Consts past the end are IRV203's, one each; more are this rule's."""
    ir = IR()
    x = ir.parameter("3")
    out = x
    for _ in range(3):
        out = ir.op("Add", [out, ir.const([1.0, 2.0, 3.0], et="f32")], [[3]])
    ir.result(out)
    path = ir.write(tmp_path)
    path.with_suffix(".bin").write_bytes(bytes(ir.weights[:12]))  # the first Const fits
    assert [f.code for f in validate_file(str(path)).findings] == ["IRV203", "IRV203"]


@pytest.mark.parametrize("path", SAMPLES + CORPUS_FILES, ids=lambda p: p.name)
def test_no_sample_or_corpus_file_has_it(path):
    """Every file whose own .bin is beside it; the broken samples with a .bin of another
    model, or cut short, are the only ones."""
    if path.name.startswith(("IRV218", "IRV203")):
        pytest.skip("its .bin is not its own by design")
    if path.stat().st_size > 30_000_000:
        pytest.skip("large: the corpus test checks it")
    assert "IRV218" not in {f.code for f in validate_file(str(path)).findings}


def test_a_copy_with_its_own_bin_is_clean_again(tmp_path):
    shutil.copyfile(SAMPLE, tmp_path / "m.xml")
    (tmp_path / "m.bin").write_bytes(struct.pack("<4q", 6, 4, 1, 0))
    assert validate_file(str(tmp_path / "m.xml")).findings == []


def test_one_absurd_const_alone_is_left_to_the_rules_of_shapes(tmp_path):
    """A single wild value could be a hand edit: IRV102 says what it does, as before."""
    path = gather_after_reshape(tmp_path)
    path.with_suffix(".bin").write_bytes(struct.pack("<4q", -(10 ** 15), 4, 1, 0))
    assert {f.code for f in validate_file(str(path)).findings} == {"IRV102"}


def two_reshapes_apart(directory):
    """x [2,3,4] -> Reshape [6,4] -> three Relus -> Reshape [2,12], serialized by openvino (a
    file the stream reads); the two targets are 32 bytes, and far apart in the layers."""
    ov = pytest.importorskip("openvino")
    import numpy as np
    from openvino import opset1
    x = opset1.parameter([2, 3, 4], np.float32, name="x")
    out = opset1.reshape(x, opset1.constant(np.array([6, 4], np.int64)), False)
    for _ in range(3):
        out = opset1.relu(out)
    out = opset1.reshape(out, opset1.constant(np.array([2, 12], np.int64)), False)
    path = directory / "apart.xml"
    ov.save_model(ov.Model([out], [x]), str(path))
    assert path.with_suffix(".bin").stat().st_size == 32
    return path


@pytest.mark.parametrize("batch", [1, 2, 3])
def test_the_stream_says_what_the_whole_check_says(batch, tmp_path, monkeypatch):
    """In batches, the two absurd targets fall apart (one per batch): the stream must then
    send the file the whole way, not report each as the rules of shapes would."""
    from irvalidate.engine import streaming
    path = two_reshapes_apart(tmp_path)
    assert validate_file(str(path)).findings == []
    path.with_suffix(".bin").write_bytes(FOREIGN)
    monkeypatch.setattr(streaming, "BATCH", batch)
    monkeypatch.setattr(streaming, "MIN_BYTES", 1 << 62)
    whole = validate_file(str(path)).findings
    assert [f.code for f in whole] == ["IRV218"]
    monkeypatch.setattr(streaming, "MIN_BYTES", 0)
    assert validate_file(str(path)).findings == whole


@pytest.mark.parametrize("path", SAMPLES[:40], ids=lambda p: p.name)
def test_streamed_columns_are_the_whole_check_s(path, monkeypatch):
    from irvalidate.engine import streaming
    monkeypatch.setattr(streaming, "BATCH", 3)
    monkeypatch.setattr(streaming, "MIN_BYTES", 1 << 62)
    whole = [(f.line, f.column, f.code) for f in validate_file(str(path)).findings]
    monkeypatch.setattr(streaming, "MIN_BYTES", 0)
    assert [(f.line, f.column, f.code) for f in validate_file(str(path)).findings] == whole
