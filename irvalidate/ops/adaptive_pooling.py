"""AdaptiveAvgPool-8 and AdaptiveMaxPool-8 (pooling_shape_inference_util): the spatial dims
become the values of input 1.

The data has rank 3, 4 or 5 (a dynamic rank gives a dynamic rank, whatever input 1 holds);
input 1's first dim must be compatible with the ``k = rank - 2`` spatial axes (its rank is not
checked otherwise: ``[k, 1]`` passes, a scalar is read past its end).  Its values are read as
a shape (a Const's -1 is ``?``, other negative values 0, reals truncated; unknown values give
``?``) and must number ``k``.  AdaptiveMaxPool's second output (the indices) has the same
shape and ``index_element_type``, i32 or i64.
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import DYNAMIC, format_dim, format_shape
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, OpError, OpSpec, Result

_INDEX = (Field("index_element_type", "type", "i64"),)


def _spatial(node: Node):
    node.require_inputs((2,))
    node.show(("data", "output_shape"))
    data = node.inputs[0].shape
    if data is None:
        return None
    if len(data) not in (3, 4, 5):
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has rank {len(data)}; it must "
                                    f"have rank 3, 4 or 5")
    count = len(data) - 2
    sizes = node.inputs[1].shape
    if sizes is not None:
        if not sizes:
            raise OpError(INCOMPATIBLE, "output_shape (input 1) is a scalar; the runtime reads "
                                        "its first dim past the end")
        if arith.merge(sizes[0], arith.from_int(count)) is None:
            raise OpError(INCOMPATIBLE, f"output_shape (input 1) {format_shape(sizes)} gives "
                                        f"{format_dim(sizes[0])} spatial dims for the {count} of "
                                        f"data {format_shape(data)}")
    values = node.as_shape(1, "output_shape")
    if values is None:
        return tuple(data[:2]) + (DYNAMIC,) * count
    if len(values) != count:
        raise OpError(INCOMPATIBLE, f"output_shape (input 1) holds {len(values)} values for the "
                                    f"{count} spatial dims of data {format_shape(data)}")
    return tuple(data[:2]) + tuple(values)


def _avg(node: Node) -> Result:
    node.how = "adaptive average pooling"
    return Result((_spatial(node),), (node.inputs[0].element_type if node.inputs else None,))


def _max(node: Node) -> Result:
    node.how = "adaptive max pooling"
    (index_et,) = read(node, "AdaptiveMaxPool", _INDEX)
    if index_et not in ("i32", "i64"):
        raise OpError(ATTRIBUTE, f"attribute index_element_type is {index_et}; it must be i32 or "
                                 f"i64")
    out = _spatial(node)
    return Result((out, out), (node.inputs[0].element_type, index_et))


SPECS = {
    "adaptiveavgpool": (OpSpec("AdaptiveAvgPool", (8, 16), frozenset(),
                               dim_inputs=(1,), infer=_avg),),
    "adaptivemaxpool": (OpSpec("AdaptiveMaxPool", (8, 16), fields=_INDEX,
                               dim_inputs=(1,), infer=_max),),
}
