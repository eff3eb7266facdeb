"""Range-1 (no output_type) and Range-4: ``start``, ``stop``, ``step`` as three scalar inputs.

Shape (range_shape_inference): ``[n]`` with ``n = ceil(|stop - start| / |step|)`` (0 when the
step points away from stop), cast to uint32 as the runtime does; the three values are
read as doubles, Consts or values computed exactly (a size Converted to f32, as YOLO's
anchors do), and ``[?]`` when one is unknown; for an integral output they are truncated
first (a step that becomes 0 there is undefined in C++: ``[?]``).  A zero step is refused
in both versions.  Types: Range-1 merges the three input types (boolean refused); Range-4 gives ``output_type``
(``dynamic`` when missing).
Value: evaluated when the three are known (:func:`irvalidate.shapes.values.arange`).
"""
from __future__ import annotations

import math

from ..ir import elements
from ..shapes import dims as shape_dims, values as vals
from ..shapes.dims import DYNAMIC, Dim, format_shape, static
from ..shapes.values import Origin, Tensor, Unresolved
from .support.attributes import Field, read
from .support.evaluating import label, scalar, tensors
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_TYPE = (Field("output_type", "str", None),)
_NAMES = ("start", "stop", "step")


def _infer(v4: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((3,))
        node.show(list(_NAMES))
        node.how = "range"
        for i, name in enumerate(_NAMES):
            shape = node.inputs[i].shape
            if shape is not None and shape != ():
                raise OpError(INCOMPATIBLE, f"{name} (input {i}) must be a scalar, not "
                                            f"{format_shape(shape)}")
        types = [v.element_type for v in node.inputs]
        if v4:
            text = read(node, "Range", _TYPE)[0]
            et = "dynamic" if text is None else elements.from_element_type(text)
            if text is not None and et is None and text.lower() != "string":
                raise OpError(ATTRIBUTE, f"attribute output_type: {text[:40]!r} is not an "
                                         f"element type")
            if et == "boolean":
                raise OpError(ATTRIBUTE, "output_type must be a numeric type, not boolean")
            for name, t in zip(_NAMES, types):
                if t == "boolean":
                    node.note(TYPE, f"{name} must be a number, not boolean")
        else:
            et = None
            known = {t for t in types if t not in (None, "dynamic")}
            if len(known) > 1:
                node.note(TYPE, f"start, stop and step must have one element type, not "
                                f"{', '.join(str(t) for t in types)}")
            elif known == {"boolean"}:
                node.note(TYPE, "start, stop and step must not be boolean")
            elif known:
                et = known.pop()
            elif all(t == "dynamic" for t in types):
                et = "dynamic"
        if et == "dynamic":  # the port's precision says nothing the runtime checks
            et = None
        values = [node.exact_reals(i) for i in range(3)]
        step = values[2]
        if step is not None and len(step) == 1 and (step[0] == 0 or not math.isfinite(step[0])):
            raise OpError(INCOMPATIBLE, "step is 0" if step[0] == 0
                          else "step is not a finite number")
        if any(v is None or len(v) != 1 for v in values):
            count = None
        else:
            integral = (et if v4 else types[0]) in elements.INTEGRAL
            count = vals.range_length(*(v[0] for v in values), integral)  # type: ignore[index, call-arg, arg-type]  # three, each one number
        found = DYNAMIC if count is None else static(count)
        if shape_dims.SYMBOLIC is not None:  # reshapeable: a stop read from an input's size
            found = _symbolic_length(node, shape_dims.SYMBOLIC, found)
        return Result(((found,),), (et,))
    return infer


def _symbolic_length(node: Node, recording, found: Dim) -> Dim:
    """``[0, n)`` counted to a size of the inputs (YOLO's anchor grid): n = ceil((stop -
    start) / step) for a constant start and a positive constant step; a start or step that
    carries a symbol is not followed."""
    bounds = [node.input_bounds(i) or [] for i in range(3)]
    stop = bounds[1][0] if len(bounds[1]) == 1 else None
    for b in bounds[0] + bounds[2]:
        recording.unsure(b)
    fixed = [b[0] if len(b) == 1 and b[0].is_static else None for b in (bounds[0], bounds[2])]
    if stop is None or fixed[0] is None or fixed[1] is None or fixed[1].lo <= 0:
        if stop is not None:
            recording.unsure(stop)
        return found
    return recording.counted(stop, fixed[0].lo, fixed[1].lo, found)


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (3,), reals=None)
    recording = shape_dims.SYMBOLIC
    if recording is not None and any(recording.carries(b) for x in t[:3] for b in x.bounds):
        # reshapeable: its length depends on the symbols, which the value cannot say
        raise Unresolved("a Range counted to a size of the inputs")
    start, stop, step = (scalar(x, "a Range input") for x in t[:3])
    et = elements.from_element_type(node.layer.data.get("output_type")) or t[0].et
    shown = ", ".join(f"{v:g}" for v in (start, stop, step))
    return vals.arange(start, stop, step, et, Origin(label(node.layer, shown)))


SPECS = {"range": (OpSpec("Range", (1, 3), frozenset(), symbolic=True, symbolic_reads=True,
                          dim_inputs=(0, 1, 2), infer=_infer(False), evaluate=_evaluate),
                   OpSpec("Range", (4, 16), fields=_TYPE, symbolic=True, symbolic_reads=True,
                          dim_inputs=(0, 1, 2), infer=_infer(True), own_types=(0,),
                          evaluate=_evaluate))}
