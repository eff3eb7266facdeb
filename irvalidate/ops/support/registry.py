"""The one registry of operations: layer type -> the module that models it, and one dispatch.

Each op module holds ``SPECS``: for each type (lower case) it models, its
:class:`~irvalidate.ops.support.spec.OpSpec` per range of opset versions.  Modules are imported the
first time a layer of one of their types is met, so a small IR pays only for its own ops
(which is why the routing is written here rather than found by importing every module).
Adding an op is its module and its lines here, then the README catalogue regenerated
(``python -m irvalidate.ops.support.registry``), its tests and a model for the every-op
``--fix`` test: tests/ops/test_op_declarations.py lists them and checks that every module's
specs are routed here.  Types are matched case-insensitively, as the reader matches them;
``version`` picks the spec (``opset5`` names Broadcast-3's class).
"""
from __future__ import annotations

import re
from importlib import import_module

from ...shapes import dims
from ...shapes.values import Tensor, Unresolved
from . import memo
from .node import Node
from .spec import Inferred, OpError, OpSpec

#: layer type (lower case) -> module of irvalidate.ops
REGISTRY: dict[str, str] = {
    **dict.fromkeys(("add", "subtract", "multiply", "divide", "power", "maximum", "minimum",
                     "floormod", "mod", "squareddifference", "equal", "notequal", "less",
                     "lessequal", "greater", "greaterequal", "logicaland", "logicalor",
                     "logicalxor", "xor", "bitwiseand", "bitwiseor", "bitwisexor",
                     "bitwiseleftshift", "bitwiserightshift"), "eltwise"),
    **dict.fromkeys(("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwisenot",
                     "ceiling", "clamp", "convertlike", "cos", "cosh", "elu", "erf", "exp",
                     "floor", "gelu", "hsigmoid", "hswish", "isfinite", "isinf", "isnan", "log",
                     "logicalnot", "mish", "negative", "prelu", "relu", "round", "selu",
                     "sigmoid", "sign", "sin", "sinh", "softplus", "softsign", "sqrt", "swish",
                     "tan", "tanh", "identity", "erfinv"), "unary"),
    "convert": "convert",
    "select": "select",
    "fakequantize": "fake_quantize",
    "broadcast": "broadcast",
    "parameter": "parameter_const", "const": "parameter_const", "constant": "parameter_const",
    "shapeof": "shape_of",
    "gather": "gather", "gathernd": "gather", "gatherelements": "gather",
    "transpose": "transpose",
    "concat": "concat",
    "squeeze": "squeeze", "unsqueeze": "squeeze",
    "reshape": "reshape",
    "slice": "slicing", "stridedslice": "slicing", "slicescatter": "slicing",
    "range": "range",
    "split": "split", "variadicsplit": "split",
    "topk": "topk", "onehot": "one_hot", "nonzero": "nonzero_unique", "unique": "nonzero_unique",
    "scatterupdate": "scatter", "scatterndupdate": "scatter", "scatterelementsupdate": "scatter",
    "matmul": "matmul",
    "einsum": "einsum",
    "softmax": "softmax", "logsoftmax": "softmax",
    **dict.fromkeys(("mvn", "normalizel2", "lrn", "grn", "batchnorminference"), "normalization"),
    **dict.fromkeys(("cumsum", "roll", "reverse", "reversesequence", "shufflechannels"), "cumsum_roll_reverse_shuffle"),
    "hardsigmoid": "hard_sigmoid",
    "scaleddotproductattention": "attention",
    "reorgyolo": "yolo", "regionyolo": "yolo",
    "gridsample": "grid_sample", "col2im": "col2im", "eye": "eye",
    "bucketize": "bucketize_searchsorted", "searchsorted": "bucketize_searchsorted",
    **dict.fromkeys(("reducemean", "reducemax", "reducemin", "reducesum", "reduceprod",
                     "reducel1", "reducel2", "reducelogicaland", "reducelogicalor"), "reduce"),
    "convolution": "convolution", "groupconvolution": "convolution",
    "binaryconvolution": "convolution",
    "convolutionbackpropdata": "convolution_backprop",
    "groupconvolutionbackpropdata": "convolution_backprop",
    "deformableconvolution": "deformable_convolution",
    "maxpool": "pooling", "avgpool": "pooling",
    "interpolate": "interpolate",
    "pad": "pad",
    "tile": "tile",
    "adaptiveavgpool": "adaptive_pooling", "adaptivemaxpool": "adaptive_pooling",
    "depthtospace": "depth_space", "spacetodepth": "depth_space",
    "batchtospace": "batch_space", "spacetobatch": "batch_space",
    "extractimagepatches": "extract_image_patches",
    "priorbox": "prior_box", "priorboxclustered": "prior_box",
    "detectionoutput": "detection_output",
    "roipooling": "roi", "roialign": "roi", "psroipooling": "roi",
    "proposal": "proposal",
    "ctcgreedydecoder": "ctc", "ctcgreedydecoderseqlen": "ctc", "ctcloss": "ctc",
    "readvalue": "variables", "assign": "variables",
    "nonmaxsuppression": "nms",
    **dict.fromkeys(("lstmcell", "grucell", "rnncell", "lstmsequence", "grusequence",
                     "rnnsequence"), "rnn"),
    "if": "if_op",
    "tensoriterator": "tensor_iterator", "loop": "loop",
    **dict.fromkeys(("embeddingbagoffsetssum", "embeddingbagoffsets", "embeddingbagpackedsum",
                     "embeddingbagpacked", "embeddingsegmentssum"), "embedding"),
    **dict.fromkeys(("experimentaldetectrondetectionoutput",
                     "experimentaldetectrongenerateproposalssingleimage",
                     "experimentaldetectronpriorgridgenerator",
                     "experimentaldetectronroifeatureextractor", "experimentaldetectrontopkrois"),
                    "detectron"),
    "generateproposals": "proposals",
    "matrixnms": "nms_variants", "multiclassnms": "nms_variants", "nmsrotated": "nms_variants",
    "roialignrotated": "roi_features", "deformablepsroipooling": "roi_features",
    "dft": "fft", "idft": "fft", "rdft": "fft", "irdft": "fft",
    **dict.fromkeys(("nv12torgb", "nv12tobgr", "i420torgb", "i420tobgr", "rgbtonv12",
                     "bgrtonv12"), "colour"),
    "stft": "stft", "istft": "stft",
    "randomuniform": "sampling", "multinomial": "sampling",
    "inverse": "inverse_groupedmatmul", "groupedmatmul": "inverse_groupedmatmul",
    "fakeconvert": "fake_convert", "convertpromotetypes": "promote",
    "groupnormalization": "group_norm", "gathertree": "gather_tree",
    "segmentmax": "sparse", "sparsefillemptyrows": "sparse",
    "stringtensorpack": "strings", "stringtensorunpack": "strings",
}

