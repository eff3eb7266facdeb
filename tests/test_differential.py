"""Differential tests: irvalidate against OpenVINO's own reader on random models.

* Valid models: ``ovgen.generate`` builds random models with the openvino API; every one is
  accepted by ``ov.Core().read_model`` (the generator asserts it).  The validator must report
  no finding of severity "error" on them and exit with 0.
* Mutated models: one layer of a valid model is corrupted (a declared output dim, the output
  rank, a declared input dim, or a value of a Broadcast's constant target_shape in the .bin).
  The validator must report an error finding whose ``layer.id`` is that layer.  For the XML
  mutations ``read_model`` still loads the model: OpenVINO ignores declared port dims.
* Parameter shape changes: OpenVINO decides validity; a rejected model must get an error on
  a downstream layer, an accepted one (re-saved by OpenVINO) must get none.
* Benign rewrites (enum case, aliases, default attributes, -1 dims, type case, opset
  version, layer/edge order, ids, Const size): OpenVINO reads the same model, so no new error.
* Computed Broadcast targets (ShapeOf/Concat/Gather/Multiply): the mutated layer is named
  (tests/test_value_propagation.py covers the other shape operations).

The validator runs in-process (``irvalidate.cli.main.main``) on a whole batch of files at once;
set ``IRVALIDATE_DIFF_SUBPROCESS=1`` to run ``python -m irvalidate`` instead.  The number of
seeds can be changed with ``IRVALIDATE_DIFF_VALID`` (600), ``IRVALIDATE_DIFF_MUTATED`` (200 per
kind) and ``IRVALIDATE_DIFF_BENIGN`` (100 per kind).
"""
from __future__ import annotations

import collections
import os

import pytest

ov = pytest.importorskip("openvino")

from support import ovgen  # noqa: E402
from support.jsonrun import (  # noqa: E402
    errors as _errors,
    names_layer as _names_layer,
    run_validator,
    severity as _severity,
)

N_VALID = int(os.environ.get("IRVALIDATE_DIFF_VALID", "600"))
N_MUTATED = int(os.environ.get("IRVALIDATE_DIFF_MUTATED", "200"))
BATCH = 50
MUTATION_KINDS = list(ovgen.MUTATORS)

# An applicable mutation must exist for at least this share of the seeds, so that the
# mutation tests cannot silently become vacuous when the generator changes.
MIN_APPLICABLE = {"output_dims": 0.85, "output_rank": 0.85, "input_dims": 0.85,
                  "target_constant": 0.5}


def _batches(n: int) -> list[tuple[int, int]]:
    return [(lo, min(lo + BATCH, n)) for lo in range(0, n, BATCH)]


# --------------------------------------------------------------------------------------
# running the validator


def _fmt(findings: list[dict]) -> str:
    lines = []
    for f in findings:
        layer = f.get("layer") or {}
        lines.append(f"    [{_severity(f)}] {f.get('rule')} line {f.get('line')} "
                     f"layer {layer.get('id')}:{layer.get('name')}:{layer.get('type')}: "
                     f"{f.get('message')}")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------
# fixtures: generate the valid models once per session


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[int, ovgen.GeneratedModel]:
    root = tmp_path_factory.mktemp("ovgen")
    n = max(N_VALID, N_MUTATED)
    return {seed: ovgen.generate(seed, root / f"seed{seed}") for seed in range(n)}


# --------------------------------------------------------------------------------------
# the generator itself


def test_generator_is_deterministic(tmp_path):
    for seed in (0, 1, 17, 123):
        a = ovgen.generate(seed, tmp_path / f"a{seed}")
        b = ovgen.generate(seed, tmp_path / f"b{seed}")
        assert a.xml.read_bytes() == b.xml.read_bytes()
        assert a.bin.read_bytes() == b.bin.read_bytes()


