"""``--fix`` against the runtime on every op type irvalidate infers.

For each class of each op type in ``irvalidate.ops.support.registry.catalogue()`` (Gather-1, -7 and -8
are three classes) a valid model holds at least one layer of it (tests/support/everyop_models.py,
several independent layers per model); the reference is what ``ov.save_model`` writes of
``ov.Core().read_model`` of it (fixcheck.reference).  Then:

1. the valid model is left alone by ``--fix`` (bytes, inode, mtime);
2. seeded mutants, ``MUTANTS_PER_CLASS`` per class: one declared output dim of a layer of the
   class changed (a static value to another, static -> -1, or -1 -> static where the runtime
   infers -1), on the output port alone or on the input ports it feeds too.  Each is

   * fixed: after ``irvalidate.fix(path, write=True)`` every port declares the reference's
     dims, read_model loads the file, only the mutated lines changed, ``fix()`` without
     ``write`` proposed edits on those lines only and wrote nothing, and a second ``--fix``
     changes nothing;
   * refused: irvalidate writes nothing for the stale dim, and a finding on it says why (its
     value rests on something not inferred, or on values not evaluated: a loose layer);
     nothing else may be written either;
   * wrong: anything else (a dim written that is not the runtime's, a stale dim not caught,
     lines changed outside the mutated ones, a file read_model refuses, a second --fix that
     edits again).

The summary table (op type, mutants, fixed, refused, wrong) is printed; the test fails
listing the wrong ones.  ``NOT_BUILT`` says which classes no model holds, and why.
"""
from __future__ import annotations

import collections
import random
import re
import time
from pathlib import Path

import pytest

ov = pytest.importorskip("openvino")

from lxml import etree  # noqa: E402

import irvalidate  # noqa: E402
from irvalidate.fixing.run import FixError, fix_file  # noqa: E402
from irvalidate.ops.support import registry  # noqa: E402
from support import everyop_models  # noqa: E402
from support.fixcheck import assert_untouched, cli, outside_lines, ports, reference  # noqa: E402

MUTANTS_PER_CLASS = 3
#: (op type, first opset of the class) -> why no model here holds a layer of it; empty: every
#: class of the 206 types is built (Parameter, Constant and Result are not op types to fix)
NOT_BUILT: dict = {}
SKIPPED = {"Parameter", "Constant", "Const", "Result"}


def class_of(layer) -> tuple:
    """(op type as the catalogue spells it, first opset of its class) of an IR layer."""
    spec = registry.lookup(layer.get("type"), layer.get("version") or "")
    if spec is None or spec.infer is None or spec.source:
        return None
    return spec.name, spec.versions[0]


def catalogue_classes() -> set:
    return {(name, first) for name, firsts in registry.catalogue() for first in firsts
            if name not in SKIPPED}


def _dangling(found: dict) -> set:
    """Names of the layers with one output port and no input port: Consts.  LSTMCell-1's
    default peephole is one, unconnected, that the reader makes anew (with a new name)."""
    inputs = {k[0] for k in found if k[1] == "input"}
    return {k[0] for k in found if k[1] == "output" and k[0] not in inputs}


def same_ports(got: dict, ref_ports: dict) -> dict:
    """The reference's ports ``got`` declares otherwise (missing: None); layers only one side
    has must be unconnected Consts (they are left out)."""
    only = {k[0] for k in got} ^ {k[0] for k in ref_ports}
    assert only <= _dangling(got) | _dangling(ref_ports), f"layers only one side has: {only}"
    return {k: (got.get(k), v) for k, v in ref_ports.items()
            if k[0] not in only and got.get(k) != v}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """group -> (model.xml, the reference's ports)."""
    root = tmp_path_factory.mktemp("every_op")
    found = {}
    for name, build in everyop_models.GROUPS.items():
        folder = root / name
        folder.mkdir()
        xml = folder / "model.xml"
        ov.save_model(build(), str(xml), compress_to_fp16=False)
        found[name] = (xml, ports(reference(xml)))
    return found


