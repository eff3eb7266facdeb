"""Seeded random generator of *valid* OpenVINO IR models, plus mutators that break them.

Used by ``test_differential.py``: every model built here is accepted by
``ov.Core().read_model`` (the generator asserts it), so a validator must report no error
on it.  The mutators then corrupt one layer of such a model (a declared output ``<dim>`` or
rank, a declared input ``<dim>``, or the bytes of a Broadcast's constant ``target_shape``)
and return the IR id of the layer that a validator must blame.  ``mutate_parameter_shape``
changes a Parameter's shape and leaves it to OpenVINO to say whether the result is valid,
and ``rewrite_benign`` makes textual changes that OpenVINO reads as the same model.

Models mix every binary elementwise op, Select, FakeQuantize and Broadcast-1/-3 in every
mode (none/numpy/pdpd with axis -1 and >= 0, explicit, bidirectional), constant and computed
(ShapeOf/Concat/Gather/Multiply, Parameter) Broadcast targets, Parameters with static,
``?``, interval, 0 and dynamic-rank shapes and "dynamic" element type, scalars, shape-keeping
unary ops (Relu/Sigmoid/Abs/Convert), shape-changing ops (Reshape/Transpose/Unsqueeze/
Squeeze/Reduce*/Concat) and If/Loop layers whose bodies hold broadcasting ops.

The models are built with the openvino Python API.  Ops that carry a broadcasting rule are
created through ``NodeFactory`` so that attributes the ``opsetN`` helpers do not expose can be
set, e.g. the pdpd axis (``auto_broadcast.auto_broadcast_axis`` for elementwise ops,
``mode.auto_broadcast_axis`` for Broadcast-1 and ``mode.mode.axis`` for Broadcast-3).
Every candidate op is built inside ``try/except``: the builders run shape inference and
raise on invalid combinations, and a failed candidate is simply dropped.

Nothing here is a test; the module only needs ``openvino``, ``numpy`` and ``lxml``.
"""
from __future__ import annotations

import collections
import dataclasses
import random
import re
import shutil
import struct
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset16 as ops
from lxml import etree
from openvino.utils.node_factory import NodeFactory

__all__ = [
    "GeneratedModel", "LayerInfo", "Mutation", "generate", "mutate_output_dims",
    "mutate_output_rank", "mutate_target_constant", "mutate_input_dims", "MUTATORS",
    "coverage", "BROADCASTING_TYPES", "BENIGN_KINDS", "rewrite_benign", "inferred_shapes",
    "COMPUTED_TARGETS", "mutate_parameter_shape",
]

MAX_LAYERS = 40
MIN_LAYERS = 5
MAX_BODY_LAYERS = 14
#: ranks of an unknown Reshape target (a Parameter i64[k]); -1: i64[?] gives a dynamic rank
RESHAPE_UNKNOWN_RANKS = [-1, 1, 2, 3, 4]

ARITHMETIC = ["Add", "Subtract", "Multiply", "Divide", "Power", "Maximum", "Minimum",
              "FloorMod", "Mod", "SquaredDifference"]
COMPARISON = ["Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"]
LOGICAL = ["LogicalAnd", "LogicalOr", "LogicalXor"]
BITWISE = ["BitwiseAnd", "BitwiseOr", "BitwiseXor"]
SHIFTS = ["BitwiseLeftShift", "BitwiseRightShift"]
ELTWISE = ARITHMETIC + COMPARISON + LOGICAL + ["Xor"] + BITWISE + SHIFTS
BROADCASTING_TYPES = frozenset(ELTWISE + ["Select", "FakeQuantize", "Broadcast"])

F32, F16, I32, I64, U8, I16, BOOL = (ov.Type.f32, ov.Type.f16, ov.Type.i32, ov.Type.i64,
                                     ov.Type.u8, ov.Type.i16, ov.Type.boolean)
DYN = ov.Type.dynamic
_NP = {F32: np.float32, F16: np.float16, I32: np.int32, I64: np.int64, U8: np.uint8,
       I16: np.int16, BOOL: np.bool_}

# Element-type names as written in Const <data element_type=...>, for .bin decoding.
_ET_STRUCT = {"i64": "q", "i32": "i", "i16": "h", "i8": "b", "u64": "Q", "u32": "I",
              "u16": "H", "u8": "B"}

_F1 = NodeFactory("opset1")
_F3 = NodeFactory("opset3")
_F16 = NodeFactory("opset16")


# --------------------------------------------------------------------------------------
# records


@dataclasses.dataclass
class LayerInfo:
    """What the generator knows about one op it created (keyed by friendly name)."""

    name: str
    type: str
    mode: str                    # auto_broadcast / Broadcast mode, "" for other ops
    axis: int | None = None   # pdpd axis, if any
    version: str = ""            # "opset1"/"opset3" for Broadcast
    #: True when the whole upstream cone consists of Parameters, Constants, broadcasting ops
    #: with constant shape inputs and simple shape-keeping unary ops, i.e. a validator that
    #: implements the broadcasting rules can infer this layer's output exactly.
    pure: bool = True
    #: Broadcast only: friendly name of the Const feeding target_shape (None if computed).
    target_const: str | None = None
    target_kind: str = ""        # Broadcast only: "const-i64", "shapeof", "concat", ...


@dataclasses.dataclass
class GeneratedModel:
    seed: int
    xml: Path
    bin: Path
    #: friendly names of the elementwise/Select/FakeQuantize/Broadcast layers
    broadcasting_layers: list[str]
    layers: dict[str, LayerInfo]
    #: friendly name -> IR layer id (top-level graph), read back from the written XML
    ids: dict[str, str]
    #: number of <layer> elements, those in If/Loop bodies included
    n_layers: int


@dataclasses.dataclass
class Mutation:
    kind: str
    xml: Path
    bin: Path
    layer_id: str
    layer_name: str
    layer_type: str
    detail: str
    #: parameter_shape only: names of the layers downstream of the changed Parameter
    affected: tuple[str, ...] = ()


# --------------------------------------------------------------------------------------
# shape helpers (shapes are lists of ov.Dimension, or None for a dynamic rank)

Dims = list[ov.Dimension] | None


def _is_one(d: ov.Dimension) -> bool:
    return d.is_static and d.get_length() == 1


def _dims_of(out: ov.Output) -> Dims:
    ps = out.get_partial_shape()
    if ps.rank.is_dynamic:
        return None
    return [ps[i] for i in range(ps.rank.get_length())]


def _pshape(dims: Dims) -> ov.PartialShape:
    if dims is None:
        return ov.PartialShape.dynamic()
    return ov.PartialShape(list(dims))


class _Entry:
    """A tensor available as an operand."""

    __slots__ = ("out", "pure", "used", "order")

    def __init__(self, out: ov.Output, pure: bool, order: int) -> None:
        self.out = out
        self.pure = pure
        self.used = False
        self.order = order

    @property
    def et(self) -> ov.Type:
        return self.out.get_element_type()

    @property
    def dims(self) -> Dims:
        return _dims_of(self.out)


class _Reject(Exception):
    """A candidate could not be formed (not an OpenVINO error)."""


# --------------------------------------------------------------------------------------
# the generator


