"""ReshapeSinkingMatMul: ``[x1..xn-1, K] -> Reshape [-1, K] -> MatMul (Const [K, O]) ->
optional Add (Const [1.., O] or ones) -> Reshape [x0', x1, .., xn-2, O]`` (a Dense layer on
rank-n data, flattened around it at export) gets the targets ``[0, .., 0, K]`` and
``[0, x1, .., xn-2, O]``, both with special_zero, so the batch may change (only the batch:
the other dims stay as the second target writes them; the runtime does not check the
element count of a target with a 0 and special_zero, so a new sequence length "works" with
the old one written out, as it does in the runtime).
"""
from __future__ import annotations

from typing import TypeGuard

from ...analysis.what_if import Apply
from ...ir.records import Layer
from ...ops.support.attributes import parse_bool
from ...ops.support.spec import Value
from ...shapes.dims import Dim, Shape
from .graph import GraphView, exact, is_type


def _static(shape: Shape) -> TypeGuard[tuple[Dim, ...]]:
    return shape is not None and all(d.is_static for d in shape)


def sink(view: GraphView, last: Layer) -> None:
    """``last``: the second Reshape, the pattern's root."""
    out_shape = view.shape_out(last)
    pattern = view.const_values(last, 1)
    middle = view.producer(last, 0)
    if out_shape is None or pattern is None or middle is None:
        return
    add = middle[0] if is_type(middle[0], "add") else None
    if add is not None:
        if add.data.get("auto_broadcast", "numpy").strip().lower() != "numpy":
            return
        middle = view.producer(add, 0)
        if middle is None:
            return
    mm = middle[0]
    if not is_type(mm, "matmul") or parse_bool(mm.data.get("transpose_a", "false"), False):
        return
    first = view.producer(mm, 0)
    weights = view.producer(mm, 1)
    if first is None or weights is None or not is_type(first[0], "reshape") or \
            weights[0].type.lower() not in ("const", "constant"):
        return
    reshape = first[0]
    target = view.const_values(reshape, 1)
    data = view.shape_in(reshape, 0)
    w_shape = view.shape_out(weights[0])
    if target is None or len(target) != 2 or target[0] != -1 or target[1] == -1 or data is None:
        return
    k, n = target[1], len(data)
    if n <= 2 or data[-1].lo != k or not data[-1].is_static or not _static(w_shape) or len(w_shape) != 2:
        return
    for layer in [reshape, mm] + ([add] if add else []):
        shape = view.shape_out(layer)
        if shape is None or len(shape) != 2:
            return
    transpose_b = parse_bool(mm.data.get("transpose_b", "false"), False)
    if w_shape[1 if transpose_b else 0].lo != k:
        return
    o = w_shape[0 if transpose_b else 1].lo
    if add is not None:
        bias = view.producer(add, 1)
        b_shape = view.shape_out(bias[0]) if bias else None
        if bias is None or bias[0].type.lower() not in ("const", "constant") or not _static(b_shape) or \
                [d.lo for d in b_shape] not in ([1] * (len(b_shape) - 1) + [o], [1] * len(b_shape)):
            return
    if len(pattern) != n or any(p <= 0 for p in pattern) or pattern[-1] != o or \
            any(not data[i].is_static or data[i].lo != pattern[i] for i in range(1, n - 1)):
        return
    first_target, last_target = [0] * (n - 1) + [k], [0] + pattern[1:]
    view.add(reshape, "ReshapeSinkingMatMul", f"the target [-1,{k}] becomes {_text(first_target)} "
                                              f"(special_zero): the MatMul {mm.name} runs on "
                                              f"rank-{n} data", _rewrite(first_target))
    view.add(last, "ReshapeSinkingMatMul", f"the target {_text(pattern)} becomes {_text(last_target)} "
                                           f"(special_zero): the batch follows the input",
             _rewrite(last_target))


def _rewrite(values: list[int]) -> Apply:
    """A Reshape given ``values`` as its target, with special_zero."""
    def apply(lay: Layer, inputs: list[Value], _prop: object) -> tuple[Layer, list[Value]]:
        data_attrs = dict(lay.data, special_zero="true")
        return lay._replace(data=data_attrs), inputs[:1] + [exact(values, "ReshapeSinkingMatMul")]
    return apply


def _text(values: list[int]) -> str:
    return "[" + ",".join(map(str, values)) + "]"
