"""``--fix`` against the runtime: after it, declared dims equal what OpenVINO writes.

The oracle is OpenVINO: for a model built with the openvino API and saved (``opcheck.save``,
or ``ovgen.generate`` for random ones), the reference is what ``ov.save_model`` writes of
``ov.Core().read_model(original)``, i.e. the dims the runtime infers, spelled by its own
serializer (static dims as numbers, ``?`` and intervals as -1).  Ports are matched by layer
name and position (ids may differ).  Valid models must be left alone (bytes, inode, mtime).
Mutants edit declared ``<dim>``s of layers whose whole upstream cone irvalidate infers
(``ops.registry``): a value, static -> -1, -1 -> static, a ``<dim>`` dropped or added, on
some consumers' input ports too or not.  After ``--fix`` every port must declare the
reference's dims, the file must load, only the mutated lines (ports, for a rank change) may
differ and a second ``--fix`` must be a no-op.  A stale dim of a layer irvalidate does not
infer must not be copied downstream; Parameter attributes against ports; port precisions.
"""
from __future__ import annotations

import collections
import functools
import json
import random
import re
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

import openvino.opset16 as ops  # noqa: E402
from lxml import etree  # noqa: E402

import irvalidate  # noqa: E402
from support import (  # noqa: E402
    opcheck,
    ovgen,
)
from support.fixcheck import (  # noqa: E402
    assert_untouched,
    cli,
    edit_line,
    inferred,
    line_of,
    outside_lines,
    ports,
    reference,
)

F32, BOOL = ov.Type.f32, ov.Type.boolean
N_GENERATED, N_PER_MODEL, N_VALID_GENERATED = 160, 12, 40


# ------------------------------------------------------------------ hand-built models
def _c(values, dtype=np.float32):
    return ops.constant(np.array(values, dtype=dtype))


_i = functools.partial(_c, dtype=np.int64)


def _named(node, name):
    node.set_friendly_name(name)
    return node


def broadcasting():
    x, y = ops.parameter([2, 3, 4], F32, name="x"), ops.parameter([3, 1], F32, name="y")
    z = ops.parameter(ov.PartialShape([-1, 3, ov.Dimension(2, 6)]), F32, name="z")
    cond = ops.parameter([1, 4], BOOL, name="cond")
    add = _named(ops.add(x, y), "add")
    sel = _named(ops.select(cond, add, _c(np.ones([4]))), "select")
    mul = _named(ops.multiply(sel, _c(np.ones([2, 1, 1]))), "mul")
    b3 = _named(ops.broadcast(_c(np.ones([3, 1])), _i([2, 3, 4])), "bcast_numpy")
    bid = _named(ops.broadcast(mul, _i([5, 1, 1, 1]), broadcast_spec="BIDIRECTIONAL"), "bcast_bidir")
    sub = _named(ops.subtract(b3, _c(np.ones([4]))), "sub")
    add_dyn = _named(ops.add(z, _c(np.ones([1, 3, 1]))), "add_dyn")
    return ov.Model([bid, sub, add_dyn], [x, y, z, cond], "broadcasting")


def unary():
    node = x = ops.parameter(ov.PartialShape([-1, 3, ov.Dimension(2, 5)]), F32, name="x")
    for i, make in enumerate((ops.relu, ops.sigmoid, ops.abs, ops.exp, ops.tanh, ops.negative,
                              ops.floor, lambda n: ops.clamp(n, -1.0, 1.0))):
        node = _named(make(node), f"unary_{i}")
    y = ops.parameter([4, 1], F32, name="y")
    return ov.Model([_named(ops.convert(node, "f16"), "convert"),
                     _named(ops.sqrt(_named(ops.relu(y), "relu")), "sqrt")], [x, y], "unary")


def concat():
    a, b = ops.parameter([2, 3, 4], F32, name="a"), ops.parameter([2, -1, 4], F32, name="b")
    dyn = _named(ops.concat([a, b, _c(np.ones([2, 1, 4]))], 1), "concat_dyn")
    return ov.Model([_named(ops.relu(dyn), "relu"), _named(ops.concat([a, a], -1), "concat_last")],
                    [a, b], "concat")