class _Gen:
    def __init__(self, seed: int, parent: _Gen | None = None) -> None:
        self.seed = seed
        self.r = random.Random(seed)
        self.rng = np.random.default_rng(seed)
        self.pool: list[_Entry] = []
        self.params: list[ov.Node] = []
        self.nodes = 0                      # committed nodes (for the layer budget)
        self.layers: dict[str, LayerInfo] = {}
        #: a body generator (If/Loop) shares the name counter and makes no Parameters
        self.in_body = parent is not None
        self.max_layers = MAX_BODY_LAYERS if self.in_body else MAX_LAYERS
        self._counter = parent._counter if parent is not None else [0]
        self.body_layers: list[LayerInfo] = []
        # candidate staging
        self.staged_params: list[ov.Node] = []
        self.staged_nodes = 0
        self.staged_used: list[_Entry] = []

    # ---- naming / staging -------------------------------------------------------------

    def name(self, prefix: str) -> str:
        self._counter[0] += 1
        return f"{prefix}_{self._counter[0]}"

    def named(self, node: ov.Node, prefix: str) -> ov.Node:
        node.set_friendly_name(self.name(prefix))
        self.staged_nodes += 1
        return node

    def begin(self) -> None:
        self.staged_params = []
        self.staged_nodes = 0
        self.staged_used = []

    def use(self, entry: _Entry) -> ov.Output:
        self.staged_used.append(entry)
        return entry.out

    def unused_count(self) -> int:
        return sum(1 for e in self.pool if not e.used)

    def commit(self, out: ov.Output, pure: bool, info: LayerInfo | None = None,
               add_to_pool: bool = True) -> bool:
        used_ids = {id(e) for e in self.staged_used}
        newly_used = sum(1 for e in self.pool if id(e) in used_ids and not e.used)
        # layers after commit: nodes + Results for every unused entry
        projected = self.nodes + self.staged_nodes + self.unused_count() - newly_used + 1
        if projected > self.max_layers:
            return False
        self.nodes += self.staged_nodes
        self.params.extend(self.staged_params)
        for e in self.staged_used:
            e.used = True
        if info is not None:
            self.layers[info.name] = info
        if add_to_pool:
            self.pool.append(_Entry(out, pure, len(self.pool)))
        return True

    def layer_count(self) -> int:
        return self.nodes + self.unused_count()

    # ---- random dims -----------------------------------------------------------------

    def rdim(self, p_dyn: float = 0.0, p_interval: float = 0.0, lo: int = 1,
             hi: int = 6) -> ov.Dimension:
        x = self.r.random()
        if x < p_dyn:
            return ov.Dimension()
        if x < p_dyn + p_interval:
            a = self.r.choice([0, 1, 1, 2, 3])
            b = a + self.r.randint(1, 7)
            if self.r.random() < 0.15:
                return ov.Dimension(a, -1)        # "a.." (no upper bound)
            return ov.Dimension(a, b)
        return ov.Dimension(self.r.randint(lo, hi))

    def rshape(self, rank: int | None = None, dynamic: bool = True) -> Dims:
        if rank is None:
            rank = self.r.choice([0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5])
        pd, pi = (0.15, 0.12) if dynamic else (0.0, 0.0)
        dims = []
        for _ in range(rank):
            d = self.rdim(pd, pi)
            if d.is_static:
                x = self.r.random()
                if x < 0.2:
                    d = ov.Dimension(1)
                elif x < 0.215:
                    d = ov.Dimension(0)      # an empty tensor
            dims.append(d)
        return dims

    def dynamify(self, dims: Dims, p: float = 0.12) -> Dims:
        """Loosen some static dims of a Parameter into ``?`` or an interval containing them."""
        if dims is None:
            return None
        out = []
        for d in dims:
            if d.is_static and self.r.random() < p:
                v = d.get_length()
                if self.r.random() < 0.5:
                    out.append(ov.Dimension())
                else:
                    out.append(ov.Dimension(max(0, v - self.r.randint(0, 2)),
                                            v + self.r.randint(0, 4)))
            else:
                out.append(d)
        return out

    def concretize(self, d: ov.Dimension, wild: float = 0.0) -> int:
        """A static value that a dynamic/interval dim may take (for Constants).

        With probability ``wild`` any value 1..12 is returned instead; against an interval
        that contains 1 OpenVINO accepts it anyway (``1..8`` broadcasts with ``10``).
        """
        if d.is_static:
            return d.get_length()
        if wild and self.r.random() < wild:
            return self.r.randint(1, 12)
        lo = max(d.get_min_length(), 1)
        hi = d.get_max_length()
        if hi < 0 or hi > lo + 5:
            hi = lo + 5
        if hi < lo:
            return lo
        return self.r.randint(lo, hi)

    # ---- leaves ----------------------------------------------------------------------

    def new_param(self, dims: Dims, et: ov.Type) -> ov.Output:
        if self.in_body:
            # a body Parameter needs an outer input: use a Constant instead
            if dims is None:
                dims = self.rshape(dynamic=False)
            return self.new_const([self.concretize(d) for d in dims], et if et != DYN else F32)
        p = ops.parameter(_pshape(dims), et)
        self.named(p, "in")
        self.staged_params.append(p)
        return p.output(0)

    def const_values(self, shape: list[int], et: ov.Type) -> np.ndarray:
        if et == BOOL:
            return self.rng.integers(0, 2, size=shape).astype(np.bool_)
        if et in (F32, F16):
            return self.rng.uniform(-2.0, 2.0, size=shape).astype(_NP[et])
        return self.rng.integers(1, 5, size=shape).astype(_NP[et])

    def new_const(self, shape: list[int], et: ov.Type) -> ov.Output:
        c = ops.constant(self.const_values(shape, et), dtype=_NP[et])
        self.named(c, "c")
        return c.output(0)

    def new_int_const(self, values: Sequence[int], et: ov.Type) -> ov.Output:
        arr = np.array(list(values), dtype=_NP[et])
        if len(values) == 0:
            arr = np.zeros([0], dtype=_NP[et])
        c = ops.constant(arr, dtype=_NP[et])
        self.named(c, "c")
        return c.output(0)

    def leaf(self, dims: Dims, et: ov.Type, p_const: float = 0.45) -> ov.Output:
        """A Parameter or (if the shape allows) a Constant with ``dims``."""
        static = dims is not None and all(d.is_static for d in dims)
        if not static and dims is not None and self.r.random() < p_const * 0.5:
            # constant of a value the dynamic dims may take
            return self.new_const([self.concretize(d) for d in dims], et)
        if static and self.r.random() < p_const:
            return self.new_const([d.get_length() for d in dims], et)
        return self.new_param(self.dynamify(dims), et)

    # ---- operands --------------------------------------------------------------------

    def pick(self, pred: Callable[[_Entry], bool], recent: bool = True) -> _Entry | None:
        cands = [e for e in self.pool if pred(e)]
        if not cands:
            return None
        if recent and self.r.random() < 0.6:
            # prefer unused / recent tensors so chains get deep
            unused = [e for e in cands if not e.used]
            if unused:
                return self.r.choice(unused[-4:])
        return self.r.choice(cands)

    def base(self, ets: Sequence[ov.Type]) -> tuple[ov.Output, bool]:
        """An operand of one of ``ets``: a pool tensor, a Convert of one, or a new Parameter."""
        ets = list(ets)
        x = self.r.random()
        if x < 0.72:
            e = self.pick(lambda e: e.et in ets)
            if e is not None:
                return self.use(e), e.pure
        if x < 0.82:
            e = self.pick(lambda e: e.et not in ets)
            if e is not None:
                cv = self.named(ops.convert(self.use(e), self.r.choice(ets)), "convert")
                return cv.output(0), e.pure
        dims: Dims
        if self.r.random() < 0.06:
            dims = None
        else:
            dims = self.rshape()
        return self.new_param(dims, self.r.choice(ets)), True

    def partner(self, dims: Dims, et: ov.Type, derive: Callable[[Dims], Dims],
                p_pool: float = 0.25) -> tuple[ov.Output, bool]:
        x = self.r.random()
        if x < p_pool:
            e = self.pick(lambda e: e.et == et, recent=False)
            if e is not None:
                return self.use(e), e.pure
        elif x < p_pool + 0.03:
            # a Parameter of element type "dynamic" merges with any element type
            return self.new_param(derive(dims), DYN), True
        return self.leaf(derive(dims), et), True

    # ---- partner shape derivations ---------------------------------------------------

    def derive_numpy(self, dims: Dims, allow_longer: bool = True) -> Dims:
        if dims is None:
            return self.rshape(dynamic=False)
        r = len(dims)
        k = self.r.randint(0, r)
        if self.r.random() < 0.5:
            k = r
        out = []
        for d in dims[r - k:]:
            if d.is_static:
                out.append(ov.Dimension(1) if self.r.random() < 0.35 else d)
            else:
                x = self.r.random()
                if x < 0.35:
                    out.append(ov.Dimension(1))
                elif x < 0.7:
                    out.append(ov.Dimension(self.concretize(d, wild=0.15)))
                else:
                    out.append(d)
        if allow_longer and self.r.random() < 0.15 and r < 5:
            out = [self.rdim(0.1, 0.1) for _ in range(self.r.randint(1, 5 - r))] + out
        return out

    def derive_none(self, dims: Dims) -> Dims:
        if dims is None:
            return self.rshape(dynamic=False) if self.r.random() < 0.5 else None
        out = []
        for d in dims:
            if d.is_static:
                out.append(d)
            else:
                out.append(ov.Dimension(self.concretize(d)) if self.r.random() < 0.5 else d)
        return out

    def derive_pdpd(self, dims: Dims, axis: int) -> Dims:
        """B for A=dims, placed at ``axis`` (-1: right-aligned). Pdpd is one-way."""
        if dims is None:
            return self.rshape(dynamic=False)
        r = len(dims)
        if axis == -1:
            k = self.r.randint(0, r)
            window = dims[r - k:]
        else:
            k = self.r.randint(0, r - axis)
            window = dims[axis:axis + k]
        out = []
        for d in window:
            if d.is_static:
                out.append(ov.Dimension(1) if self.r.random() < 0.3 else d)
            else:
                x = self.r.random()
                if x < 0.3:
                    out.append(ov.Dimension(1))
                elif x < 0.65:
                    out.append(ov.Dimension(self.concretize(d, wild=0.15)))
                else:
                    out.append(ov.Dimension())
        return out

    def pdpd_axis(self, dims: Dims) -> int:
        if dims is None or self.r.random() < 0.55:
            return -1
        return self.r.randint(0, len(dims))

    def mode(self, p_none: float = 0.2, p_pdpd: float = 0.25) -> str:
        x = self.r.random()
        if x < p_none:
            return "none"
        if x < p_none + p_pdpd:
            return "pdpd"
        return "numpy"

    @staticmethod
    def autob_attrs(mode: str, axis: int | None) -> dict:
        attrs = {"auto_broadcast": mode}
        if mode == "pdpd":
            attrs["auto_broadcast.auto_broadcast_axis"] = axis
        return attrs

    # ---- op builders (each raises on an invalid candidate) ----------------------------

    def op_eltwise(self) -> None:
        family = self.r.choices(["arith", "cmp", "logic", "bitwise", "shift"],
                                weights=[10, 6, 3, 3, 2])[0]
        if family == "arith":
            op = self.r.choice(ARITHMETIC)
            ets = self.r.choices([[F32], [I32], [I64], [F16]], weights=[14, 4, 1, 1])[0]
        elif family == "cmp":
            op = self.r.choice(COMPARISON)
            ets = self.r.choices([[F32], [I32], [BOOL]], weights=[6, 3, 1])[0]
            if ets == [BOOL] and op not in ("Equal", "NotEqual"):
                ets = [F32]
        elif family == "logic":
            op = self.r.choice(LOGICAL + (["Xor"] if self.r.random() < 0.1 else []))
            ets = [BOOL]
        elif family == "bitwise":
            op = self.r.choice(BITWISE)
            ets = self.r.choices([[I32], [U8], [I64], [BOOL]], weights=[5, 2, 1, 2])[0]
        else:
            op = self.r.choice(SHIFTS)
            ets = self.r.choices([[I32], [U8], [I64]], weights=[5, 2, 1])[0]
        a, pure_a = self.base(ets)
        et = a.get_element_type()
        dims = _dims_of(a)
        mode = self.mode()
        axis = None
        if mode == "numpy":
            b, pure_b = self.partner(dims, et, self.derive_numpy)
        elif mode == "none":
            b, pure_b = self.partner(dims, et, self.derive_none, p_pool=0.1)
        else:
            axis = self.pdpd_axis(dims)
            b, pure_b = self.partner(dims, et, lambda d: self.derive_pdpd(d, axis), p_pool=0.1)
        if mode != "pdpd" and self.r.random() < 0.5:
            a, b = b, a
        factory = _F1 if op == "Xor" else _F16
        node = factory.create(op, [a, b], self.autob_attrs(mode, axis))
        name = self.name(op.lower())
        node.set_friendly_name(name)
        self.staged_nodes += 1
        info = LayerInfo(name, op, mode, axis, pure=pure_a and pure_b)
        self.commit(node.output(0), info.pure, info)

    def op_select(self) -> None:
        et = self.r.choice([F32, F32, I32])
        mode = self.mode(0.2, 0.3)
        then, p_then = self.base([et])
        et = then.get_element_type()
        dims = _dims_of(then)
        axis = None
        if mode == "numpy":
            els, p_else = self.partner(dims, et, self.derive_numpy)
            cond, p_cond = self.partner(dims, BOOL, self.derive_numpy)
        elif mode == "none":
            els, p_else = self.partner(dims, et, self.derive_none, 0.1)
            cond, p_cond = self.partner(dims, BOOL, self.derive_none, 0.1)
        else:
            axis = self.pdpd_axis(dims)
            els, p_else = self.partner(dims, et, lambda d: self.derive_pdpd(d, axis), 0.1)
            cond, p_cond = self.partner(dims, BOOL, lambda d: self.derive_pdpd(d, axis), 0.1)
        if mode == "numpy" and self.r.random() < 0.3:
            then, els = els, then
        node = _F16.create("Select", [cond, then, els], self.autob_attrs(mode, axis))
        name = self.name("select")
        node.set_friendly_name(name)
        self.staged_nodes += 1
        info = LayerInfo(name, "Select", mode, axis, pure=p_then and p_else and p_cond)
        self.commit(node.output(0), info.pure, info)

    def op_fake_quantize(self) -> None:
        data, pure = self.base([F32])
        dims = _dims_of(data)
        mode = self.r.choices(["numpy", "none", "pdpd"], weights=[8, 1, 1])[0]
        axis = self.pdpd_axis(dims) if mode == "pdpd" else None
        ranges = []
        shared = None
        for _ in range(4):
            if shared is not None and self.r.random() < 0.4:
                ranges.append(shared)    # share a Const (same shape) between ranges
                continue
            if mode == "numpy":
                rd = self.derive_numpy(dims, allow_longer=self.r.random() < 0.3)
                if dims is not None:
                    # keep the ranges mutually broadcastable: pin dynamic data dims to 1
                    off = len(rd) - len(dims)
                    rd = [ov.Dimension(1) if (0 <= i - off < len(dims)
                                               and not dims[i - off].is_static
                                               and not _is_one(d)) and self.r.random() < 0.7
                          else d for i, d in enumerate(rd)]
            elif mode == "none":
                rd = self.derive_none(dims)
            else:
                rd = self.derive_pdpd(dims, axis)
            if rd is not None and all(d.is_static for d in rd) and self.r.random() < 0.8:
                # FakeQuantize does no element-type checks: an i32 range is accepted
                ret = I32 if self.r.random() < 0.05 else F32
                out = self.new_const([d.get_length() for d in rd], ret)
            else:
                out = self.new_param(rd, F32)
            shared = out
            ranges.append(out)
        attrs = self.autob_attrs(mode, axis)
        attrs["levels"] = self.r.choice([2, 16, 255, 256])
        node = _F16.create("FakeQuantize", [data] + ranges, attrs)
        name = self.name("fq")
        node.set_friendly_name(name)
        self.staged_nodes += 1
        info = LayerInfo(name, "FakeQuantize", mode, axis, pure=pure)
        self.commit(node.output(0), pure, info)

    # Broadcast ------------------------------------------------------------------------

    def target_values_numpy(self, dims: Dims) -> list[int]:
        if dims is None:
            return [self.r.randint(1, 5) for _ in range(self.r.randint(0, 4))]
        out = []
        for d in dims:
            if d.is_static and d.get_length() != 1:
                out.append(d.get_length())
            elif d.is_static:   # 1 broadcasts to anything
                out.append(self.r.choice([1, self.r.randint(1, 6)]))
            else:
                out.append(self.concretize(d) if self.r.random() < 0.6 else self.r.randint(1, 6))
        extra = self.r.randint(0, max(0, 5 - len(dims))) if self.r.random() < 0.6 else 0
        return [self.r.randint(1, 5) for _ in range(extra)] + out

    def target_values_bidirectional(self, dims: Dims) -> list[int]:
        if dims is None:
            return [self.r.randint(1, 5) for _ in range(self.r.randint(0, 4))]
        r = len(dims)
        k = self.r.randint(0, r)   # target may be shorter than data
        out = []
        for d in dims[r - k:]:
            if d.is_static and d.get_length() != 1:
                out.append(self.r.choice([1, d.get_length()]))
            else:
                out.append(self.r.randint(1, 6) if d.is_static else
                           self.r.choice([1, self.concretize(d)]))
        if self.r.random() < 0.4 and k == r:
            out = [self.r.randint(1, 5) for _ in range(self.r.randint(1, max(1, 5 - r)))] + out
        return out

    def target_values_explicit(self, dims: list[ov.Dimension]) -> tuple[list[int], list[int]]:
        k = len(dims)
        n = self.r.randint(max(k, 1), min(5, k + 2)) if k < 5 else k
        if k == 0:
            axes: list[int] = [] if self.r.random() < 0.5 else [self.r.randrange(n)]
        else:
            axes = sorted(self.r.sample(range(n), k))
        vals = [self.r.randint(1, 5) for _ in range(n)]
        for i, ax in enumerate(axes):
            d = dims[i] if dims else ov.Dimension(1)
            if not dims:
                vals[ax] = 1
            elif d.is_static and d.get_length() != 1:
                vals[ax] = d.get_length()
            elif not d.is_static:
                vals[ax] = self.r.choice([1, self.concretize(d)]) if d.get_min_length() <= 1 \
                    else self.concretize(d)
        return vals, axes

    def target_values_pdpd(self, dims: Dims) -> tuple[list[int], int]:
        """(target, axis): data dims are consumed from ``start`` to the end of the target."""
        if dims is None:
            n = self.r.randint(1, 4)
            return [self.r.randint(1, 5) for _ in range(n)], self.r.choice([-1, 0])
        k = len(dims)
        if self.r.random() < 0.5:
            axis = -1
            start = self.r.randint(0, max(0, 5 - k))
            n = start + k
        else:
            start = self.r.randint(0, 3)
            used = self.r.randint(0, k)                 # data dims consumed
            if used < k and self.r.random() < 0.7:
                used = k                                # extra data dims are ignored (quirk)
            n = start + used
            axis = start
        vals = [self.r.randint(1, 5) for _ in range(start)]
        for i in range(n - start):
            d = dims[i]
            if _is_one(d):
                vals.append(self.r.randint(1, 5))
            elif d.is_static:
                vals.append(self.r.choice([1, d.get_length(), d.get_length()]))
            else:
                vals.append(self.r.choice([1, self.concretize(d)]))
        return vals, axis

    def target_const(self, vals: list[int]) -> tuple[ov.Output, str]:
        et = self.r.choices([I64, I32, U8, I16], weights=[6, 4, 1, 1])[0]
        if et == U8 and any(v < 0 for v in vals):
            et = I64
        return self.new_int_const(vals, et), "const-" + et.get_type_name()

    def computed_target(self) -> tuple[ov.Output, str, list[ov.Dimension]]:
        """A target_shape that is not a Constant but that bound evaluation can resolve.

        Returns the target output, its kind and the dims OpenVINO will resolve it to.
        """
        kind = self.r.choice(["shapeof", "concat", "gather", "shapeof", "mul", "concat"])
        src = self.pick(lambda e: e.dims is not None and len(e.dims) >= 1, recent=False)
        if src is not None and self.r.random() < 0.8:
            src_out = self.use(src)
        else:
            src_out = self.new_param(self.rshape(self.r.randint(1, 4)), F32)
        sdims = _dims_of(src_out)
        et = self.r.choice([I64, I32])
        shp = self.named(ops.shape_of(src_out, output_type=et.get_type_name()), "shapeof")
        out = shp.output(0)
        tdims = list(sdims)
        if kind == "concat":
            k = self.r.randint(1, 4)
            extra = self.new_int_const([k], et)
            if self.r.random() < 0.5:
                parts, tdims = [out, extra], tdims + [ov.Dimension(k)]
            else:
                parts, tdims = [extra, out], [ov.Dimension(k)] + tdims
            out = self.named(ops.concat(parts, 0), "concat").output(0)
        elif kind == "gather":
            idx = sorted(self.r.sample(range(len(sdims)), self.r.randint(1, len(sdims))))
            gaxis = self.named(ops.constant(np.int64(0)), "c")
            g = self.named(ops.gather(out, self.new_int_const(idx, I64), gaxis), "gather")
            out = g.output(0)
            tdims = [sdims[i] for i in idx]
            if self.r.random() < 0.6:
                k = self.r.randint(1, 4)
                extra = self.new_int_const([k], et)
                out = self.named(ops.concat([extra, out], 0), "concat").output(0)
                tdims = [ov.Dimension(k)] + tdims
        elif kind == "mul":
            c = self.r.choice([1, 2])
            two = self.new_int_const([c], et)
            out = self.named(ops.multiply(out, two), "mul").output(0)
            tdims = [ov.Dimension(d.get_length() * c) if d.is_static else ov.Dimension()
                     for d in tdims]
        return out, kind, tdims

    def op_broadcast(self) -> None:
        version = self.r.choice(["opset1", "opset3", "opset3"])
        modes = ["numpy", "explicit", "pdpd"] + (["bidirectional"] if version == "opset3" else [])
        mode = self.r.choice(modes)
        et = self.r.choice([F32, F32, I32, BOOL])
        factory = _F1 if version == "opset1" else _F3
        attrs: dict = {"mode": mode}
        axis = None
        target_const = None
        if mode != "pdpd" and self.r.random() < 0.3:
            # computed target_shape (ShapeOf / Concat / Gather / Multiply)
            target, kind, tdims = self.computed_target()
            if self.r.random() < 0.3:
                data, _ = self.base([et])
            elif mode == "explicit":
                k = self.r.randint(0, len(tdims))
                axes = sorted(self.r.sample(range(len(tdims)), k))
                ddims = [tdims[a] if self.r.random() < 0.7 else ov.Dimension(1) for a in axes]
                data = self.leaf(ddims, et)
            else:
                data = self.leaf(self.derive_numpy(tdims, allow_longer=False), et)
            inputs = [data, target]
            if mode == "explicit":
                dims = _dims_of(data)
                if dims is None:
                    raise _Reject("explicit needs a static data rank")
                if len(dims) > len(tdims):
                    raise _Reject("data rank larger than target")
                axes = sorted(self.r.sample(range(len(tdims)), len(dims)))
                inputs.append(self.new_int_const(axes, self.r.choice([I64, I32])))
            pure = False
        else:
            data, pure = self.base([et])
            dims = _dims_of(data)
            inputs = [data]
            if mode == "numpy":
                vals = self.target_values_numpy(dims)
                if self.r.random() < 0.05 and vals:
                    vals[self.r.randrange(len(vals))] = -1   # -1 in a target means '?'
                elif self.r.random() < 0.04 and vals and (dims is None or len(vals) > len(dims)):
                    vals[0] = 0                               # an empty output
                target, kind = self.target_const(vals)
                inputs.append(target)
            elif mode == "bidirectional":
                target, kind = self.target_const(self.target_values_bidirectional(dims))
                inputs.append(target)
            elif mode == "explicit":
                if dims is None:
                    # explicit needs a static data rank to be checked; give it one
                    dims = self.rshape(dynamic=False)
                    data = self.new_param(dims, et)
                    inputs = [data]
                vals, axes = self.target_values_explicit(dims)
                target, kind = self.target_const(vals)
                axes_et = self.r.choice([I64, I32, U8]) if axes else I64
                inputs += [target, self.new_int_const(axes, axes_et)]
                if version == "opset1" and self.r.random() < 0.4:
                    attrs["mode"] = "none"
            else:  # pdpd
                vals, axis = self.target_values_pdpd(dims)
                target, kind = self.target_const(vals)
                inputs.append(target)
                key = "mode.auto_broadcast_axis" if version == "opset1" else "mode.mode.axis"
                attrs[key] = axis
                if version == "opset1":
                    inputs.append(self.new_int_const([0], I64))   # v1 pdpd needs a 3rd input
            target_const = target.get_node().get_friendly_name()
        node = factory.create("Broadcast", inputs, attrs)
        if version == "opset1" and len(inputs) == 2:
            self.staged_nodes += 1    # the factory adds a default axes_mapping Const
            node.input_value(2).get_node().set_friendly_name(self.name("c"))
        name = self.name("broadcast")
        node.set_friendly_name(name)
        self.staged_nodes += 1
        info = LayerInfo(name, "Broadcast", attrs["mode"], axis, version, pure=pure,
                         target_const=target_const, target_kind=kind)
        self.commit(node.output(0), pure, info)

    def op_broadcast_param_target(self) -> None:
        """Broadcast whose target_shape is a Parameter (unknown values)."""
        data, pure = self.base([F32])
        dims = _dims_of(data)
        n = self.r.randint(0 if dims is None else len(dims), 5)
        tgt = self.new_param([ov.Dimension(n)], self.r.choice([I64, I32]))
        mode = self.r.choice(["numpy", "bidirectional"])
        node = _F3.create("Broadcast", [data, tgt], {"mode": mode})
        name = self.name("broadcast")
        node.set_friendly_name(name)
        self.staged_nodes += 1
        info = LayerInfo(name, "Broadcast", mode, None, "opset3", pure=False,
                         target_kind="parameter")
        self.commit(node.output(0), False, info)

    def op_unary(self) -> None:
        e = self.pick(lambda e: True)
        if e is None:
            raise _Reject("empty pool")
        et = e.et
        x = self.r.random()
        if et in (F32, F16) and x < 0.6:
            fn, pfx = self.r.choice([(ops.relu, "relu"), (ops.sigmoid, "sigmoid"),
                                     (ops.abs, "abs")])
            node = self.named(fn(self.use(e)), pfx)
        elif et in (I32, I64) and x < 0.4:
            node = self.named(ops.relu(self.use(e)), "relu")
        else:
            choices = [F32, I32, BOOL, U8, I64]
            to = self.r.choice([t for t in choices if t != et])
            node = self.named(ops.convert(self.use(e), to.get_type_name()), "convert")
        self.commit(node.output(0), e.pure)

    # ---- driver ----------------------------------------------------------------------

    def op_shape_change(self) -> None:
        """Ops outside the broadcasting rules that change shapes (Reshape, Transpose, ...).

        Their outputs feed later broadcasting ops, so a validator must take their shapes
        from somewhere (declared ports, or its own inference).  Their outputs are not
        "pure": mutations are never placed downstream of them.
        """
        e = self.pick(lambda e: e.et != DYN)
        if e is None:
            raise _Reject("empty pool")
        dims = e.dims
        x = self.use(e)
        kind = self.r.choice(["reshape", "reshape", "transpose", "unsqueeze", "squeeze",
                              "reduce", "concat"])
        if kind == "reshape":
            static = dims is not None and all(d.is_static for d in dims)
            if not static or self.r.random() < 0.2:
                # unknown target: rank k of '?', or a dynamic rank when k is unknown
                k = self.r.choice(RESHAPE_UNKNOWN_RANKS)
                shp = self.new_param([ov.Dimension(k) if k >= 0 else ov.Dimension()], I64)
                node = ops.reshape(x, shp, False)
            else:
                total = int(np.prod([d.get_length() for d in dims])) if dims else 1
                parts: list[int] = []
                rest = total
                for f in (2, 3, 5):
                    while rest % f == 0 and self.r.random() < 0.5:
                        parts.append(f)
                        rest //= f
                parts.append(rest)
                self.r.shuffle(parts)
                if self.r.random() < 0.3:
                    parts.insert(self.r.randint(0, len(parts)), 1)
                if self.r.random() < 0.3:
                    parts[self.r.randrange(len(parts))] = -1
                node = ops.reshape(x, self.new_int_const(parts, I64), False)
        elif kind == "transpose":
            if dims is None:
                raise _Reject("transpose needs a rank")
            perm = list(range(len(dims)))
            self.r.shuffle(perm)
            node = ops.transpose(x, self.new_int_const(perm, I64))
        elif kind == "unsqueeze":
            r = 0 if dims is None else len(dims)
            node = ops.unsqueeze(x, self.new_int_const([self.r.randint(0, r)], I64))
        elif kind == "squeeze":
            if dims is None:
                raise _Reject("squeeze needs a rank")
            ones = [i for i, d in enumerate(dims) if _is_one(d)]
            if not ones:
                raise _Reject("nothing to squeeze")
            node = ops.squeeze(x, self.new_int_const(self.r.sample(ones, 1), I64))
        elif kind == "reduce":
            if dims is None or not dims or e.et == BOOL:
                raise _Reject("reduce needs a non-scalar rank and numbers")
            axes = sorted(self.r.sample(range(len(dims)), self.r.randint(1, len(dims))))
            fn = self.r.choice([ops.reduce_sum, ops.reduce_max])
            node = fn(x, self.new_int_const(axes, I64), self.r.random() < 0.5)
        else:
            if dims is None or not dims:
                raise _Reject("concat needs a non-scalar rank")
            ax = self.r.randrange(len(dims))
            other = list(dims)
            other[ax] = ov.Dimension(self.r.randint(1, 4))
            node = ops.concat([x, self.leaf(other, e.et)], ax)
        self.named(node, kind)
        self.commit(node.output(0), False)

    def op_subgraph(self) -> None:
        """An If (two bodies) or a Loop (one body) whose bodies hold broadcasting ops."""
        if self.in_body:
            raise _Reject("no nesting")
        kind = self.r.choice(["If", "Loop"])
        outer: list[_Entry] = []
        for _ in range(self.r.randint(1, 3)):
            e = self.pick(lambda e: e.et != DYN and e not in outer)
            if e is not None:
                outer.append(e)
        if not outer:
            raise _Reject("empty pool")
        bodies = []
        for _ in range(2 if kind == "If" else 1):
            sub = _Gen(self.r.randrange(1 << 30), parent=self)
            bparams = []
            for e in outer:
                p = ops.parameter(e.out.get_partial_shape(), e.et)
                p.set_friendly_name(self.name("body_in"))
                bparams.append(p)
                sub.pool.append(_Entry(p.output(0), True, len(sub.pool)))
            sub.run(self.r.randint(1, 5))
            if len(sub.pool) == len(outer):
                raise _Reject("empty body")
            bodies.append((sub, bparams, sub.pool[-1].out))
        self.body_layers += [i for sub, _, _ in bodies for i in sub.layers.values()]
        inputs = [self.use(e) for e in outer]
        if kind == "If":
            (_, p1, o1), (sub2, p2, o2) = bodies
            if o2.get_element_type() != o1.get_element_type():
                o2 = ops.convert(o2, o1.get_element_type().get_type_name()).output(0)
            tr, er = ops.result(o1), ops.result(o2)
            tr.set_friendly_name(self.name("body_out"))
            er.set_friendly_name(self.name("body_out"))
            cond = self.new_param(self.r.choice([[], [ov.Dimension(1)]]), BOOL)
            node = ops.if_op(cond)
            node.set_then_body(ov.Model([tr], p1))
            node.set_else_body(ov.Model([er], p2))
            for x, a, b in zip(inputs, p1, p2):
                node.set_input(x, a, b)
            out = node.set_output(tr, er)
        else:
            (_, p1, o1), = bodies
            res = ops.result(o1)
            res.set_friendly_name(self.name("body_out"))
            keep = ops.constant(True)
            keep.set_friendly_name(self.name("c"))
            cres = ops.result(keep)
            cres.set_friendly_name(self.name("body_out"))
            body = ov.Model([res, cres], p1)
            trip = self.named(ops.constant(np.int64(self.r.randint(1, 3))), "c")
            exec_cond = self.named(ops.constant(True), "c")
            node = ops.loop(trip, exec_cond)
            node.set_function(body)
            node.set_special_body_ports([-1, 1])
            for x, p in zip(inputs, p1):
                node.set_invariant_input(p, x)
            out = node.get_iter_value(res.output(0), -1)
        node.validate_and_infer_types()
        self.named(node, kind.lower())
        # body layers count towards the model's layer budget
        body_models = [node.get_function()] if kind == "Loop" else \
            [node.get_then_body(), node.get_else_body()]
        self.staged_nodes += sum(len(b.get_ordered_ops()) for b in body_models)
        self.commit(out, False)

    def run(self, target_ops: int) -> None:
        done = attempts = 0
        builders = [(self.op_eltwise, 46), (self.op_select, 10), (self.op_fake_quantize, 8),
                    (self.op_broadcast, 24), (self.op_broadcast_param_target, 1),
                    (self.op_unary, 10), (self.op_shape_change, 6),
                    (self.op_subgraph, 0 if self.in_body else 3)]
        fns, weights = zip(*builders)
        while attempts < 200 and (done < target_ops or
                                  (not self.in_body and self.layer_count() < MIN_LAYERS)):
            attempts += 1
            fn = self.r.choices(fns, weights=weights)[0]
            before = len(self.pool)
            self.begin()
            try:
                fn()
            except (RuntimeError, _Reject, ValueError, TypeError) as exc:
                if isinstance(exc, TypeError) and "incompatible" not in str(exc):
                    raise
                continue
            if len(self.pool) > before:
                done += 1
            elif self.layer_count() >= MIN_LAYERS:
                break     # out of layer budget

    def build(self) -> ov.Model:
        self.run(self.r.randint(2, 16))
        results = []
        for e in self.pool:
            if not e.used:
                res = ops.result(e.out)
                res.set_friendly_name(self.name("out"))
                results.append(res)
        return ov.Model(results, self.params, f"gen_{self.seed}")