def layers_by_class(saved) -> dict:
    """class -> [(group, layer name)] of the top-level layers of the saved models."""
    found = collections.defaultdict(list)
    for name, (xml, _) in saved.items():
        for layer in etree.parse(str(xml)).getroot().find("layers").findall("layer"):
            cls = class_of(layer)
            if cls is not None and cls[0] not in SKIPPED:
                found[cls].append((name, layer.get("name")))
    return found


# ------------------------------------------------------------------ coverage
def test_every_class_is_built(saved):
    built = set(layers_by_class(saved))
    missing = catalogue_classes() - built - set(NOT_BUILT)
    assert not missing, f"no model holds {sorted(missing)}"
    assert not set(NOT_BUILT) & built, "NOT_BUILT lists a class a model holds"


# ------------------------------------------------------------------ 1. valid models
@pytest.mark.parametrize("name", list(everyop_models.GROUPS))
def test_valid_model_is_left_alone(saved, name):
    xml, ref_ports = saved[name]
    assert same_ports(ports(xml), ref_ports) == {}  # the oracle agrees with the file as saved
    assert_untouched(xml)


# ------------------------------------------------------------------ 2. mutants
def _mutation(ref_ports: dict, layer_name: str, rnd: random.Random, k: int):
    """The ``k``-th mutation of a layer's outputs: (port position, axis, kind, new value, with
    consumers); kinds cycle through value / dynamic (static -> -1) / static (-1 -> k) as the
    reference allows, consumers every other one; None when the layer declares no dim."""
    choices = collections.defaultdict(list)
    for key, dims in ref_ports.items():
        if key[:2] != (layer_name, "output"):  # top-level: (layer, "output", position)
            continue
        i = key[2]
        for axis, d in enumerate(dims):
            choices["value" if d >= 0 else "static"].append((i, axis, d))
            if d >= 0:
                choices["dynamic"].append((i, axis, d))
    kinds = [kind for kind in ("value", "dynamic", "static") if choices[kind]]
    if not kinds:
        return None
    kind = kinds[k % len(kinds)]
    i, axis, d = rnd.choice(choices[kind])
    new = {"value": d + rnd.randint(1, 5), "dynamic": -1, "static": rnd.randint(1, 9)}[kind]
    return i, axis, kind, new, k % 2 == 1


def _mutate(xml: Path, dst: Path, layer_name: str, position: int, axis: int, new: int,
            consumers: bool) -> set:
    """Write the mutant; returns its 0-based lines edited."""
    data = xml.read_bytes()
    root = etree.fromstring(data)
    layer = root.find(f"layers/layer[@name='{layer_name}']")
    port = layer.findall("output/port")[position]
    ends = [port]
    if consumers:
        by_id = {lay.get("id"): lay for lay in root.find("layers").findall("layer")}
        for e in root.find("edges").findall("edge"):
            if e.get("from-layer") == layer.get("id") and e.get("from-port") == port.get("id"):
                ends += [p for p in by_id[e.get("to-layer")].findall("input/port")
                         if p.get("id") == e.get("to-port")]
    lines = data.splitlines(keepends=True)
    edited = set()
    for end in ends:
        i = end.findall("dim")[axis].sourceline - 1
        lines[i] = re.sub(rb"<dim>-?\d+</dim>", b"<dim>%d</dim>" % new, lines[i], count=1)
        edited.add(i)
    dst.parent.mkdir(parents=True)
    dst.write_bytes(b"".join(lines))
    dst.with_suffix(".bin").write_bytes(xml.with_suffix(".bin").read_bytes())
    return edited


def _blocked(path: Path) -> list:
    """(layer name, message, why) of the findings --fix writes nothing for, saying why."""
    return [(f.layer.name if f.layer is not None else None, f.message, f.fix.blocked)
            for f in fix_file(str(path)).findings if f.fix is not None and f.fix.blocked]