_OPSET = re.compile(r"opset(\d+)")
_SPECS: dict[str, tuple[OpSpec, ...]] = {}


def _specs(kind: str) -> tuple[OpSpec, ...]:
    found = _SPECS.get(kind)
    if found is None:
        module = import_module(f"irvalidate.ops.{REGISTRY[kind]}")
        found = _SPECS[kind] = module.SPECS[kind]
    return found


def preload(layer_types) -> None:
    """Import now the modules of these layer types (``-j`` does before it forks: every
    process then has them)."""
    for kind in layer_types:
        if kind.lower() in REGISTRY:
            _specs(kind.lower())


def lookup(layer_type: str, version: str) -> OpSpec | None:
    """The spec for a layer of this type and version, or None when it is not modelled.

    A version that is no ``opsetN`` (missing, or ``experimental``) takes the newest class."""
    key = (layer_type, version)
    found = _FOUND.get(key, _MISSING)
    if found is _MISSING:  # once per (type, version) of a file: this runs for every layer
        found = _FOUND[key] = _lookup(layer_type.lower(), version)
    return found  # type: ignore[return-value]  # the sentinel is replaced above


_FOUND: dict[tuple[str, str], OpSpec | None] = {}
_MISSING = object()


def _lookup(kind: str, version: str) -> OpSpec | None:
    if kind not in REGISTRY:
        return None
    specs = _specs(kind)
    match = _OPSET.fullmatch(version.lower())
    if match is None:
        return specs[-1]
    number = int(match.group(1))
    for spec in specs:
        if spec.versions[0] <= number <= spec.versions[1]:
            return spec
    return specs[-1]


