"""ReshapeTo1D, TransposeMatMul, ReshapeAMatMul and ReshapeBMatMul.

* ReshapeTo1D: a Reshape with a Const target and a rank-1 output gets the target ``[-1]``.
* TransposeMatMul: a Transpose swapping the last two axes (Const order) into a MatMul input
  is folded into the MatMul's ``transpose_a``/``transpose_b``.
* ReshapeAMatMul / ReshapeBMatMul: a Reshape with a rank-2 output and one consumer (after
  SharedOpOptimization), a MatMul, whose other operand has a static rank and does not come
  from a Transpose or a Reshape, gets the target ``[-1, K]`` (or ``[K, -1]``), K read from
  the other operand's shape when the model is re-inferred.
"""
from __future__ import annotations

from ...ir.records import Layer
from ...ops.support.attributes import parse_bool
from ...ops.support.spec import Value
from ...shapes.dims import DYNAMIC, Dim, format_shape
from .graph import GraphView, exact, is_type, shape_value


def reshape_to_1d(view: GraphView, layer: Layer) -> None:
    shape = view.shape_out(layer)
    old = view.const_values(layer, 1)
    if old is None or shape is None or len(shape) != 1:
        return

    def apply(lay: Layer, inputs: list[Value], _prop) -> tuple[Layer, list[Value]]:
        return lay, inputs[:1] + [exact([-1], "ReshapeTo1D")] + inputs[2:]
    view.add(layer, "ReshapeTo1D", f"the target {old} becomes [-1]", apply)


def _swap_transpose(view: GraphView, matmul: Layer, index: int) -> Layer | None:
    """The Transpose feeding input ``index`` that TransposeMatMul folds, if any."""
    found = view.producer(matmul, index)
    if found is None or not is_type(found[0], "transpose"):
        return None
    shape = view.shape_out(found[0])
    order = view.const_values(found[0], 1)
    if shape is None or len(shape) < 2 or order is None:
        return None
    rank = len(shape)
    return found[0] if order == list(range(rank - 2)) + [rank - 1, rank - 2] else None


def matmul(view: GraphView, layer: Layer) -> None:
    if len(layer.inputs) != 2:
        return
    flags = [parse_bool(layer.data.get(k, "false"), False)
             for k in ("transpose_a", "transpose_b")]
    folded = [_swap_transpose(view, layer, i) for i in (0, 1)]
    for i, transpose in enumerate(folded):
        if transpose is not None:
            flags[i] = not flags[i]
    # the operands the rewritten MatMul reads: (layer, port key)
    operands = [view.producer(t, 0) if t is not None else view.producer(layer, i)
                for i, t in enumerate(folded)]
    if any(t is not None for t in folded):
        _fold(view, layer, folded, flags)
    for side in (0, 1):
        _flatten(view, layer, side, operands, flags)


def _fold(view: GraphView, layer: Layer, folded: list[Layer | None], flags: list[bool]) -> None:
    names = ", ".join(t.name for t in folded if t is not None)
    data = dict(layer.data)
    data["transpose_a"], data["transpose_b"] = (str(f).lower() for f in flags)

    def apply(lay: Layer, inputs: list[Value], prop) -> tuple[Layer, list[Value]]:
        new = list(inputs)
        for i, transpose in enumerate(folded):
            if transpose is not None and i < len(new):
                below = prop.input_values(transpose)
                if below:
                    new[i] = below[0]
        return lay._replace(data=data), new
    view.add(layer, "TransposeMatMul", f"the Transpose {names} is folded into transpose_a="
                                       f"{data['transpose_a']}, transpose_b={data['transpose_b']}",
             apply)


def _flatten(view: GraphView, mm: Layer, side: int, operands, flags: list[bool]) -> None:
    mine, other = operands[side], operands[1 - side]
    if mine is None or other is None:
        return
    reshape, _ = mine
    if not is_type(reshape, "reshape") or reshape.id in view.rewrites:
        return  # ReshapeSinkingMatMul made its output rank-n: it no longer matches
    shape = view.shape_out(reshape)
    if shape is None or len(shape) != 2:
        return
    if view.consumers(reshape) != 1:
        twins = [s for s in view.siblings(reshape) if s.id != reshape.id]
        if twins and len(view.edges.consumers((reshape.id, reshape.outputs[0].id))) == 1:
            names = ", ".join(t.name for t in twins)
            view.add(reshape, "SharedOpOptimization", f"merged with the identical {names}: the "
                     f"merged Reshape has several consumers, so ReshapeAMatMul/ReshapeBMatMul "
                     f"leave its target as it is", lambda lay, inputs, _prop: (lay, inputs))
        return
    other_layer, other_key = other
    other_shape = view.outputs.get(other_key, Value(None, None)).shape
    if other_shape is None or is_type(other_layer, "transpose") or is_type(other_layer, "reshape"):
        return
    if len(other_shape) == 1:
        idx = -1
    elif side == 0:
        idx = -1 if flags[1] else -2
    else:
        idx = -2 if flags[0] else -1
    k_first = flags[0] if side == 0 else not flags[1]
    name = "ReshapeAMatMul" if side == 0 else "ReshapeBMatMul"

    def apply(lay: Layer, inputs: list[Value], prop) -> tuple[Layer, list[Value]]:
        value = prop.outputs.get(other_key) or view.outputs.get(other_key)
        dims = value.shape if value is not None else None
        k = dims[idx] if dims is not None and len(dims) >= -idx else DYNAMIC
        pattern = [k, Dim(-1, -1)] if k_first else [Dim(-1, -1), k]
        return lay, inputs[:1] + [shape_value(pattern, name)] + inputs[2:]
    k_text = format_shape(other_shape)[1:-1].split(",")[idx] if other_shape else "K"
    target = f"[{k_text},-1]" if k_first else f"[-1,{k_text}]"
    view.add(reshape, name, f"the target of this rank-2 Reshape into MatMul {mm.name} becomes "
                            f"{target}, K taken from the shape of {other_layer.name}", apply)
