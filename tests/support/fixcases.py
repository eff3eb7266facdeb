"""A seeded set of --fix cases scored against the runtime (issue 23's differential run).

Every case starts from a genuine IR written by ``ov.save_model`` and edits one thing:

* ``body dim``: one declared ``<dim>`` of a layer inside a TensorIterator, Loop or If body,
  an If in a Loop's body included (its output port, and on some cases the input ports it
  feeds, as a stale export would);
* ``outer dim``: one declared ``<dim>`` of a TensorIterator's, Loop's or If's output port
  (the outer side of a port map), alone or with its consumers;
* ``body parameter``: a body Parameter's ``shape`` attribute, its port, or both, where the
  outer layer sets its shape through the port map;
* ``parameter shape`` / ``const shape``: a Parameter's or Const's ``shape`` attribute, its
  port and consumers keeping the right dims (the runtime reads the attribute, and often
  refuses the model);
* ``dim``: one declared ``<dim>`` of a top-level layer (the control).

The reference is the runtime's re-serialization of the original,
``ov.save_model(read_model(original))``: a fixed file must declare its dims, and its
Parameters' and Consts' ``shape`` attributes.  Three counts are kept: fixed as the runtime
would re-serialize, bytes preserved (nothing changed outside the edited lines) and, for the
originals and for cases without their ``.bin``, left untouched (bytes, inode, mtime).
"""
from __future__ import annotations

import os
import random
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset8 as o8
from lxml import etree

from support import ovgen
from support.fixcheck import cli, outside_lines, reference

F32 = ov.Type.f32
BODY_TAGS = ("body", "then_body", "else_body")


def _c(values, dtype=np.float32):
    return o8.constant(np.array(values, dtype=dtype))


def _i(values):
    return _c(values, np.int64)


def tensor_iterator() -> ov.Model:
    """h' = relu(x_t * w + h) over axis 1 of x; the last h and every h concatenated."""
    x, h = o8.parameter([2, 5, 4], F32, name="x"), o8.parameter([2, 1, 4], F32, name="h")
    xs, hs = o8.parameter([2, 1, 4], F32), o8.parameter([2, 1, 4], F32)
    scaled = o8.multiply(xs, _c(np.ones([1, 1, 4])))
    new_h = o8.relu(o8.add(scaled, hs))
    flat = o8.reshape(new_h, _i([2, 4]), False)
    ti = o8.tensor_iterator()
    ti.set_body(ov.Model([o8.result(new_h), o8.result(flat)], [xs, hs]))
    ti.set_sliced_input(xs, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hs, h.output(0), new_h.output(0))
    last = ti.get_iter_value(new_h.output(0), -1)
    every = ti.get_concatenated_slices(flat.output(0), 0, 1, 1, -1, 0)
    return ov.Model([o8.relu(last).output(0), every], [x, h], "tensor_iterator")


def loop() -> ov.Model:
    """x' = concat(x * 2, x) sliced back, 3 times, with the iteration number added; the
    last x' and every x' concatenated on axis 0."""
    x = o8.parameter([2, 3], F32, name="x")
    bx, it = o8.parameter([2, 3], F32), o8.parameter([], ov.Type.i64)
    doubled = o8.multiply(bx, _c(np.full([1, 3], 2.0)))
    both = o8.concat([doubled, bx], 1)
    back = o8.strided_slice(both, _i([0, 0]), _i([2, 3]), _i([1, 1]), [0, 0], [0, 0])
    plus = o8.add(back, o8.convert(it, "f32"))
    body = ov.Model([o8.result(_c(True, np.bool_)), o8.result(plus)], [bx, it])
    node = o8.loop(_i(3), _c(True, np.bool_))
    node.set_function(body)
    node.set_special_body_ports([1, 0])
    node.set_merged_input(bx, x.output(0), plus.output(0))
    last = node.get_iter_value(plus.output(0), -1)
    every = node.get_concatenated_slices(plus.output(0), 0, 1, 1, -1, 0)
    return ov.Model([o8.relu(last).output(0), every], [x], "loop")


def if_op() -> ov.Model:
    """then: transpose(x) + y reshaped; else: x * y; both [3, 2]."""
    x, y = o8.parameter([3, 2], F32, name="x"), o8.parameter([6], F32, name="y")
    cond = o8.parameter([], ov.Type.boolean, name="cond")
    tx, ty = o8.parameter([3, 2], F32), o8.parameter([6], F32)
    then_out = o8.add(o8.relu(tx), o8.reshape(ty, _i([3, 2]), False))
    ex, ey = o8.parameter([3, 2], F32), o8.parameter([6], F32)
    else_out = o8.multiply(ex, o8.unsqueeze(o8.reduce_sum(ey, _i([0]), False), _i([0])))
    then_m = ov.Model([o8.result(then_out)], [tx, ty])
    else_m = ov.Model([o8.result(else_out)], [ex, ey])
    node = o8.if_op(cond.output(0))
    node.set_then_body(then_m)
    node.set_else_body(else_m)
    node.set_input(x.output(0), tx, ex)
    node.set_input(y.output(0), ty, ey)
    out = node.set_output(then_m.get_results()[0], else_m.get_results()[0])
    return ov.Model([o8.sigmoid(out)], [x, y, cond], "if_op")


