"""Small valid models, built with the openvino API, holding every op type irvalidate infers
(``irvalidate.ops.registry.catalogue()``), every class of it where a type has several
(Gather-1/-7/-8, ...), for tests/fix/test_fix_every_op.py.

``GROUPS`` maps a group name to a function returning an ``ov.Model``; each group puts a few
independent layers side by side (each from its own Parameters and Consts), so that one
saved model and one reference serve several op types.  Input shapes are static and interval
where the op allows, so that the runtime's dims are static and -1 (``?`` or an interval)
both.  The configurations are the per-op tests' (tests/ops/test_*.py).
"""
from __future__ import annotations

from typing import Callable, Dict, List, Sequence

import numpy as np
import openvino as ov
import openvino.opset8 as o8
from openvino.op.util import Variable, VariableInfo
from openvino.utils.node_factory import NodeFactory

F32, I32, I64, BOOL, U8 = np.float32, np.int32, np.int64, np.bool_, np.uint8
_FACTORIES: Dict[str, NodeFactory] = {}


def shape(spec) -> ov.PartialShape:
    """``[2, (1, 5), -1]``: 2, the interval 1..5, ?; None is a dynamic rank."""
    if spec is None:
        return ov.PartialShape.dynamic()
    return ov.PartialShape([ov.Dimension(*d) if isinstance(d, tuple) else ov.Dimension(d)
                            for d in spec])


def P(spec, et=F32):
    return o8.parameter(shape(spec), et)


def C(values, et=I64):
    return o8.constant(np.array(values, dtype=et))


def F(values):
    return C(values, F32)


def mk(opset: int, type_: str, inputs: Sequence, attrs: dict = None):
    """A layer of ``type_`` as opset ``opset`` defines it (NodeFactory: any attribute)."""
    factory = _FACTORIES.get(opset)
    if factory is None:
        factory = _FACTORIES[opset] = NodeFactory(f"opset{opset}")
    return factory.create(type_, [i.output(0) if hasattr(i, "output") else i for i in inputs],
                          attrs or {})


def computed(dims, index=0):
    """A scalar computed from a Parameter's shape (ShapeOf -> Gather): the value of dim
    ``index`` of ``dims``, exact when it is static."""
    return o8.gather(o8.shape_of(P(dims)), C(index), C(0))


def parameters_of(outputs) -> List:
    found, seen, stack = [], set(), [o.get_node() for o in outputs]
    while stack:
        node = stack.pop()
        if node.get_name() in seen:
            continue
        seen.add(node.get_name())
        if node.get_type_name() == "Parameter":
            found.append(node)
        stack.extend(i.get_source_output().get_node() for i in node.inputs())
    return sorted(found, key=lambda p: p.get_name())


def model(nodes, sinks=(), name="m") -> ov.Model:
    """Every output of ``nodes`` a Result; layers named by type and position (unique)."""
    outputs = [out for node in nodes for out in node.outputs()]
    m = ov.Model([o8.result(o) for o in outputs], list(sinks), parameters_of(outputs), name)
    counts: Dict[str, int] = {}
    for op in m.get_ordered_ops():
        kind = op.get_type_name()
        counts[kind] = counts.get(kind, 0) + 1
        op.set_friendly_name(f"{kind}_{counts[kind]}")
    return m


GROUPS: Dict[str, Callable[[], ov.Model]] = {}


def group(fn):
    GROUPS[fn.__name__] = fn
    return fn


# ------------------------------------------------------------------ elementwise
UNARY = ["Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceiling", "Cos", "Cosh", "Erf",
         "Exp", "Floor", "HSigmoid", "HSwish", "Log", "Mish", "Negative", "Relu", "Sigmoid", "Sign",
         "Sin", "Sinh", "SoftPlus", "SoftSign", "Sqrt", "Tan", "Tanh"]
UNARY_OPSET = {"Acosh": 4, "Asinh": 4, "Atanh": 4, "HSigmoid": 5, "HSwish": 4, "Mish": 4,
               "SoftPlus": 4, "SoftSign": 9}