def generate(seed: int, out_dir: Path, verify: bool = True) -> GeneratedModel:
    """Build the random model for ``seed`` and write ``out_dir/model.xml`` + ``model.bin``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    gen = _Gen(seed)
    model = gen.build()
    expected = {op.get_friendly_name(): op.get_output_partial_shape(0)
                for op in model.get_ordered_ops() if op.get_friendly_name() in gen.layers}
    xml = out_dir / "model.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    binp = xml.with_suffix(".bin")
    if not binp.exists():       # a model without constants: write an empty weights file
        binp.write_bytes(b"")
    root = etree.parse(str(xml)).getroot()
    ids = {l.get("name"): l.get("id") for l in root.find("layers").findall("layer")}
    n_layers = sum(1 for _ in root.iter("layer"))      # bodies included
    layers = {k: v for k, v in gen.layers.items() if k in ids}
    assert set(layers) == set(expected), (set(layers) ^ set(expected))
    if verify:
        loaded = ov.Core().read_model(str(xml))
        got = {op.get_friendly_name(): op.get_output_partial_shape(0)
               for op in loaded.get_ordered_ops() if op.get_friendly_name() in layers}
        for name, ps in expected.items():
            assert got[name] == ps, (seed, name, ps, got.get(name))
    bl = [n for n, info in layers.items() if info.type in BROADCASTING_TYPES]
    return GeneratedModel(seed, xml, binp, bl, layers, ids, n_layers)


# --------------------------------------------------------------------------------------
# XML inspection helpers


def _layer_elems(root) -> dict[str, etree._Element]:
    # top level only (generated models have no sub-graphs)
    return {l.get("id"): l for l in root.find("layers").findall("layer")}


def _port_dims(port) -> list[int]:
    return [int(d.text) for d in port.findall("dim")]


def _edges_into(root) -> dict[tuple[str, str], tuple[str, str]]:
    return {(e.get("to-layer"), e.get("to-port")): (e.get("from-layer"), e.get("from-port"))
            for e in root.find("edges").findall("edge")}


def _graph_coverage(graph, c: collections.Counter, prefix: str) -> None:
    layers = {l.get("id"): l for l in graph.find("layers").findall("layer")}
    edges = {(e.get("to-layer"), e.get("to-port")): (e.get("from-layer"), e.get("from-port"))
             for e in graph.find("edges").findall("edge")}
    for lid, l in layers.items():
        t = l.get("type")
        data = l.find("data")
        a = dict(data.attrib) if data is not None else {}
        if t == "Broadcast":
            key = f"Broadcast/{l.get('version')}/{a.get('mode')}"
            ax = a.get("mode.auto_broadcast_axis", a.get("mode.mode.axis"))
            if a.get("mode") == "pdpd":
                key += "/axis=-1" if ax == "-1" else "/axis>=0"
            c[prefix + key] += 1
            src = edges.get((lid, "1"))
            if src is not None:
                sl = layers[src[0]]
                if sl.get("type") == "Const":
                    c[f"{prefix}Broadcast target Const {sl.find('data').get('element_type')}"] += 1
                else:
                    c[f"{prefix}Broadcast target from {sl.get('type')}"] += 1
        elif "auto_broadcast" in a:
            key = f"{t}/{a['auto_broadcast']}"
            if a["auto_broadcast"] == "pdpd":
                ax = a.get("auto_broadcast.auto_broadcast_axis")
                key += "/axis=-1" if ax == "-1" else "/axis>=0"
            c[prefix + key] += 1
        elif t == "Parameter":
            shape = a.get("shape", "")
            if a.get("element_type") == "dynamic":
                c[prefix + "Parameter element_type dynamic"] += 1
            if shape == "...":
                c[prefix + "Parameter dynamic rank"] += 1
            elif shape == "":
                c[prefix + "Parameter scalar"] += 1
            else:
                if "?" in shape or "-1" in shape:
                    c[prefix + "Parameter with ? dim"] += 1
                if ".." in shape:
                    c[prefix + "Parameter with interval dim"] += 1
                if re.search(r"(^|,)0(,|$)", shape):
                    c[prefix + "Parameter with 0 dim"] += 1
                c[prefix + "Parameter"] += 1
        elif t == "Const":
            c[prefix + ("Const scalar" if a.get("shape", "") == "" else "Const")] += 1
        else:
            c[prefix + t] += 1
        for tag in ("body", "then_body", "else_body"):
            body = l.find(tag)
            if body is not None:
                _graph_coverage(body, c, "body: ")


def coverage(xml: Path) -> collections.Counter:
    """Count op types, modes, pdpd axes and Broadcast target kinds in a written IR.

    Layers inside If/Loop bodies are counted under keys prefixed with ``"body: "``.
    """
    c: collections.Counter = collections.Counter()
    _graph_coverage(etree.parse(str(xml)).getroot(), c, "")
    return c


# --------------------------------------------------------------------------------------
# mutations


def _copy_model(gm: GeneratedModel, out_dir: Path, xml_text: str,
                bin_bytes: bytes | None = None) -> tuple[Path, Path]:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    xml = out_dir / "model.xml"
    binp = out_dir / "model.bin"
    xml.write_text(xml_text, encoding="utf-8")
    if bin_bytes is None:
        shutil.copyfile(gm.bin, binp)
    else:
        binp.write_bytes(bin_bytes)
    return xml, binp


def _lines(gm: GeneratedModel) -> tuple[list[str], etree._Element]:
    text = gm.xml.read_text(encoding="utf-8")
    return text.splitlines(keepends=True), etree.fromstring(text.encode("utf-8"))


def _replace_dim_line(lines: list[str], dim_el, new_value: int | None,
                      duplicate: bool = False) -> list[str]:
    """Edit the source line of one ``<dim>`` element (serializer: one dim per line)."""
    idx = dim_el.sourceline - 1
    line = lines[idx]
    assert re.search(r"<dim>-?\d+</dim>", line), line
    lines = list(lines)
    if new_value is None:
        del lines[idx]
    elif duplicate:
        lines.insert(idx, re.sub(r"<dim>-?\d+</dim>", f"<dim>{new_value}</dim>", line, count=1))
    else:
        lines[idx] = re.sub(r"<dim>-?\d+</dim>", f"<dim>{new_value}</dim>", line, count=1)
    return lines


#: Broadcast target_shape kinds that OpenVINO resolves by bound evaluation of a subgraph
COMPUTED_TARGETS = ("shapeof", "concat", "gather", "mul")


def _candidates(gm: GeneratedModel, root, select: str = "pure"):
    """Broadcasting layers to mutate.

    ``select="pure"``: layers whose output follows from Parameter shapes and Constant
    values through broadcasting and shape-keeping ops only.  ``"computed"``: Broadcasts whose
    target_shape is a ShapeOf/Concat/Gather/Multiply subgraph (OpenVINO resolves it by bound
    evaluation).  ``"all"``: every broadcasting layer.
    """
    by_id = _layer_elems(root)
    out = []
    for name in gm.broadcasting_layers:
        info = gm.layers[name]
        if select == "pure" and not info.pure:
            continue
        if select == "computed" and info.target_kind not in COMPUTED_TARGETS:
            continue
        out.append((name, info, by_id[gm.ids[name]]))
    return out


def _new_value(rnd: random.Random, old: int, avoid: Sequence[int] = ()) -> int:
    while True:
        v = old + rnd.choice([1, 2, 3, 4, 5])
        if v not in avoid:
            return v


def mutate_output_dims(gm: GeneratedModel, out_dir: Path, seed: int = 0,
                       select: str = "pure") -> Mutation | None:
    """Change one static ``<dim>`` of a broadcasting layer's output port (value +1..5)."""
    rnd = random.Random(seed * 7919 + gm.seed)
    lines, root = _lines(gm)
    cands = []
    for name, info, l in _candidates(gm, root, select):
        port = l.find("output/port")
        dims = port.findall("dim")
        static = [d for d in dims if int(d.text) >= 0]
        if static:
            cands.append((name, info, l, static))
    if not cands:
        return None
    name, info, l, static = rnd.choice(cands)
    dim = rnd.choice(static)
    old = int(dim.text)
    new = _new_value(rnd, old)
    new_lines = _replace_dim_line(lines, dim, new)
    xml, binp = _copy_model(gm, out_dir, "".join(new_lines))
    return Mutation("output_dims", xml, binp, l.get("id"), name, info.type,
                    f"output dim {old} -> {new} (line {dim.sourceline})")


