"""Seeded random models whose Broadcast ``target_shape`` is a computed integer shape subgraph.

Used by ``test_value_propagation.py``.  Each model built here has:

* f32 Parameters with static, dynamic (``?``), interval (``2..8``), open (``3..``) and
  occasionally zero or large dims, read by ``ShapeOf``;
* one to four Broadcast layers (Broadcast-1 numpy/explicit/pdpd with three inputs,
  Broadcast-3 numpy/explicit/bidirectional/pdpd) whose ``target_shape`` is a chain of
  one to five ops over a ``ShapeOf`` (v0, v3 with i32/i64 output): Gather v1/v7/v8 with
  scalar, 1-D and negative indices, Concat with integer constants (``-1`` and ``0``
  included) and other shape values, Convert, Unsqueeze, Squeeze, Reshape, Slice-8,
  StridedSlice (masks, shrink and new axes), Add/Subtract/Multiply/Divide (both
  ``m_pythondiv``)/Maximum/Minimum with constants and with other shape values, Range-4 with
  constant inputs and ReduceProd (both ``keep_dims``).  A Broadcast output may itself feed a
  later ``ShapeOf``;
* Add/Multiply (``auto_broadcast`` numpy) and Select layers downstream of those
  Broadcasts, so their input shapes depend on the computed targets.

OpenVINO is the oracle: every op is created with the openvino API, which runs shape
inference (and bound evaluation) immediately; an op it refuses is dropped and another is
tried.  The saved model must be accepted by ``ov.Core().read_model``; if it is not, the whole
model is discarded and rebuilt from the next sub-seed.  Everything is drawn from
``random.Random``, so a seed always gives the same bytes.

For every Broadcast, Select and downstream Add/Multiply the result records the XML layer
id, name, type, version, mode, the description of the target subgraph and the output
partial shape that ``read_model`` infers.  ``coverage()`` counts, from a written IR, which
ops, versions, attributes and constant values the shape subgraphs use.

Nothing here is a test; the module needs ``openvino``, ``numpy`` and ``lxml``.
"""
from __future__ import annotations

import collections
import dataclasses
import random
import struct
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as op1
import openvino.opset3 as op3
import openvino.opset7 as op7
import openvino.opset8 as op8
import openvino.opset16 as op16
from lxml import etree
from openvino.utils.node_factory import NodeFactory

__all__ = ["ShapeModel", "LayerRecord", "generate", "coverage", "BROADCAST_KINDS",
           "SUBGRAPH_KEYS", "MAX_ATTEMPTS"]

MAX_ATTEMPTS = 30
MAX_TARGET_LEN = 6
I32, I64, F32, BOOL = ov.Type.i32, ov.Type.i64, ov.Type.f32, ov.Type.boolean
_NP = {I32: np.int32, I64: np.int64, F32: np.float32, BOOL: np.bool_}
_F1, _F3 = NodeFactory("opset1"), NodeFactory("opset3")

#: (version, mode) of every Broadcast kind the generator makes
BROADCAST_KINDS = [("opset1", "numpy"), ("opset1", "explicit"), ("opset1", "pdpd"),
                   ("opset3", "numpy"), ("opset3", "explicit"), ("opset3", "bidirectional"),
                   ("opset3", "pdpd")]


class _Skip(Exception):
    """A step does not apply to the current value."""


@dataclasses.dataclass
class LayerRecord:
    id: str
    name: str
    type: str
    version: str
    mode: str                  # Broadcast mode or auto_broadcast
    role: str                  # "broadcast" or "downstream"
    chain: str                 # the target subgraph (Broadcast) or the inputs (downstream)
    shape: str                 # str(PartialShape) that read_model infers
    #: (min, max) per dim as read_model infers them, max None when unbounded; None: dynamic rank
    dims: list[tuple[int, int | None]] | None


@dataclasses.dataclass
class ShapeModel:
    seed: int
    attempt: int
    xml: Path
    bin: Path
    layers: list[LayerRecord]


# --------------------------------------------------------------------------------------
# small helpers


def _rank(out: ov.Output) -> int | None:
    ps = out.get_partial_shape()
    return ps.rank.get_length() if ps.rank.is_static else None


def _length(out: ov.Output) -> int | None:
    """Static length of a 1-D value, else None."""
    ps = out.get_partial_shape()
    if ps.rank.is_dynamic or ps.rank.get_length() != 1 or ps[0].is_dynamic:
        return None
    return ps[0].get_length()


def _dims(out: ov.Output) -> list[ov.Dimension] | None:
    ps = out.get_partial_shape()
    return None if ps.rank.is_dynamic else [ps[i] for i in range(ps.rank.get_length())]


def _bounds(ps: ov.PartialShape) -> list[tuple[int, int | None]] | None:
    if ps.rank.is_dynamic:
        return None
    out = []
    for d in ps:
        hi = d.get_max_length()
        out.append((d.get_min_length(), None if hi < 0 else hi))
    return out


