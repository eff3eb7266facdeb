"""The compat rules (IRV401-IRV416, rules/_compat.py) on hand-built interfaces: each row of
issue 28's table gives its one code, the unchanged pair none, and the levels and selection
come from the configuration as for every rule."""
from __future__ import annotations

from pathlib import Path

import pytest

from irvalidate.interface.compat import compare
from irvalidate.interface.model import (
    AxisSizesModel,
    CompressionModel,
    DimModel,
    InterfaceModel,
    TensorModel,
    WeightsModel,
)
from irvalidate.rules import COMPAT_RULES
from irvalidate.rules._compat import dim_change, match
from irvalidate.rules.input_axis_pinned import covers


def dims(text: str) -> list[DimModel] | None:
    """'1,?,2..8' as DimModels; '...' a dynamic rank."""
    if text == "...":
        return None
    found = []
    for part in filter(None, text.split(",")):
        if part == "?":
            found.append(DimModel(lo=0, hi=None))
        elif ".." in part:
            lo, hi = part.split("..")
            found.append(DimModel(lo=int(lo or 0), hi=int(hi) if hi else None))
        else:
            found.append(DimModel(lo=int(part), hi=int(part)))
    return found


def tensor(index: int, names: str, shape: str = "1,?", element_type: str = "i64",
           layer: str | None = None, line: int = 0, **more) -> TensorModel:
    listed = names.split() if names else []
    return TensorModel(index=index, layer=layer or (listed[0] if listed else f"t{index}"),
                       layer_id=str(index), line=line or 10 + index, names=listed,
                       element_type=element_type, shape=dims(shape), shape_text=f"[{shape}]",
                       **more)


def model(inputs=(), outputs=(), weights=(("f32", 1000),), compression=(),
          rt_info=None) -> InterfaceModel:
    return InterfaceModel(
        file="m.xml", ir_version=11, producer={}, inputs=list(inputs), outputs=list(outputs),
        layers=[], weights=[WeightsModel(element_type=t, constants=1, elements=n, bytes=4 * n)
                            for t, n in weights],
        compression=[CompressionModel(element_type=t, elements=n, share=s)
                     for t, n, s in compression],
        rt_info=rt_info or {}, extensions=[], bin_bytes=None, reshapeable=False)


IDS = tensor(0, "input_ids", "1,?")
MASK = tensor(1, "attention_mask", "1,?")
LOGITS = tensor(0, "logits", "1,?,1000", "f32", layer="out")
# Model Optimizer's legacy section: read and saved again, a v10 file has it in rt_info
BASE = model([IDS, MASK], [LOGITS], rt_info={"meta_data/cli_parameters/mean_values": "[1,2,3]"})


def codes(old: InterfaceModel | None, new: InterfaceModel | None, **config) -> list[str]:
    from irvalidate.settings.config import Config
    result = compare(old, new, "new.xml", Config(**config) if config else None)
    return sorted(f.code for f in result.findings)


def changed(**replace) -> InterfaceModel:
    return BASE.model_copy(update=replace)