def mutate_output_rank(gm: GeneratedModel, out_dir: Path, seed: int = 0,
                       select: str = "pure") -> Mutation | None:
    """Drop one ``<dim>`` of a broadcasting layer's output port, or duplicate one."""
    rnd = random.Random(seed * 7919 + gm.seed + 1)
    lines, root = _lines(gm)
    cands = []
    for name, info, l in _candidates(gm, root, select):
        dims = l.find("output/port").findall("dim")
        if dims:       # a port without dims may be a scalar or a dynamic rank: skip
            cands.append((name, info, l, dims))
    if not cands:
        return None
    name, info, l, dims = rnd.choice(cands)
    dim = rnd.choice(dims)
    if rnd.random() < 0.5:
        new_lines = _replace_dim_line(lines, dim, None)
        detail = f"dropped output dim {dim.text} (line {dim.sourceline})"
    else:
        v = rnd.choice([1, 2, 3])
        new_lines = _replace_dim_line(lines, dim, v, duplicate=True)
        detail = f"inserted output dim {v} before line {dim.sourceline}"
    xml, binp = _copy_model(gm, out_dir, "".join(new_lines))
    return Mutation("output_rank", xml, binp, l.get("id"), name, info.type, detail)


def mutate_input_dims(gm: GeneratedModel, out_dir: Path, seed: int = 0,
                      select: str = "pure") -> Mutation | None:
    """Change one static ``<dim>`` of one of a broadcasting layer's input ports."""
    rnd = random.Random(seed * 7919 + gm.seed + 2)
    lines, root = _lines(gm)
    cands = []
    for name, info, l in _candidates(gm, root, select):
        for port in l.find("input").findall("port"):
            for d in port.findall("dim"):
                if int(d.text) >= 0:
                    cands.append((name, info, l, port, d))
    if not cands:
        return None
    name, info, l, port, dim = rnd.choice(cands)
    old = int(dim.text)
    new = _new_value(rnd, old)
    new_lines = _replace_dim_line(lines, dim, new)
    xml, binp = _copy_model(gm, out_dir, "".join(new_lines))
    return Mutation("input_dims", xml, binp, l.get("id"), name, info.type,
                    f"input port {port.get('id')} dim {old} -> {new} (line {dim.sourceline})")