def test_generator_models_load_and_cover_all_rules(models):
    """Every model loads in OpenVINO, has 5..40 layers, and all ops/modes occur."""
    core = ov.Core()
    cov: collections.Counter = collections.Counter()
    for seed in range(N_VALID):
        gm = models[seed]
        core.read_model(str(gm.xml))
        assert ovgen.MIN_LAYERS <= gm.n_layers <= ovgen.MAX_LAYERS, (seed, gm.n_layers)
        cov += ovgen.coverage(gm.xml)
    if N_VALID < 300:
        return
    arithmetic_like = ovgen.ARITHMETIC + ovgen.COMPARISON + ovgen.LOGICAL + ovgen.BITWISE \
        + ovgen.SHIFTS
    required = [f"{op}/{mode}" for op in arithmetic_like for mode in ("numpy", "none")]
    required += [f"{op}/pdpd/axis=-1" for op in arithmetic_like]
    required += [f"Select/{m}" for m in ("numpy", "none", "pdpd/axis=-1", "pdpd/axis>=0")]
    required += ["FakeQuantize/numpy"]
    required += [f"Broadcast/opset1/{m}" for m in ("numpy", "none", "pdpd/axis=-1",
                                                  "pdpd/axis>=0")]
    required += [f"Broadcast/opset3/{m}" for m in ("numpy", "explicit", "bidirectional",
                                                  "pdpd/axis=-1", "pdpd/axis>=0")]
    required += [f"Broadcast target Const {t}" for t in ("i64", "i32", "u8", "i16")]
    required += [f"Broadcast target from {t}" for t in ("ShapeOf", "Concat", "Parameter")]
    required += ["Parameter dynamic rank", "Parameter scalar", "Parameter with ? dim",
                 "Parameter with interval dim", "Const scalar", "Convert", "ReLU", "Sigmoid"]
    missing = [k for k in required if cov[k] == 0]
    assert not missing, f"generator coverage lacks {missing}"
    pdpd_nonneg = sum(v for k, v in cov.items() if k.endswith("pdpd/axis>=0")
                      and not k.startswith(("Broadcast", "Select")))
    assert pdpd_nonneg > 50


# --------------------------------------------------------------------------------------
# valid models: no error


@pytest.mark.parametrize("lo,hi", _batches(N_VALID), ids=lambda v: str(v))
def test_valid_models_have_no_errors(models, lo, hi):
    batch = [models[s] for s in range(lo, hi)]
    code, per_file, stderr = run_validator([gm.xml for gm in batch])
    bad = []
    for gm in batch:
        errors = _errors(per_file[gm.xml.resolve()])
        if errors:
            bad.append(f"  seed {gm.seed}: {gm.xml}\n{_fmt(errors)}")
    assert not bad, "error findings on models that OpenVINO accepts:\n" + "\n".join(bad)
    assert code == 0, f"exit code {code} on valid models {lo}..{hi - 1}\n{stderr[-4000:]}"


# --------------------------------------------------------------------------------------
# mutated models: the mutated layer must be named in an error


def _contradicts(declared: list[int], ps) -> bool:
    """Whether a declared port shape contradicts an inferred ov.PartialShape."""
    if ps.rank.is_dynamic:
        return False
    if len(declared) != ps.rank.get_length():
        return True
    for value, dim in zip(declared, ps):
        if value < 0:
            continue
        hi = dim.get_max_length()
        if value < dim.get_min_length() or (hi >= 0 and value > hi):
            return True
    return False


def _check_runtime_view(m: ovgen.Mutation) -> None:
    """What OpenVINO makes of the mutated model (documents that it ignores declared dims)."""
    core = ov.Core()
    if m.kind == "target_constant":
        try:
            model = core.read_model(str(m.xml))
        except RuntimeError:
            return     # the new target is inconsistent with the data: OpenVINO rejects it
    else:
        # declared port dims are never checked by the reader: the model still loads
        model = core.read_model(str(m.xml))
    if m.kind == "input_dims":
        return
    from lxml import etree
    layer = next(l for l in etree.parse(str(m.xml)).getroot().find("layers")
                 if l.get("id") == m.layer_id)     # top level only: bodies reuse ids
    declared = [int(d.text) for d in layer.find("output/port").findall("dim")]
    node = next(o for o in model.get_ordered_ops() if o.get_friendly_name() == m.layer_name)
    inferred = node.get_output_partial_shape(0)
    assert _contradicts(declared, inferred), \
        f"mutation did not change anything: declared {declared}, OpenVINO infers {inferred}"


