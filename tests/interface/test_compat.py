"""``compat`` on pairs of IRs the runtime wrote (issue 28): a model saved by ``ov.save_model``,
and the same model changed through the openvino API and saved again.  Each pair gives exactly
the findings of the issue's table; the unchanged pair, and re-exports that keep the
interface, give no error.  Without openvino the pairs are replayed from
``tests/snapshots/interface/test_compat.json.xz`` (tests/support/cassette.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
import openvino.opset13 as ops  # noqa: E402 - after the skip

from irvalidate.interface.compat import compat_files  # noqa: E402
from support.places import CORPUS_FILES  # noqa: E402

VOCAB, WIDTH, CLASSES = 64, 16, 8


def _weights(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _head(hidden, weight=None):
    """hidden [1,?,WIDTH] times a [WIDTH,CLASSES] weight (f32, or what ``weight`` gives)."""
    w = weight if weight is not None else ops.constant(_weights((WIDTH, CLASSES), 1), name="fc.w")
    return ops.matmul(hidden, w, False, False, name="fc")


def build(ids_type=ov.Type.i64, weight=None, extra_output=False, order=("ids", "mask"),
          convert_ids=False):
    """Two inputs (input_ids, attention_mask [1,?]) into an embedding and a classifier head;
    the output ``logits`` [1,?,CLASSES]."""
    ids = ops.parameter([1, -1], ids_type, name="input_ids")
    ids.output(0).set_names({"input_ids"})
    mask = ops.parameter([1, -1], ov.Type.i64, name="attention_mask")
    mask.output(0).set_names({"attention_mask"})
    index = ops.convert(ids, "i64", name="ids/convert") if convert_ids else ids
    table = ops.constant(_weights((VOCAB, WIDTH), 0), name="embedding.w")
    hidden = ops.gather(table, index, 0, name="embedding")
    scale = ops.unsqueeze(ops.convert(mask, "f32", name="mask/convert"), [2], name="mask/3d")
    hidden = ops.multiply(hidden, scale, name="masked")
    logits = _head(hidden, weight)
    logits.output(0).set_names({"logits"})
    results = [ops.result(logits, name="logits/sink")]
    if extra_output:
        hidden.output(0).set_names({"hidden_states"})
        results.append(ops.result(hidden, name="hidden/sink"))
    by_name = {"ids": ids, "mask": mask}
    return ov.Model(results, [by_name[n] for n in order], "pair")


def save(model, path: Path, compress: bool = False) -> str:
    ov.save_model(model, str(path), compress_to_fp16=compress)
    return str(path)


def codes(tmp_path: Path, new_model, compress_new: bool = False, old_model=None) -> list[str]:
    old = save(old_model if old_model is not None else build(), tmp_path / "old.xml")
    new = save(new_model, tmp_path / "new.xml", compress_new)
    return sorted(f.code for f in compat_files(old, new).findings)


def test_the_unchanged_pair_gives_nothing(tmp_path):
    assert codes(tmp_path, build()) == []


def test_a_renamed_input_is_one_error(tmp_path):
    model = build()
    model.input("input_ids").get_tensor().set_names({"input_ids:0"})
    assert codes(tmp_path, model) == ["IRV401"]


def test_added_names_change_nothing_and_a_dropped_one_is_a_warning(tmp_path):
    model = build()
    model.input("input_ids").get_tensor().add_names({"tokens"})
    # (on the producer's tensor: a model output's add_names replaces its names in 2026.4,
    # read back only 'scores'; and a name at a time, so that the recording replays under
    # any hash seed)
    model.get_results()[0].input_value(0).get_tensor().add_names({"scores"})
    assert codes(tmp_path, model) == []
    assert codes(tmp_path, build(), old_model=model) == ["IRV403", "IRV403"]


def test_a_convert_inserted_at_an_input_changes_its_type(tmp_path):
    assert codes(tmp_path, build(ids_type=ov.Type.i32, convert_ids=True)) == ["IRV404"]


def test_reshaped_to_static_narrows_the_inputs_and_the_output(tmp_path):
    model = build()
    model.reshape({"input_ids": [1, 128], "attention_mask": [1, 128]})
    # inputs that took any length now take 128 only; the output's length is fixed (info)
    assert codes(tmp_path, model) == ["IRV407", "IRV407", "IRV412"]


def test_reshaped_to_dynamic_widens_the_inputs_and_changes_the_output(tmp_path):
    model = build()
    model.reshape({"input_ids": [-1, -1], "attention_mask": [-1, -1]})
    assert codes(tmp_path, model) == ["IRV406", "IRV406", "IRV411"]


def test_an_output_added_and_removed(tmp_path):
    assert codes(tmp_path, build(extra_output=True)) == ["IRV410"]
    assert codes(tmp_path, build(), old_model=build(extra_output=True)) == ["IRV409"]


def test_parameters_reordered(tmp_path):
    assert codes(tmp_path, build(order=("mask", "ids"))) == ["IRV408"]


def test_a_layout_set_through_preprocessing(tmp_path):
    model = build()
    ppp = ov.preprocess.PrePostProcessor(model)
    ppp.input("input_ids").model().set_layout(ov.Layout("NC"))
    assert codes(tmp_path, ppp.build()) == ["IRV414"]


def test_weights_compressed_to_fp16_keep_the_interface(tmp_path):
    assert codes(tmp_path, build(), compress_new=True) == ["IRV415"]


def _u8_weight():
    """The head's weight as NNCF writes an 8-bit one: u8 values, a u8 zero point, an f32
    scale per output channel (Convert -> Subtract -> Multiply)."""
    values = np.random.default_rng(1).integers(0, 255, (WIDTH, CLASSES), dtype=np.uint8)
    weight = ops.convert(ops.constant(values, ov.Type.u8, name="fc.w/u8"), "f32",
                         name="fc.w/convert")
    zero = ops.convert(ops.constant(np.full((1, CLASSES), 128, np.uint8), ov.Type.u8,
                                    name="fc.w/zp"), "f32", name="fc.w/zp/convert")
    scale = ops.constant(np.full((1, CLASSES), 0.01, np.float32), name="fc.w/scale")
    return ops.multiply(ops.subtract(weight, zero, name="fc.w/sub"), scale, name="fc.w/mul")


def test_weights_compressed_to_u8_as_nncf_does(tmp_path):
    # the element types (u8 now), the compression (u8 behind the pattern) and the count
    # (the zero points and scales) change; the interface does not
    assert codes(tmp_path, build(weight=_u8_weight())) == ["IRV415", "IRV415", "IRV415"]


# ---------------------------------------------------------------------------- re-exports
# the same model written again in another way: its interface is kept, so no error


def test_fp32_against_fp16_is_no_error(tmp_path):
    found = codes(tmp_path, build(), compress_new=True)
    assert found == ["IRV415"]  # an info: the weights' element types


def test_ir_v10_against_v11_of_one_model(tmp_path):
    passes = pytest.importorskip("openvino.passes")  # (not among the recorded modules)
    v11 = save(build(), tmp_path / "v11.xml")
    v10 = str(tmp_path / "v10.xml")
    manager = passes.Manager()
    manager.register_pass(passes.Serialize(v10, str(tmp_path / "v10.bin"), passes.Version.IR_V10))
    manager.run_passes(build())
    assert '<net name="pair" version="10">' in Path(v10).read_text()
    assert [f.code for f in compat_files(v11, v10).findings] == []
    # v10's reader also names the output by its producer ('fc'), and the v11 file has no
    # such name: a warning, no error
    found = compat_files(v10, v11).findings
    assert [(f.code, f.level) for f in found] == [("IRV403", "warning")]
    assert "lost tensor name fc (kept: logits)" in found[0].message


#: the wild corpus's IRs with their weights (the others, LFS pointers, read_model refuses)
CORPUS = [p for p in CORPUS_FILES if p.with_suffix(".bin").is_file()
          and p.with_suffix(".bin").stat().st_size > 1000]


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_a_corpus_file_written_again_keeps_its_interface(tmp_path, path):
    """Each file against itself, and against what read_model and save_model make of it (IR
    v10 files become v11, Model Optimizer's <meta_data> parameters move to rt_info): at most
    an info of the weights."""
    try:
        model = ov.Core().read_model(str(path))
    except RuntimeError:
        pytest.skip("read_model refuses it")
    again = save(model, tmp_path / "again.xml")
    assert compat_files(str(path), str(path)).findings == []
    found = compat_files(str(path), again).findings
    assert {f.code for f in found} <= {"IRV415"}, [f.message for f in found]


def _onnx_file(path: Path) -> Path:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    weight = numpy_helper.from_array(_weights((WIDTH, CLASSES), 2), "fc.w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["input", "fc.w"], ["logits"], name="fc")], "head",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, "sequence", WIDTH])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, "sequence", CLASSES])],
        [weight])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    return path


def test_one_onnx_model_converted_twice(tmp_path):
    from support.opcheck import convert
    source = _onnx_file(tmp_path / "head.onnx")
    first = save(convert(source), tmp_path / "first.xml")
    second = save(convert(source), tmp_path / "second.xml", compress=True)
    assert [f.code for f in compat_files(first, second).findings] == ["IRV415"]
    assert [f.code for f in compat_files(first, save(convert(source), tmp_path / "third.xml"))
            .findings] == []


def _sequence_model(pinned: bool):
    """x [1,?,WIDTH] into a head; pinned: first added to a [1,128,WIDTH] constant, so that
    axis 1 takes 1 and 128 only (the broadcast), though the file still declares ``?``."""
    x = ops.parameter([1, -1, WIDTH], ov.Type.f32, name="x")
    x.output(0).set_names({"x"})
    hidden = ops.add(x, ops.constant(np.ones((1, 128, WIDTH), np.float32), name="bias"),
                     name="biased") if pinned else x
    y = _head(hidden)
    y.output(0).set_names({"y"})
    return ov.Model([ops.result(y, name="y/sink")], [x], "sequence")


def test_an_input_axis_pinned_where_the_declared_dims_say_nothing(tmp_path):
    pinned = _sequence_model(True)
    for size, works in ((1, True), (64, False), (128, True)):  # the runtime's own verdicts
        trial = pinned.clone()
        try:
            trial.reshape({"x": [1, size, WIDTH]})
            assert works, size
        except RuntimeError:
            assert not works, size
    # the axis pinned (error), the output's length now static (info), the bias's weights
    found = codes(tmp_path, pinned, old_model=_sequence_model(False))
    assert found == ["IRV412", "IRV413", "IRV415"]


def test_against_reads_the_old_bin_where_the_axes_need_it(tmp_path, monkeypatch):
    """compat --against: the old XML's axes are exact only with its .bin (REV's, which
    changed with the bias added), so IRV413 is found there too."""
    import shutil
    import subprocess
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from irvalidate.interface.against import compare_against
    from irvalidate.settings.config import Defaults

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
                        *args], cwd=tmp_path, check=True, capture_output=True)
    git("init", "-q")
    save(_sequence_model(False), tmp_path / "model.xml")
    git("add", "-A")
    git("commit", "-q", "-m", "model")
    save(_sequence_model(True), tmp_path / "model.xml")
    monkeypatch.chdir(tmp_path)
    result, = compare_against("HEAD", ["."], lambda path: Defaults())
    assert sorted(f.code for f in result.findings) == ["IRV412", "IRV413", "IRV415"]


def test_the_axes_are_solved_only_for_the_rule_that_reads_them(tmp_path, monkeypatch):
    """Only IRV413 reads the inputs' axes: with it ignored, compat (and --against) makes no
    reshapeable analysis of either file, and the other findings are the same."""
    import shutil
    import subprocess

    from irvalidate.interface.against import compare_against
    from irvalidate.reshaping import constraints
    from irvalidate.settings.config import build
    old, new = save(_sequence_model(False), tmp_path / "old.xml"), \
        save(_sequence_model(True), tmp_path / "new.xml")
    solved = []
    made = constraints.constraints_of
    monkeypatch.setattr(constraints, "constraints_of",
                        lambda *args, **kw: solved.append(args[0]) or made(*args, **kw))
    assert sorted(f.code for f in compat_files(old, new).findings) == ["IRV412", "IRV413", "IRV415"]
    assert len(solved) == 2
    ignoring = build({"ignore": ["IRV413"]}, "config")
    solved.clear()
    assert sorted(f.code for f in compat_files(old, new, ignoring).findings) == ["IRV412", "IRV415"]
    assert solved == []
    if shutil.which("git") is None:
        return
    for args in (("init", "-q"), ("add", "new.xml", "new.bin"), ("commit", "-q", "-m", "m")):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
                        *args], cwd=tmp_path, check=True, capture_output=True)
    shutil.copy(old, tmp_path / "new.xml")
    monkeypatch.chdir(tmp_path)
    result, = compare_against("HEAD", ["new.xml"], lambda path: ignoring)
    assert [f.code for f in result.findings] and solved == []