def _loose(path: Path, layer_name: str):
    """What makes a top-level layer's outputs loose (values irvalidate does not evaluate, so
    its ? and intervals may be wider than the runtime's: IRV109 and --fix claim nothing of
    them, ARCHITECTURE.md), or None."""
    from irvalidate.analysis import GraphAnalysis
    from irvalidate.ir.parser import parse
    from irvalidate.ir.weights import BinFile
    graph = next(iter(parse(str(path)).graphs()))
    analysis = GraphAnalysis(graph, BinFile(str(path.with_suffix(".bin")), str(path.parent)))
    layer = next(lay for lay in graph.layers if lay.name == layer_name)
    for port in layer.outputs:
        value = analysis.propagation.outputs.get((layer.id, port.id))
        if value is not None and value.loose is not None:
            return value.loose.describe()
    return None


def check(xml: Path, ref_ports: dict, path: Path, layer_name: str, mutation) -> tuple:
    """("fixed" | "refused" | "wrong", detail) for one mutant."""
    position, axis, kind, new, consumers = mutation
    allowed = _mutate(xml, path, layer_name, position, axis, new, consumers)
    mutant, mutant_ports = path.read_bytes(), ports(path)
    assert same_ports(mutant_ports, ref_ports)
    where = (f"{layer_name} output {position} axis {axis}: {kind} -> {new}"
             f"{' with consumers' if consumers else ''}")
    proposed = irvalidate.fix(path)
    if path.read_bytes() != mutant:
        return "wrong", f"{where}: fix() without write changed the file"
    if any(e.line - 1 not in allowed for e in proposed):
        return "wrong", f"{where}: fix() proposes {[(e.line, e.old, e.new) for e in proposed]}"
    try:
        irvalidate.fix(path, write=True)
    except FixError as err:  # leaving the file alone is right only where nothing is proven
        if "no error can be fixed" not in str(err):
            return "wrong", f"{where}: fix(write=True) refused to write: {err}"
    fixed, got = path.read_bytes(), ports(path)
    if set(got) != set(mutant_ports):
        return "wrong", f"{where}: ports added or lost"
    if outside_lines(mutant, fixed, allowed):
        return "wrong", f"{where}: changed {outside_lines(mutant, fixed, allowed)[:2]}"
    stale = set(same_ports(got, ref_ports))
    invented = {k: got[k] for k in stale if got[k] != mutant_ports[k]}
    if invented:
        return "wrong", f"{where}: wrote {invented} (runtime {[ref_ports[k] for k in invented]})"
    cli("--fix", path)
    if path.read_bytes() != fixed:
        return "wrong", f"{where}: a second --fix changed the file"
    try:
        ov.Core().read_model(str(path))
    except RuntimeError as err:
        if not stale:
            return "wrong", f"{where}: read_model refuses the fixed file: {str(err).strip()[-200:]}"
    if not stale:
        return "fixed", where
    blocked = _blocked(path)
    reasons, unexplained = set(), set()
    for name in {k[0] for k in stale}:  # a finding on the layer, or naming it, says why
        found = {why for layer, message, why in blocked if layer == name or f"'{name}'" in message}
        reasons |= found
        if not found:
            unexplained.add(name)
    loose = _loose(path, layer_name) if kind == "static" and unexplained else None
    if loose:  # a static dim inside the runtime's ? or interval, on a loose layer
        unexplained.clear()
        reasons.add(f"loose: the values computed by {loose} are not evaluated")
    if unexplained:
        return "wrong", (f"{where}: left {sorted(stale)} stale, no finding on "
                         f"{sorted(unexplained)} says why")
    return "refused", f"{where}: {'; '.join(sorted(reasons))}"


@pytest.fixture(scope="module")
def outcomes(saved, tmp_path_factory):
    """op type -> [(class, outcome, detail)]."""
    root = tmp_path_factory.mktemp("every_op_mutants")
    found = collections.defaultdict(list)
    kinds = collections.Counter()
    start = time.monotonic()
    for cls, layers in sorted(layers_by_class(saved).items()):
        rnd = random.Random(f"{cls[0]}-{cls[1]}")
        for k in range(MUTANTS_PER_CLASS):
            group, layer_name = rnd.choice(layers)
            xml, ref_ports = saved[group]
            mutation = _mutation(ref_ports, layer_name, rnd, k)
            if mutation is None:
                continue
            path = root / f"{cls[0]}-{cls[1]}-{k}" / "model.xml"
            outcome, detail = check(xml, ref_ports, path, layer_name, mutation)
            found[cls[0]].append((cls, outcome, f"{group}/{detail}"))
            kinds.update([mutation[2], "with consumers" if mutation[4] else "output only"])
    found["<seconds>"] = time.monotonic() - start
    found["<kinds>"] = kinds
    return found


