"""ReadValue-3/-6 and Assign-3/-6: a model's state variables, named by ``variable_id``.

ReadValue-3 passes its init value on.  ReadValue-6 gives its variable's shape and type, which
must relax the init's (see ``_cannot_relax`` for the part of that check irvalidate makes);
only when both are fully dynamic does the init's shape and type go through (the runtime's
allowance for old IRs).

The reader keeps one variable per id (created dynamic: any rank, type ``dynamic``) and
creates the layers in its own order (``Propagation.creation_order``): each ReadValue-6, as it
is created, overwrites the variable with the ``variable_shape`` and ``variable_type`` it
declares (an attribute it leaves out keeps the variable's value so far), and its output is
the variable as it then stands; each Assign-6 is checked against the variable as it stands
when the Assign is created (an Assign created before any ReadValue-6 of its id sees a dynamic
variable, and passes).  irvalidate replays that order per graph (the reader also shares
variables between a model and its bodies, which is not followed).

Assign passes its input on.  Assign-3 needs a ReadValue-3 of its id upstream of its input,
whose init must have the input's type (and shape, when both are static).  Assign-6 needs the
input to be compatible with the variable's shape and type.  Every Assign needs a ReadValue of
its id among the layers the reader creates in its graph.  A ReadValue-6 or Assign-6 without
``variable_id`` crashes the reader.
"""
from __future__ import annotations

from ..ir import elements
from ..ir.records import Layer
from ..shapes.arith import compatible_shapes
from ..shapes.dims import Shape, parse_shape
from .support.attributes import Field, read
from .support.infer_helpers import text
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, OpError, OpSpec, Result

_ID = (Field("variable_id", "str", ""),)
_V6 = (Field("variable_id", "str", None), Field("variable_type", "type", "dynamic"),
       Field("variable_shape", "str", None))


def _declared(layer: Layer) -> tuple[str | None, str, Shape]:
    """A ReadValue-6's (id, type, shape) as written; a shape that does not parse stops."""
    variable_id, et, shape_text = read(layer.data, "ReadValue6", _V6)
    if shape_text is None:
        return variable_id, et, None
    try:
        return variable_id, et, parse_shape(shape_text)
    except ValueError:
        raise OpError(ATTRIBUTE, f"attribute variable_shape {shape_text!r} is not a partial "
                                 f"shape") from None


def _require_id(variable_id: str | None, type_: str) -> str:
    if variable_id is None:
        raise OpError(ATTRIBUTE, f"{type_}-6 has no variable_id: OpenVINO's reader crashes "
                                 f"(segmentation fault) on such a layer")
    return variable_id


def _is_v6(layer: Layer) -> bool:
    from .support.registry import lookup  # the registry imports this module
    spec = lookup(layer.type, layer.version)
    return spec is not None and spec.versions[0] == 6


_DYNAMIC = ("dynamic", None)
#: a variable whose declaration does not parse: nothing is known of it
_UNKNOWN = None


def _replay(node: Node):
    """(variable as each ReadValue-6 leaves it, variable as each Assign-6 finds it, the ids of
    the ReadValues the reader creates), by layer id, replaying the reader's creation order."""
    state: dict = {}
    read, assigned, ids = {}, {}, set()
    for layer in node.graph.creation_order():
        kind = layer.type.lower()
        if kind not in ("readvalue", "assign"):
            continue
        variable_id = layer.data.get("variable_id")
        if kind == "readvalue":
            ids.add(variable_id if variable_id is not None or _is_v6(layer) else "")
        if variable_id is None or not _is_v6(layer):
            continue
        current = state.get(variable_id, _DYNAMIC)
        if kind == "assign":
            assigned[layer.id] = current
            continue
        try:
            _, et, shape = _declared(layer)
        except OpError:
            current = _UNKNOWN
        else:
            if current is not _UNKNOWN:
                current = (et if "variable_type" in layer.data else current[0],
                           shape if "variable_shape" in layer.data else current[1])
        state[variable_id] = read[layer.id] = current
    return read, assigned, ids


def _variables(node: Node):
    return node.graph.memo("variables", lambda: _replay(node))


def _cannot_relax(variable: Shape, init: Shape) -> bool:
    """Whether the variable's shape surely fails to include the init's.

    The runtime requires every init shape to fit the variable (``[?,3]`` takes ``[2,3]``,
    ``[2,3]`` refuses ``[1..4,3]``).  Where irvalidate knows the init less precisely than the
    runtime (a producer it does not model, a missing .bin) its dims are wider, and the
    containment test would refuse what the runtime accepts; so only what fails whatever the
    runtime knows is refused here: another rank, or a dim the variable's cannot overlap."""
    if variable is None or init is None:
        return False
    return len(variable) != len(init) or not compatible_shapes(variable, init)


