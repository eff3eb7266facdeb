"""Value evaluation against the runtime, one op at a time (tests/test_value_ops.py).

A case is ``Broadcast(1.0, target)`` whose target is computed from ``ShapeOf(x)`` through the
op under test; ``x`` is a Parameter of the case's shape.  The case is saved, read back with
``read_model`` (the oracle) and validated by irvalidate, which must infer the Broadcast's
shape exactly as the runtime does and stay silent, or, where the runtime refuses the target
("Value for partial shape evaluation can't be lower than zero"), report IRV102 on the
Broadcast.  A case the Python API refuses to build is built with another shape of ``x`` and
that Parameter's shape is then rewritten in the file, as a model exported for one input size
and edited for another would be: the runtime re-infers everything from the Parameters.

``gives_up`` marks a case where irvalidate must not evaluate (the runtime's result there
rests on undefined behaviour or on a libm): what it infers must then contain the runtime's,
and it must not refuse the target.  ``may_give_up`` accepts either answer: the runtime's
exactly, or one that gives up (random cases draw some of both).
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset13 as op
from lxml import etree

from irvalidate.cli.shapes import layers_of
from irvalidate.engine.validation import validate_file
from support import opcheck
from support.ovvalues import shape

REFUSED = "can't be lower than zero"
#: shapes tried, in turn, to build a case whose own shape the Python API refuses
FALLBACK_DIMS = (1, 2, 3, 4, 8, 16, 100)

Spec = Sequence  # a dim: an int (-1 is ``?``) or a (lo, hi) pair (hi -1: unbounded)


def i64(values) -> ov.Node:
    return op.constant(np.array(values, dtype=np.int64))


def i32(values) -> ov.Node:
    return op.constant(np.array(values, dtype=np.int32))


def first(s: ov.Node, index: int = 0) -> ov.Node:
    """``Gather(s, [index])``: one element of a shape, as a 1-D value."""
    return op.gather(s, i64([index]), op.constant(0))


@dataclass
class Case:
    name: str
    make: Callable[[ov.Node], ov.Node]
    x: Spec = ((2, 6), 3)
    gives_up: bool = False
    may_give_up: bool = False
    #: for a case no shape of x builds: (numbers the API accepts, the case's numbers), a
    #: Const's values written over after building with the first (``make(first)``)
    stand_in: tuple[Sequence[int], Sequence[int]] | None = None
    #: ``make`` for other numbers than the case's (see stand_in)
    make_with: Callable[[Sequence[int]], Callable[[ov.Node], ov.Node]] | None = None
    #: ShapeOf's output type
    et: str = "i64"


@dataclass
class Outcome:
    case: Case
    runtime: str          # the Broadcast's shape as the runtime prints it, or "refused: ..."
    inferred: str | None
    errors: list[tuple[str, str]]  # (code, layer name)
    edited: bool

    def problem(self) -> str | None:
        """What is wrong with irvalidate's answer, or None."""
        c = self.case
        if c.may_give_up and (self._right(False) or self._right(True)):
            return None
        if self._right(c.gives_up):
            return None
        return f"{c.name} x={list(c.x)}: runtime {self.runtime}, irvalidate {self.inferred} {self.errors}"

    def _right(self, gives_up: bool) -> bool:
        if self.runtime.startswith("refused"):
            if REFUSED in self.runtime:
                return not self.errors if gives_up else self.errors == [("IRV102", "B")]
            return not self.errors
        allowed = [("IRV101", "B")] if self.edited else []
        if any(e not in allowed for e in self.errors):
            return False
        if gives_up:
            return _contains(self.inferred, self.runtime)
        return self.inferred == self.runtime


def parse_bounds(text: str | None) -> list[tuple[int, int | None]] | None:
    """``"[2,1..8,?,..5,3..]"`` as (lo, hi) pairs, hi None when unbounded; None for ``[...]``
    (a dynamic rank) or no shape; ``[]`` (a scalar) is no pair."""
    if text is None or text == "[...]":
        return None
    out: list[tuple[int, int | None]] = []
    for item in filter(None, text.strip("[]").split(",")):
        if item == "?":
            out.append((0, None))
        elif ".." in item:
            lo, hi = item.split("..")
            out.append((int(lo or 0), int(hi) if hi else None))
        else:
            out.append((int(item), int(item)))
    return out


def _contains(mine: str | None, runtime: str) -> bool:
    """Whether every runtime dim lies inside irvalidate's."""
    a, b = parse_bounds(mine), parse_bounds(runtime)
    if a is None:
        return True
    return b is not None and len(a) == len(b) and all(
        lo <= rlo and (hi is None or (rhi is not None and rhi <= hi))
        for (lo, hi), (rlo, rhi) in zip(a, b))


def _model(case: Case, spec: Spec) -> ov.Model:
    x = op.parameter(shape(spec), np.float32, name="x")
    b = op.broadcast(op.constant(np.float32(1.0)), case.make(op.shape_of(x, case.et)))
    b.set_friendly_name("B")
    return ov.Model([b], [x], "m")