def decode_const(layer, blob: bytes) -> tuple[str, list[int], int, int]:
    data = layer.find("data")
    et = data.get("element_type")
    offset, size = int(data.get("offset")), int(data.get("size"))
    fmt = _ET_STRUCT[et]
    n = size // struct.calcsize(fmt)
    shape = data.get("shape", "")
    count = 1
    for tok in shape.split(","):
        if tok.strip():
            count *= int(tok)
    n = min(n, count)
    vals = list(struct.unpack_from("<" + fmt * n, blob, offset))
    return et, vals, offset, size


def mutate_target_constant(gm: GeneratedModel, out_dir: Path,
                           seed: int = 0) -> Mutation | None:
    """Rewrite one value of a Broadcast's constant target_shape in the ``.bin``.

    The changed value is one whose output dim is declared static, and the new value is
    neither the old one, nor the declared output dim, nor 1, so the declared output dims
    contradict what the new target implies (or the new target is invalid outright).
    """
    rnd = random.Random(seed * 7919 + gm.seed + 3)
    lines, root = _lines(gm)
    blob = gm.bin.read_bytes()
    by_id = _layer_elems(root)
    edges = _edges_into(root)
    cands = []
    for name in gm.broadcasting_layers:
        info = gm.layers[name]
        if info.type != "Broadcast" or info.target_const is None:
            continue
        l = by_id[gm.ids[name]]
        src = edges.get((l.get("id"), l.find("input").findall("port")[1].get("id")))
        if src is None:
            continue
        c = by_id[src[0]]
        if c.get("type") != "Const":
            continue
        et, vals, offset, size = decode_const(c, blob)
        out_dims = _port_dims(l.find("output/port"))
        shift = len(out_dims) - len(vals)
        for i, v in enumerate(vals):
            j = i + shift
            if v < 0 or not 0 <= j < len(out_dims) or out_dims[j] < 0:
                continue
            cands.append((name, info, l, c, et, vals, offset, i, out_dims[j]))
    if not cands:
        return None
    name, info, l, c, et, vals, offset, i, declared = rnd.choice(cands)
    limit = 255 if et == "u8" else 1000
    new = _new_value(rnd, vals[i], avoid=(declared, 1))
    if new > limit:
        new = 2 if vals[i] != 2 and declared != 2 else 3
    fmt = _ET_STRUCT[et]
    width = struct.calcsize(fmt)
    b = bytearray(blob)
    struct.pack_into("<" + fmt, b, offset + i * width, new)
    xml, binp = _copy_model(gm, out_dir, "".join(lines), bytes(b))
    return Mutation("target_constant", xml, binp, l.get("id"), name, "Broadcast",
                    f"target const {c.get('name')} ({et}) value[{i}] {vals[i]} -> {new}; "
                    f"declared output dim {declared}; mode {info.mode}")


