"""Seeded random Loop and TensorIterator models, built with the openvino API, and every port
of them (outer outputs and body layers) compared with the runtime's re-serialization.

    found = run(seed, folder)   # a Found: ports compared, and the ports that differ

What varies: the trip count (a Const of 1..4, 0 or -1, one computed from a ShapeOf, a
Parameter), the outer and body execution conditions (Const true or false, computed in the
body from the current iteration, a body Parameter), a current_iteration input, sliced inputs
(start, end, stride, part_size and axis, backwards too), merged inputs whose back edge
changes or keeps the shape, invariant inputs, outputs concatenated (axis, backwards for
TensorIterator) or taken at the last iteration, a Loop inside a TensorIterator's body and a
TensorIterator inside a Loop's, and static, interval and dynamic outer dims.

A port where irvalidate's inferred dim is static and the runtime's is not (or another number)
is *tighter* (a false error risk); one where the runtime's is static and irvalidate's is not,
*looser* (a miss).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset8 as op

from support.bodyports import irvalidate_ports, runtime_ports

I64 = np.int64


@dataclass
class Found:
    models: int = 0
    ports: int = 0
    tighter: list[str] = field(default_factory=list)
    looser: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)


def _const(value, et=I64) -> ov.Output:
    return op.constant(np.array(value, et)).output(0)


def _part(ps: ov.PartialShape, axis: int, part: int) -> ov.PartialShape:
    """A sliced input's body Parameter: ``part`` at the axis (any shape for a dynamic rank)."""
    if ps.rank.is_dynamic:
        return ov.PartialShape.dynamic()
    dims = list(ps)
    dims[axis] = ov.Dimension(part)
    return ov.PartialShape(dims)