def fake_quantize():
    x = ops.parameter([1, 3, 8, 8], F32, name="x")
    fq = _named(ops.fake_quantize(x, _c(np.zeros([1, 3, 1, 1])), _c(np.ones([1, 1, 1, 1])),
                                  _c(np.zeros([1])), _c(np.ones([8])), 256), "fq")
    y = ops.parameter([-1, 3, 4], F32, name="y")
    fq_dyn = _named(ops.fake_quantize(y, _c(0.0), _c(1.0), _c(np.zeros([3, 1])), _c(1.0), 16), "fq_dyn")
    return ov.Model([fq, fq_dyn], [x, y], "fake_quantize")


def shape_subgraph():
    x = ops.parameter(ov.PartialShape([2, -1, 6]), F32, name="x")
    shape = _named(ops.shape_of(x), "shapeof")
    first = _named(ops.gather(shape, _i([0]), _i(0)), "gather_first")
    reshape = _named(ops.reshape(x, _named(ops.concat([first, _i([-1, 2])], 0), "target"), False),
                     "reshape")
    last = _named(ops.gather(shape, _i([2]), _i(0)), "gather_last")
    bcast = _named(ops.broadcast(_c(np.ones([1])), _named(ops.concat([last, _i([5])], 0), "bshape")),
                   "bcast")
    y = ops.parameter([4, 6], F32, name="y")
    swap = _named(ops.concat([ops.gather(ops.shape_of(y), _i([1]), _i(0)), _i([-1])], 0), "swap")
    return ov.Model([reshape, bcast, _named(ops.reshape(y, swap, False), "reshape_static")],
                    [x, y], "shape_subgraph")


MODELS = {f.__name__: f for f in (broadcasting, unary, concat, fake_quantize, shape_subgraph)}


# ------------------------------------------------------------------ mutants
def targets(root, ref_ports) -> list:
    """(layer, output port) of top-level layers irvalidate infers from Parameters and Consts
    alone, where the reference declares at least one dim."""
    layers = {layer.get("id"): layer for layer in root.find("layers").findall("layer")}
    sources = collections.defaultdict(list)
    for e in root.find("edges").findall("edge"):
        sources[e.get("to-layer")].append(e.get("from-layer"))

    @functools.cache
    def proven(lid):  # valid models are acyclic and small
        return inferred(layers[lid]) and all(proven(s) for s in sources[lid])
    return [(layer, port) for lid, layer in layers.items()
            if proven(lid) and layer.get("type") not in ("Parameter", "Const")
            for i, port in enumerate(layer.findall("output/port"))
            if ref_ports.get((layer.get("name"), "output", i))]


def mutate(xml: Path, dst: Path, rnd: random.Random, ref_ports: dict):
    """Write to ``dst`` a copy with 1-3 output ports edited (and maybe ports they feed);
    returns the mutant's 0-based lines --fix may change, the kinds of edits and the layer
    types edited, or None when no layer qualifies."""
    data = xml.read_bytes()
    root = etree.fromstring(data)
    cands = targets(root, ref_ports)
    if not cands:
        return None
    layers = {layer.get("id"): layer for layer in root.find("layers").findall("layer")}
    feeds = collections.defaultdict(list)
    for e in root.find("edges").findall("edge"):
        feeds[(e.get("from-layer"), e.get("from-port"))] += [
            p for p in layers[e.get("to-layer")].findall("input/port") if p.get("id") == e.get("to-port")]
    lines = data.splitlines(keepends=True)
    replaced, regions, kinds, types = {}, [], [], []
    for layer, port in rnd.sample(cands, min(len(cands), rnd.choice([1, 1, 2, 3]))):
        axis = rnd.randrange(len(port.findall("dim")))
        old = int(port.findall("dim")[axis].text)
        kind = rnd.choice(["value", "value", "dynamic", "drop", "add"])
        kind = "value" if kind == "dynamic" and old < 0 else kind
        ends = [port]
        if rnd.random() < 0.5:
            ends += [p for p in feeds[(layer.get("id"), port.get("id"))] if rnd.random() < 0.7]
        kinds += [kind, "with consumers" if len(ends) > 1 else "output only"]
        kinds += ["-1 made static"] if old < 0 and kind == "value" else []
        types.append(layer.get("type"))
        new = {"value": old + rnd.randint(1, 5) if old >= 0 else rnd.randint(1, 9),
               "dynamic": -1, "add": rnd.randint(1, 4), "drop": 0}[kind]
        for end in ends:
            i = end.findall("dim")[axis].sourceline - 1
            text = re.sub(rb"<dim>-?\d+</dim>", b"<dim>%d</dim>" % new, lines[i], count=1)
            replaced[i] = {"drop": b"", "add": text + lines[i]}.get(kind, text)
            first = end.sourceline - 1  # a rank change may rewrite <port> .. </port>
            regions.append((i, i) if kind in ("value", "dynamic")
                           else (first, first + len(end.findall("dim")) + 1))
    at, shift = [], 0  # where each original line is in the mutant
    for i in range(len(lines)):
        at.append(i + shift)
        shift += replaced[i].count(b"\n") - 1 if i in replaced else 0
    allowed = {n for first, last in regions for n in range(at[first], at[last] + 1)}
    dst.parent.mkdir(parents=True)
    dst.write_bytes(b"".join(replaced.get(i, line) for i, line in enumerate(lines)))
    if xml.with_suffix(".bin").exists():
        shutil.copyfile(xml.with_suffix(".bin"), dst.with_suffix(".bin"))
    return allowed, kinds, types