def _fallbacks(rank: int):
    for n in FALLBACK_DIMS:
        yield [n] * rank
    for dims in itertools.product(FALLBACK_DIMS[:4], repeat=min(rank, 3)):
        yield list(dims) + [1] * (rank - min(rank, 3))


def _set_shape(path: Path, spec: Spec) -> None:
    """Rewrite Parameter x (its shape attribute and every port dim on its edges)."""
    tree = etree.parse(str(path))
    layer = tree.find(".//layers/layer[@name='x']")
    text = str(shape(spec)).strip("[]").replace(" ", "")
    layer.find("data").set("shape", text)
    ports = [layer.find("output/port")]
    for edge in tree.findall("edges/edge"):
        if edge.get("from-layer") == layer.get("id"):
            target = tree.find(f".//layers/layer[@id='{edge.get('to-layer')}']")
            ports += [p for p in target.find("input") if p.get("id") == edge.get("to-port")]
    for port in ports:
        for dim, d in zip(port.findall("dim"), spec):
            dim.text = str(d) if isinstance(d, int) else (str(d[0]) if d[0] == d[1] else "-1")
    tree.write(str(path))


def build(case: Case, folder: Path) -> tuple[Path, bool]:
    """The case's file, and whether x's shape had to be rewritten in it."""
    path = folder / f"{case.name}.xml"
    try:
        opcheck.save(_model(case, case.x), folder, case.name)
        return path, False
    except RuntimeError:
        pass
    for dims in _fallbacks(len(case.x)):
        try:
            opcheck.save(_model(case, dims), folder, case.name)
        except RuntimeError:
            continue
        _set_shape(path, case.x)
        return path, True
    if case.stand_in is not None and case.make_with is not None:
        accepted, numbers = case.stand_in
        stand_in = Case(case.name, case.make_with(accepted), case.x, et=case.et)
        path, edited = build(stand_in, folder)
        _patch_const(path, accepted, numbers, case.et)
        return path, True
    raise AssertionError(f"{case.name}: no shape of x builds this case")


def _patch_const(path: Path, old: Sequence[int], new: Sequence[int], et: str) -> None:
    """Write ``new`` over the one Const of the model holding ``old`` (of ShapeOf's type)."""
    dtype = {"i64": np.int64, "i32": np.int32}[et]
    before, after = np.array(old, dtype=dtype).tobytes(), np.array(new, dtype=dtype).tobytes()
    blob = bytearray(path.with_suffix(".bin").read_bytes())
    tree = etree.parse(str(path))
    found = 0
    for layer in tree.findall(".//layers/layer[@type='Const']"):
        data = layer.find("data")
        offset, size = int(data.get("offset")), int(data.get("size"))
        if bytes(blob[offset:offset + size]) == before:
            blob[offset:offset + size] = after
            found += 1
    assert found == 1, f"{path.name}: {found} Consts hold {list(old)}"
    path.with_suffix(".bin").write_bytes(bytes(blob))


def outcome(case: Case, folder: Path) -> Outcome:
    path, edited = build(case, folder)
    try:
        runtime = opcheck.runtime_shapes(path)["B"][0]
    except RuntimeError as err:
        runtime = "refused: " + " ".join(str(err).split())[-200:]
    rows = [r for r in layers_of(str(path)) if r["name"] == "B"]
    inferred = rows[0]["outputs"][0]["inferred"] if rows else None
    errors = [(f.code, f.layer.name if f.layer is not None else "")
              for f in validate_file(str(path)).findings if f.level == "error"]
    return Outcome(case, runtime, inferred, errors, edited)


def check(cases: Sequence[Case], folder: Path) -> list[Outcome]:
    """Every case's outcome; fails listing the cases where irvalidate and the runtime differ."""
    folder.mkdir(parents=True, exist_ok=True)
    seen = set()
    outcomes = []
    for case in cases:
        assert case.name not in seen, f"two cases named {case.name}"
        seen.add(case.name)
        outcomes.append(outcome(case, folder))
    wrong = [p for p in (o.problem() for o in outcomes) if p]
    assert not wrong, f"{len(wrong)} of {len(outcomes)} cases differ:\n" + "\n".join(wrong[:25])
    return outcomes


def random_x(rnd: random.Random, rank: int = 2, top: int = 12) -> list:
    """A random shape for x: static dims, intervals and ``?``."""
    out = []
    for _ in range(rank):
        kind = rnd.random()
        if kind < 0.4:
            out.append(rnd.randint(0, top))
        elif kind < 0.8:
            lo = rnd.randint(0, top)
            out.append((lo, rnd.randint(lo, top + 6)))
        elif kind < 0.9:
            out.append((rnd.randint(0, top), -1))
        else:
            out.append(-1)
    return out
