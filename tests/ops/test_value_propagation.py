"""Value propagation: Broadcasts whose target_shape is a computed shape subgraph.

``shapegen`` builds random models in which every Broadcast's target_shape is computed from
``ShapeOf`` through Gather/Concat/Convert/Unsqueeze/Squeeze/Reshape/Slice/StridedSlice/
arithmetic/Range/ReduceProd, with Select and Add/Multiply layers downstream.  OpenVINO's
``read_model`` is the oracle: it resolves those targets by bound evaluation, and what it
infers is recorded per layer.

* Valid models (``read_model`` accepts them; the declared dims are what it infers): the
  validator must report no error.
* Mutated models: one declared output ``<dim>`` of a Broadcast, or of a downstream
  Select/Add/Multiply, is changed (a text edit of that one line) to a value outside what the
  runtime infers at that axis, which must be static or a bounded interval.  ``read_model``
  still accepts the file (it ignores declared dims).  The validator must report an error
  naming that layer id (top level), and the ``expected`` shape of its
  output-shape-mismatch finding must agree with the runtime at that axis (and, in a
  separate test, on the whole shape).
* Coverage: every op, version, attribute and Broadcast mode the generator is meant to
  produce occurs, so these tests cannot silently become vacuous.

The validator runs in-process on one batch of files (``irvalidate.cli.main.main`` with
``--format json``).  ``IRVALIDATE_VALUEPROP_MODELS`` sets the number of models (600; the
whole file takes 10-20 s).
"""
from __future__ import annotations

import dataclasses
import os
import random
import re
import shutil
from pathlib import Path

import pytest

ov = pytest.importorskip("openvino")
pytest.importorskip("lxml")

from support import shapegen  # noqa: E402
from support.jsonrun import (  # noqa: E402
    errors as _errors,
    names_layer as _names_layer,
    run_validator as _run,
    severity as _severity,
)

N_MODELS = int(os.environ.get("IRVALIDATE_VALUEPROP_MODELS", "600"))
#: below this many models the coverage test is skipped (too few to cover everything)
MIN_FOR_COVERAGE = 150
MAX_SHOWN = 20
OUTPUT_MISMATCH = ("IRV101", "output-shape-mismatch")


# --------------------------------------------------------------------------------------
# running the validator


def _is_output_mismatch(f: dict) -> bool:
    return f.get("rule") in OUTPUT_MISMATCH or f.get("slug") in OUTPUT_MISMATCH


def _fmt_findings(findings: list[dict]) -> str:
    if not findings:
        return "      (no findings)"
    lines = []
    for f in findings[:8]:
        layer = f.get("layer") or {}
        lines.append(f"      [{_severity(f)}] {f.get('rule')} layer {layer.get('id')}:"
                     f"{layer.get('name')}:{layer.get('type')} expected={f.get('expected')} "
                     f"declared={f.get('declared')}: {f.get('message', '')[:300]}")
    if len(findings) > 8:
        lines.append(f"      ... {len(findings) - 8} more")
    return "\n".join(lines)


def _report(title: str, cases: list[str], total: int) -> str:
    shown = "\n".join(cases[:MAX_SHOWN])
    more = f"\n  ... and {len(cases) - MAX_SHOWN} more" if len(cases) > MAX_SHOWN else ""
    return f"{title}: {len(cases)} of {total}\n{shown}{more}"


# --------------------------------------------------------------------------------------
# dims in irvalidate's notation (irvalidate/dims.py format_dim): 5, 2..8, ..8, 3.., ?


def fmt_dim(lo: int, hi: int | None) -> str:
    if hi is None:
        return "?" if lo == 0 else f"{lo}.."
    if lo == hi:
        return str(lo)
    return f"..{hi}" if lo == 0 else f"{lo}..{hi}"


def parse_shape_text(text: str | None) -> list[str] | None:
    """``"[2,1..8,?]"`` -> ``["2", "1..8", "?"]``; None for a dynamic rank or no text."""
    if not text or text.strip() == "[...]":
        return None
    inner = text.strip().strip("[]").strip()
    return [t.strip() for t in inner.split(",")] if inner else []