# --------------------------------------------------------------------------------------
# the builder


class _Builder:
    """One attempt at a model, drawing every choice from ``random.Random(subseed)``."""

    def __init__(self, subseed: int) -> None:
        self.r = random.Random(subseed)
        self.count = 0
        self.sources: list[ov.Output] = []       # tensors a ShapeOf may read
        self.pool: list[ov.Output] = []          # Broadcast/downstream outputs
        self.used: set = set()                   # indices of pool entries consumed
        self.records: dict[str, tuple[str, str]] = {}   # name -> (role, chain)

    # ---- naming and leaves ------------------------------------------------------------

    def named(self, node: ov.Node, prefix: str) -> ov.Node:
        self.count += 1
        node.set_friendly_name(f"{prefix}_{self.count}")
        return node

    def const(self, values, et: ov.Type) -> ov.Output:
        arr = np.array(values, dtype=_NP[et])
        return self.named(ov.op.Constant(arr), "c").output(0)

    def param(self, dims: Sequence[ov.Dimension], et: ov.Type = F32) -> ov.Output:
        return self.named(op1.parameter(ov.PartialShape(list(dims)), et), "in").output(0)

    def leaf(self, dims: Sequence[ov.Dimension], et: ov.Type) -> ov.Output:
        """A Parameter with ``dims``, or a Constant when they are all static (sometimes)."""
        if all(d.is_static for d in dims) and self.r.random() < 0.3:
            shape = [d.get_length() for d in dims]
            if et == BOOL:
                return self.const(np.ones(shape, dtype=np.bool_), et)
            return self.const(np.ones(shape), et)
        return self.param(dims, et)

    def rdim(self) -> ov.Dimension:
        x = self.r.random()
        if x < 0.2:
            return ov.Dimension()
        if x < 0.45:
            lo = self.r.choice([0, 1, 1, 2, 3])
            return ov.Dimension(lo, lo + self.r.randint(1, 7))
        if x < 0.5:
            return ov.Dimension(self.r.randint(1, 4), -1)          # "3.." (no upper bound)
        if x < 0.52:
            return ov.Dimension(1, self.r.choice([100000, 2 ** 31 - 1, 2 ** 31 + 5]))
        if x < 0.54:
            return ov.Dimension(0)
        return ov.Dimension(self.r.choice([1, 1, 2, 3, 4, 5, 6, 7, 8]))

    def new_source(self) -> ov.Output:
        out = self.param([self.rdim() for _ in range(self.r.randint(1, 4))])
        self.sources.append(out)
        return out

    def source(self) -> ov.Output:
        if self.sources and self.r.random() < 0.6:
            return self.r.choice(self.sources)
        return self.new_source()

    # ---- shape values: the start ------------------------------------------------------

    def shape_of(self, src: ov.Output, log: list[str]) -> ov.Output:
        kind = self.r.choice(["v0", "v3-i64", "v3-i32", "v3-i32"])
        if kind == "v0":
            node = op1.shape_of(src)
        else:
            node = op3.shape_of(src, output_type=kind[3:])
        out = self.named(node, "shapeof").output(0)
        log.append(f"ShapeOf-{kind} of {src.get_node().get_friendly_name()}"
                   f"{src.get_partial_shape()}")
        return out

    def int_const(self, values, like: ov.Output) -> ov.Output:
        return self.const(values, like.get_element_type())

    def matching(self, other: ov.Output, like: ov.Output, log: list[str]) -> ov.Output:
        """``other`` converted to the element type of ``like`` (a Convert when needed)."""
        if other.get_element_type() == like.get_element_type():
            return other
        log.append(f"Convert->{like.get_element_type().get_type_name()}")
        node = op1.convert(other, like.get_element_type().get_type_name())
        return self.named(node, "convert").output(0)

    def other_value(self, like: ov.Output, length: int | None, log: list[str]) -> ov.Output:
        """Another shape value (a ShapeOf, maybe gathered) of ``length`` elements."""
        sub: list[str] = []
        cands = [s for s in self.sources if _rank(s) == length] if length else []
        src = self.r.choice(cands) if cands and self.r.random() < 0.7 else None
        if src is None:
            src = self.source()
        v = self.shape_of(src, sub)
        n = _rank(src)
        if length is not None and n != length:
            if not n:
                raise _Skip("no source")
            idx = [self.r.randrange(n) for _ in range(length)]
            v = self.named(op8.gather(v, self.const(idx, I64), self.const(0, I64)),
                           "gather").output(0)
            sub.append(f"Gather-8{idx}")
        v = self.matching(v, like, sub)
        log.append("(" + " -> ".join(sub) + ")")
        return v

    # ---- shape values: the steps ------------------------------------------------------

    def step_gather(self, v: ov.Output, log: list[str]) -> ov.Output:
        n = _length(v)
        if _rank(v) != 1 or not n:
            raise _Skip("gather needs a 1-D value of known length")
        version = self.r.choice(["v1", "v7", "v8"])
        lo = 0 if version == "v1" else -n
        if self.r.random() < 0.35:
            idx = self.r.randint(lo, n - 1)
            indices = self.const(idx, self.r.choice([I32, I64]))
        else:
            idx = [self.r.randint(lo, n - 1) for _ in range(self.r.randint(1, n + 1))]
            indices = self.const(idx, self.r.choice([I32, I64]))
        axis = self.const(0, self.r.choice([I32, I64]))
        node = {"v1": lambda: op1.gather(v, indices, axis),
                "v7": lambda: op7.gather(v, indices, axis, 0),
                "v8": lambda: op8.gather(v, indices, axis, 0)}[version]()
        log.append(f"Gather-{version}({idx})")
        return self.named(node, "gather").output(0)

    def concat_part(self, v: ov.Output, log: list[str]) -> ov.Output:
        x = self.r.random()
        if x < 0.45:
            vals = [self.r.choice([1, 2, 3, 4, 5, 6, 8]) for _ in range(self.r.randint(1, 2))]
            if self.r.random() < 0.2:
                vals[0] = self.r.choice([-1, 0])
            log.append(f"{vals}")
            return self.int_const(vals, v)
        if x < 0.65:
            start = self.r.randint(0, 3)
            step = self.r.choice([1, 1, 2, -1])
            stop = start + step * self.r.randint(1, 3)
            if step < 0:
                start, stop = start + 3, start
            et = v.get_element_type()
            node = op16.range(self.int_const(start, v), self.int_const(stop, v),
                             self.int_const(step, v), et.get_type_name())
            log.append(f"Range-4({start},{stop},{step})")
            return self.named(node, "range").output(0)
        return self.other_value(v, None, log)

    def step_concat(self, v: ov.Output, log: list[str]) -> ov.Output:
        if _rank(v) == 0:
            v = self.step_unsqueeze(v, log)
        if _rank(v) != 1:
            raise _Skip("concat of 1-D values only")
        sub: list[str] = []
        parts = [self.concat_part(v, sub) for _ in range(self.r.randint(1, 2))]
        parts.insert(self.r.randint(0, len(parts)), v)
        log.append("Concat(" + ", ".join(sub) + ")")
        return self.named(op1.concat(parts, 0), "concat").output(0)

    def step_convert(self, v: ov.Output, log: list[str]) -> ov.Output:
        to = I32 if v.get_element_type() == I64 else I64
        log.append(f"Convert->{to.get_type_name()}")
        return self.named(op1.convert(v, to.get_type_name()), "convert").output(0)

    def step_unsqueeze(self, v: ov.Output, log: list[str]) -> ov.Output:
        rank = _rank(v)
        if rank is None or rank > 1:
            raise _Skip("unsqueeze of a scalar or 1-D value")
        axis = self.r.choice([0, -1]) if rank == 0 else self.r.choice([0, 1, -1])
        log.append(f"Unsqueeze({axis})")
        return self.named(op1.unsqueeze(v, self.const([axis], I64)), "unsqueeze").output(0)

    def step_squeeze(self, v: ov.Output, log: list[str]) -> ov.Output:
        dims = _dims(v)
        ones = [i for i, d in enumerate(dims or []) if d.is_static and d.get_length() == 1]
        if not ones:
            raise _Skip("nothing to squeeze")
        axis = self.r.choice(ones)
        log.append(f"Squeeze({axis})")
        return self.named(op1.squeeze(v, self.const([axis], I64)), "squeeze").output(0)

    def step_reshape(self, v: ov.Output, log: list[str]) -> ov.Output:
        rank, n = _rank(v), _length(v)
        if rank == 2 or (rank == 1 and self.r.random() < 0.4):
            target, zero = [-1], False
        elif rank == 1 and n is not None:
            target, zero = self.r.choice([([n], False), ([1, n], False), ([n, 1], False),
                                          ([0], True), ([1, -1], False)])
        else:
            raise _Skip("reshape of a 1-D or 2-D value")
        log.append(f"Reshape({target}{', special_zero' if zero else ''})")
        node = op1.reshape(v, self.const(target, I64), zero)
        return self.named(node, "reshape").output(0)

    def step_slice(self, v: ov.Output, log: list[str]) -> ov.Output:
        n = _length(v)
        if _rank(v) != 1 or not n:
            raise _Skip("slice of a 1-D value")
        step = self.r.choice([1, 1, 2, -1, -1, -2])
        if step > 0:
            start, stop = self.r.randint(-n, n - 1), self.r.choice([n, n + 5, -1, 2 ** 62])
        else:
            start, stop = self.r.choice([-1, n - 1, n + 3]), self.r.choice([-n - 1, 0, -(2 ** 62)])
        log.append(f"Slice-8({start}:{stop}:{step})")
        node = op8.slice(v, self.const([start], I64), self.const([stop], I64),
                         self.const([step], I64), self.const([0], I64))
        return self.named(node, "slice").output(0)

    def step_strided_slice(self, v: ov.Output, log: list[str]) -> ov.Output:
        n = _length(v)
        if _rank(v) != 1 or not n:
            raise _Skip("strided slice of a 1-D value")
        x = self.r.random()
        if x < 0.25:            # shrink: one element, a scalar
            i = self.r.randint(-n, n - 1)
            args = ([i], [i + 1 if i != -1 else 0], [1], [0], [0 if i != -1 else 1], [0], [1])
        elif x < 0.4:           # new axis in front: a 2-D value [1, n]
            args = ([0, 0], [0, n], [1, 1], [1, 1], [1, 0], [1, 0], [0, 0])
        else:
            stride = self.r.choice([1, 1, 2, -1])
            b, e = self.r.randint(-n, n - 1), self.r.randint(-n, n)
            args = ([b], [e], [stride], [self.r.randint(0, 1)], [self.r.randint(0, 1)], [0], [0])
        begin, end, strides, bm, em, nm, sm = args
        log.append(f"StridedSlice(b={begin},e={end},s={strides},bm={bm},em={em},"
                   f"new={nm},shrink={sm})")
        node = op1.strided_slice(v, self.const(begin, I64), self.const(end, I64),
                                 self.const(strides, I64), bm, em, nm, sm)
        return self.named(node, "stridedslice").output(0)

    ARITH = ["Add", "Subtract", "Multiply", "Divide", "Maximum", "Minimum"]

    def arith_operand(self, kind: str, v: ov.Output, log: list[str]) -> ov.Output:
        rank = _rank(v)
        n = _length(v) if rank == 1 else None
        if kind != "Divide" and (rank == 0 or n) and self.r.random() < 0.35:
            return self.other_value(v, n, log)
        choices = {"Add": [0, 1, 2, 3], "Subtract": [0, 1, 1, 2, 3], "Multiply": [1, 2, 3, 0],
                   "Divide": [1, 2, 2, 3, 4, -1], "Maximum": [0, 1, 2, 4, 6],
                   "Minimum": [1, 3, 4, 8, 100]}[kind]
        if n and self.r.random() < 0.4:
            vals = [self.r.choice(choices) for _ in range(n)]
        else:
            vals = self.r.choice(choices)
        log.append(f"{vals}")
        return self.int_const(vals, v)

    def step_arith(self, v: ov.Output, log: list[str]) -> ov.Output:
        kind = self.r.choice(self.ARITH)
        sub: list[str] = []
        other = self.arith_operand(kind, v, sub)
        if kind == "Divide" and self.r.random() < 0.3:
            # divide by another shape value, kept >= 1: Maximum(shape, 1)
            other = self.named(op1.maximum(self.other_value(v, _length(v), sub),
                                           self.int_const(1, v)), "maximum").output(0)
            sub.append("max 1")
        a, b = (v, other) if self.r.random() < 0.8 or kind == "Divide" else (other, v)
        attrs = {"auto_broadcast": "numpy"}
        if kind == "Divide":
            attrs["m_pythondiv"] = self.r.random() < 0.5
            kind_txt = f"Divide(pythondiv={attrs['m_pythondiv']})"
        else:
            kind_txt = kind
        log.append(f"{kind_txt}({'v, ' if a is v else ''}{' '.join(sub)}{', v' if b is v else ''})")
        node = _F1.create(kind, [a, b], attrs)
        return self.named(node, kind.lower()).output(0)

    def step_reduce_prod(self, v: ov.Output, log: list[str]) -> ov.Output:
        if _rank(v) != 1:
            raise _Skip("reduce a 1-D value")
        keep = self.r.random() < 0.5
        log.append(f"ReduceProd(keep_dims={keep})")
        node = op1.reduce_prod(v, self.const([0], I64), keep)
        return self.named(node, "reduceprod").output(0)

    STEPS = ["step_gather", "step_concat", "step_convert", "step_unsqueeze", "step_squeeze",
             "step_reshape", "step_slice", "step_strided_slice", "step_arith", "step_arith",
             "step_reduce_prod"]

    # ---- whole targets ----------------------------------------------------------------

    def finish(self, v: ov.Output, log: list[str]) -> ov.Output:
        """Make ``v`` a 1-D value of known, small length (a usable target_shape)."""
        if _rank(v) == 0:
            v = self.step_unsqueeze(v, log)
        if _rank(v) == 2:
            v = self.step_reshape(v, log)
        n = _length(v)
        if _rank(v) != 1 or n is None or n > MAX_TARGET_LEN:
            raise _Skip("unusable target")
        return v

    def target(self) -> tuple[ov.Output, list[ov.Dimension], str]:
        """A computed target_shape, the dims OpenVINO resolves it to, and its description."""
        for _ in range(20):
            log: list[str] = []
            v = self.shape_of(self.source(), log)
            depth, tries = self.r.choice([0, 0, 1, 1, 2, 2, 3, 4]), 0
            while len(log) - 1 < depth and tries < 4 * depth + 4:
                tries += 1
                try:
                    v = getattr(self, self.r.choice(self.STEPS))(v, log)
                except (_Skip, RuntimeError):
                    continue
            try:
                v = self.finish(v, log)
                v, dims = self.resolve(v, log)
                return v, dims, " -> ".join(log)
            except (_Skip, RuntimeError):
                continue
        raise _Skip("no usable target")

    @staticmethod
    def probe(v: ov.Output) -> list[ov.Dimension]:
        """The dims OpenVINO's bound evaluation gives ``v`` (a probe Broadcast, then dropped).

        Raises RuntimeError when a lower bound is negative."""
        node = op3.broadcast(op1.constant(np.float32(0)), v)
        dims = _dims(node.output(0))
        del node
        if dims is None:
            raise _Skip("dynamic target length")
        return dims

    def resolve(self, v: ov.Output, log: list[str]) -> tuple[ov.Output, list[ov.Dimension]]:
        """(target, dims); a target that may be negative is clamped by Maximum(v, 0 or 1)."""
        try:
            return v, self.probe(v)
        except RuntimeError:
            floor = self.r.choice([0, 1])
            log.append(f"Maximum({floor})")
            v = self.named(op1.maximum(v, self.int_const(floor, v)), "maximum").output(0)
            return v, self.probe(v)

    # ---- Broadcast --------------------------------------------------------------------

    def data_dim(self, t: ov.Dimension, mode: str) -> ov.Dimension:
        """A data dim that broadcasts to target dim ``t``."""
        x = self.r.random()
        if x < 0.3:
            return ov.Dimension(1)
        if mode == "bidirectional" and t.is_static and t.get_length() == 1:
            return self.rdim()
        if t.is_static:
            return t if x < 0.85 else ov.Dimension()
        if x < 0.6:
            return t
        if x < 0.75:
            return ov.Dimension()
        lo, hi = max(t.get_min_length(), 1), t.get_max_length()
        return ov.Dimension(self.r.randint(lo, lo + 4 if hi < 0 else max(lo, min(hi, lo + 4))))

    def data_for(self, mode: str, tdims: list[ov.Dimension]) -> tuple[list[ov.Dimension],
                                                                        list[int] | None, int]:
        """(data dims, explicit axes, pdpd axis)."""
        n = len(tdims)
        if mode == "explicit":
            axes = sorted(self.r.sample(range(n), self.r.randint(0, n)))
            return [self.data_dim(tdims[a], mode) for a in axes], axes, -1
        if mode == "pdpd":
            start = self.r.randint(0, n)
            used = self.r.randint(0, n - start)
            dims = [self.data_dim(t, mode) for t in tdims[start:start + used]]
            axis = start if (self.r.random() < 0.5 or start + used < n) else -1
            return dims, None, axis
        k = self.r.randint(0, n)
        dims = [self.data_dim(t, mode) for t in tdims[n - k:]]
        if mode == "bidirectional" and self.r.random() < 0.2:
            dims = [self.rdim()] + dims
        return dims, None, -1

    def broadcast_node(self, version: str, mode: str, data: ov.Output, target: ov.Output,
                       axes: list[int] | None, axis: int) -> ov.Node:
        attrs: dict = {"mode": mode}
        inputs = [data, target]
        if mode == "explicit":
            inputs.append(self.const(axes, self.r.choice([I32, I64])))
        if mode == "pdpd":
            attrs["mode.auto_broadcast_axis" if version == "opset1" else "mode.mode.axis"] = axis
            if version == "opset1":
                inputs.append(self.const([0], I64))      # Broadcast-1 pdpd takes 3 inputs
        if version == "opset1" and len(inputs) == 2:
            inputs.append(self.const([0], I64))          # Broadcast-1 numpy: unused axes
        node = (_F1 if version == "opset1" else _F3).create("Broadcast", inputs, attrs)
        return self.named(node, "broadcast")

    def op_broadcast(self) -> None:
        target, tdims, chain = self.target()
        version, mode = self.r.choice(BROADCAST_KINDS)
        et = self.r.choice([F32, F32, I32])
        for fallback in (False, True):
            dims, axes, axis = self.data_for(mode, tdims)
            if fallback:
                dims = [ov.Dimension(1)] * len(dims)
            try:
                node = self.broadcast_node(version, mode, self.leaf(dims, et), target, axes, axis)
            except RuntimeError:
                continue
            self.records[node.get_friendly_name()] = ("broadcast", chain)
            self.add_output(node.output(0))
            return
        raise _Skip("no valid data for this target")

    # ---- downstream layers ------------------------------------------------------------

    def add_output(self, out: ov.Output) -> None:
        self.pool.append(out)
        if self.r.random() < 0.3:
            self.sources.append(out)

    def partner_dims(self, dims: list[ov.Dimension]) -> list[ov.Dimension]:
        """Dims that numpy-broadcast with ``dims`` without changing them."""
        k = self.r.randint(0, len(dims))
        out = []
        for d in dims[len(dims) - k:]:
            x = self.r.random()
            out.append(ov.Dimension(1) if x < 0.35 else d if x < 0.85 or d.is_dynamic
                       else ov.Dimension())
        return out

    def operand(self, index: int, et: ov.Type) -> tuple[ov.Output, str]:
        """Pool entry ``index`` or a fresh leaf that broadcasts with it."""
        out = self.pool[index]
        others = [i for i, o in enumerate(self.pool)
                  if i != index and o.get_element_type() == et and _rank(o) is not None]
        if others and self.r.random() < 0.25:
            j = self.r.choice(others)
            return self.pool[j], self.pool[j].get_node().get_friendly_name()
        leaf = self.leaf(self.partner_dims(_dims(out) or []), et)
        return leaf, f"{leaf.get_node().get_friendly_name()}{leaf.get_partial_shape()}"

    def op_downstream(self) -> None:
        index = self.r.randrange(len(self.pool))
        out = self.pool[index]
        if _rank(out) is None:
            raise _Skip("dynamic rank")
        et = out.get_element_type()
        other, desc = self.operand(index, et)
        first = out.get_node().get_friendly_name()
        kind = self.r.choice(["Add", "Multiply", "Select"])
        pair = [out, other] if self.r.random() < 0.6 else [other, out]
        if kind == "Select":
            cond = self.leaf(self.partner_dims(_dims(out) or []), BOOL)
            node = op1.select(cond, *pair, auto_broadcast="numpy")
            chain = f"Select(cond{cond.get_partial_shape()}, {first}, {desc})"
        else:
            node = _F1.create(kind, pair, {"auto_broadcast": "numpy"})
            chain = f"{kind}({first}, {desc})"
        self.named(node, kind.lower())
        self.used.add(index)
        self.records[node.get_friendly_name()] = ("downstream", chain)
        self.add_output(node.output(0))

    # ---- the model --------------------------------------------------------------------

    def build(self) -> ov.Model:
        n_broadcasts = self.r.randint(1, 4)
        for _ in range(4 * n_broadcasts):
            if sum(1 for v in self.records.values() if v[0] == "broadcast") >= n_broadcasts:
                break
            try:
                self.op_broadcast()
            except (_Skip, RuntimeError):
                continue
            for _ in range(self.r.choice([0, 1, 1, 2])):
                try:
                    self.op_downstream()
                except (_Skip, RuntimeError):
                    pass
        if not self.pool:
            raise _Skip("no Broadcast could be built")
        results = []
        for i, out in enumerate(self.pool):
            if i not in self.used:
                results.append(self.named(op1.result(out), "out"))
        return ov.Model(results, _reachable_parameters(results), "shapegen")