def _infer_read_value3(node: Node) -> Result:
    node.require_inputs((1,))
    node.show(("init_value",))
    node.how = "the init value"
    init = node.inputs[0]
    return Result((init.shape,), (init.element_type,))


def _infer_read_value6(node: Node) -> Result:
    node.require_inputs((0, 1))
    node.show(("init_value",)[:len(node.inputs)])
    variable_id, et, shape = _declared(node.layer)
    variable_id = _require_id(variable_id, "ReadValue")
    read_values = _variables(node)[0]
    if node.layer.id in read_values:  # the variable as the reader leaves it here
        et, shape = read_values[node.layer.id]  # (never unknown: this layer's parsed)
    node.how = f"variable {variable_id!r} ({et} {text(shape)})"
    if node.inputs:
        init = node.inputs[0]
        if _cannot_relax(shape, init.shape):
            raise OpError(INCOMPATIBLE, f"variable {variable_id!r} has shape {text(shape)}, "
                                        f"which cannot hold the init value {text(init.shape)}")
        if et != "dynamic" and elements.is_known(init.element_type) and et != init.element_type:
            raise OpError(INCOMPATIBLE, f"variable {variable_id!r} has type {et}, but its init "
                                        f"value is {init.element_type}")
        if shape is None and et == "dynamic":
            node.how = f"the init value (variable {variable_id!r} has neither shape nor type)"
            return Result((init.shape,), (init.element_type,))
    return Result((shape,), (et,))


def _ancestors(node: Node):
    """The layers upstream of the node's input, nearest first (no recursion)."""
    seen, pending = set(), [p for p in map(node.producer_layer, node.inputs) if p is not None]
    while pending:
        layer = pending.pop(0)
        if layer.id in seen:
            continue
        seen.add(layer.id)
        yield layer
        pending.extend(p for p in map(node.producer_layer, node.graph.input_values(layer))
                       if p is not None)


def _infer_assign(v6: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((1,))
        node.show(("new_value",))
        value = node.inputs[0]
        if v6:
            variable_id = _require_id(read(node, "Assign6", (Field("variable_id", "str", None),))[0],
                                      "Assign")
        else:
            variable_id = read(node, "Assign", _ID)[0]
        _, assigned, ids = _variables(node)
        if variable_id not in ids:
            raise OpError(INCOMPATIBLE, f"no ReadValue of variable {variable_id!r} in this graph: "
                                        f"OpenVINO's reader cannot pair the Assign with one")
        node.how = f"the new value of variable {variable_id!r}"
        if v6:
            _check_v6(value, variable_id, assigned.get(node.layer.id, _UNKNOWN))
        else:
            _check_v3(node, value, variable_id)
        return Result((value.shape,), (value.element_type,))
    return infer


def _check_v6(value, variable_id: str, variable) -> None:
    if variable is _UNKNOWN:
        return
    et, shape = variable
    if not compatible_shapes(shape, value.shape):
        raise OpError(INCOMPATIBLE, f"the new value {text(value.shape)} does not fit variable "
                                    f"{variable_id!r}, of shape {text(shape)} when the reader "
                                    f"creates the Assign")
    if et != "dynamic" and elements.is_known(value.element_type) and et != value.element_type:
        raise OpError(INCOMPATIBLE, f"the new value is {value.element_type}, but variable "
                                    f"{variable_id!r} is {et} when the reader creates the Assign")


def _check_v3(node: Node, value, variable_id: str) -> None:
    source = None
    for layer in _ancestors(node):
        if layer.type.lower() == "readvalue" and not _is_v6(layer) and \
                layer.data.get("variable_id", "") == variable_id:
            source = layer
    if source is None:
        raise OpError(INCOMPATIBLE, f"no ReadValue-3 of variable {variable_id!r} upstream of the "
                                    f"new value: Assign-3 finds its variable there")
    inits = node.graph.input_values(source)
    if not inits:
        return
    init = inits[0]
    if elements.is_known(init.element_type) and elements.is_known(value.element_type) and \
            init.element_type != value.element_type:
        raise OpError(INCOMPATIBLE, f"the new value is {value.element_type}, but variable "
                                    f"{variable_id!r} holds {init.element_type}")
    if (init.shape is not None and value.shape is not None and
            all(d.is_static for d in init.shape + value.shape) and init.shape != value.shape):
        raise OpError(INCOMPATIBLE, f"the new value {text(value.shape)} does not have the shape "
                                    f"of variable {variable_id!r}, {text(init.shape)}")


SPECS = {
    "readvalue": (OpSpec("ReadValue", (3, 5), fields=_ID, infer=_infer_read_value3),
                  OpSpec("ReadValue", (6, 16), fields=_V6,
                         infer=_infer_read_value6)),
    "assign": (OpSpec("Assign", (3, 5), fields=_ID, infer=_infer_assign(False)),
               OpSpec("Assign", (6, 16), fields=_ID, infer=_infer_assign(True))),
}
