"""The normalisations whose output keeps the data's shape: MVN-1 (``version="opset1"`` is read
as opset2's) and MVN-6, NormalizeL2-1, LRN-1, GRN-1 and BatchNormInference-1/-5.

What each checks, as OpenVINO 2026.4.1 does (notes/ops/*.md, re-measured):

* MVN-1: nothing.  MVN-6: ``axes`` 1-D, no more axes than data dims; their values are never
  range-checked.
* NormalizeL2: ``axes`` of rank 0 or 1; exact axes values in ``[-r, r-1]``, and none at all
  on a scalar.
* LRN: ``axes`` of static shape must be 1-D with no more elements than data dims; exact
  values must be below the rank (read as unsigned and cast back: a negative one passes), and
  axes it cannot read count as its default ``[1]``; integer axes.
* GRN: data of rank 2, 3 or 4.
* BatchNormInference: gamma, beta, mean and variance are 1-D and merge into the channel dim,
  which data (rank >= 2; its input 2 in opsets 1-4, input 0 from opset 5) must match there,
  and which must not be 0; the output is data with that channel merged.  One floating-point
  type; epsilon >= 0.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ..ir import elements
from ..shapes.dims import DYNAMIC, Dim, Shape, format_dim, format_shape, intersect
from .support.attributes import Field, read
from .support.autobroadcast import merge_types
from .support.axes import (
    check_in_range,
    require_1d,
    require_count_within,
    require_rank_at_most_one,
)
from .support.evaluating import short
from .support.input_types import require_type
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_MVN1 = (Field("eps", "float", 0.0), Field("across_channels", "bool", False),
         Field("normalize_variance", "bool", True), Field("reduction_axes", "uints", ()))
_MVN6 = (Field("normalize_variance", "bool", False), Field("eps", "float", 0.0),
         Field("eps_mode", "enum", "inside_sqrt", ("inside_sqrt", "outside_sqrt")))
_NORMALIZE_L2 = (Field("eps", "float", 0.0), Field("eps_mode", "enum", "add", ("add", "max")))
_LRN = (Field("alpha", "float", 0.0), Field("beta", "float", 0.0), Field("bias", "float", 0.0),
        Field("size", "uint", 0))
_GRN = (Field("bias", "float", 0.0),)
_BATCH_NORM = (Field("epsilon", "float", 0.0),)


def _same_shape(node: Node, name: str, fields: Sequence[Field], labels: Sequence[str]) -> Shape:
    """The common start: the input count, the attributes, the table; the data's shape."""
    node.require_inputs((len(labels),))
    read(node, name, tuple(fields))
    node.show(labels)
    node.how = f"{name} (the output keeps the data's shape)"
    return node.inputs[0].shape


def _result(node: Node) -> Result:
    return Result((node.inputs[0].shape,), (node.inputs[0].element_type,))


def _mvn1(node: Node) -> Result:
    _same_shape(node, "MVN", _MVN1, ("data",))
    return _result(node)


def _axes_count(axes: Shape) -> int | None:
    """The static length of a 1-D axes input, else None."""
    return axes[0].lo if axes is not None and len(axes) == 1 and axes[0].is_static else None


def _mvn6(node: Node) -> Result:
    data = _same_shape(node, "MVN", _MVN6, ("data", "axes"))
    axes = node.inputs[1].shape
    require_1d(axes, "axes (input 1)")
    require_count_within(_axes_count(axes), data, "axes (input 1)")
    return _result(node)


def _normalize_l2(node: Node) -> Result:
    data = _same_shape(node, "NormalizeL2", _NORMALIZE_L2, ("data", "axes"))
    require_rank_at_most_one(node, 1, "axes")
    values = node.exact_values(1)
    check_in_range(values, data)
    if data == () and values:
        raise OpError(INCOMPATIBLE, f"axes {short(values)} on scalar data: there is no axis to "
                                    f"normalise over")
    return _result(node)