def _reachable_parameters(results: Sequence[ov.Node]) -> list[ov.Node]:
    seen, params, stack = set(), [], list(results)
    while stack:
        node = stack.pop()
        key = node.get_friendly_name()
        if key in seen:
            continue
        seen.add(key)
        if node.get_type_name() == "Parameter":
            params.append(node)
        stack.extend(node.input_value(i).get_node() for i in range(node.get_input_size()))
    return sorted(params, key=lambda p: int(p.get_friendly_name().split("_")[1]))


# --------------------------------------------------------------------------------------
# writing and reading back


def _try_build(subseed: int) -> tuple[_Builder, ov.Model] | None:
    builder = _Builder(subseed)
    try:
        return builder, builder.build()
    except (_Skip, RuntimeError):
        return None


def _records(xml: Path, builder: _Builder, loaded: ov.Model) -> list[LayerRecord]:
    root = etree.parse(str(xml)).getroot()
    layers = {l.get("name"): l for l in root.find("layers").findall("layer")}
    shapes = {op.get_friendly_name(): op.get_output_partial_shape(0)
              for op in loaded.get_ordered_ops()}
    out = []
    for name, (role, chain) in builder.records.items():
        if name not in layers:
            continue            # an op that a later failure left unconnected
        l = layers[name]
        data = l.find("data")
        attrs = dict(data.attrib) if data is not None else {}
        ps = shapes[name]
        out.append(LayerRecord(l.get("id"), name, l.get("type"), l.get("version"),
                               attrs.get("mode", attrs.get("auto_broadcast", "")), role, chain,
                               str(ps), _bounds(ps)))
    return out