def nested() -> ov.Model:
    """An If inside a Loop body: x' = (relu(x * w) or -x) + 1, twice."""
    bx, cond = o8.parameter([2, 3], F32), o8.parameter([], ov.Type.boolean)
    tp, ep = o8.parameter([2, 3], F32), o8.parameter([2, 3], F32)
    then_m = ov.Model([o8.result(o8.relu(o8.multiply(tp, _c(np.ones([1, 3])))))], [tp])
    else_m = ov.Model([o8.result(o8.negative(ep))], [ep])
    branch = o8.if_op(cond.output(0))
    branch.set_then_body(then_m)
    branch.set_else_body(else_m)
    branch.set_input(bx.output(0), tp, ep)
    plus = o8.add(branch.set_output(then_m.get_results()[0], else_m.get_results()[0]),
                  _c(np.ones([2, 3])))
    body = ov.Model([o8.result(_c(True, np.bool_)), o8.result(plus)], [bx, cond])
    x, flag = o8.parameter([2, 3], F32, name="x"), o8.parameter([], ov.Type.boolean, name="flag")
    node = o8.loop(_i(2), _c(True, np.bool_))
    node.set_function(body)
    node.set_special_body_ports([-1, 0])
    node.set_merged_input(bx, x.output(0), plus.output(0))
    node.set_invariant_input(cond, flag.output(0))
    return ov.Model([o8.relu(node.get_iter_value(plus.output(0), -1)).output(0)], [x, flag],
                    "nested")


def attributes() -> ov.Model:
    """Parameters and Consts whose shape attributes feed broadcasting and reshapes."""
    x, y = o8.parameter([2, 3, 4], F32, name="x"), o8.parameter([3, 1], F32, name="y")
    add = o8.add(x, y)
    scale = o8.multiply(add, _c(np.ones([1, 3, 1])))
    flat = o8.reshape(scale, _i([6, 4]), False)
    z = o8.parameter([6, 4], F32, name="z")
    return ov.Model([o8.relu(o8.add(flat, z)), o8.sigmoid(o8.subtract(y, _c(np.ones([3, 4]))))],
                    [x, y, z], "attributes")


BUILT: dict[str, Callable[[], ov.Model]] = {
    f.__name__: f for f in (tensor_iterator, loop, if_op, nested, attributes)}
#: ovgen seeds whose models hold an If or a Loop (found by generating seeds 0-59)
GENERATED_WITH_BODIES = (2, 10, 23, 24, 35, 36, 42, 59)


class Case:
    """One mutant: where it is, what it was, the lines --fix may change."""

    def __init__(self, kind: str, path: Path, original: Path, allowed: set, what: str) -> None:
        self.kind, self.path, self.original = kind, path, original
        self.allowed, self.what = allowed, what
        self.mutant = path.read_bytes()


# ------------------------------------------------------------------ what a file declares
def _graphs(root) -> list[tuple[tuple, etree._Element]]:
    found, todo = [], [((), root)]
    while todo:
        prefix, graph = todo.pop()
        found.append((prefix, graph))
        for layer in graph.find("layers").findall("layer"):
            todo += [(prefix + (layer.get("name"), b.tag), b) for b in layer if b.tag in BODY_TAGS]
    return found


def declared(path: Path) -> dict:
    """Every port's dims and every Parameter's and Const's shape attribute, bodies too,
    keyed by layer names from the top (ids may differ between files)."""
    found = {}
    for prefix, graph in _graphs(etree.parse(str(path)).getroot()):
        for layer in graph.find("layers").findall("layer"):
            key = prefix + (layer.get("name"),)
            for kind in ("input", "output"):
                for i, port in enumerate(layer.findall(f"{kind}/port")):
                    found[key + (kind, i)] = [int(d.text) for d in port.findall("dim")]
            data = layer.find("data")
            if layer.get("type") in ("Parameter", "Const") and data is not None:
                found[key + ("shape",)] = data.get("shape")
    return found


# ------------------------------------------------------------------ mutations
def _layers(graph) -> dict:
    return {layer.get("id"): layer for layer in graph.find("layers").findall("layer")}


def _consumers(graph, layer, port) -> list:
    layers = _layers(graph)
    return [p for e in graph.find("edges").findall("edge")
            if e.get("from-layer") == layer.get("id") and e.get("from-port") == port.get("id")
            for p in layers[e.get("to-layer")].findall("input/port")
            if p.get("id") == e.get("to-port")]


