"""Small valid models, built with the openvino API, holding every op type irvalidate infers
(``irvalidate.ops.support.registry.catalogue()``), every class of it where a type has several
(Gather-1/-7/-8, ...), for tests/fix/test_fix_every_op.py.

``GROUPS`` maps a group name to a function returning an ``ov.Model``; each group puts a few
independent layers side by side (each from its own Parameters and Consts), so that one
saved model and one reference serve several op types.  Input shapes are static and interval
where the op allows, so that the runtime's dims are static and -1 (``?`` or an interval)
both.  The configurations are the per-op tests' (tests/ops/test_*.py).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import openvino as ov
import openvino.opset8 as o8
from openvino.op.util import Variable, VariableInfo
from openvino.utils.node_factory import NodeFactory

from support import cassette

F32, I32, I64, BOOL, U8 = np.float32, np.int32, np.int64, np.bool_, np.uint8
_FACTORIES: dict[str, NodeFactory] = {}
cassette.per_test(_FACTORIES.clear)  # NodeFactory objects are the runtime's


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


def parameters_of(outputs) -> list:
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
    counts: dict[str, int] = {}
    for op in m.get_ordered_ops():
        kind = op.get_type_name()
        counts[kind] = counts.get(kind, 0) + 1
        op.set_friendly_name(f"{kind}_{counts[kind]}")
    return m


GROUPS: dict[str, Callable[[], ov.Model]] = {}


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


# ------------------------------------------------------------------ shapes and indexing
@group
def shape_ops():
    return model([
        mk(1, "Broadcast", [P([3, 1]), C([2, 3, 4])]),
        mk(1, "Broadcast", [P([3]), C([2, 3, 4]), C([1])], {"mode": "explicit"}),
        mk(3, "Broadcast", [P([(1, 4), 1, 3]), C([5, 1, 1])], {"mode": "bidirectional"}),
        mk(1, "ShapeOf", [P([2, (1, 5), -1])]),
        mk(3, "ShapeOf", [P([2, 3])], {"output_type": "i32"}),
        mk(1, "Transpose", [P([2, (1, 5), 4]), C([2, 0, 1])]),
        mk(1, "Concat", [P([2, 3]), P([2, (1, 4)]), F(np.ones([2, 2]))], {"axis": 1}),
        mk(1, "Squeeze", [P([2, 1, (1, 5)]), C([1])]),
        mk(15, "Squeeze", [P([2, 1, (1, 5), 1]), C([-1])], {"allow_axis_skip": False}),
        mk(1, "Unsqueeze", [P([2, (1, 5)]), C([0, 3])]),
        mk(1, "Reshape", [P([2, (2, 6), 4]), C([0, -1, 2])], {"special_zero": True}),
        mk(1, "Reshape", [P([2, 3, 4]), o8.concat([o8.shape_of(P([6, -1])), C([-1])], 0)],
           {"special_zero": False}),
        mk(1, "Tile", [P([2, (1, 5)]), C([3, 1, 2])]),
    ])


@group
def gathering():
    return model([
        mk(1, "Gather", [P([5, (2, 6), 3]), P([2, 4], I64), C(1)]),
        mk(7, "Gather", [P([2, 5, 3]), P([2, (1, 4)], I32), C(1)], {"batch_dims": 1}),
        mk(8, "Gather", [P([(2, 4), 5, 3]), C([[0, -1]]), C(-1)], {"batch_dims": 0}),
        mk(5, "GatherND", [P([2, 5, (3, 6), 4]), P([2, 3, 2], I32)], {"batch_dims": 1}),
        mk(8, "GatherND", [P([2, 5, 6, 4]), P([2, (1, 3), 1], I64)], {"batch_dims": 1}),
        mk(6, "GatherElements", [P([3, (2, 6), 4]), P([3, 7, 4], I32)], {"axis": 1}),
        mk(3, "ScatterUpdate", [P([5, (2, 6), 3]), P([2], I64), P([5, 2, 3]), C(1)]),
        mk(4, "ScatterNDUpdate", [P([4, (2, 6), 3]), P([2, 1], I64), P([2, -1, 3])]),
        mk(15, "ScatterNDUpdate", [P([4, 5, 3]), P([2, 2], I64), P([2, 3])], {"reduction": "sum"}),
        mk(3, "ScatterElementsUpdate", [P([4, (2, 6)]), P([2, 2], I64), P([2, 2]), C(1)]),
        mk(12, "ScatterElementsUpdate", [P([4, 5]), P([2, 2], I64), P([2, 2]), C(0)],
           {"reduction": "max", "use_init_val": True}),
        mk(1, "GatherTree", [P([5, (1, 3), 4]), P([5, 2, 4]), P([2]), F(0.0)]),
    ])


@group
def slicing():
    return model([
        mk(8, "Slice", [P([10, (4, 12), 3]), C([1, 0]), C([8, -1]), C([2, 1]), C([0, 1])]),
        mk(1, "StridedSlice", [P([10, (4, 12), 3]), C([1, 0, 0]), C([8, -1, 3]), C([2, 1, 1])],
           {"begin_mask": [0, 1, 0], "end_mask": [0, 0, 0], "new_axis_mask": [],
            "shrink_axis_mask": [0, 0, 1], "ellipsis_mask": []}),
        mk(15, "SliceScatter", [P([10, (4, 12), 3]), P([4, -1, 3]), C([1]), C([9]), C([2]),
                                C([0])]),
        mk(1, "Split", [P([6, (1, 5), 4]), C(0)], {"num_splits": 3}),
        mk(1, "VariadicSplit", [P([6, (1, 5), 4]), C(2), C([1, -1, 2])]),
        mk(1, "Range", [C(0), C(10), C(3)]),
        mk(4, "Range", [C(2), computed([(3, 9)]), C(1)], {"output_type": "i32"}),
        mk(4, "Range", [C(0), C(7), C(2)], {"output_type": "f32"}),
    ])


@group
def real_ranges():
    """Ranges of real Consts, alone: reading their numbers marks the file as having a Const
    not read, which silences IRV109 on every layer of it (test_fix_every_op.py pins that)."""
    return model([mk(1, "Range", [F(0.0), F(10.0), F(3.0)]),
                  mk(4, "Range", [F(0.5), F(7.0), F(2.0)], {"output_type": "f32"})])


@group
def searching():
    return model([
        mk(1, "TopK", [P([4, (2, 9), 3]), C(2)], {"axis": 1, "mode": "max", "sort": "value"}),
        mk(3, "TopK", [P([4, 9, 3]), computed([(1, 5)])],
           {"axis": 1, "mode": "min", "sort": "index", "index_element_type": "i32"}),
        mk(11, "TopK", [P([(2, 5), 9]), C(3)], {"axis": 0, "mode": "max", "sort": "value",
                                                "stable": True}),
        mk(1, "OneHot", [P([2, (1, 4)], I64), C(5), F(1.0), F(0.0)], {"axis": -1}),
        mk(16, "OneHot", [P([3], I32), C(4), F(1.0), F(0.0)],
           {"axis": 0, "negative_indices_mode": "normalize"}),
        mk(3, "NonZero", [P([2, (1, 4), 3])], {"output_type": "i32"}),
        mk(10, "Unique", [P([6, (1, 4)])], {"sorted": True, "index_element_type": "i64"}),
        mk(10, "Unique", [P([6, 4]), C([0])], {"sorted": False, "index_element_type": "i32"}),
        mk(3, "Bucketize", [P([2, (1, 5)]), F([0.0, 1.0, 2.0])],
           {"output_type": "i32", "with_right_bound": True}),
        mk(15, "SearchSorted", [P([2, 3, 8]), P([2, 3, (1, 6)])], {"right_mode": False}),
    ])


# ------------------------------------------------------------------ reductions, normalization
REDUCE = ["ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum"]


@group
def reductions():
    nodes = [mk(1, t, [P([2, (1, 5), 4]), C([2])], {"keep_dims": k % 2 == 0})
             for k, t in enumerate(REDUCE)]
    nodes += [mk(4, "ReduceL1", [P([2, (1, 5), 4]), C([0, -1])], {"keep_dims": True}),
              mk(4, "ReduceL2", [P([-1, 3, 4]), C(1)], {"keep_dims": False}),
              mk(1, "ReduceLogicalAnd", [P([2, (1, 5), 4], BOOL), C([1])], {"keep_dims": True}),
              mk(1, "ReduceLogicalOr", [P([2, 3, (1, 5)], BOOL), C([0, 1])], {"keep_dims": False})]
    return model(nodes)


@group
def normalization():
    x = lambda: P([2, 3, (4, 8), 5])  # noqa: E731
    return model([
        mk(1, "Softmax", [x()], {"axis": 1}),
        mk(8, "Softmax", [x()], {"axis": -1}),
        mk(5, "LogSoftmax", [x()], {"axis": 2}),
        mk(2, "MVN", [x()], {"across_channels": False, "normalize_variance": True, "eps": 1e-5}),
        mk(6, "MVN", [x(), C([2, 3])], {"normalize_variance": True, "eps": 1e-5,
                                         "eps_mode": "inside_sqrt"}),
        mk(1, "NormalizeL2", [x(), C([1])], {"eps": 1e-6, "eps_mode": "add"}),
        mk(1, "LRN", [x(), C([1])], {"alpha": 1e-4, "beta": 0.75, "bias": 1.0, "size": 3}),
        mk(1, "GRN", [x()], {"bias": 1.0}),
        mk(1, "BatchNormInference", [F(np.ones([3])), F(np.zeros([3])), x(), F(np.zeros([3])),
                                     F(np.ones([3]))], {"epsilon": 1e-5}),
        mk(5, "BatchNormInference", [x(), F(np.ones([3])), F(np.zeros([3])), F(np.zeros([3])),
                                     F(np.ones([3]))], {"epsilon": 1e-5}),
        mk(12, "GroupNormalization", [P([2, 6, (4, 8)]), P([6]), P([6])],
           {"num_groups": 3, "epsilon": 1e-5}),
    ])


@group
def reordering():
    return model([
        mk(3, "CumSum", [P([2, (1, 5), 3]), C(1)], {"exclusive": False, "reverse": False}),
        mk(7, "Roll", [P([2, (1, 5), 3]), C([1, 2]), C([0, 1])]),
        mk(1, "Reverse", [P([2, (1, 5), 3]), C([0, 2])], {"mode": "index"}),
        mk(1, "ReverseSequence", [P([4, (1, 10), 3]), P([4], I32)], {"batch_axis": 0,
                                                                     "seq_axis": 1}),
        mk(1, "ShuffleChannels", [P([2, 6, (1, 5)])], {"axis": 1, "group": 3}),
        mk(1, "DepthToSpace", [P([1, 8, (2, 4), 3])], {"mode": "blocks_first", "block_size": 2}),
        mk(1, "SpaceToDepth", [P([1, 2, (2, 8), 6])], {"mode": "depth_first", "block_size": 2}),
        mk(2, "BatchToSpace", [P([8, 2, (2, 5), 3]), C([1, 2, 2, 1]), C([0, 0, 1, 0]),
                               C([0, 1, 0, 0])]),
        mk(2, "SpaceToBatch", [P([2, 2, (2, 5), 3]), C([1, 2, 3, 1]), C([0, 0, 1, 0]),
                               C([0, 0, 0, 0])]),
        mk(3, "ExtractImagePatches", [P([1, 3, (8, 12), 10])],
           {"sizes": [3, 3], "strides": [5, 5], "rates": [1, 1], "auto_pad": "valid"}),
        mk(1, "Pad", [P([2, (1, 5), 3]), C([0, 1, 2]), C([1, 0, 2]), F(0.0)],
           {"pad_mode": "constant"}),
        mk(12, "Pad", [P([2, (2, 5), 3]), C([0, -1, 2]), C([1, 0, 0])], {"pad_mode": "reflect"}),
    ])


# ------------------------------------------------------------------ matrices
@group
def matrices():
    return model([
        mk(1, "MatMul", [P([2, (1, 5), 3]), P([4, 3])], {"transpose_a": False,
                                                          "transpose_b": True}),
        mk(1, "MatMul", [P([3]), P([(1, 2), 3, 6])]),
        mk(7, "Einsum", [P([2, (1, 5), 3]), P([3, 4])], {"equation": "abc,cd->abd"}),
        mk(13, "ScaledDotProductAttention", [P([2, 8, (5, 20), 64]), P([2, 8, 12, 64]),
                                             P([2, 8, 12, 32])], {"causal": False}),
        mk(14, "Inverse", [P([(1, 3), 4, 4])], {"adjoint": False}),
        mk(17, "GroupedMatMul", [P([3, (2, 4), 5]), P([3, 6, 5])]),
        mk(17, "GroupedMatMul", [P([10, 16]), P([4, 32, 16]), P([4], I32)]),
        mk(9, "Eye", [C(3), C(4), C(0), C([2])], {"output_type": "f32"}),
        mk(9, "Eye", [computed([(2, 5)]), C(3), C(1)], {"output_type": "i32"}),
    ])


# ------------------------------------------------------------------ convolution and pooling
CONV = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "dilations": [1, 1],
        "auto_pad": "explicit"}
POOL = {"strides": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0], "kernel": [3, 3],
        "rounding_type": "floor", "auto_pad": "explicit"}


@group
def convolution():
    x = lambda: P([1, 4, (10, 20), 10])  # noqa: E731
    u1 = ov.op.Constant(ov.Type.u1, ov.Shape([8, 4, 3, 3]), [1] * 288)
    return model([
        mk(1, "Convolution", [x(), P([8, 4, 3, 3])], CONV),
        mk(1, "Convolution", [P([2, 3, 9]), P([5, 3, 2])],
           {**CONV, "strides": [2], "pads_begin": [1], "pads_end": [1], "dilations": [1]}),
        mk(1, "GroupConvolution", [x(), P([2, 3, 2, 3, 3])], {**CONV, "strides": [2, 2]}),
        mk(1, "BinaryConvolution", [x(), u1], {**CONV, "mode": "xnor-popcount",
                                               "pad_value": 0.0}),
        mk(1, "ConvolutionBackpropData", [x(), P([4, 6, 3, 3])], {**CONV, "strides": [2, 2],
                                                                  "output_padding": [0, 0]}),
        mk(1, "ConvolutionBackpropData", [P([1, 4, 5, 5]), P([4, 6, 3, 3]), C([11, 12])],
           {**CONV, "strides": [2, 2], "auto_pad": "same_upper"}),
        mk(1, "GroupConvolutionBackpropData", [x(), P([2, 2, 3, 3, 3])],
           {**CONV, "output_padding": [0, 0]}),
        mk(1, "DeformableConvolution", [P([1, 4, 10, (8, 12)]), P([1, 18, 8, -1]),
                                        P([8, 4, 3, 3])],
           {**CONV, "group": 1, "deformable_group": 1}),
        mk(8, "DeformableConvolution", [P([1, 4, 10, 10]), P([1, 18, 5, 5]), P([8, 4, 3, 3]),
                                        P([1, 9, 5, 5])],
           {**CONV, "strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1], "group": 1,
            "deformable_group": 1, "bilinear_interpolation_pad": False}),
    ])


@group
def pooling():
    x = lambda: P([1, 3, (10, 20), 11])  # noqa: E731
    return model([
        mk(1, "MaxPool", [x()], POOL),
        mk(8, "MaxPool", [x()], {**POOL, "dilations": [1, 1], "index_element_type": "i32",
                                 "axis": 0, "rounding_type": "ceil"}),
        mk(14, "MaxPool", [x()], {**POOL, "dilations": [2, 2], "index_element_type": "i64",
                                  "axis": 0, "rounding_type": "ceil_torch"}),
        mk(1, "AvgPool", [x()], {**POOL, "exclude-pad": True}),
        mk(14, "AvgPool", [x()], {**POOL, "exclude-pad": False, "rounding_type": "ceil_torch"}),
        mk(16, "AvgPool", [x()], {**POOL, "exclude-pad": False, "auto_pad": "same_upper"}),
        mk(8, "AdaptiveAvgPool", [x(), C([4, 5])]),
        mk(8, "AdaptiveMaxPool", [x(), C([2, 3])], {"index_element_type": "i32"}),
    ])


INTERPOLATE = dict(mode="nearest", shape_calculation_mode="sizes",
                   coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_floor",
                   antialias=False, pads_begin=[0, 0, 0, 0], pads_end=[0, 0, 0, 0], cube_coeff=-0.75)


@group
def resizing():
    x = lambda: P([1, 3, (10, 20), 10])  # noqa: E731
    return model([
        mk(1, "Interpolate", [x(), C([20, 30])], {"axes": [2, 3], "mode": "linear"}),
        mk(4, "Interpolate", [x(), C([15, 25]), F([2.0, 2.0]), C([2, 3])], INTERPOLATE),
        mk(4, "Interpolate", [x(), C([1, 1]), F([0.5, 2.0]), C([2, 3])],
           {**INTERPOLATE, "shape_calculation_mode": "scales"}),
        mk(11, "Interpolate", [x(), C([7, 9]), C([2, 3])],
           {**INTERPOLATE, "mode": "bilinear_pillow"}),
        mk(11, "Interpolate", [x(), F([1.0, 1.0, 1.5, 0.5])],
           {**INTERPOLATE, "shape_calculation_mode": "scales", "pads_begin": [0, 0, 1, 1]}),
        mk(9, "GridSample", [P([2, 3, (5, 10), 10]), P([2, 5, 6, 2])],
           {"align_corners": False, "mode": "bilinear", "padding_mode": "zeros"}),
        mk(15, "Col2Im", [P([3, 12, 9]), C([4, 4]), C([2, 2])],
           {"strides": [1, 1], "dilations": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0]}),
        mk(2, "ReorgYolo", [P([1, 64, (26, 52), 26])], {"stride": [2, 2]}),
        mk(1, "RegionYolo", [P([1, 255, (13, 26), 13])],
           {"coords": 4, "classes": 80, "num": 9, "do_softmax": False, "mask": [0, 1, 2],
            "axis": 1, "end_axis": 3, "anchors": [10.0, 13.0]}),
        mk(1, "RegionYolo", [P([1, 125, 13, 13])],
           {"coords": 4, "classes": 20, "num": 5, "do_softmax": True, "mask": [],
            "axis": 1, "end_axis": 3, "anchors": []}),
    ])


# ------------------------------------------------------------------ sequences and recurrences
@group
def recurrent():
    return model([
        mk(4, "LSTMCell", [P([(1, 5), 3]), P([(3, 8), 4]), P([-1, 4]), P([16, 3]), P([16, 4]),
                           P([16])], {"hidden_size": 4}),
        mk(1, "LSTMCell", [P([2, 3]), P([2, 4]), P([2, 4]), P([16, 3]), P([16, 4]), P([16])],
           {"hidden_size": 4}),
        mk(3, "GRUCell", [P([2, 3]), P([(1, 4), 4]), P([12, 3]), P([12, 4]), P([12])],
           {"hidden_size": 4}),
        mk(1, "RNNCell", [P([(2, 6), 3]), P([-1, 4]), P([4, 3]), P([4, 4]), P([4])],
           {"hidden_size": 4}),
        mk(5, "LSTMSequence", [P([2, (4, 6), 3]), P([2, 1, 4]), P([2, 1, 4]), P([2], I32),
                               P([1, 16, 3]), P([1, 16, 4]), P([1, 16])],
           {"direction": "forward", "hidden_size": 4}),
        mk(5, "GRUSequence", [P([2, 5, 3]), P([(2, 8), 2, 4]), P([2], I32), P([2, 12, 3]),
                              P([2, 12, 4]), P([2, 12])],
           {"direction": "bidirectional", "hidden_size": 4}),
        mk(5, "RNNSequence", [P([2, 5, 3]), P([2, 1, 4]), P([2], I32), P([1, 4, 3]), P([1, 4, 4]),
                              P([1, 4])], {"direction": "reverse", "hidden_size": 4}),
        mk(1, "CTCGreedyDecoder", [P([20, (1, 4), 10]), P([20, 2])], {"ctc_merge_repeated": True}),
        mk(6, "CTCGreedyDecoderSeqLen", [P([2, (5, 50), 10]), P([2], I32), P([], I32)]),
        mk(4, "CTCLoss", [P([2, 20, 10]), P([(1, 2)], I32), P([2, 20], I32), P([2], I32)]),
    ])


@group
def control_flow():
    # If: then relu, else reshape to the same shape; the else branch's shape differs: [6]/[2,3]
    x = P([2, 3])
    then_p, else_p = o8.parameter([2, 3], F32), o8.parameter([2, 3], F32)
    then_m = ov.Model([o8.result(o8.relu(then_p))], [then_p])
    else_m = ov.Model([o8.result(o8.reshape(else_p, C([2, 3]), False))], [else_p])
    if_op = o8.if_op(P([], BOOL).output(0))
    if_op.set_then_body(then_m)
    if_op.set_else_body(else_m)
    if_op.set_input(x.output(0), then_p, else_p)
    if_op.set_output(then_m.get_results()[0], else_m.get_results()[0])
    # Loop: x' = x + x, 5 times; the last x' and x' concatenated on axis 0
    lx = P([(1, 3), 3])
    bx = o8.parameter(shape([(1, 3), 3]), F32)
    new_x = o8.add(bx, bx)
    body = ov.Model([o8.result(C(True, BOOL)), o8.result(new_x)], [bx])
    loop = o8.loop(C(5), C(True, BOOL))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 0])
    loop.set_merged_input(bx, lx.output(0), new_x.output(0))
    loop.get_iter_value(new_x.output(0), -1)
    loop.get_concatenated_slices(new_x.output(0), 0, 1, 1, -1, 0)
    # TensorIterator: h' = x_t + h over axis 1 of x
    tx, th = P([2, 5, 4]), P([2, 1, 4])
    xs, hs = o8.parameter([2, 1, 4], F32), o8.parameter([2, 1, 4], F32)
    new_h = o8.add(xs, hs)
    ti = o8.tensor_iterator()
    ti.set_body(ov.Model([o8.result(new_h)], [xs, hs]))
    ti.set_sliced_input(xs, tx.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hs, th.output(0), new_h.output(0))
    ti.get_iter_value(new_h.output(0), -1)
    ti.get_concatenated_slices(new_h.output(0), 0, 1, 1, -1, 1)
    return model([if_op, loop, ti])


def _variable(spec, name):
    info = VariableInfo()
    info.data_shape, info.data_type, info.variable_id = shape(spec), ov.Type.f32, name
    return Variable(info)


@group
def variables():
    import openvino.opset6 as o6
    var6 = _variable([(1, 4), 3], "v6")
    rv6 = o6.read_value(P([2, 3]), var6)
    asg6 = o6.assign(o6.relu(rv6), var6)
    rv3 = mk(3, "ReadValue", [P([(1, 4), 5])], {"variable_id": "v3"})
    asg3 = mk(3, "Assign", [o6.relu(rv3)], {"variable_id": "v3"})
    return model([rv6, rv3], sinks=[asg6, asg3])


# ------------------------------------------------------------------ signals, images, sampling
@group
def signals():
    return model([
        mk(7, "DFT", [P([2, (8, 12), 8, 2]), C([1, 2])]),
        mk(7, "IDFT", [P([2, 10, 8, 2]), C([1, 2]), C([5, -1])]),
        mk(9, "RDFT", [P([2, (8, 12), 8]), C([1, 2])]),
        mk(9, "IRDFT", [P([2, 10, 5, 2]), C([1, 2]), C([6, 8])]),
        mk(15, "STFT", [P([2, (40, 60)]), P([16]), C(16), C(4)], {"transpose_frames": False}),
        mk(16, "ISTFT", [P([9, 13, 2]), P([16]), C(16), C(4)], {"center": False,
                                                                "normalized": False}),
    ])


@group
def colours():
    return model([
        mk(8, "NV12toRGB", [P([1, (6, 12), 4, 1], U8)]),
        mk(8, "NV12toBGR", [P([1, 4, 4, 1], U8), P([1, 2, 2, 2], U8)]),
        mk(8, "I420toRGB", [P([1, 6, (4, 8), 1], U8)]),
        mk(8, "I420toBGR", [P([1, 4, 4, 1], U8), P([1, 2, 2, 1], U8), P([1, 2, 2, 1], U8)]),
        mk(17, "RGBtoNV12", [P([1, 4, (4, 8), 3], U8)], {"single_plane": True}),
        mk(17, "BGRtoNV12", [P([1, 4, 6, 3], U8)], {"single_plane": False}),
    ])


@group
def sampling():
    return model([
        mk(8, "RandomUniform", [C([2, 3]), F(0.0), F(1.0)],
           {"output_type": "f32", "global_seed": 1, "op_seed": 2}),
        mk(8, "RandomUniform", [o8.shape_of(P([(2, 4), 3])), F(0.0), F(1.0)],
           {"output_type": "f32", "global_seed": 1, "op_seed": 2}),
        mk(13, "Multinomial", [P([(1, 4), 5]), C(3)],
           {"convert_type": "i32", "with_replacement": True, "log_probs": False,
            "global_seed": 1, "op_seed": 2}),
    ])


# ------------------------------------------------------------------ sparse, strings, embeddings
@group
def sparse():
    return model([
        mk(16, "SegmentMax", [P([6, (2, 4)]), C([0, 0, 1, 1, 3, 3])], {"fill_mode": "ZERO"}),
        mk(16, "SegmentMax", [P([6, 3]), P([6], I64), C(4)], {"fill_mode": "LOWEST"}),
        mk(16, "SparseFillEmptyRows", [P([3]), C([4, 5]), C([[0, 1], [0, 3], [2, 0]]), P([])]),
        mk(15, "StringTensorPack", [P([(1, 4), 3], I32), P([(1, 4), 3], I32), P([20], U8)]),
        mk(15, "StringTensorUnpack", [o8.parameter(shape([2, (1, 3)]), ov.Type.string)]),
    ])


@group
def embeddings():
    t = lambda: P([10, (2, 8)])  # noqa: E731
    return model([
        mk(3, "EmbeddingBagOffsetsSum", [t(), P([6], I64), P([3], I64)]),
        mk(15, "EmbeddingBagOffsets", [t(), P([6], I64), P([(2, 5)], I64), P([], I64)],
           {"reduction": "mean"}),
        mk(3, "EmbeddingBagPackedSum", [t(), P([3, 2], I64)]),
        mk(15, "EmbeddingBagPacked", [t(), P([(2, 5), 2], I64)], {"reduction": "sum"}),
        mk(3, "EmbeddingSegmentsSum", [t(), P([6], I64), P([6], I64), C(4)]),
    ])


# ------------------------------------------------------------------ detection
PRIOR = dict(min_size=[64.], max_size=[128.], aspect_ratio=[2.], flip=True, clip=False, step=8.,
             offset=0.5, variance=[0.1, 0.1, 0.2, 0.2], scale_all_sizes=True)
PROPOSAL = dict(base_size=16, pre_nms_topn=6000, post_nms_topn=300, nms_thresh=0.7,
                feat_stride=16, min_size=16, ratio=[0.5, 1., 2.], scale=[8., 16., 32.])
DETECTION = dict(keep_top_k=[200], normalized=True, share_location=True, nms_threshold=0.45,
                 top_k=400)
ROI_ALIGN = dict(pooled_h=7, pooled_w=6, sampling_ratio=2, spatial_scale=0.0625, mode="avg")


@group
def priors_and_proposals():
    return model([
        mk(1, "PriorBox", [C([19, 19]), C([300, 300])], PRIOR),
        mk(8, "PriorBox", [o8.shape_of(P([(10, 19), 19])), C([300, 300])],
           {**PRIOR, "min_max_aspect_ratios_order": False}),
        mk(1, "PriorBoxClustered", [C([19, 19]), C([300, 300])],
           dict(width=[4., 8., 12.], height=[5., 9., 13.], clip=False, step_w=8., step_h=8.,
                offset=0.5, variance=[0.1, 0.1, 0.2, 0.2])),
        mk(1, "Proposal", [P([(1, 4), 12, 14, 14]), P([(1, 4), 24, 14, 14]), P([3])], PROPOSAL),
        mk(4, "Proposal", [P([2, 12, 14, 14]), P([2, 24, 14, 14]), P([3])], PROPOSAL),
        mk(1, "DetectionOutput", [P([2, 7668]), P([2, 40257]), P([1, 2, 7668])],
           {"num_classes": 21, **DETECTION}),
        mk(8, "DetectionOutput", [P([(1, 4), 7668]), P([-1, 40257]), P([1, 2, 7668])],
           {**DETECTION, "keep_top_k": [-1], "top_k": 10}),
        mk(9, "GenerateProposals", [P([2, 3]), P([10, 12, 3, 4]), P([2, 12, 10, 12]),
                                    P([2, 3, 10, 12])],
           dict(min_size=0.0, nms_threshold=0.7, post_nms_count=100, pre_nms_count=1000,
                normalized=True, nms_eta=1.0, roi_num_type="i64")),
    ])


@group
def regions_of_interest():
    return model([
        mk(2, "ROIPooling", [P([1, 256, 14, 14]), P([(10, 100), 5])],
           dict(output_roi=[7, 6], spatial_scale=0.0625, method="max")),
        mk(3, "ROIAlign", [P([2, 256, 14, 14]), P([100, 4]), P([100], I32)], ROI_ALIGN),
        mk(9, "ROIAlign", [P([2, (256, 512), 14, 14]), P([(10, 100), 4]), P([-1], I64)],
           {**ROI_ALIGN, "aligned_mode": "half_pixel"}),
        mk(1, "PSROIPooling", [P([1, 392, 14, 14]), P([-1, 5])],
           dict(output_dim=8, group_size=7, spatial_scale=0.0625, mode="average")),
        mk(15, "ROIAlignRotated", [P([2, 256, 40, 40]), P([(5, 20), 5]), P([-1], I32)],
           dict(pooled_h=7, pooled_w=5, sampling_ratio=2, spatial_scale=0.5,
                clockwise_mode=False)),
        mk(1, "DeformablePSROIPooling", [P([2, 72, 16, 16]), P([(5, 20), 5])],
           dict(output_dim=8, spatial_scale=0.0625, group_size=3, mode="bilinear_deformable",
                spatial_bins_x=4, spatial_bins_y=4, trans_std=0.1, part_size=3)),
    ])


@group
def detectron():
    return model([
        mk(6, "ExperimentalDetectronDetectionOutput",
           [P([(50, 150), 4]), P([-1, 20]), P([-1, 5]), P([1, 3])],
           dict(score_threshold=0.05, nms_threshold=0.5, max_delta_log_wh=4.0, num_classes=5,
                post_nms_count=100, max_detections_per_image=50,
                class_agnostic_box_regression=False, deltas_weights=[10.0, 10.0, 5.0, 5.0])),
        mk(6, "ExperimentalDetectronGenerateProposalsSingleImage",
           [P([3]), P([4800, 4]), P([12, 40, 40]), P([3, 40, 40])],
           dict(min_size=0.0, nms_threshold=0.7, post_nms_count=1000, pre_nms_count=1000)),
        mk(6, "ExperimentalDetectronPriorGridGenerator",
           [P([3, 4]), P([1, 256, (5, 10), 12]), P([1, 3, 40, 48])],
           dict(flatten=False, h=0, w=0, stride_x=4.0, stride_y=4.0)),
        mk(6, "ExperimentalDetectronROIFeatureExtractor",
           [P([(50, 200), 4]), P([1, 256, 80, 80]), P([1, 256, 40, 40]), P([1, 256, 20, 20])],
           dict(output_size=7, sampling_ratio=2, pyramid_scales=[4, 8, 16], aligned=False)),
        mk(6, "ExperimentalDetectronTopKROIs", [P([100, 4]), P([100])], dict(max_rois=10)),
    ])


MATRIX_NMS = dict(sort_result_type="none", output_type="i64", nms_top_k=-1, keep_top_k=-1,
                  sort_result_across_batch=False, score_threshold=0.0, background_class=-1,
                  decay_function="linear", gaussian_sigma=2.0, post_threshold=0.0,
                  normalized=True)
MULTICLASS_NMS = dict(sort_result_type="none", output_type="i64", nms_top_k=-1, keep_top_k=-1,
                      sort_result_across_batch=False, iou_threshold=0.0, score_threshold=0.0,
                      background_class=-1, nms_eta=1.0, normalized=True)


@group
def suppression():
    boxes, scores = lambda: P([2, 6, 4]), lambda: P([2, 3, 6])
    return model([
        mk(1, "NonMaxSuppression", [boxes(), scores(), C(3)], {"box_encoding": "corner"}),
        mk(3, "NonMaxSuppression", [boxes(), scores(), C(3)], {"output_type": "i32"}),
        mk(4, "NonMaxSuppression", [P([(1, 2), 6, 4]), scores(), C(3)]),
        mk(5, "NonMaxSuppression", [boxes(), scores(), C(3), F(0.5), F(0.0), F(0.0)]),
        mk(9, "NonMaxSuppression", [boxes(), P([2, (1, 3), 6]), C(3), F(0.5)]),
        mk(8, "MatrixNms", [P([2, (50, 100), 4]), P([2, 5, -1])], {**MATRIX_NMS, "nms_top_k": 10}),
        mk(8, "MulticlassNms", [P([2, 100, 4]), P([2, 5, 100])], {**MULTICLASS_NMS,
                                                                 "keep_top_k": 10}),
        mk(9, "MulticlassNms", [P([2, 100, 4]), P([2, 5, 100])], MULTICLASS_NMS),
        mk(9, "MulticlassNms", [P([3, 5, 4]), P([3, 5]), P([2], I64)], MULTICLASS_NMS),
        mk(13, "NMSRotated", [P([2, 100, 5]), P([2, 5, 100]), C(10), F(0.5), F(0.1)],
           dict(sort_result_descending=True, output_type="i64", clockwise=True)),
    ])