SHAPE_KEEPING_TYPES = frozenset(["Convert", "ReLU", "Sigmoid", "Abs", "Result"])


def mutate_parameter_shape(gm: GeneratedModel, out_dir: Path,
                           seed: int = 0) -> Mutation | None:
    """Change one dim of a Parameter's ``shape`` (and the ports on its edges).

    The result may or may not be valid: OpenVINO decides (``read_model``).  Only Parameters
    whose downstream layers are all "pure" broadcasting layers or shape-keeping unary ops
    are chosen, so the outcome depends on the broadcasting rules alone.  Declared dims
    further downstream are left as they were (they may become stale).
    """
    rnd = random.Random(seed * 7919 + gm.seed + 4)
    tree = etree.parse(str(gm.xml))
    root = tree.getroot()
    by_id = _layer_elems(root)
    edges = root.find("edges").findall("edge")
    out_edges: dict[str, list] = collections.defaultdict(list)
    for e in edges:
        out_edges[e.get("from-layer")].append(e)

    def cone(lid: str) -> list[str] | None:
        seen: list[str] = []
        todo = [lid]
        while todo:
            for e in out_edges[todo.pop()]:
                t = e.get("to-layer")
                if t in seen:
                    continue
                l = by_id[t]
                info = gm.layers.get(l.get("name"))
                if l.get("type") not in SHAPE_KEEPING_TYPES and (info is None or not info.pure):
                    return None
                seen.append(t)
                todo.append(t)
        return seen

    cands = []
    for lid, l in by_id.items():
        if l.get("type") != "Parameter" or l.find("data").get("shape", "") in ("", "..."):
            continue
        c = cone(lid)
        if c:
            cands.append((l, c))
    if not cands:
        return None
    l, affected = rnd.choice(cands)
    data = l.find("data")
    toks = data.get("shape").split(",")
    i = rnd.randrange(len(toks))
    new = rnd.choice([t for t in ("1", "2", "3", "4", "5", "7", "?", "1..8", "2..8")
                      if t != toks[i]])
    toks[i] = new
    data.set("shape", ",".join(toks))
    port_value = new if new.isdigit() else "-1"
    lines = gm.xml.read_text(encoding="utf-8").splitlines(keepends=True)
    # edit the text line by line: the shape attribute and the dims on both ends of the edges
    edits = {data.sourceline - 1: ("shape", data.get("shape"))}
    out_port = l.find("output/port")
    edits[out_port.findall("dim")[i].sourceline - 1] = ("dim", port_value)
    for e in out_edges[l.get("id")]:
        consumer = by_id[e.get("to-layer")]
        for port in consumer.find("input").findall("port"):
            if port.get("id") == e.get("to-port"):
                edits[port.findall("dim")[i].sourceline - 1] = ("dim", port_value)
    for idx, (what, value) in edits.items():
        if what == "shape":
            lines[idx] = re.sub(r'shape="[^"]*"', f'shape="{value}"', lines[idx], count=1)
        else:
            lines[idx] = re.sub(r"<dim>-?\d+</dim>", f"<dim>{value}</dim>", lines[idx], count=1)
    xml, binp = _copy_model(gm, out_dir, "".join(lines))
    names = tuple(by_id[t].get("name") for t in affected)
    return Mutation("parameter_shape", xml, binp, l.get("id"), l.get("name"), "Parameter",
                    f"Parameter {l.get('name')} shape dim {i} -> {new}", names)