def check_mutant(xml: Path, ref_ports: dict, dst: Path, rnd: random.Random, stats: dict) -> None:
    made = mutate(xml, dst, rnd, ref_ports)
    if made is None:
        return
    (allowed, kinds, types), path = made, dst
    mutant = path.read_bytes()
    assert ports(path) != ref_ports, f"{path}: the mutation changed nothing"
    stats["tried"] += 1
    stats["kinds"].update(kinds)
    stats["types"].update(types)
    where = f"{path} ({', '.join(kinds)}; {', '.join(types)})"
    edits = irvalidate.fix(path)
    if not edits or any(e.line - 1 not in allowed for e in edits) or path.read_bytes() != mutant:
        stats["api"].append(f"{where}: fix() gave {[(e.line, e.old, e.new) for e in edits]}")
    cli("--fix", path)
    fixed, got = path.read_bytes(), ports(path)
    wrong = {k: (got.get(k), v) for k, v in ref_ports.items() if got.get(k) != v}
    if wrong or set(got) != set(ref_ports):
        stats["ports"].append(f"{where}: (fixed, runtime) {list(wrong.items())[:4]}")
    else:
        stats["agree"] += 1
    try:
        ov.Core().read_model(str(path))
    except RuntimeError as err:
        stats["load"].append(f"{where}: {str(err).strip().splitlines()[-1]}")
    if outside_lines(mutant, fixed, allowed):
        stats["lines"].append(f"{where}: {outside_lines(mutant, fixed, allowed)[:3]}")
    cli("--fix", path)
    if path.read_bytes() != fixed:
        stats["again"].append(f"{where}: a second --fix changed the file")


@pytest.fixture(scope="module")
def mutants(tmp_path_factory):
    root = tmp_path_factory.mktemp("mutants")
    stats = {"tried": 0, "agree": 0, "kinds": collections.Counter(), "types": collections.Counter(),
             "api": [], "ports": [], "load": [], "lines": [], "again": []}
    start = time.monotonic()
    for name, build in MODELS.items():
        xml = opcheck.save(build(), root / name)
        ref_ports = ports(reference(xml))
        for k in range(N_PER_MODEL):
            check_mutant(xml, ref_ports, root / name / f"m{k}" / "model.xml",
                         random.Random(f"{name}{k}"), stats)
    for seed in range(N_GENERATED):
        gm = ovgen.generate(seed, root / f"gen{seed}")
        check_mutant(gm.xml, ports(reference(gm.xml)), gm.xml.parent / "mutant" / "model.xml",
                     random.Random(seed), stats)
    stats["seconds"] = time.monotonic() - start
    return stats


# ------------------------------------------------------------------ 1. valid models
@pytest.mark.parametrize("name", MODELS)
def test_valid_model_is_left_alone(tmp_path, name):
    path = opcheck.save(MODELS[name](), tmp_path)
    assert ports(path) == ports(reference(path))  # the oracle agrees with the file as saved
    assert_untouched(path)


def test_valid_generated_models_are_left_alone(tmp_path):
    for seed in range(N_VALID_GENERATED):
        assert_untouched(ovgen.generate(seed, tmp_path / f"s{seed}").xml)