CASES = {
    "unchanged": (BASE, []),
    "renamed input": (changed(inputs=[tensor(0, "input_ids:0"), MASK]), ["IRV401"]),
    "input removed": (changed(inputs=[IDS]), ["IRV401"]),
    "input added": (changed(inputs=[IDS, MASK, tensor(2, "position_ids")]), ["IRV402"]),
    "a name added": (changed(inputs=[tensor(0, "input_ids tokens"), MASK]), []),
    "element type": (changed(inputs=[tensor(0, "input_ids", element_type="i32"), MASK]),
                     ["IRV404"]),
    "static dim": (changed(inputs=[tensor(0, "input_ids", "2,?"), MASK]), ["IRV405"]),
    "rank": (changed(inputs=[tensor(0, "input_ids", "1,?,1"), MASK]), ["IRV405"]),
    "static to dynamic": (changed(inputs=[tensor(0, "input_ids", "?,?"), MASK]), ["IRV406"]),
    "dynamic rank": (changed(inputs=[tensor(0, "input_ids", "..."), MASK]), ["IRV406"]),
    "dynamic to static": (changed(inputs=[tensor(0, "input_ids", "1,128"), MASK]),
                          ["IRV407"]),
    "interval": (changed(inputs=[tensor(0, "input_ids", "1,1..4096"), MASK]), ["IRV407"]),
    "reordered": (changed(inputs=[tensor(0, "attention_mask"), tensor(1, "input_ids")]),
                  ["IRV408"]),
    "output removed": (changed(outputs=[]), ["IRV409"]),
    "output renamed": (changed(outputs=[tensor(0, "logits:0", "1,?,1000", "f32")]),
                       ["IRV409"]),
    "output added": (changed(outputs=[LOGITS, tensor(1, "hidden", "1,?,64", "f32")]),
                     ["IRV410"]),
    "output static dim": (changed(outputs=[tensor(0, "logits", "1,?,999", "f32")]),
                          ["IRV411"]),
    "output dynamic": (changed(outputs=[tensor(0, "logits", "?,?,1000", "f32")]),
                       ["IRV411"]),
    "output static": (changed(outputs=[tensor(0, "logits", "1,16,1000", "f32")]),
                      ["IRV412"]),
    "output type": (changed(outputs=[tensor(0, "logits", "1,?,1000", "f16")]), ["IRV404"]),
    "layout": (changed(inputs=[tensor(0, "input_ids", layout="[N,C]"), MASK]), ["IRV414"]),
    "rt_info": (changed(rt_info={"conversion_parameters/mean_values": "[4,5,6]"}),
                ["IRV414"]),
    "rt_info gone": (changed(rt_info={}), ["IRV414"]),
    "rt_info elsewhere": (changed(rt_info={**BASE.rt_info, "MO_version": "2024.1"}), []),
    "rt_info moved": (model([IDS, MASK], [LOGITS],
                            rt_info={"conversion_parameters/mean_values": "[1,2,3]"}), []),
    "fp16": (changed(weights=[WeightsModel(element_type="f16", constants=1, elements=1000,
                                           bytes=2000)]), ["IRV415"]),
    "u8": (changed(weights=[WeightsModel(element_type="u8", constants=1, elements=1000,
                                         bytes=1000),
                            WeightsModel(element_type="f32", constants=1, elements=10,
                                         bytes=40)],
                   compression=[CompressionModel(element_type="u8", elements=1000,
                                                 share=0.99)]),
           ["IRV415", "IRV415", "IRV415"]),
    "index consts only": (changed(weights=[WeightsModel(element_type="f32", constants=1,
                                                        elements=1000, bytes=4000),
                                           WeightsModel(element_type="i64", constants=9,
                                                        elements=20, bytes=160)]), []),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_row_of_the_table_gives_its_code(case):
    new, expected = CASES[case]
    assert codes(BASE, new) == expected


def test_a_dropped_name_among_kept_ones_is_a_warning():
    old = model([tensor(0, "input_ids tokens"), MASK], [tensor(0, "logits out", "1,?,1000")])
    new = model([tensor(0, "input_ids"), MASK], [tensor(0, "out", "1,?,1000")])
    found = compare(old, new, "new.xml").findings
    assert [(f.code, f.level) for f in found] == [("IRV403", "warning")] * 2
    assert "lost tensor name tokens (kept: input_ids)" in found[0].message


def test_findings_are_located_in_the_new_file_with_the_old_line():
    new = changed(inputs=[tensor(0, "input_ids", "1,128", line=77), MASK])
    finding, = compare(BASE, new, "new.xml", old_name="old.xml").findings
    assert (finding.path, finding.line, finding.level) == ("new.xml", 77, "error")
    assert finding.layer is not None and finding.layer.name == "input_ids"
    assert finding.message == "input 'input_ids': shape was [1,?], now [1,128] at axis 1 " \
                              "(line 10 of old.xml)"


def test_a_removed_input_names_its_old_line():
    finding, = compare(BASE, changed(inputs=[MASK.model_copy(update={"index": 0})]),
                       "new.xml", old_name="old.xml").findings
    assert finding.line is None and "(line 10 of old.xml)" in finding.message
    assert "input 'input_ids' (tensor names input_ids) is gone" in finding.message


def test_a_file_on_one_side_only():
    assert codes(BASE, None) == ["IRV416"] and codes(None, BASE) == ["IRV416"]


def test_levels_and_selection_follow_the_configuration():
    new = changed(inputs=[tensor(0, "input_ids", "1,128"), MASK])
    found = compare(BASE, new, "n.xml", _config(severity={"input-shape-narrowed": "info"}))
    assert [f.level for f in found.findings] == ["info"]
    assert codes(BASE, new, ignore=["IRV4"]) == []
    assert codes(BASE, new, select=["IRV407"]) == ["IRV407"]


def _config(**values):
    from irvalidate.settings.config import Config
    return Config(**values)


def test_a_failing_rule_is_an_internal_error_not_a_crash(monkeypatch):
    from irvalidate.rules import input_added

    def broken(ctx):
        raise RuntimeError("boom")
        yield
    monkeypatch.setattr(input_added, "check", broken)
    found = compare(BASE, BASE, "n.xml").findings
    assert [f.code for f in found] == ["IRV000"] and "IRV402" in found[0].message
    assert compare(BASE, BASE, "n.xml", _config(ignore=["IRV000"])).findings == []


def test_matching_prefers_the_input_sharing_most_names():
    old = [tensor(0, "a b c")]
    new = [tensor(0, "a"), tensor(1, "b c")]
    found = match(old, new)
    assert [n.index for _, n in found.kept] == [1] and [t.index for t in found.added] == [0]


def test_two_outputs_of_one_port_each_keep_their_partner():
    """One port feeding two Results: both outputs bear its names, and a copy of the file
    matches each with its own (it was 'renamed' to itself, an error)."""
    outputs = [tensor(0, "y", layer="r0"), tensor(1, "y", layer="r1")]
    found = match(outputs, outputs)
    assert [(o.index, n.index) for o, n in found.kept] == [(0, 0), (1, 1)]
    assert not found.renamed and not found.removed and not found.added
    assert codes(model([IDS], outputs), model([IDS], outputs)) == []


def test_unnamed_tensors_match_by_layer_name():
    old = [tensor(0, "", layer="x"), tensor(1, "", layer="y")]
    new = [tensor(0, "", layer="y"), tensor(1, "", layer="x")]
    assert codes(model(old), model(new)) == ["IRV408"]


@pytest.mark.parametrize("old, new, kind", [
    ("3", "3", None), ("3", "4", "changed"), ("3", "?", "widened"), ("1..8", "0..16", "widened"),
    ("?", "3", "narrowed"), ("1..8", "2..8", "narrowed"), ("1..8", "4..16", "moved"),
])
def test_dim_change(old, new, kind):
    assert dim_change(dims(old)[0], dims(new)[0]) == kind


def axis(**contract) -> AxisSizesModel:
    values = dict(axis=1, exact=True, min=1, max=None, multiple_of=1, offset=0, values=None)
    return AxisSizesModel(**{**values, **contract})


@pytest.mark.parametrize("old, new, covered", [
    (axis(), axis(), True),
    (axis(), axis(values=[128]), False),
    (axis(values=[64, 128]), axis(multiple_of=64, min=64), True),
    (axis(multiple_of=64, min=64), axis(multiple_of=32, min=32), True),
    (axis(multiple_of=32, min=32), axis(multiple_of=64, min=64), False),
    (axis(multiple_of=32, min=64), axis(multiple_of=64, min=64), False),
    (axis(multiple_of=2, offset=1, min=1), axis(), True),
    (axis(min=1, max=8), axis(min=1, max=4), False),
    (axis(min=1, max=9000), axis(min=1), True),
    (axis(min=1, max=None), axis(min=1, max=10**6), False),
])
def test_axis_sizes_covered(old, new, covered):
    assert covers(new, old) is covered


def test_an_axis_pinned_is_an_error_only_when_both_are_exact():
    def with_axes(*axes):
        return changed(inputs=[tensor(0, "input_ids", axes=list(axes)), MASK])
    assert codes(with_axes(axis()), with_axes(axis(values=[128]))) == ["IRV413"]
    found = compare(with_axes(axis()), with_axes(axis(values=[128])), "n.xml").findings
    assert "axis 1 pinned: took 1 or more, now only 128" in found[0].message
    assert codes(with_axes(axis()), with_axes(axis(values=[128], exact=False))) == []
    assert codes(with_axes(axis(min=1, max=512)), with_axes(axis(min=1, max=256))) == ["IRV413"]
    assert codes(with_axes(axis()), changed()) == []  # not computed on one side


def test_every_compat_rule_is_documented_in_the_readme():
    from pathlib import Path
    text = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    for rule in COMPAT_RULES:
        assert f"| {rule.CODE} | {rule.SLUG} | {rule.LEVEL} |" in text
        assert "Passing" in (rule.__doc__ or "") and "Failing" in (rule.__doc__ or "")


def test_a_check_does_not_import_the_compat_rules():
    """They load on first use of the whole registry (rules, explain, SARIF, compat)."""
    import subprocess
    import sys
    sample = Path(__file__).parents[2] / "sample_models" / "valid" / "computed-target.xml"
    probe = ("import sys\nfrom irvalidate.cli.main import main\n"
             f"status = main([{str(sample)!r}])\n"
             "print(status, sorted(m for m in sys.modules if m.startswith('irvalidate.rules.')"
             " and m.endswith(('_removed', '_changed', '_compat'))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "0 []", done.stdout + done.stderr