def generate(seed: int, out_dir: Path) -> ShapeModel:
    """Build the model for ``seed`` and write ``out_dir/model.xml`` and ``model.bin``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    xml, binp = out_dir / "model.xml", out_dir / "model.bin"
    for attempt in range(MAX_ATTEMPTS):
        built = _try_build(seed * 1000 + attempt)
        if built is None:
            continue
        builder, model = built
        ov.save_model(model, str(xml), compress_to_fp16=False)
        if not binp.exists():
            binp.write_bytes(b"")
        try:
            loaded = ov.Core().read_model(str(xml))
        except RuntimeError:
            continue            # the runtime rejects the saved model: next sub-seed
        records = _records(xml, builder, loaded)
        if records:
            return ShapeModel(seed, attempt, xml, binp, records)
    raise RuntimeError(f"shapegen: no valid model for seed {seed} in {MAX_ATTEMPTS} attempts")


# --------------------------------------------------------------------------------------
# coverage, from the written IR


#: every key that coverage() can report for a Broadcast target subgraph
SUBGRAPH_KEYS = [
    "ShapeOf/opset1", "ShapeOf/opset3/i32", "ShapeOf/opset3/i64",
    "Gather/opset1", "Gather/opset7", "Gather/opset8", "Gather scalar index",
    "Gather 1-D indices", "Gather negative index",
    "Concat", "Concat const -1", "Concat const 0", "Concat of two shapes",
    "Convert/i32", "Convert/i64", "Unsqueeze", "Squeeze", "Reshape", "Reshape special_zero",
    "Slice/opset8", "Slice negative step", "StridedSlice", "StridedSlice begin/end mask",
    "StridedSlice shrink_axis", "StridedSlice new_axis", "StridedSlice negative stride",
    "Add", "Subtract", "Multiply", "Divide pythondiv=true", "Divide pythondiv=false",
    "Maximum", "Minimum", "Add of two shapes", "Subtract of two shapes",
    "Multiply of two shapes", "Divide of two shapes", "Maximum of two shapes",
    "Minimum of two shapes", "Range/opset4", "ReduceProd keep_dims=true",
    "ReduceProd keep_dims=false",
] + [f"depth {d}" for d in range(1, 6)]

_STRUCT = {"i64": "q", "i32": "i"}


class _IR:
    """A written IR's top-level layers and edges, with the bytes of its .bin."""

    def __init__(self, xml: Path) -> None:
        root = etree.parse(str(xml)).getroot()
        self.blob = Path(xml).with_suffix(".bin").read_bytes()
        self.layers = {l.get("id"): l for l in root.find("layers").findall("layer")}
        #: layer id -> {input port: producer layer id}
        self.inputs: dict[str, dict[int, str]] = collections.defaultdict(dict)
        for e in root.find("edges").findall("edge"):
            self.inputs[e.get("to-layer")][int(e.get("to-port"))] = e.get("from-layer")
        self._computed: dict[str, bool] = {}

    def attrs(self, lid: str) -> dict[str, str]:
        data = self.layers[lid].find("data")
        return dict(data.attrib) if data is not None else {}

    def const_values(self, lid: str | None) -> list[int]:
        """The integers of a Const layer (i32/i64), [] for anything else."""
        if lid is None or self.layers[lid].get("type") != "Const":
            return []
        a = self.attrs(lid)
        code = _STRUCT.get(a.get("element_type", ""))
        if code is None:
            return []
        offset, item = int(a.get("offset", 0)), struct.calcsize(code)
        count = int(a.get("size", 0)) // item       # an empty Const is written with size 1
        return list(struct.unpack(f"<{count}{code}", self.blob[offset:offset + count * item]))

    def computed(self, lid: str) -> bool:
        """Whether the value of layer ``lid`` depends on a ShapeOf (is not a constant)."""
        if lid not in self._computed:
            self._computed[lid] = False          # no cycles in a valid IR; guard anyway
            self._computed[lid] = self.layers[lid].get("type") == "ShapeOf" or any(
                self.computed(src) for src in self.inputs[lid].values())
        return self._computed[lid]

    def depth(self, lid: str) -> int:
        """Longest chain of computed layers ending at ``lid`` (a ShapeOf counts 1)."""
        if not self.computed(lid):
            return 0
        if self.layers[lid].get("type") == "ShapeOf":
            return 1
        return 1 + max(self.depth(src) for src in self.inputs[lid].values())

    def upstream(self, lid: str) -> set:
        """``lid`` and the layers above it, up to and including the ShapeOfs."""
        seen, stack = set(), [lid]
        while stack:
            cur = stack.pop()
            if cur not in seen:
                seen.add(cur)
                if self.layers[cur].get("type") != "ShapeOf":
                    stack.extend(self.inputs[cur].values())
        return seen