# ------------------------------------------------------------------ 2. mutants
@pytest.mark.parametrize("check", ["ports", "api", "load", "lines", "again"])
def test_mutants(mutants, check):
    """ports: fixed to the reference's dims; api: fix() proposes edits on mutated lines only
    and writes nothing; load: read_model loads the fixed file; lines: nothing else changed;
    again: a second --fix is a no-op."""
    assert not mutants[check], f"{len(mutants[check])} mutants:\n" + "\n".join(mutants[check][:20])


def test_mutant_summary(mutants):
    kinds, types = mutants["kinds"], mutants["types"]
    print(f"\n--fix mutants: {mutants['tried']} tried, {mutants['agree']} fixed to the runtime's "
          f"dims in {mutants['seconds']:.1f} s; {dict(sorted(kinds.items()))}")
    assert mutants["tried"] >= 150
    assert mutants["agree"] == mutants["tried"]
    for kind in ("value", "dynamic", "drop", "add", "with consumers", "output only", "-1 made static"):
        assert kinds[kind] >= 5, (kind, kinds)
    wanted = {"Add", "Multiply", "Select", "Broadcast", "FakeQuantize", "Concat", "ShapeOf", "Gather",
              "Reshape", "ReLU", "Convert"}
    assert wanted <= set(types), wanted - set(types)


# ------------------------------------------------------------------ 3. layers not inferred
@pytest.mark.parametrize("stale_input", [True, False], ids=["consistent", "output-only"])
@pytest.mark.parametrize("kind", ["ReduceSum", "ReduceProd"])
def test_stale_dim_of_a_layer_not_inferred_is_not_copied(tmp_path, kind, stale_input):
    x = ops.parameter([2, 3, 4], F32, name="x")
    make = {"ReduceSum": ops.reduce_sum, "ReduceProd": ops.reduce_prod}[kind]
    add = _named(ops.add(_named(make(x, _i([2]), keep_dims=True), "red"), _c(np.ones([3, 1]))), "add")
    path = opcheck.save(ov.Model([_named(ops.relu(add), "relu")], [x], kind), tmp_path)
    data = path.read_bytes()
    # as a runtime extension's op, the layer stays opaque to irvalidate whatever ops it infers
    data = edit_line(data, line_of(data, "//layer[@name='red']"), b'version="opset1"',
                     b'version="extension"')
    assert not inferred(etree.fromstring(data).find("layers/layer[@name='red']"))
    assert ports(path)[("red", "output", 0)] == [2, 3, 1]
    # dim 0 of red's output 2 -> 6: then add and relu would infer [6,3,1] from it
    data = edit_line(data, line_of(data, "//layer[@name='red']/output/port/dim[1]"), b">2<", b">6<")
    if stale_input:
        data = edit_line(data, line_of(data, "//layer[@name='add']/input/port[1]/dim[1]"), b">2<", b">6<")
    path.write_bytes(data)
    findings = json.loads(cli("--format", "json", "--diff", path)[1])["files"][0]["findings"]
    downstream = [f for f in findings if (f["layer"] or {}).get("name") in ("add", "relu")]
    assert downstream, findings
    for f in downstream:
        assert f["fix"]["edits"] == [] and "'red'" in (f["fix"]["unfixable"] or ""), f
    cli("--fix", path)
    got = ports(path)
    for key in [("add", "output", 0), ("relu", "input", 0), ("relu", "output", 0)]:
        assert got[key] == [2, 3, 1], (key, got[key])
    assert got[("add", "input", 0)] == ([6, 3, 1] if stale_input else [2, 3, 1])


# ------------------------------------------------------------------ 4. Parameter attribute vs port
def _parameter_model():
    x, y = ops.parameter([2, 3, 4], F32, name="x"), ops.parameter([3, 1], F32, name="y")
    relu = _named(ops.relu(_named(ops.add(x, y), "add")), "relu")
    return ov.Model([_named(ops.multiply(relu, _c(np.ones([4]))), "mul")], [x, y], "parameter")