def test_mutants_are_fixed_to_the_runtime_dims(outcomes):
    outcomes = dict(outcomes)
    seconds, kinds = outcomes.pop("<seconds>"), outcomes.pop("<kinds>")
    rows, wrong, totals = [], [], collections.Counter()
    for op_type, results in sorted(outcomes.items(), key=lambda item: item[0].lower()):
        count = collections.Counter(outcome for _, outcome, _ in results)
        totals.update(count)
        totals["mutants"] += len(results)
        rows.append(f"{op_type:52} {len(results):7} {count['fixed']:5} {count['refused']:7} "
                    f"{count['wrong']:5}")
        wrong += [f"{cls[0]}-{cls[1]} {detail}" for cls, outcome, detail in results
                  if outcome == "wrong"]
    print(f"\n{'op type':52} {'mutants':>7} {'fixed':>5} {'refused':>7} {'wrong':>5}")
    print("\n".join(rows))
    print(f"{len(rows)} op types, {totals['mutants']} mutants: {totals['fixed']} fixed to the "
          f"runtime's dims, {totals['refused']} refused, {totals['wrong']} wrong ({seconds:.1f} s); "
          f"{dict(sorted(kinds.items()))}")
    refused = [f"{cls[0]}-{cls[1]} {detail}" for results in outcomes.values()
               for cls, outcome, detail in results if outcome == "refused"]
    print("refused:\n" + "\n".join(refused))
    assert not wrong, f"{len(wrong)} mutants fixed wrong:\n" + "\n".join(wrong)
    assert len(rows) == len({name for name, _ in catalogue_classes()}), "an op type has no mutant"
    assert totals["fixed"] >= 0.9 * totals["mutants"], totals  # refusals stay the exception
    for kind in ("value", "dynamic", "static", "with consumers", "output only"):
        assert kinds[kind] >= 50, kinds


# ------------------------------------------------------------------ a bug found here
def _relu_beside_a_range(folder: Path, real: bool) -> tuple:
    """Relu of x [2,1..5] beside an unrelated Range-4 (of real Consts when ``real``); the
    Relu's output and the Result it feeds declare 3 for the interval: (file, reference's ports)."""
    mk, P, C, F = everyop_models.mk, everyop_models.P, everyop_models.C, everyop_models.F
    start, stop, step = (F(0.5), F(7.0), F(2.0)) if real else (C(0), C(7), C(2))
    m = everyop_models.model([mk(1, "Relu", [P([2, (1, 5)])]),
                              mk(4, "Range", [start, stop, step], {"output_type": "f32"})])
    xml = folder / "model.xml"
    ov.save_model(m, str(xml), compress_to_fp16=False)
    ref_ports = ports(reference(xml))
    _mutate(xml, folder / "mutant" / "model.xml", "Relu_1", 0, 1, 3, True)
    return folder / "mutant" / "model.xml", ref_ports


@pytest.mark.parametrize("real", [False, True], ids=["integer-range", "real-range"])
def test_a_real_range_does_not_silence_static_dims_elsewhere(tmp_path, real):
    """A Range of f32 Consts once made irvalidate count its Consts as unread (their numbers
    were first asked for as integers), which silenced IRV109 on every layer of the file."""
    path, ref_ports = _relu_beside_a_range(tmp_path, real)
    assert ports(path)[("Relu_1", "output", 0)] == [2, 3]
    irvalidate.fix(path, write=True)
    got = ports(path)
    assert got[("Relu_1", "output", 0)] == ref_ports[("Relu_1", "output", 0)] == [2, -1]
    assert same_ports(got, ref_ports) == {}
