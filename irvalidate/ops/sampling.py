"""RandomUniform-8 and Multinomial-13: random tensors whose shape is an input's *value*.

* RandomUniform: the output shape is input 0 read as a shape (a Const, -1 is ``?``, other
  negative values 0; or the bounds a ShapeOf subgraph evaluates to); unknown, it is ``?``
  dims as many as input 0's length can reach (its upper bound: ``[2..5]`` gives rank 5), or
  a dynamic rank when that is unbounded.  ``min`` and ``max`` (scalars or one element) are
  compared when both are Consts; their type must be ``output_type``'s, which must be
  floating-point or i32/i64: a missing ``output_type`` (dynamic) is always refused.
* Multinomial: ``probs [B, C]`` and ``num_samples`` (a scalar or one element, read as a
  shape) give ``[B, num_samples]``, ``?`` when unknown; the type is ``convert_type``
  (dynamic when missing, which the runtime accepts).
"""
from __future__ import annotations

from ..ir import elements
from ..shapes.dims import DYNAMIC, INF, Dim, Shape, compatible, format_shape, static
from .support.attributes import Field, read
from .support.input_types import INDEX_TYPES, require_type
from .support.node import MAX_RANK, Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_UNIFORM = (Field("output_type", "type", "dynamic"), Field("op_seed", "uint", 0),
            Field("global_seed", "uint", 0),
            Field("alignment", "enum", "tensorflow", ("tensorflow", "pytorch")))
_MULTINOMIAL = (Field("convert_type", "type", "dynamic"), Field("with_replacement", "bool", False),
                Field("log_probs", "bool", False), Field("global_seed", "uint", 0),
                Field("op_seed", "uint", 0))


def _one_value(shape: Shape, what: str) -> None:
    """A scalar or a one-element 1-D tensor (a dynamic or interval dim that may be 1 passes)."""
    if shape is not None and not (len(shape) == 0 or (len(shape) == 1 and compatible(shape[0], static(1)))):
        raise OpError(INCOMPATIBLE, f"{what} must be a scalar or hold one value, but has shape "
                                    f"{format_shape(shape)}")


def _uniform(node: Node) -> Result:
    node.require_inputs((3,))
    node.show(("shape", "min", "max"))
    node.how = "the values of input 0 (shape)"
    out_type = read(node, "RandomUniform", _UNIFORM)[0]
    shape_et, low, high = (v.element_type for v in node.inputs)
    require_type(node, 0, "shape", INDEX_TYPES)
    if low is not None and high is not None and low != high:
        node.note(TYPE, f"min (input 1) is {low} and max (input 2) {high}: they must be one type")
    elif out_type == "dynamic" and "output_type" not in node.layer.data:
        raise OpError(ATTRIBUTE, "output_type is missing: the runtime reads it as dynamic and "
                                 "refuses the layer (min and max must be of output_type)")
    elif out_type not in elements.REAL and out_type not in ("i32", "i64"):
        node.note(TYPE, f"output_type {out_type} must be floating-point, i32 or i64")
    elif low is not None and out_type != low:
        node.note(TYPE, f"min and max are {low}, output_type {out_type}: they must be one type")
    length = node.inputs[0].shape
    if length is not None and len(length) != 1:
        raise OpError(INCOMPATIBLE, f"shape (input 0) must be a 1-D tensor, but has shape "
                                    f"{format_shape(length)}")
    _one_value(node.inputs[1].shape, "min (input 1)")
    _one_value(node.inputs[2].shape, "max (input 2)")
    bottom, top = node.const_first_number(1), node.const_first_number(2)
    if bottom is not None and top is not None and not bottom < top:
        raise OpError(INCOMPATIBLE, f"min {bottom:g} must be less than max {top:g}")
    if length is not None and length[0].lo > MAX_RANK:
        raise OpError(INCOMPATIBLE, f"shape (input 0) has {length[0].lo} elements: an output of "
                                    f"that rank is not a plausible tensor")
    found = node.as_shape(0, "shape")
    if found is None:
        # unknown values: as many ? as the length can reach (beyond MAX_RANK: a dynamic rank)
        most = None if length is None else length[0].hi
        found = None if most is None or most == INF or most > MAX_RANK else (DYNAMIC,) * most
    return Result((found,), (out_type,))


def _multinomial(node: Node) -> Result:
    node.require_inputs((2,))
    node.show(("probs", "num_samples"))
    node.how = "[probs dim 0, the value of num_samples]"
    out_type = read(node, "Multinomial", _MULTINOMIAL)[0]
    count_et = node.inputs[1].element_type
    require_type(node, 0, "probs", elements.REAL, "floating-point")
    if elements.is_known(count_et) and (count_et == "boolean" or count_et in elements.REAL):
        node.note(TYPE, f"num_samples (input 1) must be an integer, not {count_et}")
    probs = node.inputs[0].shape
    if probs is not None and len(probs) != 2:
        raise OpError(INCOMPATIBLE, f"probs {format_shape(probs)} must be 2-D [batch, classes]")
    _one_value(node.inputs[1].shape, "num_samples (input 1)")
    if probs is None:
        return Result((None,), (out_type,))
    found = node.as_shape(1, "num_samples", rank=(0, 1))
    count: Dim = found[0] if found else DYNAMIC
    return Result(((probs[0], count),), (out_type,))


SPECS = {
    "randomuniform": (OpSpec("RandomUniform", (8, 16), fields=_UNIFORM,
                             dim_inputs=(0,), value_inputs=(1, 2), infer=_uniform, own_types=(0,)),),
    "multinomial": (OpSpec("Multinomial", (13, 16), fields=_MULTINOMIAL,
                           dim_inputs=(1,), infer=_multinomial, own_types=(0,)),),
}