def test_dim_notation_matches_openvino():
    """The mapping used below agrees with OpenVINO's own text for the same dimensions."""
    for args in [(5,), (0,), (2, 8), (0, 8), (3, -1), (0, -1), (1, 2 ** 40)]:
        d = ov.Dimension(*args)
        hi = d.get_max_length()
        assert fmt_dim(d.get_min_length(), None if hi < 0 else hi) == str(d), args


# --------------------------------------------------------------------------------------
# fixtures


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> list[shapegen.ShapeModel]:
    root = tmp_path_factory.mktemp("shapegen")
    return [shapegen.generate(seed, root / f"seed{seed}") for seed in range(N_MODELS)]


@pytest.fixture(scope="module")
def valid_findings(models) -> dict[Path, list[dict]]:
    return _run([m.xml for m in models])[1]


@dataclasses.dataclass
class Mutation:
    model: shapegen.ShapeModel
    record: shapegen.LayerRecord
    axis: int
    old: str                  # the declared <dim> text before
    new: int
    xml: Path

    def describe(self) -> str:
        r = self.record
        lo, hi = r.dims[self.axis]             # type: ignore[index]
        return (f"  {self.xml} (seed {self.model.seed})\n"
                f"    layer id={r.id} name={r.name} type={r.type} {r.version} mode={r.mode}\n"
                f"    runtime shape {r.shape}; axis {self.axis} is {fmt_dim(lo, hi)}; declared "
                f"<dim>{self.old}</dim> -> <dim>{self.new}</dim>\n"
                f"    {r.chain}")


def _outside(rnd: random.Random, lo: int, hi: int) -> int:
    """A value outside [lo, hi]."""
    above = [hi + k for k in (1, 2, 3)]
    below = [v for v in (lo - 1, lo - 2, 0) if 0 <= v < lo]
    return rnd.choice(above + below if rnd.random() < 0.4 else above)


def _output_dim_elements(xml: Path, layer_id: str):
    from lxml import etree

    root = etree.parse(str(xml)).getroot()
    layer = next(l for l in root.find("layers").findall("layer") if l.get("id") == layer_id)
    return layer.find("output").find("port").findall("dim")


def mutate(m: shapegen.ShapeModel, role: str, out_dir: Path) -> Mutation | None:
    """Change one declared output dim of a ``role`` layer whose runtime dim is bounded."""
    rnd = random.Random(f"{m.seed}:{role}")
    cands = [(r, axis) for r in m.layers if r.role == role and r.dims is not None
             for axis, (lo, hi) in enumerate(r.dims) if hi is not None]
    if not cands:
        return None
    record, axis = rnd.choice(cands)
    lo, hi = record.dims[axis]                          # type: ignore[index]
    dims = _output_dim_elements(m.xml, record.id)
    assert len(dims) == len(record.dims), (m.xml, record)   # type: ignore[arg-type]
    new = _outside(rnd, lo, hi)
    lines = m.xml.read_bytes().decode("utf-8").splitlines(keepends=True)
    index = dims[axis].sourceline - 1
    assert len(re.findall(r"<dim>-?\d+</dim>", lines[index])) == 1, lines[index]
    old = re.search(r"<dim>(-?\d+)</dim>", lines[index]).group(1)   # type: ignore[union-attr]
    lines[index] = re.sub(r"<dim>-?\d+</dim>", f"<dim>{new}</dim>", lines[index])
    out_dir.mkdir(parents=True)
    xml = out_dir / "model.xml"
    xml.write_bytes("".join(lines).encode("utf-8"))
    shutil.copyfile(m.bin, out_dir / "model.bin")
    return Mutation(m, record, axis, old, new, xml)


@pytest.fixture(scope="module")
def mutations(models, tmp_path_factory) -> dict[str, list[Mutation]]:
    root = tmp_path_factory.mktemp("valueprop-mutated")
    out: dict[str, list[Mutation]] = {"broadcast": [], "downstream": []}
    for m in models:
        for role in out:
            mut = mutate(m, role, root / f"seed{m.seed}-{role}")
            if mut is not None:
                out[role].append(mut)
    return out


@pytest.fixture(scope="module")
def mutated_findings(mutations) -> dict[Path, list[dict]]:
    return _run([mut.xml for muts in mutations.values() for mut in muts])[1]


