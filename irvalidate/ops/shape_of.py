"""ShapeOf-1 and -3: the shape of the input as a 1-D integer tensor.

Shape: ``[rank]`` (``[?]`` for a dynamic rank).  ShapeOf-1 is always i64 (an ``output_type``
there is ignored); ShapeOf-3 requires ``output_type`` i32 or i64 (a missing one is refused).
Its value is the source of every computed shape: each dim becomes one element, an interval
``lo..hi`` the bounds of that element.
"""
from __future__ import annotations

from ..ir import elements
from ..ir.records import CONST_TYPES, Layer
from ..shapes import values as vals
from ..shapes.dims import DYNAMIC, format_shape, static
from ..shapes.values import Origin, Tensor, Unresolved
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import ATTRIBUTE, OpError, OpSpec, Result

_TYPE = (Field("output_type", "str", None),)


def _infer(v3: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((1,))
        node.show(["data"])
        node.how = "the shape of the input"
        et = "i64"
        if v3:
            text = read(node, "ShapeOf", _TYPE)[0]
            found = elements.from_element_type(text) if text is not None else None
            if text is not None and found is None:
                raise OpError(ATTRIBUTE, f"attribute output_type: {text[:40]!r} is not an "
                                         f"element type")
            if found not in ("i32", "i64"):
                raise OpError(ATTRIBUTE, "output_type must be i32 or i64" + (
                    "; it is missing" if text is None else f", not {found}"))
            et = found
        shape = node.inputs[0].shape
        return Result(((DYNAMIC if shape is None else static(len(shape)),),), (et,))
    return infer


def _exact_rank(layer: Layer) -> bool:
    """Whether a producer's output rank is known for sure: a Parameter's or Const's shape
    attribute, or a layer irvalidate models."""
    from .support.registry import lookup  # the registry imports this module
    kind = layer.type.lower()
    return kind == "parameter" or kind in CONST_TYPES or (
        (spec := lookup(layer.type, layer.version)) is not None and spec.infer is not None)


def _evaluate(node: Node, output_type: bool) -> Tensor:
    if len(node.inputs) != 1:
        raise Unresolved("ShapeOf takes one input")
    value = node.inputs[0]
    et = "i64"
    if output_type:  # ShapeOf-3 chooses; ShapeOf-1 is always i64
        et = elements.from_element_type(node.layer.data.get("output_type", "i64")) or "?"
    producer = node.producer_layer(0)  # (its name, for the origin; its version, for the rank)
    if value.shape == () and producer is not None and not _exact_rank(producer):
        # a port without <dim> is a scalar or a dynamic rank: only a layer whose rank we
        # know (modelled, or a Parameter/Const shape attribute) tells which
        raise Unresolved("ShapeOf of a port that may be dynamic rank")
    source = f"layer {producer.id} '{producer.name}' " if producer is not None else ""
    return vals.shape_values(value.shape, et, Origin(f"ShapeOf({source}{format_shape(value.shape)})"))


SPECS = {"shapeof": (
    OpSpec("ShapeOf", (1, 2), frozenset(), symbolic=True, infer=_infer(False), own_types=(0,),
           symbolic_values=True, value_of_shapes=True,
           evaluate=lambda node: _evaluate(node, False)),
    OpSpec("ShapeOf", (3, 16), fields=_TYPE, symbolic=True, infer=_infer(True), own_types=(0,),
           symbolic_values=True, value_of_shapes=True,
           evaluate=lambda node: _evaluate(node, True)),
)}