def _lrn(node: Node) -> Result:
    data = _same_shape(node, "LRN", _LRN, ("data", "axes"))
    axes = node.inputs[1].shape
    require_type(node, 1, "axes")
    if axes is not None and all(d.is_static for d in axes):  # only a static shape is checked
        require_1d(axes, "axes (input 1)")
        require_count_within(axes[0].lo, data, "axes (input 1)")
    values = node.exact_values(1)
    if data is not None:
        # the runtime reads axes as unsigned and casts them back: a negative one passes; axes
        # it cannot read are its default, the channel axis 1, checked all the same
        wrong = sorted({a for a in ([1] if values is None else values) if a >= len(data)})
        if wrong:
            raise OpError(INCOMPATIBLE, f"axes {short(wrong)} are out of range for data "
                                        f"{format_shape(data)} (LRN takes 0 to {len(data) - 1})")
    return _result(node)


def _grn(node: Node) -> Result:
    data = _same_shape(node, "GRN", _GRN, ("data",))
    if data is not None and not 2 <= len(data) <= 4:
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has rank {len(data)}: GRN takes "
                                    f"rank 2, 3 or 4")
    return _result(node)


def _batch_norm(data_index: int) -> Callable[[Node], Result]:
    labels = ["gamma", "beta", "mean", "variance"]
    labels.insert(data_index, "data")

    def infer(node: Node) -> Result:
        node.require_inputs((5,))
        (epsilon,) = read(node, "BatchNormInference", _BATCH_NORM)
        node.show(labels)
        node.how = "batch normalisation (data with its channel dim merged with the parameters')"
        if epsilon < 0:
            raise OpError(ATTRIBUTE, f"attribute epsilon is {epsilon:g}: it must not be negative")
        et = merge_types(node, labels, [v.element_type for v in node.inputs])
        if elements.is_known(et) and not _floating(et):
            node.note(TYPE, f"BatchNormInference needs floating-point inputs, not {et}")
        data = node.inputs[data_index].shape
        if data is not None and len(data) < 2:  # checked first, as the runtime does
            raise OpError(INCOMPATIBLE, f"data {format_shape(data)} must have rank 2 or more")
        channel = DYNAMIC
        for label, value in zip(labels, node.inputs):
            if label == "data" or value.shape is None:
                continue
            merged = intersect(channel, value.shape[0]) if len(value.shape) == 1 else None
            if merged is None:
                raise OpError(INCOMPATIBLE, f"{label} {format_shape(value.shape)} does not match "
                                            f"the other parameters: gamma, beta, mean and "
                                            f"variance must be 1-D of one length")
            channel = merged
        merged = channel if data is None else intersect(data[1], channel)
        if merged is None:
            raise OpError(INCOMPATIBLE, f"data's channel dim {format_dim(data[1])} does not match "  # type: ignore[index]  # merged None: data ranked
                                        f"the parameters' length {format_dim(channel)}", column=1)
        if merged == Dim(0, 0):  # (even when data has a dynamic rank)
            raise OpError(INCOMPATIBLE, "the channel count is 0: BatchNormInference needs 1 or more")
        if data is None:
            return Result((None,), (et,))
        return Result((data[:1] + (merged,) + data[2:],), (et,))
    return infer


def _floating(et: str) -> bool:
    return et in ("f16", "f32", "f64", "bf16") or et.startswith("f8")


SPECS = {
    "mvn": (OpSpec("MVN", (1, 5), fields=_MVN1, symbolic=True, infer=_mvn1),
            OpSpec("MVN", (6, 16), fields=_MVN6, symbolic=True, infer=_mvn6)),
    "normalizel2": (OpSpec("NormalizeL2", (1, 16), fields=_NORMALIZE_L2,
                           value_inputs=(1,), symbolic=True, infer=_normalize_l2),),
    "lrn": (OpSpec("LRN", (1, 16), fields=_LRN, value_inputs=(1,), symbolic=True, infer=_lrn),),
    "grn": (OpSpec("GRN", (1, 16), fields=_GRN, symbolic=True, infer=_grn),),
    "batchnorminference": (
        OpSpec("BatchNormInference", (1, 4), fields=_BATCH_NORM, symbolic=True, infer=_batch_norm(2)),
        OpSpec("BatchNormInference", (5, 16), fields=_BATCH_NORM, symbolic=True, infer=_batch_norm(0))),
}