# --------------------------------------------------------------------------------------
# the generator


def test_generator_is_deterministic(tmp_path):
    for seed in (0, 5, 77):
        a = shapegen.generate(seed, tmp_path / f"a{seed}")
        b = shapegen.generate(seed, tmp_path / f"b{seed}")
        assert a.xml.read_bytes() == b.xml.read_bytes(), seed
        assert a.bin.read_bytes() == b.bin.read_bytes(), seed
        assert a.layers == b.layers, seed


def test_generated_models_load_with_the_recorded_shapes(models):
    core, bad = ov.Core(), []
    for m in models:
        shapes = {op.get_friendly_name(): str(op.get_output_partial_shape(0))
                  for op in core.read_model(str(m.xml)).get_ordered_ops()}
        if not any(r.role == "broadcast" for r in m.layers):
            bad.append(f"  {m.xml}: no Broadcast recorded")
        bad += [f"  {m.xml}: {r.name} recorded {r.shape}, read_model gives {shapes.get(r.name)}"
                for r in m.layers if shapes.get(r.name) != r.shape]
    assert not bad, _report("generated models disagree with read_model", bad, len(models))


# --------------------------------------------------------------------------------------
# (a) valid models: no error


def test_valid_models_have_no_errors(models, valid_findings):
    bad = []
    for m in models:
        errors = _errors(valid_findings[m.xml.resolve()])
        if errors:
            shapes = "\n".join(f"    {r.id}:{r.name}:{r.type} runtime {r.shape}  <- {r.chain}"
                               for r in m.layers
                               if any(_names_layer(f, r.id) for f in errors))
            bad.append(f"  {m.xml} (seed {m.seed})\n{shapes}\n{_fmt_findings(errors)}")
    assert not bad, _report("error findings on models that OpenVINO accepts", bad, len(models))


# --------------------------------------------------------------------------------------
# (b) mutated models: the mutated layer is named, with the runtime's dim as expected


def test_mutations_apply_and_the_runtime_ignores_them(models, mutations):
    """Each mutated file differs from its model in one line, and read_model still reads it
    and infers the same shape for the layer (it ignores declared dims)."""
    core, bad = ov.Core(), []
    for role, muts in mutations.items():
        # most models have a layer of each role with a static or bounded dim
        assert len(muts) >= 0.7 * len(models), f"only {len(muts)} {role} mutations"
        for mut in muts:
            before = mut.model.xml.read_bytes().splitlines()
            after = mut.xml.read_bytes().splitlines()
            diff = [i for i, (x, y) in enumerate(zip(before, after)) if x != y]
            if len(before) != len(after) or len(diff) != 1:
                bad.append(f"{mut.describe()}\n    changes lines {diff[:5]}")
                continue
            try:
                model = core.read_model(str(mut.xml))
            except RuntimeError as err:
                bad.append(f"{mut.describe()}\n    read_model rejects it: {str(err)[-300:]}")
                continue
            got = next(str(op.get_output_partial_shape(0)) for op in model.get_ordered_ops()
                       if op.get_friendly_name() == mut.record.name)
            if got != mut.record.shape:
                bad.append(f"{mut.describe()}\n    read_model now infers {got}")
    assert not bad, _report("mutations that do not behave as intended", bad,
                            sum(map(len, mutations.values())))


@pytest.mark.parametrize("role", ["broadcast", "downstream"])
def test_mutations_are_reported(mutations, mutated_findings, role):
    muts, bad = mutations[role], []
    for mut in muts:
        findings = mutated_findings[mut.xml.resolve()]
        if not any(_names_layer(f, mut.record.id) for f in _errors(findings)):
            bad.append(f"{mut.describe()}\n{_fmt_findings(findings)}")
    assert not bad, _report(f"{role} mutations whose layer no error names", bad, len(muts))


def _expected_of(mut: Mutation, findings: list[dict]) -> list[tuple[dict, list[str] | None]]:
    return [(f, parse_shape_text(f.get("expected"))) for f in _errors(findings)
            if _names_layer(f, mut.record.id) and _is_output_mismatch(f) and f.get("expected")]