class LoopGen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.params: list[ov.Node] = []
        self.count = 0

    def name(self, node: ov.Node, stem: str) -> ov.Node:
        self.count += 1
        node.set_friendly_name(f"{stem}{self.count}")
        return node

    def dim(self) -> ov.Dimension:
        kind = self.r.random()
        if kind < 0.05:
            return ov.Dimension(0)
        if kind < 0.6:
            return ov.Dimension(self.r.randint(1, 6))
        if kind < 0.8:
            lo = self.r.randint(0, 3)
            return ov.Dimension(lo, lo + self.r.randint(1, 5))
        return ov.Dimension()

    def outer(self, rank: int) -> ov.Output:
        shape = ov.PartialShape([self.dim() for _ in range(rank)]) \
            if self.r.random() > 0.04 else ov.PartialShape.dynamic()
        node = self.name(op.parameter(shape, np.float32), "x")
        self.params.append(node)
        return node.output(0)

    # ---- bodies ------------------------------------------------------------------------

    def step(self, value: ov.Output, depth: int) -> ov.Output:
        """A body's work on one value: kept, doubled along an axis, reduced, or a nested
        Loop/TensorIterator."""
        if value.get_partial_shape().rank.is_dynamic:
            return op.add(value, value).output(0)
        rank = value.get_partial_shape().rank.get_length()
        kind = self.r.choice(["same", "same", "grow", "reduce", "shapeof", "nested", "scalar",
                              "fill"])
        if kind == "scalar" and rank:  # every element summed: a scalar result
            return op.reduce_sum(value, _const(list(range(rank))), False).output(0)
        if kind == "fill" and rank:  # a new value whose dim 0 is the value's dim 0 plus one
            size = op.add(op.gather(op.shape_of(value), _const([0]), _const(0)), _const([1]))
            return op.broadcast(_const(1.0, np.float32), op.concat(
                [size, op.gather(op.shape_of(value), _const(list(range(1, rank))), _const(0))],
                0)).output(0)
        if kind == "grow" and rank:
            return op.concat([value, value], self.r.randrange(rank)).output(0)
        if kind == "reduce" and rank:
            return op.reduce_sum(value, _const([self.r.randrange(rank)]), True).output(0)
        if kind == "shapeof" and rank:  # a Broadcast to the ShapeOf of the value: the same
            return op.broadcast(_const(1.0, np.float32), op.shape_of(value)).output(0)
        if kind == "nested" and depth < 2 and rank:
            return self.loop_or_ti(value, depth + 1)
        return op.add(value, value).output(0)

    # ---- the layers --------------------------------------------------------------------

    def loop_or_ti(self, data: ov.Output, depth: int = 0) -> ov.Output:
        if self.r.random() < 0.5:
            return self.loop(data, depth)
        return self.tensor_iterator(data, depth)

    def trip(self, data: ov.Output, depth: int) -> ov.Output:
        kinds = ["const", "const", "zero", "minus", "shapeof", "real"]
        kinds += ["parameter"] if not depth else []  # (a body has no outer Parameter)
        kind = self.r.choice(kinds)
        if kind == "const":
            return _const(self.r.randint(1, 4))
        if kind == "zero":
            return _const(0)
        if kind == "minus":
            return _const(-1)
        if kind == "shapeof":
            dim = op.gather(op.shape_of(data), _const(0), _const(0))
            if self.r.random() < 0.3:  # through i32, or a number added
                return op.convert(dim, self.r.choice(["i32", "i64"])).output(0)
            return dim.output(0)
        if kind == "real":
            return _const(self.r.choice([2.7, 0.5, -1.0]), np.float32)
        node = self.name(op.parameter(ov.PartialShape([]), I64), "trip")
        self.params.append(node)
        return node.output(0)

    def condition(self, depth: int, data: ov.Output | None = None) -> ov.Output:
        kind = self.r.choice(["true", "true", "false"] + (["parameter"] if not depth else []) +
                             (["computed"] if data is not None else []))
        if kind == "computed":  # a dim of the data against a number: folds where it is static
            dim = op.gather(op.shape_of(data), _const(0), _const(0))
            return op.less(dim, _const(self.r.randint(1, 5))).output(0)
        if kind == "parameter":
            node = self.name(op.parameter(ov.PartialShape([]), np.bool_), "cond")
            self.params.append(node)
            return node.output(0)
        return _const(kind == "true", np.bool_)

    def sliced_spec(self, ps: ov.PartialShape, ti: bool) -> tuple[int, int, int, int, int]:
        rank = ps.rank.get_length() if ps.rank.is_static else 1
        axis = self.r.randrange(rank) - (rank if self.r.random() < 0.2 else 0)
        part = self.r.choice([1, 1, 2])
        if not ti or self.r.random() < 0.5:
            return 0, part, part, -1, axis
        kind = self.r.choice(["back", "window", "negend", "far", "late"])
        if kind == "late":  # a start past the end of a short dim
            return self.r.choice([5, 8]), part, part, -1, axis
        if kind == "back":
            return -1, -part, part, 0, axis
        if kind == "window":
            return 1, part, part, self.r.choice([3, 4, -2]), axis
        if kind == "negend":
            return 0, part, part, self.r.choice([-2, -3]), axis
        return 0, part, part, self.r.choice([10, 100]), axis

    def loop(self, data: ov.Output, depth: int) -> ov.Output:
        ps = data.get_partial_shape()
        node = op.loop(self.trip(data, depth), self.condition(depth, data))
        inner_params: list[ov.Node] = []
        counter = op.parameter(ov.PartialShape(self.r.choice([[], [1]])), I64)
        use_counter = self.r.random() < 0.5
        how = self.r.choice(["invariant", "sliced", "merged"])
        if how == "sliced":
            start, stride, part, end, axis = self.sliced_spec(ps, False)
            inner = op.parameter(_part(ps, axis, part), np.float32)
        else:
            inner = op.parameter(ps, np.float32)
        out = self.step(inner.output(0), depth)
        cond_kind = self.r.choice(["true", "false", "computed", "parameter"])
        cond_param = None
        if cond_kind == "computed":
            scalar = counter if not counter.get_partial_shape().rank.get_length() else \
                op.squeeze(counter, _const([0]))
            keep = op.less(scalar, _const(self.r.randint(1, 3))).output(0)
            use_counter = True
        elif cond_kind == "parameter":
            cond_param = op.parameter(ov.PartialShape([]), np.bool_)
            keep = cond_param.output(0)
        else:
            keep = _const(cond_kind == "true", np.bool_)
        results = [op.result(keep), op.result(out)]
        extra_results = []
        if self.r.random() < 0.3:  # a second value: the counter converted, its last value out
            extra_results.append(op.result(op.convert(counter, "f32")))
            use_counter = True
        inner_params = [inner] + ([counter] if use_counter else []) + \
            ([cond_param] if cond_param is not None else [])
        body = ov.Model(results + extra_results, inner_params, "body")
        node.set_function(body)
        node.set_special_body_ports([inner_params.index(counter) if use_counter else -1, 0])
        if how == "sliced":
            node.set_sliced_input(inner, data, start, stride, part, end, axis)
        elif how == "merged":
            node.set_merged_input(inner, data, results[1].output(0))
        else:
            node.set_invariant_input(inner, data)
        if cond_param is not None:
            node.set_invariant_input(cond_param, self.condition(depth, data))
        outs = []
        rank = out.get_partial_shape().rank
        if self.r.random() < 0.8:
            axis = self.r.randrange(rank.get_length()) if rank.is_static and \
                rank.get_length() else 0
            if self.r.random() < 0.3 and rank.is_static and rank.get_length():
                axis -= rank.get_length()
            outs.append(node.get_concatenated_slices(out, 0, 1, 1, -1, axis))
        outs.append(node.get_iter_value(out, -1))
        for result in extra_results:
            node.get_iter_value(result.output(0), -1)
            if self.r.random() < 0.5:
                node.get_concatenated_slices(result.output(0), 0, 1, 1, -1, 0)
        node.validate_and_infer_types()
        self.name(node, "loop")
        return self.r.choice(outs)

    def tensor_iterator(self, data: ov.Output, depth: int) -> ov.Output:
        ps = data.get_partial_shape()
        node = op.tensor_iterator()
        how = self.r.choice(["sliced", "sliced", "merged", "invariant"])
        if how == "sliced":
            start, stride, part, end, axis = self.sliced_spec(ps, True)
            inner = op.parameter(_part(ps, axis, part), np.float32)
        else:
            inner = op.parameter(ps, np.float32)
        out = self.step(inner.output(0), depth)
        params = [inner]
        second = None
        if how != "sliced" and not depth and self.r.random() < 0.5:  # also a sliced input, to count
            other = self.outer(self.r.randint(1, 3))
            o_start, o_stride, o_part, o_end, o_axis = self.sliced_spec(other.get_partial_shape(),
                                                                       True)
            second = op.parameter(_part(other.get_partial_shape(), o_axis, o_part), np.float32)
            params.append(second)
        body = ov.Model([op.result(out)], params, "body")
        node.set_body(body)
        if how == "sliced":
            node.set_sliced_input(inner, data, start, stride, part, end, axis)
        elif how == "merged":
            node.set_merged_input(inner, data, body.get_results()[0].output(0))
        else:
            node.set_invariant_input(inner, data)
        if second is not None:
            node.set_sliced_input(second, other, o_start, o_stride, o_part, o_end, o_axis)
        outs = []
        rank = out.get_partial_shape().rank
        if self.r.random() < 0.8 and rank.is_static:
            axis = self.r.randrange(rank.get_length()) if rank.get_length() else 0
            if self.r.random() < 0.2 and rank.get_length():
                axis -= rank.get_length()
            c_part = self.r.choice([1, 1, 2])
            c = self.r.choice([(0, c_part, c_part, -1), (-1, -c_part, c_part, 0),
                               (0, 1, 1, self.r.choice([3, -2]))])
            outs.append(node.get_concatenated_slices(out, c[0], c[1], c[2], c[3], axis))
        outs.append(node.get_iter_value(out, -1))
        node.validate_and_infer_types()
        self.name(node, "ti")
        return self.r.choice(outs)

    def build(self) -> ov.Model:
        data = self.outer(self.r.randint(1, 3))
        out = self.loop_or_ti(data)
        results = [op.result(out)]
        return ov.Model(results, self.params, "m")