def _write(case_dir: Path, original: Path, data: bytes) -> Path:
    case_dir.mkdir(parents=True)
    path = case_dir / "model.xml"
    path.write_bytes(data)
    if original.with_suffix(".bin").exists():
        shutil.copyfile(original.with_suffix(".bin"), path.with_suffix(".bin"))
    return path


def dim_mutant(original: Path, case_dir: Path, rnd: random.Random, in_body: bool,
               outer: bool = False) -> Case | None:
    """One declared dim of a layer's output port changed (a body's layer when ``in_body``; a
    TensorIterator, Loop or If when ``outer``), on half the cases on the input ports it feeds
    too."""
    data = original.read_bytes()
    root = etree.fromstring(data)
    ports = [(graph, layer, port) for prefix, graph in _graphs(root)
             if outer or bool(prefix) == in_body
             for layer in graph.find("layers").findall("layer")
             if layer.get("type") not in ("Parameter", "Const", "Result")
             and any(b.tag in BODY_TAGS for b in layer) == outer
             for port in layer.findall("output/port") if port.findall("dim")]
    if not ports:
        return None
    graph, layer, port = rnd.choice(ports)
    dims = port.findall("dim")
    axis = rnd.randrange(len(dims))
    old = int(dims[axis].text)
    new = old + rnd.randint(1, 4) if old >= 0 else rnd.randint(2, 9)
    ends = [port] + (_consumers(graph, layer, port) if rnd.random() < 0.5 else [])
    lines = data.splitlines(keepends=True)
    allowed = set()
    for end in ends:
        i = end.findall("dim")[axis].sourceline - 1
        lines[i] = re.sub(rb"<dim>-?\d+</dim>", b"<dim>%d</dim>" % new, lines[i], count=1)
        allowed.add(i)
    what = f"{layer.get('type')} '{layer.get('name')}' axis {axis}: {old} -> {new}" + \
        (" with consumers" if len(ends) > 1 else "")
    path = _write(case_dir, original, b"".join(lines))
    return Case("outer dim" if outer else "body dim" if in_body else "dim", path, original,
                allowed, what)


def shape_mutant(original: Path, case_dir: Path, rnd: random.Random, kind: str) -> Case | None:
    """A top-level Parameter's or Const's ``shape`` attribute edited, its port unchanged: one
    dim changed (a Parameter), or the dims reordered or one changed (a Const)."""
    data = original.read_bytes()
    root = etree.fromstring(data)
    wanted = "Parameter" if kind == "parameter shape" else "Const"
    layers = [layer for layer in root.find("layers").findall("layer")
              if layer.get("type") == wanted and layer.find("data") is not None
              and re.search(r"(^|[ ,])\d", layer.find("data").get("shape", ""))]
    if not layers:
        return None
    layer = rnd.choice(layers)
    text = layer.find("data").get("shape")
    separator = ", " if ", " in text else ","
    dims = text.split(separator)
    if wanted == "Const" and len(set(dims)) > 1 and rnd.random() < 0.5:
        new = list(dims)
        while new == dims:
            rnd.shuffle(new)
    else:
        # a static dim: a port's -1 cannot say which interval (or ?) an attribute had
        static = [axis for axis, dim in enumerate(dims) if dim.isdigit()]
        if not static:
            return None
        axis = rnd.choice(static)
        new = list(dims)
        new[axis] = str(int(dims[axis]) + rnd.randint(1, 4))
    line = layer.find("data").sourceline - 1
    lines = data.splitlines(keepends=True)
    old_attr, new_attr = b'shape="%s"' % text.encode(), b'shape="%s"' % separator.join(new).encode()
    assert old_attr in lines[line]
    lines[line] = lines[line].replace(old_attr, new_attr, 1)
    path = _write(case_dir, original, b"".join(lines))
    return Case(kind, path, original, {line},
                f"{wanted} '{layer.get('name')}' shape=\"{text}\" -> \"{separator.join(new)}\"")