def test_expected_dim_agrees_with_the_runtime(mutations, mutated_findings):
    """Where a output-shape-mismatch finding on the mutated layer gives ``expected``,
    its dim at the mutated axis is what the runtime infers there."""
    bad, checked = [], 0
    for mut in (m for muts in mutations.values() for m in muts):
        lo, hi = mut.record.dims[mut.axis]             # type: ignore[index]
        want = fmt_dim(lo, hi)
        for f, dims in _expected_of(mut, mutated_findings[mut.xml.resolve()]):
            checked += 1
            if dims is None or len(dims) != len(mut.record.dims) or dims[mut.axis] != want:
                bad.append(f"{mut.describe()}\n    expected {f.get('expected')}: axis "
                           f"{mut.axis} should be {want}\n{_fmt_findings([f])}")
    assert not bad, _report("expected shapes that disagree with the runtime at the mutated "
                            "axis", bad, checked)


def test_expected_shape_agrees_with_the_runtime(mutations, mutated_findings):
    """Stricter: the whole ``expected`` shape equals the runtime's (every axis)."""
    bad, checked = [], 0
    for mut in (m for muts in mutations.values() for m in muts):
        want = [fmt_dim(lo, hi) for lo, hi in mut.record.dims]   # type: ignore[union-attr]
        for f, dims in _expected_of(mut, mutated_findings[mut.xml.resolve()]):
            checked += 1
            if dims != want:
                bad.append(f"{mut.describe()}\n    expected {f.get('expected')}, runtime "
                           f"[{','.join(want)}]")
    assert not bad, _report("expected shapes that disagree with the runtime", bad, checked)


# --------------------------------------------------------------------------------------
# (c) coverage


def test_coverage(models, mutations):
    if len(models) < MIN_FOR_COVERAGE:
        pytest.skip(f"coverage needs >= {MIN_FOR_COVERAGE} models, "
                    f"IRVALIDATE_VALUEPROP_MODELS={len(models)}")
    import collections

    cov: collections.Counter = collections.Counter()
    for m in models:
        cov += shapegen.coverage(m.xml)
    required = list(shapegen.SUBGRAPH_KEYS)
    required += [f"Broadcast/{v}/{mode}" for v, mode in shapegen.BROADCAST_KINDS]
    required += ["Broadcast/opset1/pdpd with 3 inputs"]
    required += [f"downstream {t}" for t in ("Select", "Add", "Multiply")]
    required += [f"Parameter dim {k}" for k in ("static", "?", "interval")]
    for role, muts in mutations.items():
        kinds = collections.Counter(
            "static" if m.record.dims[m.axis][0] == m.record.dims[m.axis][1]  # type: ignore[index]
            else "interval" for m in muts)
        for kind in ("static", "interval"):
            cov[f"{role} mutation at a {kind} dim"] = kinds[kind]
            required.append(f"{role} mutation at a {kind} dim")
    missing = [k for k in required if cov[k] == 0]
    assert not missing, f"never generated ({len(missing)} of {len(required)}): {missing}\n" \
                        f"counts: {dict(sorted(cov.items()))}"


def test_a_quantized_weight_is_not_decoded_to_be_dropped(tmp_path, monkeypatch):
    """u8 weights feeding a Convert (every NNCF model) are far above the value cap: their
    element count is checked before any byte is decoded."""
    import irvalidate.ir.weights as binfile
    from irvalidate.engine.validation import validate_file
    from support.irbuilder import IR
    decoded = []
    real = binfile.decode_integers
    monkeypatch.setattr(binfile, "decode_integers",
                        lambda spec, raw: decoded.append(spec.count) or real(spec, raw))
    ir = IR()
    x = ir.parameter("64,1024")
    weight = ir.const(list(range(256)) * 256, et="u8", shape=[64, 1024])
    scale = ir.const([1], et="u8", shape=[])
    ir.result(ir.op("Multiply", [x, ir.op("Convert", [weight], [[64, 1024]],
                                           {"destination_type": "f32"}, out_precision="FP32")],
                    [[64, 1024]]))
    ir.result(ir.op("Convert", [scale], [[]], {"destination_type": "f32"}, out_precision="FP32"))
    path = ir.write(tmp_path)
    assert validate_file(str(path)).findings == []
    assert decoded == [1], decoded  # the scalar only
