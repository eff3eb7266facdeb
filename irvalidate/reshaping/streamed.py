"""``--reshape`` on a large plain file, as it streams: one pass, the what-if inferred layer
by layer (``analysis.stream`` with a :class:`Watch`), its findings the batch rules', in the
memory a check takes.

Why: the whole-graph what-if analyses the file twice (as read, for SmartReshape's matchers,
then with the new shapes) and holds every layer: 3.5x a check's time on the 100k-layer IR.

It is exact or it declines (``analysis.stream.Decline``), and the file goes the whole way:
when the request does not fit the file's inputs as ``analysis.what_if.resolve`` fits them,
when the what-if refuses a layer (IRV301 then looks for the Const that pins it, which needs
the whole graph), and wherever SmartReshape might rewrite a layer.  The as-read graph that
SmartReshape's matchers read is not inferred here: a layer they might match is told from
its type, its producers' types and Consts, and the edges that leave it (every matcher looks
upstream of the layer it starts from, and counts consumers), a superset of what they match
(:func:`might_rewrite`), so a file the stream keeps has no rewrite.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..analysis.stream import Decline
from ..ir.edge_table import EdgeTable
from ..ir.records import CONST_TYPES, Layer
from ..ir.weights import BinFile, ConstError, bytes_past_end, const_problems, const_spec
from ..ops.parameter_const import outputs_of
from ..ops.support.attributes import parse_bool
from ..ops.support.spec import Inferred, Value
from ..shapes.dims import Dim, Shape
from ..shapes.symdims import Recording, axis_symbol, input_dim
from .pinning import refused

Request = tuple[str | None, tuple[Dim, ...]]
PortKey = tuple[str, str]


class StreamedWhatIf:
    """One request's what-if, as the stream reads the file (analysis.stream.Watch): each
    Parameter fitted to the request as it is read, each layer a rewrite might start from
    declined, and the inputs' and outputs' new shapes kept for the outcome."""

    def __init__(self, path: str, request: Sequence[Request], weights: BinFile,
                 smart: bool = True) -> None:
        self.path, self.weights, self.smart = path, weights, smart
        self.request = list(request)
        #: the request's inputs fitted so far: their index in the request -> the Parameter
        self._claimed: dict[int, Layer] = {}
        self.parameters = 0
        self.changed = False
        #: the stream kept the file to its end (the engine gives its findings)
        self.finished = False
        #: (name, shape) of every Parameter and of what reaches every Result, in file order
        self.inputs: list[tuple[str, Shape]] = []
        self.outputs: list[tuple[str, Shape]] = []
        self._marks: dict[str, str] = {}
        self._leaving: Sequence[int] = ()

    def reading(self, table: EdgeTable) -> None:
        self._leaving = table.leaving()

    def parameter(self, layer: Layer) -> Shape | None:
        """The Parameter's new shape, as ``what_if.resolve`` gives it (Decline where
        resolve would refuse the request, or fit it otherwise than in file order)."""
        self.parameters += 1
        aliases = [layer.name]
        # (its tensor names are read from the file only while a request may name them:
        # names_at reads from the top, which many Parameters would pay again and again)
        if any(index not in self._claimed and name not in (None, layer.name)
               for index, (name, _) in enumerate(self.request)):
            # (imported here: it reads with lxml, 20 ms of start-up that a run whose request
            # names no tensor does not need)
            from ..ir.tensor_names import names_at
            try:
                aliases += names_at(self.path, layer.line)
            except (ValueError, OSError) as err:
                raise Decline(str(err)) from err
        found: Shape | None = None
        for index, (name, shape) in enumerate(self.request):
            if index in self._claimed or not (name in aliases if name is not None
                                              else self.parameters == 1):
                continue
            if found is not None and found != shape:
                raise Decline(f"input {layer.name!r} is given two shapes")
            self._claimed[index], found = layer, shape
        if found is None:
            return None
        shapes, _, _ = outputs_of(layer)
        current = shapes[0] if shapes else None
        if current is not None and len(current) != len(found):
            raise Decline(f"input {layer.name!r} has another rank than the request's")
        if current is None or not all(d.is_static for d in current) or current != found:
            self.changed = True  # (what_if.changes_anything)
        return found

    def finish(self) -> None:
        """After the last layer: every input the request names was found, and a bare
        ``[dims]`` went to a model of one input."""
        if len(self._claimed) != len(self.request):
            raise Decline("the request names an input the file does not have")
        if any(name is None for name, _ in self.request) and self.parameters != 1:
            raise Decline("a bare [dims] on a model of several inputs")
        self.finished = True

    def watches(self, kind: str) -> bool:
        return kind == "result" or (self.smart and kind in _MATCHED)

    def entering(self, layer: Layer, entering: dict[str, tuple]) -> None:
        kind = layer.type.lower()
        if kind == "result":
            values = [found[3] for found in entering.values()]
            self.outputs.append((layer.name, values[0].shape if values else None))
            return
        if not self.smart or kind not in _MATCHED:
            return
        reason = might_rewrite(layer, kind, _ports(layer, entering), self._marks,
                               self._leaving, self.weights.integers)
        if reason:
            raise Decline(f"SmartReshape may rewrite {layer.describe()}: {reason}")

    def inferred(self, layer: Layer, outputs: dict[PortKey, Value],
                 inference: Inferred | None) -> None:
        if refused(inference):
            raise Decline(f"the what-if refuses {layer.describe()}")
        if layer.type.lower() == "parameter" and layer.outputs:
            value = outputs.get((layer.id, layer.outputs[0].id))
            self.inputs.append((layer.name, value.shape if value else None))


#: the layer types might_rewrite looks at (every other is passed on at once)
_MATCHED = frozenset({"proposal", "lstmcell", "stridedslice", "squeeze", "broadcast", "reshape",
                      "transpose", "matmul", "add"})


def _ports(layer: Layer, entering: dict[str, tuple]) -> list[tuple[Layer, Value] | None]:
    """What reaches each input port of the layer (its producer and the value), in the order
    of its ports (the matchers' input indices), None where nothing does."""
    found: list[tuple[Layer, Value] | None] = []
    for port in layer.inputs:
        reaching = entering.get(port.id)
        found.append(None if reaching is None else (reaching[0], reaching[3]))
    return found


def _const_size(layer: Layer) -> int | None:
    """How many numbers a Const holds (None: its attributes cannot be read)."""
    try:
        return const_spec(layer.data).count
    except ConstError:
        return None


def _is(found: tuple[Layer, Value] | None, *kinds: str) -> bool:
    return found is not None and found[0].type.lower() in kinds


def might_rewrite(layer: Layer, kind: str, inputs: list[tuple[Layer, Value] | None],
                  marks: dict[str, str], leaving: Sequence[int],
                  integers: Callable[[Mapping[str, str]], Sequence[int]]) -> str:
    """Why SmartReshape's matchers (``smart_reshape.PASSES``) might rewrite this layer or
    one before it ("" when none can).  ``marks`` carries, by layer id, what a later layer's
    match reads of this one: a Reshape of a rank-2 output ("flat"), a Transpose swapping the
    last two axes ("swap"), a MatMul or Add that ReshapeSinkingMatMul may start from
    ("sink")."""
    if kind in ("proposal", "lstmcell"):
        return "Proposal1Scales/Proposal4Scales or LSTMStatesBroadcast"
    if kind == "stridedslice" and inputs and _is(inputs[0], "squeeze"):
        return "SqueezeStridedSlice"
    if kind == "squeeze" and inputs and _is(inputs[0], "stridedslice"):
        return "StridedSliceSqueeze"
    if kind == "broadcast" and layer.version.lower() != "opset1" and inputs and \
            _is(inputs[0], *CONST_TYPES) and \
            layer.data.get("mode", "numpy").strip().lower() == "bidirectional":
        return "BroadcastConstRangeReplacement"
    if kind == "reshape":
        return _reshape(layer, inputs, marks)
    if kind == "transpose":
        _transpose(layer, inputs, marks, integers)
    elif kind == "matmul":
        return _matmul(layer, inputs, marks, leaving)
    elif kind == "add" and inputs and inputs[0] is not None and \
            marks.get(inputs[0][0].id) == "sink":
        marks[layer.id] = "sink"
    return ""


def _reshape(layer: Layer, inputs: list[tuple[Layer, Value] | None], marks: dict[str, str]) -> str:
    data = inputs[0] if inputs else None
    if data is not None and marks.get(data[0].id) == "sink":
        return "ReshapeSinkingMatMul"
    target = inputs[1] if len(inputs) > 1 else None
    if target is None or target[0].type.lower() not in CONST_TYPES:
        marks[layer.id] = "flat"  # (a computed target: its length as read is not known here)
        return ""
    size = _const_size(target[0])
    if size is None or size <= 1:
        return "ReshapeTo1D"
    if size == 2:
        marks[layer.id] = "flat"
    return ""


def _transpose(layer: Layer, inputs: list[tuple[Layer, Value] | None], marks: dict[str, str],
               integers: Callable[[Mapping[str, str]], Sequence[int]]) -> None:
    order = inputs[1] if len(inputs) > 1 else None
    if order is None or order[0].type.lower() not in CONST_TYPES:
        return  # (TransposeMatMul reads a Const order only)
    try:
        values = integers(order[0].data)
    except (ConstError, OSError):
        marks[layer.id] = "swap"  # (not read: it may be one)
        return
    rank = len(values)
    if rank >= 2 and list(values) == list(range(rank - 2)) + [rank - 1, rank - 2]:
        marks[layer.id] = "swap"  # (TransposeMatMul folds it into the MatMul)


def _matmul(layer: Layer, inputs: list[tuple[Layer, Value] | None], marks: dict[str, str],
            leaving: Sequence[int]) -> str:
    if len(inputs) != 2:
        return ""
    for found in inputs:
        if found is None:
            continue
        mark = marks.get(found[0].id)
        if mark == "swap":
            return "TransposeMatMul"
        # ReshapeA/BMatMul, and SharedOpOptimization's merge, need a rank-2 Reshape that
        # leaves by one edge
        if mark == "flat" and leaving[int(found[0].id)] == 1:
            return "ReshapeAMatMul/ReshapeBMatMul"
    first, weights = inputs
    if first is not None and weights is not None and marks.get(first[0].id) == "flat" and \
            _is(weights, *CONST_TYPES) and \
            not parse_bool(layer.data.get("transpose_a", "false"), False):
        marks[layer.id] = "sink"
    return ""


class StreamedSymbols(StreamedWhatIf):
    """``reshapeable``'s symbolic run as the stream reads the file: every axis of every
    Parameter of a static rank (up to ``max_axes`` in all) carries its symbol, its size now
    the recording's witness, as ``constraints.constraints_of`` sets them whole."""

    def __init__(self, path: str, weights: BinFile, smart: bool, recording: Recording,
                 max_axes: int) -> None:
        super().__init__(path, [], weights, smart)
        self.recording, self.max_axes = recording, max_axes
        #: every Parameter in file order, with the shape its attribute gives
        self.params: list[tuple[Layer, Shape]] = []
        #: (Parameter, its shape, axis) for every axis given a symbol, in order
        self.axes: list[tuple[Layer, tuple[Dim, ...], int]] = []

    def parameter(self, layer: Layer) -> Shape | None:
        shapes, _, _ = outputs_of(layer)
        shape = shapes[0] if shapes else None
        self.params.append((layer, shape))
        if shape is None:
            return None
        count = max(0, min(len(shape), self.max_axes - len(self.axes)))
        new = list(shape)
        for axis in range(count):
            self.axes.append((layer, shape, axis))
            symbol, now = axis_symbol(layer.name, axis), shape[axis]
            if now.is_static:
                self.recording.witness[symbol] = now.lo
            new[axis] = input_dim(now, symbol)
        return tuple(new)

    def inferred(self, layer: Layer, outputs: dict[PortKey, Value],
                 inference: Inferred | None) -> None:
        # (a Const alike one inferred before has its type, shape and size, and its bytes
        # inside the .bin: analysis.likeness; it is readable when that one is)
        if layer.type.lower() in CONST_TYPES and (self.weights.error or const_problems(
                layer.data) or bytes_past_end(layer.data, self.weights.size()) is not None):
            # (what depends on its values is not known: the whole run says which answers)
            raise Decline(f"{layer.describe()}: its values cannot be read")
        super().inferred(layer, outputs, inference)
