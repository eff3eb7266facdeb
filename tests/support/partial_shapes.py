"""Helpers for the op tests: shapes written compactly, nodes built with NodeFactory, random
shapes, and irvalidate's inference of one layer without a file (for property tests).

A shape is a list whose items are an int (static, -1 for ``?``) or a ``(lo, hi)`` pair (an
interval, ``hi`` -1 for unbounded); ``None`` is a dynamic rank.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import openvino as ov
from openvino import opset13 as ops
from openvino.utils.node_factory import NodeFactory

from irvalidate.ir.records import Layer
from irvalidate.ops.support import registry
from irvalidate.ops.support.node import Node
from irvalidate.ops.support.spec import OpError, Value
from irvalidate.shapes.dims import INF, Dim
from support import cassette

_FACTORIES: dict[str, NodeFactory] = {}
cassette.per_test(_FACTORIES.clear)  # NodeFactory objects are the runtime's


def shape(spec) -> ov.PartialShape:
    if spec is None:
        return ov.PartialShape.dynamic()
    return ov.PartialShape([ov.Dimension(*d) if isinstance(d, tuple) else ov.Dimension(d)
                            for d in spec])


def param(spec, et=np.float32, name: str | None = None):
    return ops.parameter(shape(spec), et, name=name)


def const(values, et=np.int64):
    return ops.constant(np.array(values, dtype=et))


def create(opset: str, kind: str, inputs: Sequence, attrs: dict | None = None, name: str = "op"):
    factory = _FACTORIES.setdefault(opset, NodeFactory(opset))
    node = factory.create(kind, [i.output(0) if hasattr(i, "output") else i for i in inputs],
                          attrs or {})
    node.set_friendly_name(name)
    return node


def model(outputs: Sequence, params: Sequence) -> ov.Model:
    return ov.Model([o.output(0) if hasattr(o, "output") else o for o in outputs], list(params))


def random_dim(rng: random.Random, static_only: bool = False):
    """A dim for random shapes: mostly small static, sometimes ``?`` or an interval."""
    roll = rng.random()
    if static_only or roll < 0.6:
        return rng.choice([1, 1, 2, 3, 4, 5])
    if roll < 0.75:
        return -1
    lo = rng.randint(0, 4)
    return (lo, rng.choice([lo + rng.randint(1, 5), -1]))


def random_shape(rng: random.Random, low: int = 0, high: int = 4, dynamic_rank: float = 0.1,
                 static_only: bool = False):
    if rng.random() < dynamic_rank:
        return None
    return [random_dim(rng, static_only) for _ in range(rng.randint(low, high))]


def dims(spec) -> tuple | None:
    """The irvalidate shape of a compact spec."""
    if spec is None:
        return None
    out = []
    for d in spec:
        if isinstance(d, tuple):
            out.append(Dim(d[0], INF if d[1] == -1 else d[1]))
        else:
            out.append(Dim(0, INF) if d == -1 else Dim(d, d))
    return tuple(out)


def infer(kind: str, version: str, values: list[Value], data: dict | None = None):
    """irvalidate's inference of one layer fed ``values`` (no graph: no Const is read); the
    Result, or the OpError raised."""
    layer = Layer("1", "op", kind, version, 1, dict(data or {}), (), ())
    spec = registry.lookup(kind, version)
    node = Node(layer, values, graph=None)  # type: ignore[arg-type]
    try:
        return spec.infer(node), node
    except OpError as err:
        return err, node


def errors_naming(path, layer: str = "op") -> list:
    """The error findings irvalidate gives on a file that name the layer."""
    from irvalidate.engine.validation import validate_file
    return [f for f in validate_file(str(path)).findings
            if f.level == "error" and f.layer is not None and f.layer.name == layer]


def expect_refusal(ir, folder, words: str | None = None, code: str | None = None,
                   layer: str = "op", stem: str = "model") -> list:
    """Write a hand-made IR (tests/irbuilder.IR) that read_model must refuse; irvalidate must
    give an error finding naming the layer, with ``words`` in its message and of ``code``
    when given.  Returns the findings."""
    path = ir.write(folder, stem=stem)
    try:
        ov.Core().read_model(str(path))
    except RuntimeError:
        pass
    else:
        raise AssertionError(f"read_model accepts {path}")
    found = errors_naming(path, layer)
    assert any((words is None or words in f.message) and (code is None or f.code == code)
               for f in found), [f"{f.code} {f.message}" for f in found]
    return found


def dim_text(d) -> str:
    """A compact dim as a Parameter ``shape`` attribute writes it."""
    if isinstance(d, tuple):
        return f"{d[0]}..{'' if d[1] == -1 else d[1]}"
    return "?" if d == -1 else str(d)


def shape_text(spec) -> str:
    return "..." if spec is None else ",".join(dim_text(d) for d in spec)


def one_layer(kind: str, version: str, inputs: Sequence[tuple], attrs: dict):
    """A hand-written IR of one layer 'op' (tests/irbuilder.IR): ``inputs`` are
    ``("p", shape, type)`` Parameters or ``("c", values, type, shape)`` Consts.  Returns
    ``build(ir, outputs, precision)`` for :func:`against_the_runtime`."""
    def build(ir, outputs, out_precision=None):
        refs = [ir.parameter(shape_text(s[1]), s[2]) if s[0] == "p"
                else ir.const(s[1], s[2], shape=s[3]) for s in inputs]
        ir.result(ir.op(kind, refs, outputs, attrs, version=version, name="op",
                        out_precision=out_precision))
        ir.const([7], "i64")  # keeps the .bin non-empty (the runtime refuses an empty one)
    return build


def against_the_runtime(build, folder, stem: str = "ir") -> str:
    """Write the layer, read it with read_model: refused, irvalidate must give an error naming
    it; read, irvalidate must infer the runtime's shapes and give no error on the file
    declaring them.  Returns "refused" or "read"."""
    from irvalidate.cli.shapes import layers_of
    from support.irbuilder import IR, precision
    ir = IR()
    build(ir, [[]])
    path = ir.write(folder, stem=stem)
    try:
        model = ov.Core().read_model(str(path))
    except RuntimeError as err:
        # a refusal, not a complaint about the outputs this file declares at random
        refusals = [f for f in errors_naming(path) if f.code != "IRV101" and f.port is None]
        assert refusals, f"read_model refuses it ({str(err).splitlines()[-1]}), irvalidate does not"
        return "refused"
    op = next(o for o in model.get_ordered_ops() if o.get_friendly_name() == "op")
    shapes = [op.get_output_partial_shape(i) for i in range(op.get_output_size())]
    declared = [[] if s.rank.is_dynamic else [d.get_length() if d.is_static else -1 for d in s]
                for s in shapes]
    ir = IR()
    build(ir, declared, precision(op.get_output_element_type(0).get_type_name()))
    path = ir.write(folder, stem=stem)
    row = next(r for r in layers_of(str(path)) if r["name"] == "op")
    assert [o["inferred"] for o in row["outputs"]] == [str(s).replace(" ", "") for s in shapes]
    assert not errors_naming(path)
    return "read"