def infer(spec: OpSpec, layer, inputs, graph) -> tuple[Inferred | None, Tensor | tuple[Tensor, ...] | None, tuple[int, ...] | None]:
    """``run`` for one layer, or what a layer like it got (ops.memo); also the inputs whose
    values (a Const's numbers, a computed value) its inference read when it read nothing
    else it was not given (its *trace*, as ``memo`` keeps it: analysis.likeness keys on
    it), else None."""
    base = memo.key(id(spec), layer, inputs, graph.weights)
    if base is not None and dims.SYMBOLIC is not None:
        # reshapeable: a layer alike is one whose inputs carry the same expressions too (it
        # puts the same conditions on them, which the first one recorded)
        base = base + (dims.SYMBOLIC.signature([v.shape for v in inputs]),)
    if base is not None:
        found = memo.recall(base, layer, inputs)
        if found is not None:
            return found[0], None, found[1]
    node = Node(layer, inputs, graph)
    inferred, tensor, trace = run(spec, node)
    if base is not None and node.pure and tensor is None:  # (nor did its evaluation read more)
        memo.remember(base, layer, inputs, trace, inferred)  # type: ignore[arg-type]  # a pure node has an inference
    return inferred, tensor, trace


def run(spec: OpSpec, node: Node) -> tuple[Inferred | None, Tensor | tuple[Tensor, ...] | None, tuple[int, ...] | None]:
    """One dispatch per layer: the spec's shape inference, then its value evaluation; and
    the trace of the layer (see ``infer``), or None."""
    inferred = None
    if spec.infer is not None:
        try:
            result = spec.infer(node)
        except OpError as err:
            node.problems += (err.problem,)
            inferred = node.frozen(None, ())
        else:
            inferred = node.frozen(None if result is None else result.shapes,
                                   () if result is None else result.types)
    pure, inferred_read = node.pure, len(node.read)
    tensor = evaluate(spec, node)
    if not pure:
        trace = None
    elif node.pure:  # (the evaluation too read only the values it named)
        trace = tuple(sorted(set(node.read)))
    elif tensor is not None and any(t is not None for t in (
            tensor if isinstance(tensor, tuple) else (tensor,))):
        # the evaluation read more (the values of its inputs) and made values: a layer alike
        # has its values evaluated again (analysis.likeness), its inference is this one's
        trace = tuple(sorted(set(node.read[:inferred_read])))
    else:
        trace = None  # it read more and made nothing: a layer alike might make something
    return inferred, tensor, trace


def evaluate(spec: OpSpec, node: Node) -> Tensor | tuple[Tensor, ...] | None:
    """The values a layer's outputs carry (a tuple, one per output, for Split), or None."""
    if spec.evaluate is None or not node.layer.outputs or (
            spec.arity is not None and len(node.inputs) not in spec.arity):
        return None
    try:
        return spec.evaluate(node)
    except Unresolved:
        return None


def catalogue() -> list[tuple[str, tuple[int, ...]]]:
    """Every op type irvalidate infers, as the reader spells it, with the opset each of its
    classes first appears in (``Broadcast`` has ``(1, 3)``: Broadcast-1 and Broadcast-3);
    Parameter and Constant, whose outputs are their own attributes, are left out."""
    found: dict[str, tuple[int, ...]] = {}
    for kind in REGISTRY:
        specs = [s for s in _specs(kind) if s.infer is not None and not s.source]
        if specs:
            found.setdefault(specs[0].name, tuple(s.versions[0] for s in specs))
    return sorted(found.items(), key=lambda item: item[0].lower())


def markdown() -> str:
    """The catalogue as the README lists it: ``Abs (1), ..., Broadcast (1, 3), ...``."""
    entries = [f"{name} ({', '.join(map(str, firsts))})" for name, firsts in catalogue()]
    return f"{len(entries)} op types: " + ", ".join(entries) + "."


if __name__ == "__main__":
    print(markdown())
