"""Seeded random models whose shapes rest on values a shape subgraph computes (issue 23).

Used by ``test_value_bounds.py``. Each model reads one or two f32 Parameters (static,
interval, ``?`` dims; sometimes all static, so that the ops the runtime evaluates on exact
values only are reached) and computes small integer and f32 values from their shapes:
ShapeOf, Gather, Concat, Add/Subtract/Multiply/Divide/Minimum/Maximum/FloorMod, Convert to
i32/i64/f32 and back, Relu, ReduceProd/Sum/Min/Max, Slice with negative steps,
StridedSlice with computed begin/end and masks, Tile, Squeeze/Unsqueeze, Select, Abs,
Clamp, Floor, Ceiling, Range with f32 start/stop/step (read back through ShapeOf), NonZero
of constants, Split/VariadicSplit, ScatterUpdate, Pad, Mod, Power, SquaredDifference,
comparisons feeding Select, Broadcast of a value and Convert through f16/u8/i32/u32/f64.
The values feed Broadcast, Reshape, Range, Tile and StridedSlice layers (the *consumers*),
with an Add of two consumers downstream.  Loop and TensorIterator layers are added to some
models: trip counts constant, -1, computed or a Parameter; inputs sliced (backwards, by two)
or invariant; a back edge; bodies that Broadcast or Reshape to a shape of their Parameter
or to a value the outer graph computes; outputs concatenated and last.

Every op is built with the openvino API, which runs the runtime's inference as it builds;
an op it refuses is dropped.  The saved model must be read by ``Core().read_model`` (else
the next sub-seed is tried).  ``runtime`` holds what ``read_model`` infers for the
consumers.  Nothing here is a test.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset8 as op8
import openvino.opset16 as op

I32, I64, F32 = ov.Type.i32, ov.Type.i64, ov.Type.f32
_NP = {I32: np.int32, I64: np.int64, F32: np.float32, ov.Type.u8: np.uint8,
       ov.Type.u32: np.uint32, ov.Type.f16: np.float16, ov.Type.f64: np.float64}
MAX_ATTEMPTS = 20
#: the longest value kept in the pool (shape values are short)
MAX_LENGTH = 6


class _Skip(Exception):
    """A step does not apply to the values drawn."""


@dataclasses.dataclass
class ValueModel:
    seed: int
    xml: Path
    #: friendly names of the layers whose shapes rest on computed values
    consumers: list[str]
    #: friendly name -> output shapes as read_model prints them
    runtime: dict[str, list[str]]


def _length(out: ov.Output) -> int | None:
    ps = out.get_partial_shape()
    if ps.rank.is_dynamic or ps.rank.get_length() != 1 or ps[0].is_dynamic:
        return None
    return ps[0].get_length()


def _is_scalar(out: ov.Output) -> bool:
    ps = out.get_partial_shape()
    return ps.rank.is_static and ps.rank.get_length() == 0


class _Builder:
    """One attempt at a model, every choice drawn from ``random.Random(subseed)``."""

    def __init__(self, subseed: int) -> None:
        self.r = random.Random(subseed)
        self.count = 0
        self.params: list[ov.Node] = []
        self.values: list[ov.Output] = []      # 1-D integer or f32 values
        self.scalars: list[ov.Output] = []     # 0-D values
        self.consumers: list[ov.Output] = []

    def named(self, node: ov.Node, prefix: str) -> ov.Output:
        self.count += 1
        node.set_friendly_name(f"{prefix}_{self.count}")
        return node.output(0)

    def const(self, values, et: ov.Type) -> ov.Output:
        return ov.op.Constant(np.array(values, dtype=_NP[et])).output(0)

    def like(self, values, v: ov.Output) -> ov.Output:
        return self.const(values, v.get_element_type())

    def dim(self, static: bool) -> ov.Dimension:
        x = self.r.random()
        if static or x < 0.5:
            return ov.Dimension(self.r.choice([1, 2, 3, 4, 5, 6, 8, 10]))
        if x < 0.8:
            lo = self.r.choice([0, 1, 2, 3])
            return ov.Dimension(lo, lo + self.r.randint(1, 9))
        if x < 0.9:
            return ov.Dimension(self.r.randint(1, 3), -1)
        return ov.Dimension()

    def parameter(self) -> ov.Output:
        static = self.r.random() < 0.4
        shape = ov.PartialShape([self.dim(static) for _ in range(self.r.randint(1, 4))])
        node = op.parameter(shape, np.float32)
        self.params.append(node)
        return self.named(node, "x")

    # ---- the value steps ------------------------------------------------------------

    def pick(self, integer: bool | None = None) -> ov.Output:
        pool = [v for v in self.values
                if integer is None or (v.get_element_type() != F32) == integer]
        if not pool:
            raise _Skip("no value")
        return self.r.choice(pool)

    def s_shape_of(self) -> ov.Output:
        source = self.r.choice(self.params).output(0)
        return self.named(op.shape_of(source, self.r.choice(["i64", "i64", "i32"])), "shapeof")

    def s_gather(self) -> ov.Output:
        v = self.pick()
        n = _length(v)
        if not n:
            raise _Skip("gather")
        if self.r.random() < 0.3:
            indices = self.const(self.r.randint(-n, n - 1), I64)
        else:
            indices = self.const([self.r.randint(-n, n - 1)
                                  for _ in range(self.r.randint(1, 3))], I64)
        return self.named(op8.gather(v, indices, self.const(0, I64)), "gather")

    def s_concat(self) -> ov.Output:
        v = self.pick()
        if self.r.random() < 0.5:
            other = self.like([self.r.choice([1, 2, 3, 4, -1])], v)
        else:
            other = self.pick()
        return self.named(op.concat([v, other], 0), "concat")

    def s_arithmetic(self) -> ov.Output:
        v = self.pick()
        kind = self.r.choice(["add", "subtract", "multiply", "divide", "minimum", "maximum",
                              "floor_mod"])
        if self.r.random() < 0.6:
            number = self.r.choice([1, 2, 3, 4, 5])
            other = self.like([number] if self.r.random() < 0.7 else number, v)
        else:
            other = self.pick()
        a, b = (v, other) if self.r.random() < 0.7 else (other, v)
        return self.named(getattr(op, kind)(a, b), kind)

    def s_convert(self) -> ov.Output:
        v = self.pick()
        target = self.r.choice(["f32", "f32", "i32", "i64"])
        return self.named(op.convert(v, target), "convert")

    def s_unary(self) -> ov.Output:
        v = self.pick()
        kind = self.r.choice(["relu", "relu", "abs", "floor", "ceiling", "clamp"])
        if kind == "clamp":
            return self.named(op.clamp(v, self.r.choice([0, 1, 2]), self.r.choice([4, 8, 30])),
                              kind)
        if kind in ("floor", "ceiling") and v.get_element_type() != F32:
            v = op.convert(v, "f32").output(0)
        return self.named(getattr(op, kind)(v), kind)

    def s_reduce(self) -> ov.Output:
        v = self.pick()
        kind = self.r.choice(["reduce_prod", "reduce_prod", "reduce_sum", "reduce_min",
                              "reduce_max"])
        keep = self.r.random() < 0.5
        return self.named(getattr(op, kind)(v, self.const([0], I64), keep), kind)

    def s_slice(self) -> ov.Output:
        v = self.pick()
        n = _length(v) or 4
        if self.r.random() < 0.6:  # a negative step
            start, stop = self.r.randint(-1, n), self.r.randint(-n - 2, 0)
            step = -self.r.randint(1, 2)
        else:
            start, stop = self.r.randint(-n, 0), self.r.randint(1, n + 2)
            step = self.r.randint(1, 2)
        begin = self.const([start], I64)
        if self.r.random() < 0.3:  # a start computed from a shape
            first = op.convert(self.scalar_or_first(), "i64")
            begin = op.subtract(first, self.const([self.r.randint(0, 2)], I64)).output(0)
        return self.named(op.slice(v, begin, self.const([stop], I64),
                                   self.const([step], I64)), "slice")

    def strided(self, data: ov.Output, computed: bool) -> ov.Output:
        """A StridedSlice of axis 0 of ``data``, its begin/end computed from a shape or not."""
        shape = data.get_partial_shape()
        n = shape[0].get_max_length() if shape.rank.is_static else 4
        n = n if 0 < n < 100 else 4
        begin = self.const([self.r.randint(-n, n)], I64)
        end = self.const([self.r.randint(-n, n + 2)], I64)
        if computed:
            value = op.convert(self.scalar_or_first(), "i64").output(0)
            if self.r.random() < 0.5:
                capped = op.minimum(value, self.const([n], I64)).output(0)
                end = capped if self.r.random() < 0.5 else value
            else:
                begin = op.subtract(value, self.const([self.r.randint(1, 3)], I64)).output(0)
        stride = self.const([self.r.choice([1, 1, 2, -1])], I64)
        masks = [self.r.choice([[0], [0], [1]]) for _ in range(2)]
        return self.named(op.strided_slice(data, begin, end, stride, masks[0], masks[1]),
                          "stridedslice")

    def scalar_or_first(self) -> ov.Output:
        v = self.pick(True)
        return op8.gather(v, self.const([0], I64), self.const(0, I64)).output(0)

    def s_strided_slice(self) -> ov.Output:
        return self.strided(self.pick(), self.r.random() < 0.5)

    def s_tile(self) -> ov.Output:
        v = self.pick()
        return self.named(op.tile(v, self.const([self.r.choice([1, 2])], I64)), "tile")

    def s_squeeze(self) -> ov.Output:
        v = self.pick()
        if _length(v) != 1:
            raise _Skip("squeeze")
        scalar = self.named(op.squeeze(v, self.const([0], I64)), "squeeze")
        self.scalars.append(scalar)
        return self.named(op.unsqueeze(scalar, self.const([0], I64)), "unsqueeze")

    def s_select(self) -> ov.Output:
        v = self.pick()
        n = _length(v)
        if not n:
            raise _Skip("select")
        cond = ov.op.Constant(np.array([self.r.random() < 0.5 for _ in range(n)])).output(0)
        other = self.like([self.r.choice([1, 2, 3])] * n, v)
        return self.named(op.select(cond, v, other), "select")

    def s_range_f32(self) -> ov.Output:
        """Range over f32 numbers, one of them computed (YOLO's anchors), read back by ShapeOf."""
        v = self.pick()
        stop = op.convert(op.squeeze(op8.gather(v, self.const([0], I64), self.const(0, I64)),
                                     self.const([0], I64)), "f32").output(0)
        start = self.const(self.r.choice([0.0, 0.5, 1.0]), F32)
        step = self.const(self.r.choice([1.0, 0.5, 2.0]), F32)
        if self.r.random() < 0.3:
            stop = op.multiply(stop, self.const(self.r.choice([0.5, 2.0]), F32)).output(0)
        rng = self.named(op.range(start, stop, step, "f32"), "rangef")
        self.consumers.append(rng)
        return self.named(op.shape_of(rng, "i64"), "shapeof")

    def s_non_zero(self) -> ov.Output:
        shape = [self.r.randint(1, 4) for _ in range(self.r.randint(1, 3))]
        data = (np.arange(np.prod(shape)) % self.r.choice([2, 3, 7])).reshape(shape)
        node = op.non_zero(self.const(data.astype(np.float32), F32), "i64")
        out = self.named(node, "nonzero")
        self.consumers.append(out)
        return self.named(op.shape_of(out, "i64"), "shapeof")

    def s_split(self) -> ov.Output:
        v = self.pick()
        n = _length(v)
        if not n or n < 2:
            raise _Skip("split")
        if self.r.random() < 0.5 and n % 2 == 0:
            node = op.split(v, self.const(0, I64), 2)
        else:
            first = self.r.randint(1, n - 1)
            node = op.variadic_split(v, self.const(0, I64), self.const([first, -1], I64))
        self.named(node, "split")
        return node.output(self.r.randrange(node.get_output_size()))

    def s_scatter(self) -> ov.Output:
        v = self.pick()
        n = _length(v)
        if not n:
            raise _Skip("scatter")
        update = self.pick() if self.r.random() < 0.5 else self.like([self.r.randint(1, 4)], v)
        if _length(update) != 1 or update.get_element_type() != v.get_element_type():
            update = self.like([self.r.randint(1, 4)], v)
        index = self.const([self.r.randrange(n)], I64)
        return self.named(op.scatter_update(v, index, update, self.const(0, I64)), "scatter")

    def s_pad(self) -> ov.Output:
        v = self.pick()
        begin, end = self.r.randint(0, 2), self.r.randint(0, 2)
        mode = self.r.choice(["constant", "edge", "reflect"])
        node = op.pad(v, self.const([begin], I64), self.const([end], I64), mode,
                      self.like(self.r.randint(0, 3), v) if mode == "constant" else None)
        return self.named(node, "pad")

    def s_mod_power(self) -> ov.Output:
        v = self.pick(True)
        kind = self.r.choice(["mod", "power", "squared_difference"])
        number = self.like([self.r.randint(1, 3)], v)
        return self.named(getattr(op, kind)(v, number), kind)

    def s_compare_select(self) -> ov.Output:
        a, b = self.pick(True), self.pick(True)
        if a.get_element_type() != b.get_element_type():
            raise _Skip("types")
        kind = self.r.choice(["equal", "less", "greater_equal", "not_equal"])
        cond = getattr(op, kind)(a, b)
        return self.named(op.select(cond, a, b), "cmpselect")

    def s_broadcast_value(self) -> ov.Output:
        v = self.pick()
        n = _length(v)
        if n != 1:
            raise _Skip("broadcast")
        return self.named(op.broadcast(v, self.const([self.r.randint(1, 3)], I64)), "bvalue")

    def s_convert_narrow(self) -> ov.Output:
        v = self.pick()
        target = self.r.choice(["f16", "u8", "i32", "u32", "f64"])
        back = "i64" if self.r.random() < 0.7 else target
        return self.named(op.convert(op.convert(v, target), back), "narrow")

    STEPS: Sequence[Callable] = (s_shape_of, s_gather, s_gather, s_concat, s_arithmetic,
                                 s_arithmetic, s_convert, s_unary, s_reduce, s_slice,
                                 s_strided_slice, s_tile, s_squeeze, s_select, s_range_f32,
                                 s_non_zero, s_split, s_scatter, s_pad, s_mod_power,
                                 s_compare_select, s_broadcast_value, s_convert_narrow)

    def step(self) -> None:
        out = self.r.choice(self.STEPS)(self)
        n = _length(out)
        if _is_scalar(out):
            self.scalars.append(out)
        elif n is not None and n <= MAX_LENGTH:
            self.values.append(out)

    # ---- the consumers --------------------------------------------------------------

    def c_broadcast(self) -> ov.Output:
        v = self.pick(True)
        return self.named(op.broadcast(self.const(1.0, F32), v), "broadcast")

    def c_reshape(self) -> ov.Output:
        v = self.pick(True)
        n = _length(v) or 1
        data = self.r.choice(self.params).output(0)
        if self.r.random() < 0.5:  # a target of the data's own dims, some reordered
            dims = op.shape_of(data, "i64").output(0)
            v = op.concat([op.reduce_prod(dims, self.const([0], I64), True).output(0)], 0).output(0)
            if n > 1 and self.r.random() < 0.5:
                v = op.concat([v, self.const([1] * (n - 1), I64)], 0).output(0)
        return self.named(op.reshape(data, v, self.r.random() < 0.5), "reshape")

    def c_range(self) -> ov.Output:
        source = self.r.choice(self.scalars) if self.scalars else op.squeeze(
            self.scalar_or_first(), self.const([0], I64)).output(0)
        stop = op.convert(source, "i64").output(0)
        return self.named(op.range(self.const(0, I64), stop, self.const(1, I64), "i64"), "range")

    def c_tile(self) -> ov.Output:
        v = self.pick(True)
        data = self.r.choice(self.params).output(0)
        return self.named(op.tile(data, v), "tile")

    def c_strided_slice(self) -> ov.Output:
        data = self.r.choice(self.params).output(0)
        if data.get_partial_shape().rank.is_dynamic:
            raise _Skip("rank")
        return self.strided(data, True)

    CONSUMERS: Sequence[Callable] = (c_broadcast, c_broadcast, c_reshape, c_range, c_tile,
                                     c_strided_slice, c_strided_slice)

    def downstream(self) -> None:
        """An Add of two consumers, or of a consumer and a Parameter (a later broadcast)."""
        a = self.r.choice(self.consumers)
        b = self.r.choice(self.consumers + [p.output(0) for p in self.params])
        if a.get_element_type() != b.get_element_type():
            raise _Skip("types")
        self.consumers.append(self.named(op.add(a, b), "add"))

    # ---- bodies ---------------------------------------------------------------------

    def body_output(self, inner: ov.Output, extra: list[tuple[ov.Node, ov.Output]]) -> ov.Output:
        """What a body computes from its sliced or invariant Parameter ``inner``: a
        pointwise op, a Broadcast or Reshape to a shape computed from it, or to a value the
        outer graph computes (another Parameter and that value, appended to ``extra``)."""
        kind = self.r.choice(["relu", "broadcast", "reshape", "outer"])
        if kind == "relu":
            return op.relu(inner).output(0)
        shape = op.shape_of(inner, "i64").output(0)
        if kind == "broadcast":
            target = op.concat([self.const([2], I64), shape], 0).output(0)
            return op.broadcast(self.const(1.0, F32), target).output(0)
        if kind == "reshape":
            return op.reshape(inner, self.const([-1], I64), False).output(0)
        value = self.pick(True)
        carried = op.parameter(value.get_partial_shape(), value.get_element_type())
        extra.append((carried, value))
        return op.broadcast(self.const(1.0, F32), carried).output(0)

    def loop(self) -> None:
        """A Loop over a Parameter, invariant or sliced, its output concatenated and last."""
        data = self.r.choice(self.params).output(0)
        ps = data.get_partial_shape()
        if ps.rank.is_dynamic or ps.rank.get_length() < 1:
            raise _Skip("loop")
        kind = self.r.choice(["const", "minus", "computed", "parameter"])
        if kind == "const":
            trip = self.const(self.r.randint(0, 4), I64)
        elif kind == "minus":
            trip = self.const(-1, I64)
        elif kind == "computed":
            trip = op.squeeze(self.scalar_or_first(), self.const([0], I64)).output(0)
            trip = op.convert(trip, "i64").output(0)
        else:
            node = op.parameter([], np.int64)
            self.params.append(node)
            trip = self.named(node, "trip")
        condition = ov.op.Constant(np.array(self.r.random() < 0.8)).output(0)
        axis = self.r.randrange(ps.rank.get_length())
        sliced = self.r.random() < 0.4
        part = list(ps)
        if sliced:
            part[axis] = ov.Dimension(1)
        inner = op.parameter(ov.PartialShape(part), np.float32)
        counter = op.parameter([], np.int64)
        extra: list[tuple[ov.Node, ov.Output]] = []
        body_out = self.body_output(inner.output(0), extra)
        if self.r.random() < 0.5:
            keep = ov.op.Constant(np.array(True)).output(0)
        else:  # a condition computed in the body
            keep = op.less(counter, self.const(self.r.randint(1, 4), I64)).output(0)
        body = ov.Model([op.result(keep), op.result(body_out)],
                        [inner, counter] + [p for p, _ in extra], "body")
        node = op.loop(trip, condition)
        node.set_function(body)
        node.set_special_body_ports([1, 0])
        if sliced:
            node.set_sliced_input(inner, data, 0, 1, 1, -1, axis)
        else:
            node.set_invariant_input(inner, data)
        for carried, value in extra:
            node.set_invariant_input(carried, value)
        out_rank = body_out.get_partial_shape().rank
        out_axis = self.r.randrange(out_rank.get_length()) if out_rank.is_static and \
            out_rank.get_length() else 0
        concatenated = node.get_concatenated_slices(body_out, 0, 1, 1, -1, out_axis)
        node.get_iter_value(body_out, -1)
        node.validate_and_infer_types()
        self.named(node, "loop")
        self.consumers.append(concatenated)

    def tensor_iterator(self) -> None:
        """A TensorIterator slicing a Parameter along an axis (forwards or backwards, by one
        or two), maybe with a back edge; its outputs concatenated and last."""
        data = self.r.choice(self.params).output(0)
        ps = data.get_partial_shape()
        if ps.rank.is_dynamic or ps.rank.get_length() < 1:
            raise _Skip("ti")
        axis = self.r.randrange(ps.rank.get_length())
        size = self.r.choice([1, 1, 2])
        part = list(ps)
        part[axis] = ov.Dimension(size)
        inner = op.parameter(ov.PartialShape(part), np.float32)
        extra: list[tuple[ov.Node, ov.Output]] = []
        body_out = self.body_output(inner.output(0), extra)
        results = [op.result(body_out)]
        merged = self.r.random() < 0.3
        if merged:
            state = op.parameter(ov.PartialShape([1]), np.float32)
            total = op.add(state, op.reduce_sum(body_out, self.const([0], I64), False)
                           if body_out.get_partial_shape().rank.get_length() == 1
                           else self.const([1.0], F32))
            results.append(op.result(total))
        body = ov.Model(results, [inner] + ([state] if merged else []) + [p for p, _ in extra],
                        "body")
        node = op.tensor_iterator()
        node.set_body(body)
        backwards = self.r.random() < 0.3
        start, stride, end = (-1, -size, 0) if backwards else (0, size, -1)
        node.set_sliced_input(inner, data, start, stride, size, end, axis)
        if merged:
            node.set_merged_input(state, self.const([0.0], F32), results[1].output(0))
            node.get_iter_value(results[1].output(0), -1)
        for carried, value in extra:
            node.set_invariant_input(carried, value)
        out_rank = body_out.get_partial_shape().rank.get_length()
        out_axis = self.r.randrange(out_rank) if out_rank else 0
        out = node.get_concatenated_slices(body_out, start, stride, size, end, out_axis)
        node.get_iter_value(body_out, -1)
        node.validate_and_infer_types()
        self.named(node, "ti")
        self.consumers.append(out)

    # ---- the model ------------------------------------------------------------------

    def build(self) -> ov.Model:
        for _ in range(self.r.randint(1, 2)):
            self.parameter()
        self.values.append(self.s_shape_of())
        for _ in range(self.r.randint(3, 10)):
            self.attempt(self.step)
        for _ in range(self.r.randint(1, 4)):
            self.attempt(lambda: self.consumers.append(self.r.choice(self.CONSUMERS)(self)))
        if self.r.random() < 0.4:
            self.attempt(self.loop)
        if self.r.random() < 0.4:
            self.attempt(self.tensor_iterator)
        if self.consumers and self.r.random() < 0.5:
            self.attempt(self.downstream)
        if not self.consumers:
            raise _Skip("no consumer")
        results = [op.result(c) for c in self.consumers]
        return ov.Model(results, list(self.params), "values")

    def attempt(self, step: Callable[[], object]) -> None:
        try:
            step()
        except (_Skip, RuntimeError, TypeError, ValueError, IndexError, KeyError, OverflowError):
            pass


def _runtime(path: Path) -> dict[str, list[str]]:
    model = ov.Core().read_model(str(path))
    return {node.get_friendly_name(): [str(node.get_output_partial_shape(i)).replace(" ", "")
                                       for i in range(node.get_output_size())]
            for node in model.get_ordered_ops()}


def generate(seed: int, folder: Path) -> ValueModel:
    """The model of ``seed``: the first of its sub-seeds that builds and ``read_model`` reads."""
    folder.mkdir(parents=True, exist_ok=True)
    for attempt in range(MAX_ATTEMPTS):
        builder = _Builder(seed * 1000 + attempt)
        try:
            model = builder.build()
        except (_Skip, RuntimeError):
            continue
        path = folder / f"values{seed}.xml"
        ov.save_model(model, str(path), compress_to_fp16=False)
        try:
            runtime = _runtime(path)
        except RuntimeError:
            continue
        names = [c.get_node().get_friendly_name() for c in builder.consumers]
        return ValueModel(seed, path, [n for n in names if n in runtime], runtime)
    raise AssertionError(f"seed {seed}: no model in {MAX_ATTEMPTS} attempts")
