"""What the SmartReshape matchers read of the graph as declared: producers, Const values,
shapes as read, consumers (counted as SharedOpOptimization leaves them), and the rewrites
they register."""
from __future__ import annotations

from ...analysis.what_if import Apply, Rewrite
from ...ir.records import CONST_TYPES, Layer
from ...ir.weights import ConstError
from ...ops.support.spec import Value
from ...shapes.dims import Dim, Shape
from ...shapes.values import Origin, make_tensor

PortKey = tuple[str, str]


def is_type(layer: Layer | None, kind: str, opset1_only: bool = False) -> bool:
    """A layer of this type (lower case); ``opset1_only``: of its first class (Squeeze-0,
    not Squeeze-15)."""
    if layer is None or layer.type.lower() != kind:
        return False
    return not opset1_only or layer.version.lower() not in ("opset15", "opset16", "opset17")


def shape_value(values: list[Dim], why: str) -> Value:
    """A 1-D i64 input whose value is ``values`` (bounds), as a rewritten subgraph gives it."""
    tensor = make_tensor((len(values),), values, "i64", Origin(why))
    return Value((Dim(len(values), len(values)),), "i64", tensor=tensor)


def exact(values: list[int], why: str) -> Value:
    return shape_value([Dim(v, v) for v in values], why)


class GraphView:
    def __init__(self, analysis) -> None:
        self.analysis = analysis
        self.edges = analysis.edges
        self.layers: dict[str, Layer] = analysis.layers
        self.outputs: dict[PortKey, Value] = analysis.propagation.outputs
        self.order: list[Layer] = list(analysis.propagation._order)
        self.rewrites: dict[str, Rewrite] = {}
        self._siblings: dict[tuple, list[Layer]] | None = None

    def add(self, layer: Layer, transformation: str, detail: str, apply: Apply,
            shown: bool = True) -> None:
        self.rewrites[layer.id] = Rewrite(layer, transformation, detail, apply, shown)

    def producer(self, layer: Layer, index: int) -> tuple[Layer, PortKey] | None:
        if index >= len(layer.inputs):
            return None
        edge = self.edges.incoming.get((layer.id, layer.inputs[index].id))
        if edge is None or edge.from_layer not in self.layers:
            return None
        return self.layers[edge.from_layer], (edge.from_layer, edge.from_port)

    def const_values(self, layer: Layer, index: int) -> list[int] | None:
        found = self.producer(layer, index)
        if found is None or found[0].type.lower() not in CONST_TYPES:
            return None
        try:
            return self.analysis.propagation.read_const(found[0])
        except ConstError:
            return None

    def shape_out(self, layer: Layer, port: int = 0) -> Shape:
        if port >= len(layer.outputs):
            return None
        value = self.outputs.get((layer.id, layer.outputs[port].id))
        return None if value is None else value.shape

    def shape_in(self, layer: Layer, index: int) -> Shape:
        found = self.producer(layer, index)
        value = self.outputs.get(found[1]) if found else None
        return None if value is None else value.shape

    def consumers(self, layer: Layer, port: int = 0) -> int:
        """Consumers of an output, after SharedOpOptimization merged the layer with its
        identical siblings (same type, attributes and inputs, Consts compared by value):
        their consumers become the survivor's."""
        total = 0
        for sibling in self.siblings(layer):
            if port < len(sibling.outputs):
                total += len(self.edges.consumers((sibling.id, sibling.outputs[port].id)))
        return total

    def siblings(self, layer: Layer) -> list[Layer]:
        if self._siblings is None:
            self._siblings = {}
            for other in self.order:
                key = self._identity(other)
                if key is not None:
                    self._siblings.setdefault(key, []).append(other)
        key = self._identity(layer)
        return self._siblings.get(key, [layer]) if key is not None else [layer]

    def _identity(self, layer: Layer) -> tuple | None:
        """What makes two layers one for SharedOpOptimization (None: never merged)."""
        if layer.bodies or not layer.inputs or layer.type.lower() in CONST_TYPES:
            return None
        parts: list[object] = [layer.type.lower(), layer.version.lower(),
                               tuple(sorted(layer.data.items()))]
        for index in range(len(layer.inputs)):
            found = self.producer(layer, index)
            if found is None:
                return None
            if found[0].type.lower() in CONST_TYPES:
                data = found[0].data
                values = self.const_values(layer, index)
                parts.append(("const", data.get("element_type"), data.get("shape"),
                              tuple(values) if values is not None else ("?", found[0].id)))
            else:
                parts.append(found[1])
        return tuple(parts)