@pytest.mark.parametrize("kind", MUTATION_KINDS)
@pytest.mark.parametrize("lo,hi", _batches(N_MUTATED), ids=lambda v: str(v))
def test_mutations_are_reported(models, tmp_path, kind, lo, hi):
    mutator = ovgen.MUTATORS[kind]
    mutations: list[ovgen.Mutation] = []
    for seed in range(lo, hi):
        m = mutator(models[seed], tmp_path / f"seed{seed}")
        if m is not None:
            _check_runtime_view(m)
            mutations.append(m)
    assert len(mutations) >= MIN_APPLICABLE[kind] * (hi - lo), \
        f"only {len(mutations)} of {hi - lo} seeds admit a {kind} mutation"
    code, per_file, stderr = run_validator([m.xml for m in mutations])
    bad = []
    for m in mutations:
        findings = per_file[m.xml.resolve()]
        hits = [f for f in _errors(findings) if _names_layer(f, m.layer_id)]
        if not hits:
            bad.append(f"  seed {m.xml.parent.name}: {m.xml}\n    mutated layer id={m.layer_id} "
                       f"name={m.layer_name} type={m.layer_type}: {m.detail}\n"
                       f"{_fmt(findings) or '    (no findings)'}")
    assert not bad, f"{kind}: mutated layer not named in an error finding " \
                    f"({len(bad)} of {len(mutations)}):\n" + "\n".join(bad)
    assert code == 1, f"exit code {code} on mutated models\n{stderr[-4000:]}"


# --------------------------------------------------------------------------------------
# benign rewrites: OpenVINO reads the same model, so the validator must stay silent


N_BENIGN = int(os.environ.get("IRVALIDATE_DIFF_BENIGN", "100"))


@pytest.mark.parametrize("kind", ovgen.BENIGN_KINDS)
def test_benign_rewrites_have_no_errors(models, tmp_path, kind):
    """Upper-case enums, ``explicit`` for ``none``, omitted default attributes, ``-1`` dims,
    lower-case types, other opset versions of the same class, shuffled layers/edges,
    renumbered ids and an oversized Const ``size``: all read identically by OpenVINO, so
    they must not add an error finding.

    Errors are compared with those on the unmodified model (by rule and layer name), so a
    failure here is specific to the rewrite; errors on unmodified models are the business
    of ``test_valid_models_have_no_errors``.
    """
    rewritten = []
    for seed in range(N_BENIGN):
        gm = models[seed]
        r = ovgen.rewrite_benign(gm, tmp_path / f"seed{seed}", kind)
        if r is None:
            continue
        xml, _, detail = r
        # the rewrite must not change what OpenVINO infers (so the model stays valid)
        assert ovgen.inferred_shapes(xml) == ovgen.inferred_shapes(gm.xml), (xml, detail)
        rewritten.append((gm, xml, detail))
    assert len(rewritten) >= N_BENIGN // 2, f"{kind} applies to only {len(rewritten)} seeds"
    paths = [xml for _, xml, _ in rewritten] + [gm.xml for gm, _, _ in rewritten]
    code, per_file, stderr = run_validator(paths)

    def keys(findings):
        return {(f.get("rule"), (f.get("layer") or {}).get("name")) for f in _errors(findings)}

    bad = []
    for gm, xml, detail in rewritten:
        before = keys(per_file[gm.xml.resolve()])
        new_errors = [f for f in _errors(per_file[xml.resolve()])
                      if (f.get("rule"), (f.get("layer") or {}).get("name")) not in before]
        if new_errors:
            bad.append(f"  seed {gm.seed}: {xml}\n    {detail}\n{_fmt(new_errors)}")
    assert not bad, f"{kind}: the rewrite adds error findings, yet OpenVINO reads the same " \
                    f"model:\n" + "\n".join(bad)
    assert code in (0, 1), f"exit code {code}\n{stderr[-4000:]}"