def _unary(names):
    return model([mk(UNARY_OPSET.get(t, 1), t, [P([2, (1, 5), 3])]) for t in names])


@group
def unary_a():
    return _unary(UNARY[:14])


@group
def unary_b():
    return _unary(UNARY[14:])


@group
def unary_attributes():
    x = lambda: P([2, (1, 5), 3])  # noqa: E731
    return model([
        mk(1, "Clamp", [x()], {"min": -1.0, "max": 1.0}),
        mk(1, "Elu", [x()], {"alpha": 0.5}),
        mk(2, "Gelu", [x()]),
        mk(7, "Gelu", [x()], {"approximation_mode": "tanh"}),
        mk(5, "Round", [x()], {"mode": "half_to_even"}),
        mk(1, "Selu", [x(), F([1.67]), F([1.05])]),
        mk(4, "Swish", [x(), F(1.0)]),
        mk(1, "PRelu", [x(), F([0.1, 0.2, 0.3])]),
        mk(1, "ConvertLike", [x(), C([1], I32)]),
        mk(1, "Convert", [x()], {"destination_type": "f16"}),
        mk(16, "Identity", [x()]),
        mk(17, "ErfInv", [x()]),
        mk(1, "HardSigmoid", [x(), F(0.2), F(0.5)]),
        mk(14, "ConvertPromoteTypes", [x(), P([(1, 4), 1, 3], I32)], {"promote_unsafe": True}),
    ])


@group
def unary_types():
    return model([
        mk(10, "IsFinite", [P([2, (1, 5), 3])]),
        mk(10, "IsInf", [P([2, (1, 5), 3])]),
        mk(10, "IsNaN", [P([2, (1, 5), 3])]),
        mk(1, "LogicalNot", [P([2, (1, 5), 3], BOOL)]),
        mk(13, "BitwiseNot", [P([2, (1, 5), 3], I32)]),
    ])


ARITH = ["Add", "Subtract", "Multiply", "Divide", "Power", "Maximum", "Minimum", "FloorMod", "Mod",
         "SquaredDifference", "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"]


@group
def binary_a():
    return model([mk(1, t, [P([2, (1, 5), 3]), P([4, 1, 1, -1])]) for t in ARITH[:8]])


@group
def binary_b():
    return model([mk(1, t, [P([(2, 6), 1, 3]), P([5, 3])]) for t in ARITH[8:]])


@group
def binary_types():
    b = lambda s: P(s, BOOL)  # noqa: E731
    i = lambda s: P(s, I32)  # noqa: E731
    return model([
        mk(1, "LogicalAnd", [b([2, (1, 5), 3]), b([3])]),
        mk(1, "LogicalOr", [b([2, 1, 3]), b([4, 1])]),
        mk(1, "LogicalXor", [b([-1, 3]), b([2, 1])]),
        mk(1, "Xor", [b([(1, 3), 1]), b([4])]),
        mk(13, "BitwiseAnd", [i([2, (1, 5), 3]), i([3])]),
        mk(13, "BitwiseOr", [i([2, 1, 3]), i([4, 1])]),
        mk(13, "BitwiseXor", [i([(1, 3), 3]), i([2, 1])]),
        mk(15, "BitwiseLeftShift", [i([2, (1, 5), 3]), i([1])]),
        mk(15, "BitwiseRightShift", [i([2, 1, 3]), i([4, 1])]),
        mk(1, "Select", [b([(1, 4), 3]), P([2, 1, 1]), P([3])]),
        mk(1, "FakeQuantize", [P([1, 3, (4, 8), 8]), F(np.zeros([1, 3, 1, 1])), F([1.0]), F(0.0),
                               F(np.ones([8])), ], {"levels": 256}),
        mk(13, "FakeConvert", [P([2, (1, 5), 3]), F([1.0]), F([0.0])], {"destination_type": "f8e4m3"}),
    ])