MUTATORS = {
    "output_dims": mutate_output_dims,
    "output_rank": mutate_output_rank,
    "input_dims": mutate_input_dims,
    "target_constant": mutate_target_constant,
}


# --------------------------------------------------------------------------------------
# benign rewrites: textual changes that OpenVINO reads as the same model

#: the opsets (1..16) in which a type exists, for the "opset_version" rewrite
_OPSET_RANGE = {"BitwiseAnd": (13, 16), "BitwiseOr": (13, 16), "BitwiseXor": (13, 16),
                "BitwiseLeftShift": (15, 16), "BitwiseRightShift": (15, 16),
                "LogicalXor": (1, 16), "Xor": (1, 1)}
_SAME_CLASS_OPSETS = {"Broadcast": {"opset1": ["opset1", "opset2"],
                                    "opset3": [f"opset{i}" for i in range(3, 17)]}}

BENIGN_KINDS = ("enum_case", "explicit_alias", "default_attrs", "dynamic_dims", "type_case",
                "opset_version", "reorder_layers", "reorder_edges", "renumber_ids",
                "const_size_larger")


def _incoming_count(root, lid: str) -> int:
    return sum(1 for e in root.find("edges").findall("edge") if e.get("to-layer") == lid)


def rewrite_benign(gm: GeneratedModel, out_dir: Path, kind: str,
                   seed: int = 0) -> tuple[Path, Path, str] | None:
    """Write a copy of ``gm`` changed in a way OpenVINO ignores; None if not applicable.

    Returns (xml, bin, description).  The caller should confirm with ``read_model`` that
    the shapes are unchanged (``same_inference``).
    """
    rnd = random.Random(seed * 104729 + gm.seed)
    tree = etree.parse(str(gm.xml))
    root = tree.getroot()
    layers_el = root.find("layers")
    edges_el = root.find("edges")
    layers = list(layers_el)
    blob = gm.bin.read_bytes()
    changed: list[str] = []

    def data_of(l):
        return l.find("data")

    if kind == "enum_case":
        for l in layers:
            d = data_of(l)
            for key in ("auto_broadcast", "mode"):
                if d is not None and d.get(key) and l.get("type") != "ShapeOf":
                    v = d.get(key)
                    nv = rnd.choice([v.upper(), v.capitalize()])
                    if nv != v:
                        d.set(key, nv)
                        changed.append(f"{l.get('id')}:{key}={nv}")
    elif kind == "explicit_alias":
        for l in layers:
            d = data_of(l)
            if d is None:
                continue
            if d.get("auto_broadcast") == "none":
                d.set("auto_broadcast", "explicit")
                changed.append(f"{l.get('id')}:auto_broadcast=explicit")
            if l.get("type") == "Broadcast" and d.get("mode") == "none":
                d.set("mode", "explicit")
                changed.append(f"{l.get('id')}:mode=explicit")
    elif kind == "default_attrs":
        for l in layers:
            d = data_of(l)
            if d is None:
                continue
            t, v = l.get("type"), l.get("version")
            if d.get("auto_broadcast") == "numpy":
                del d.attrib["auto_broadcast"]
                changed.append(f"{l.get('id')}:-auto_broadcast")
            elif t == "Broadcast" and v == "opset3" and d.get("mode") == "numpy":
                del d.attrib["mode"]
                changed.append(f"{l.get('id')}:-mode")
            elif (t == "Broadcast" and v == "opset1" and d.get("mode") == "none"
                  and _incoming_count(root, l.get("id")) == 3):
                del d.attrib["mode"]
                changed.append(f"{l.get('id')}:-mode")
    elif kind == "dynamic_dims":
        # declare some static output dims as -1, on both ends of every edge
        by_id = {l.get("id"): l for l in layers}
        for l in layers:
            if l.get("type") in ("Const", "Parameter") or l.find("output") is None:
                continue
            for port in l.find("output").findall("port"):
                dims = port.findall("dim")
                if not dims or rnd.random() > 0.3:
                    continue
                k = rnd.randrange(len(dims))
                if int(dims[k].text) < 0:
                    continue
                dims[k].text = "-1"
                changed.append(f"{l.get('id')}:{port.get('id')}[{k}]")
                for e in edges_el.findall("edge"):
                    if e.get("from-layer") == l.get("id") and e.get("from-port") == port.get("id"):
                        c = by_id[e.get("to-layer")]
                        for p in c.find("input").findall("port"):
                            if p.get("id") == e.get("to-port"):
                                p.findall("dim")[k].text = "-1"
    elif kind == "type_case":
        for l in layers:
            if l.get("type") in BROADCASTING_TYPES and rnd.random() < 0.5:
                l.set("type", rnd.choice([l.get("type").lower(), l.get("type").upper()]))
                changed.append(f"{l.get('id')}:type={l.get('type')}")
    elif kind == "opset_version":
        for l in layers:
            t, v = l.get("type"), l.get("version")
            if t == "Broadcast":
                choices = _SAME_CLASS_OPSETS["Broadcast"][v]
            elif t in BROADCASTING_TYPES:
                lo, hi = _OPSET_RANGE.get(t, (1, 16))
                choices = [f"opset{i}" for i in range(lo, hi + 1)]
            else:
                continue
            nv = rnd.choice(choices)
            if nv != v:
                l.set("version", nv)
                changed.append(f"{l.get('id')}:{nv}")
    elif kind == "reorder_layers":
        for l in layers:
            layers_el.remove(l)
        rnd.shuffle(layers)
        for l in layers:
            layers_el.append(l)
        changed.append("layers shuffled")
    elif kind == "reorder_edges":
        edges = list(edges_el)
        for e in edges:
            edges_el.remove(e)
        rnd.shuffle(edges)
        for e in edges:
            edges_el.append(e)
        changed.append("edges shuffled")
    elif kind == "renumber_ids":
        ids = [l.get("id") for l in layers]
        new_ids = rnd.sample(range(100, 100 + 10 * len(ids)), len(ids))
        mapping = {old: str(new) for old, new in zip(ids, new_ids)}
        for l in layers:
            l.set("id", mapping[l.get("id")])
        for e in edges_el:
            e.set("from-layer", mapping[e.get("from-layer")])
            e.set("to-layer", mapping[e.get("to-layer")])
        changed.append("ids renumbered")
    elif kind == "const_size_larger":
        consts = [l for l in layers if l.get("type") == "Const"]
        if consts:
            c = rnd.choice(consts)
            d = data_of(c)
            extra = rnd.randint(1, 16)
            d.set("size", str(int(d.get("size")) + extra))
            blob = blob + b"\0" * extra if int(d.get("offset")) + int(d.get("size")) > len(blob) \
                else blob
            changed.append(f"{c.get('id')}:size+{extra}")
    else:
        raise ValueError(kind)
    if not changed:
        return None
    text = etree.tostring(tree, xml_declaration=True, encoding="UTF-8").decode("utf-8")
    xml, binp = _copy_model(gm, out_dir, text, blob)
    return xml, binp, f"{kind}: " + ", ".join(changed[:8]) + (" ..." if len(changed) > 8 else "")


def inferred_shapes(xml: Path) -> dict[str, str]:
    """friendly name -> str(output partial shape) as OpenVINO infers it on reading ``xml``."""
    model = ov.Core().read_model(str(xml))
    return {op.get_friendly_name(): str(op.get_output_partial_shape(0))
            for op in model.get_ordered_ops() if op.get_output_size() > 0}