def build(seed: int) -> ov.Model | None:
    try:
        return LoopGen(seed).build()
    except (RuntimeError, ValueError, IndexError):  # the API refused the configuration
        return None


def compare(path: Path, folder: Path, found: Found) -> None:
    """Count and classify every port of the model and its bodies."""
    runtime, ours = runtime_ports(path, folder), irvalidate_ports(path)
    for name, ports in runtime.items():
        mine = ours.get(name)
        if mine is None or len(mine) != len(ports):
            found.other.append(f"{path.stem} {name}: irvalidate {mine}, the runtime {ports}")
            continue
        for index, (a, b) in enumerate(zip(mine, ports)):
            found.ports += 1
            if a == b:
                continue
            where = f"{path.stem} {name}:{index} irvalidate {a}, the runtime {b}"
            if a is None or len(a) != len(b):
                found.other.append(where)
            elif any(x != -1 and x != y for x, y in zip(a, b)):
                found.tighter.append(where)
            else:
                found.looser.append(where)


def run(seeds, folder: Path) -> Found:
    found = Found()
    for seed in seeds:
        model = build(seed)
        if model is None:
            continue
        path = Path(folder) / f"loop{seed}.xml"
        ov.save_model(model, str(path), compress_to_fp16=False)
        try:
            ov.Core().read_model(str(path))
        except RuntimeError:
            continue
        found.models += 1
        compare(path, Path(folder), found)
    return found


if __name__ == "__main__":
    import sys
    import tempfile
    first, last = int(sys.argv[1]), int(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        result = run(range(first, last), Path(tmp))
    print(f"models {result.models} ports {result.ports} tighter {len(result.tighter)} "
          f"looser {len(result.looser)} other {len(result.other)}")
    for line in result.tighter + result.looser + result.other:
        print(line)