def _gather_keys(ir: _IR, lid: str) -> list[str]:
    idx = ir.inputs[lid].get(1)
    scalar = idx is not None and ir.attrs(idx).get("shape", "") == ""
    keys = [f"Gather/{ir.layers[lid].get('version')}",
            "Gather scalar index" if scalar else "Gather 1-D indices"]
    return keys + ["Gather negative index"] * any(x < 0 for x in ir.const_values(idx))


def _concat_keys(ir: _IR, lid: str) -> list[str]:
    srcs = list(ir.inputs[lid].values())
    consts = [x for src in srcs for x in ir.const_values(src)]
    return (["Concat"] + ["Concat const -1"] * (-1 in consts) + ["Concat const 0"] * (0 in consts)
            + ["Concat of two shapes"] * (sum(map(ir.computed, srcs)) >= 2))


def _arith_keys(ir: _IR, lid: str) -> list[str]:
    t = ir.layers[lid].get("type")
    key = f"Divide pythondiv={ir.attrs(lid).get('m_pythondiv')}" if t == "Divide" else t
    both = all(map(ir.computed, ir.inputs[lid].values()))
    return [key] + [f"{t} of two shapes"] * both


def _slice_keys(ir: _IR, lid: str) -> list[str]:
    negative = any(x < 0 for x in ir.const_values(ir.inputs[lid].get(3)))
    if ir.layers[lid].get("type") == "Slice":
        return [f"Slice/{ir.layers[lid].get('version')}"] + ["Slice negative step"] * negative
    a, keys = ir.attrs(lid), ["StridedSlice"] + ["StridedSlice negative stride"] * negative
    for attr, key in (("begin_mask", "begin/end mask"), ("end_mask", "begin/end mask"),
                      ("shrink_axis_mask", "shrink_axis"), ("new_axis_mask", "new_axis")):
        if "1" in a.get(attr, "").split(","):
            keys.append(f"StridedSlice {key}")
    return keys