def body_parameter_mutant(original: Path, case_dir: Path, rnd: random.Random) -> Case | None:
    """A body Parameter's declared shape changed where its outer layer sets it: its
    ``shape`` attribute, its port, or both (a stale body the runtime reads first)."""
    data = original.read_bytes()
    root = etree.fromstring(data)
    found = [layer for prefix, graph in _graphs(root) if prefix
             for layer in graph.find("layers").findall("layer")
             if layer.get("type") == "Parameter" and layer.find("output/port/dim") is not None
             and re.fullmatch(r"\d+(,\d+)*", layer.find("data").get("shape", ""))]
    if not found:
        return None
    layer = rnd.choice(found)
    dims = layer.find("data").get("shape").split(",")
    axis = rnd.randrange(len(dims))
    new = str(int(dims[axis]) + rnd.randint(1, 4))
    where = rnd.choice(["attribute", "port", "both"])
    lines = data.splitlines(keepends=True)
    allowed = set()
    if where != "port":
        i = layer.find("data").sourceline - 1
        text = ",".join(dims[:axis] + [new] + dims[axis + 1:])
        lines[i] = lines[i].replace(b'shape="%s"' % ",".join(dims).encode(),
                                    b'shape="%s"' % text.encode())
        allowed.add(i)
    if where != "attribute":
        i = layer.findall("output/port/dim")[axis].sourceline - 1
        lines[i] = re.sub(rb"<dim>-?\d+</dim>", b"<dim>%s</dim>" % new.encode(), lines[i], count=1)
        allowed.add(i)
    path = _write(case_dir, original, b"".join(lines))
    return Case("body parameter", path, original, allowed,
                f"body Parameter '{layer.get('name')}' axis {axis} -> {new} ({where})")


# ------------------------------------------------------------------ the set
def originals(root: Path) -> list[Path]:
    """The genuine IRs the cases start from: the models above and ovgen's with bodies."""
    found = []
    for name, build in BUILT.items():
        (root / name).mkdir(parents=True)
        path = root / name / "model.xml"
        ov.save_model(build(), str(path), compress_to_fp16=False)
        found.append(path)
    for seed in GENERATED_WITH_BODIES:
        found.append(ovgen.generate(seed, root / f"gen{seed}").xml)
    return found


#: per original: (kind, how many) of the cases made from it
PLAN = (("body dim", 6), ("body parameter", 3), ("outer dim", 2), ("dim", 3),
        ("parameter shape", 2), ("const shape", 2))


def build_cases(root: Path, seed: int = 23) -> tuple[list[Path], list[Case]]:
    sources = originals(root / "originals")
    cases: list[Case] = []
    for n, source in enumerate(sources):
        for kind, count in PLAN:
            for k in range(count):
                rnd = random.Random(f"{seed}/{source.parent.name}/{kind}/{k}")
                case_dir = root / "cases" / f"{n}-{kind.replace(' ', '-')}-{k}"
                if kind in ("body dim", "dim"):
                    made = dim_mutant(source, case_dir, rnd, kind == "body dim")
                elif kind == "outer dim":
                    made = dim_mutant(source, case_dir, rnd, False, outer=True)
                elif kind == "body parameter":
                    made = body_parameter_mutant(source, case_dir, rnd)
                else:
                    made = shape_mutant(source, case_dir, rnd, kind)
                if made is not None:
                    cases.append(made)
    return sources, cases


def weightless(sources: list[Path], root: Path, seed: int = 23) -> list[Path]:
    """Files --fix must leave alone besides the originals: a body dim edited in each original
    with Const layers, its ``.bin`` left out (the runtime refuses it; nothing is proven)."""
    found = []
    for n, source in enumerate(sources):
        if b'type="Const"' not in source.read_bytes():
            continue
        made = dim_mutant(source, root / "weightless" / str(n), random.Random(f"{seed}/{n}"), True)
        if made is not None:
            made.path.with_suffix(".bin").unlink()
            found.append(made.path)
    return found


# ------------------------------------------------------------------ scoring
def score(sources: list[Path], cases: list[Case], keep: list[Path] = ()) -> dict:
    """Run --fix on every case, original and file to ``keep`` as it is; the counts and the
    cases that miss."""
    refs = {source: declared(reference(source)) for source in sources}
    tally: dict = {"cases": len(cases), "fixed": 0, "preserved": 0,
                   "originals": len(sources) + len(keep), "untouched": 0, "by kind": {},
                   "missed": []}
    for case in cases:
        cli("--fix", case.path)
        fixed = case.path.read_bytes()
        got, want = declared(case.path), refs[case.original]
        right = got == want
        kept = not outside_lines(case.mutant, fixed, case.allowed)
        tally["fixed"] += right
        tally["preserved"] += kept
        done, total = tally["by kind"].get(case.kind, (0, 0))
        tally["by kind"][case.kind] = (done + right, total + 1)
        if not (right and kept):
            wrong = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
            tally["missed"].append(f"{case.path.parent.name} ({case.what}): "
                                   f"{'' if kept else 'bytes changed outside the edit; '}"
                                   f"(fixed, runtime) {list(wrong.items())[:3]}")
    for source in list(sources) + list(keep):
        before, data = os.stat(source), source.read_bytes()
        cli("--fix", source)
        after = os.stat(source)
        same = source.read_bytes() == data and \
            (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
        tally["untouched"] += same
        if not same:
            tally["missed"].append(f"{source}: changed by --fix")
    return tally