# --------------------------------------------------------------------------------------
# beyond constant folding: Broadcast whose target_shape is a ShapeOf/Concat/Gather subgraph


def test_computed_target_output_dims_are_reported(models, tmp_path):
    """Broadcasts whose target_shape is a ShapeOf/Concat/Gather/Multiply subgraph: OpenVINO
    resolves it by bound evaluation, and so must the validator to name a wrong dim."""
    mutations = []
    for seed in range(N_MUTATED):
        m = ovgen.mutate_output_dims(models[seed], tmp_path / f"seed{seed}", select="computed")
        if m is not None:
            _check_runtime_view(m)
            mutations.append(m)
    assert mutations
    code, per_file, stderr = run_validator([m.xml for m in mutations])
    bad = [f"  {m.xml}: layer id={m.layer_id} {m.layer_name}: {m.detail}"
           for m in mutations
           if not any(_names_layer(f, m.layer_id) for f in _errors(per_file[m.xml.resolve()]))]
    assert not bad, f"{len(bad)} of {len(mutations)} not named:\n" + "\n".join(bad[:20])


# --------------------------------------------------------------------------------------
# Parameter shape changes: OpenVINO decides whether the result is valid


@pytest.mark.parametrize("lo,hi", _batches(N_MUTATED), ids=lambda v: str(v))
def test_parameter_shape_changes_agree_with_openvino(models, tmp_path, lo, hi):
    """Change one dim of a Parameter whose downstream layers are all broadcasting layers
    with constant shape inputs.  If ``read_model`` rejects the result, the validator must
    report an error on one of those layers; if it accepts it, the model as OpenVINO
    re-saves it (declared dims refreshed) must get no error."""
    core = ov.Core()
    rejected, accepted = [], []
    for seed in range(lo, hi):
        m = ovgen.mutate_parameter_shape(models[seed], tmp_path / f"seed{seed}")
        if m is None:
            continue
        try:
            model = core.read_model(str(m.xml))
        except RuntimeError as err:
            rejected.append((m, str(err).strip().splitlines()[-1]))
            continue
        resaved = tmp_path / f"seed{seed}" / "resaved" / "model.xml"
        resaved.parent.mkdir(parents=True)
        ov.save_model(model, str(resaved), compress_to_fp16=False)
        if not resaved.with_suffix(".bin").exists():
            resaved.with_suffix(".bin").write_bytes(b"")
        accepted.append((m, resaved))
    assert rejected and accepted, (len(rejected), len(accepted))
    originals = [models[s].xml for s in range(lo, hi)]
    code, per_file, stderr = run_validator([m.xml for m, _ in rejected] +
                                           [x for _, x in accepted] + originals)
    bad = []
    for m, why in rejected:
        hits = [f for f in _errors(per_file[m.xml.resolve()])
                if (f.get("layer") or {}).get("name") in m.affected]
        if not hits:
            bad.append(f"  OpenVINO rejects {m.xml} ({m.detail}): {why}\n"
                       f"{_fmt(per_file[m.xml.resolve()]) or '    (no findings)'}")
    for m, x in accepted:
        # errors that the unmodified model already gets belong to test_valid_models_...
        original = models[int(m.xml.parent.name[len("seed"):])].xml
        before = {(f.get("rule"), (f.get("layer") or {}).get("name"))
                  for f in _errors(per_file[original.resolve()])}
        errors = [f for f in _errors(per_file[x.resolve()])
                  if (f.get("rule"), (f.get("layer") or {}).get("name")) not in before]
        if errors:
            bad.append(f"  OpenVINO accepts {x} ({m.detail}) but:\n{_fmt(errors)}")
    assert not bad, "validator disagrees with OpenVINO:\n" + "\n".join(bad)