def _simple_keys(ir: _IR, lid: str) -> list[str]:
    t, v, a = ir.layers[lid].get("type"), ir.layers[lid].get("version"), ir.attrs(lid)
    if t == "ShapeOf":
        return [f"ShapeOf/{v}" + (f"/{a.get('output_type')}" if v != "opset1" else "")]
    if t == "Convert":
        return [f"Convert/{a.get('destination_type')}"]
    if t == "Reshape":
        return ["Reshape"] + ["Reshape special_zero"] * (a.get("special_zero") == "true")
    if t == "ReduceProd":
        return [f"ReduceProd keep_dims={a.get('keep_dims')}"]
    if t == "Range":
        return [f"Range/{v}"]
    return [t] if t in ("Unsqueeze", "Squeeze") else []


_KEYS: dict[str, Callable[[_IR, str], list[str]]] = {
    "Gather": _gather_keys, "Concat": _concat_keys, "Slice": _slice_keys,
    "StridedSlice": _slice_keys, **{t: _arith_keys for t in
                                    ("Add", "Subtract", "Multiply", "Divide", "Maximum", "Minimum")}}


def _broadcast_keys(ir: _IR, lid: str) -> list[str]:
    version, mode = ir.layers[lid].get("version"), ir.attrs(lid).get("mode")
    if version == "opset1" and mode == "none":
        mode = "explicit"               # Broadcast-1 writes its explicit mode as "none"
    keys = [f"Broadcast/{version}/{mode}",
            f"depth {min(ir.depth(ir.inputs[lid][1]), 5)}"]
    if version == "opset1" and mode == "pdpd" and 2 in ir.inputs[lid]:
        keys.append("Broadcast/opset1/pdpd with 3 inputs")
    return keys


def _parameter_keys(ir: _IR, lid: str) -> list[str]:
    return ["Parameter dim " + ("interval" if ".." in tok else "?" if tok in ("?", "-1")
                                else "static")
            for tok in ir.attrs(lid).get("shape", "").split(",")]


def coverage(xml: Path) -> collections.Counter:
    """Count, in a written IR, Broadcast kinds, target depths, downstream layers, Parameter
    dims and the ops (versions, attributes, constant values) of the target subgraphs."""
    ir, c = _IR(xml), collections.Counter()
    broadcasts = [lid for lid, l in ir.layers.items() if l.get("type") == "Broadcast"]
    subgraph = set().union(*(ir.upstream(ir.inputs[b][1]) for b in broadcasts))
    for lid, l in ir.layers.items():
        t = l.get("type")
        if lid in subgraph:
            c.update(_KEYS.get(t, _simple_keys)(ir, lid))
        elif t == "Broadcast":
            c.update(_broadcast_keys(ir, lid))
        elif t in ("Select", "Add", "Multiply"):
            c[f"downstream {t}"] += 1
        elif t == "Parameter":
            c.update(_parameter_keys(ir, lid))
    return c