X_PORT = "//layer[@name='x']/output/port"
PARAMETER_CASES = {  # edits (xpath, old, new); "original": --fix restores the saved file
    "shape attribute": ([("//layer[@name='x']/data", b'shape="2,3,4"', b'shape="5,3,4"')], "original"),
    "shape on the port": ([(X_PORT + "/dim[1]", b">2<", b">5<")], "original"),
    # the runtime refuses Add([2,3,4], [3,2]) (IRV102): the gate judges the file after the edit
    "shape attribute the runtime refuses": ([("//layer[@name='y']/data", b'shape="3,1"',
                                              b'shape="3,2"')], "original"),
    # round 1 decides x's port, round 2 fixes relu's output
    "port and downstream": ([(X_PORT + "/dim[1]", b">2<", b">5<"),
                             ("//layer[@name='relu']/output/port/dim[1]", b">2<", b">5<")], "original"),
    "element_type attribute": ([("//layer[@name='x']/data", b'"f32"', b'"f16"')], "original"),
    "precision on the port": ([(X_PORT, b'"FP32"', b'"FP16"')], "original"),
    # the attribute and every layer after it say 5: the port alone is stale, the runtime decides
    "graph follows the attribute": ([("//layer[@name='x']/data", b'shape="2,3,4"', b'shape="5,3,4"')]
                                    + [("(//dim[text()='2'])[2]", b">2<", b">5<")] * 7, "runtime"),
}


@pytest.mark.parametrize("case", PARAMETER_CASES)
def test_parameter_attribute_against_port(tmp_path, case):
    path = opcheck.save(_parameter_model(), tmp_path)
    original = data = path.read_bytes()
    steps, expected = PARAMETER_CASES[case]
    for xpath, old, new in steps:
        data = edit_line(data, line_of(data, xpath), old, new)
    path.write_bytes(data)
    runtime = ports(reference(path)) if expected == "runtime" else None  # the runtime's view
    assert "IRV214" in {e.rule for e in irvalidate.fix(path)}
    assert cli("--fix", path)[0] == 0
    shapes = [str(i.get_partial_shape()) for i in ov.Core().read_model(str(path)).inputs]
    if expected == "original":
        assert path.read_bytes() == original
        assert shapes == ["[2,3,4]", "[3,1]"]
    else:
        assert ports(path) == runtime
        assert outside_lines(data, path.read_bytes(), {line_of(data, X_PORT + "/dim[1]")}) == []
        assert shapes == ["[5,3,4]", "[3,1]"]


# ------------------------------------------------------------------ 5. precisions
PRECISION_CASES = [  # (model, consumer, input position, the file's precision, the mutant's)
    ("broadcasting", "mul", 1, b"FP32", b"FP16"),
    ("unary", "unary_3", 0, b"FP32", b"FP16"),
    ("shape_subgraph", "gather_first", 0, b"I64", b"I32"),
    ("broadcasting", "select", 0, b"BOOL", b"U8"),
    ("unary", "sqrt", 0, b"f32", b"f16"),  # a file that spells precisions as element types
]


@pytest.mark.parametrize("model,layer,position,right,wrong", PRECISION_CASES)
def test_input_precision_is_restored(tmp_path, model, layer, position, right, wrong):
    path = opcheck.save(MODELS[model](), tmp_path)
    if right == b"f32":
        path.write_bytes(path.read_bytes().replace(b'precision="FP32"', b'precision="f32"'))
    original = path.read_bytes()
    index = line_of(original, f"//layer[@name='{layer}']/input/port[{position + 1}]")
    path.write_bytes(edit_line(original, index, b'"%s"' % right, b'"%s"' % wrong))
    edits = irvalidate.fix(path)
    assert [(e.line, e.old, e.new) for e in edits] == [(index + 1, wrong.decode(), right.decode())]
    assert cli("--fix", path)[0] == 0
    assert path.read_bytes() == original


@pytest.mark.parametrize("layer,right,wrong", [("relu", b"FP16", b"FP32"), ("neg", b"I32", b"I64")])
def test_precision_set_by_an_attribute_after_a_layer_not_inferred(tmp_path, layer, right, wrong):
    x = ops.parameter([2, 3, 4], F32, name="x")
    red = _named(ops.reduce_sum(x, _i([2]), keep_dims=True), "red")
    relu = _named(ops.relu(_named(ops.convert(red, "f16"), "convert")), "relu")
    neg = _named(ops.negative(_named(ops.shape_of(red, "i32"), "shapeof")), "neg")
    path = opcheck.save(ov.Model([relu, neg], [x]), tmp_path)
    original = path.read_bytes()
    index = line_of(original, f"//layer[@name='{layer}']/input/port")
    path.write_bytes(edit_line(original, index, b'"%s"' % right, b'"%s"' % wrong))
    cli("--fix", path)
    assert path.read_bytes() == original
