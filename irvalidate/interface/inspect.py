"""``inspect``: one IR file's interface (its inputs and outputs as ``read_model`` gives them,
with their names, types and declared shapes), its layers, weights and where it came from.

It reads the XML only (the .bin's size, never its bytes): the records of ``ir.reader``, and
``ir.details`` for what the records leave out (tensor names, rt_info).  Nothing is inferred,
except the reshapeable axes, asked of ``reshaping.constraints`` when the file is small
enough (``RESHAPEABLE_LAYERS``) or when asked.  Names and types follow the runtime: a Result
is named by its ``output_names`` (2026 serializers), else by the port that feeds it; an IR
v10 gets what ``read_model`` adds to it (``_v10_output_name``, ``_v10_output_type``).

``summary`` gives plain dicts (what the command prints: pydantic costs a start ~0.1 s) in the
shape of ``model.InterfaceModel``, which ``interface_of`` builds from them for the Python API.
"""
from __future__ import annotations

import os
from collections import Counter
from operator import itemgetter
from typing import TYPE_CHECKING, Literal

from ..analysis.what_if import parameters
from ..ir import details as ir_details, elements, opsets
from ..ir.records import CONST_TYPES, Document, Graph, Layer, Port
from ..ir.tensor_names import split_names
from ..shapes.dims import DYNAMIC, INF, Shape, format_shape, from_declared
from .weights import compression, weights

if TYPE_CHECKING:
    from .model import InterfaceModel

Reshapeable = Literal["auto", "always", "never"]
#: ``reshapeable="auto"`` computes the axes up to this many layers.  Measured in process: the
#: symbolic inference takes 0.04 s on resnet50 (396 layers), 0.13-0.17 s on the 3,000-layer
#: stacks, 0.43 s on 10,000 (~3x a check of them); the command then costs a check's time plus
#: at most ~0.2 s (0.19 -> 0.29 s CPU on resnet50, 0.23 -> 0.42 s on llm-3000)
RESHAPEABLE_LAYERS = 3000


class InspectError(ValueError):
    """The file cannot be read as an IR (the message says why)."""


def interface_of(path: str, bin_path: str | None = None, *,
                 reshapeable: Reshapeable = "auto") -> InterfaceModel:
    """The interface of the IR at ``path``; InspectError when it is not a readable IR."""
    from .model import InterfaceModel
    return InterfaceModel.model_validate(summary(path, bin_path, reshapeable=reshapeable))


def summary(path: str, bin_path: str | None = None, *,
            reshapeable: Reshapeable = "auto") -> dict:
    """``interface_of`` as plain dicts and lists (InterfaceModel's JSON), made with the
    cyclic garbage collector paused, as a check does (``engine.collector``): the collections
    the records' allocation sets off cost 0.5 s of 1.3 on the 100k-layer IR."""
    from ..engine.collector import paused
    return paused(lambda: _summary(path, bin_path, reshapeable))


def _summary(path: str, bin_path: str | None, reshapeable: Reshapeable) -> dict:
    doc, plain = _document(path)
    graph, graphs = doc.graph, doc.graphs()
    counts = Counter(map(_TYPE_AND_VERSION, (layer for g in graphs for layer in g.layers)))
    results = [layer for layer in graph.layers if layer.type.lower() == "result"]
    feeding = _feeding(graph, {layer.id for layer in results})
    inputs = parameters(graph)
    asked = [layer for layer, _ in inputs] + results + \
        [producer for producer, _ in feeding.values() if producer is not None]
    try:
        found = ir_details.read(path, {layer.line: layer.id for layer in asked}, plain,
                                {layer.id for layer in asked})
    except (OSError, SyntaxError, ValueError) as err:  # (lxml's are SyntaxErrors) rarely:
        # the parser has read the file
        raise InspectError(f"cannot read the file's names and rt_info: {err}") from None
    v10 = doc.version == "10"
    bin_file = bin_path or os.path.splitext(path)[0] + ".bin"  # (engine.validation's default)
    axes = _axes(path, bin_path, reshapeable, sum(counts.values()), doc)
    consts = {t for t, _ in counts if t.lower() in CONST_TYPES}
    const_rows = weights(graphs, consts)
    return {
        "file": path, "ir_version": int(doc.version) if doc.version and doc.version.isdigit()
        else None,
        "producer": producer_of(found.sections),
        "inputs": [_input(i, layer, shape, found, v10, axes) for i, (layer, shape)
                   in enumerate(inputs)],
        "outputs": [_output(i, layer, feeding.get(layer.id, (None, "")), found, v10)
                    for i, layer in enumerate(results)],
        "layers": _layer_counts(counts),
        "weights": const_rows, "compression": compression(graphs, consts, const_rows),
        "rt_info": _rt_info(found.sections), "extensions": _extensions(counts),
        "bin_bytes": os.path.getsize(bin_file) if os.path.isfile(bin_file) else None,
        "reshapeable": axes is not None}


#: a layer record's type and version (Layer is a named tuple: fields 2 and 3)
_TYPE_AND_VERSION = itemgetter(2, 3)


def _document(path: str) -> tuple[Document, bool]:
    """The records, and whether the scanner read them (its lines are exact)."""
    from ..ir import reader
    doc = reader.scan(path)
    plain = doc is not None
    if doc is None:
        from ..ir import parser
        doc = parser.parse(path)
    if doc.fatal:
        raise InspectError(doc.fatal[0].message)
    return doc, plain


def _feeding(graph: Graph, results: set[str]) -> dict[str, tuple[Layer | None, str]]:
    """Result id -> (the layer, the output port id) its input comes from."""
    by_id = graph.layers_by_id()
    return {edge.to_layer: (by_id.get(edge.from_layer), edge.from_port) for edge in graph.edges
            if edge.to_layer in results}


# ---------------------------------------------------------------------------- inputs, outputs

def _dims(shape: Shape) -> list[dict] | None:
    if shape is None:
        return None
    return [{"lo": d.lo, "hi": None if d.hi >= INF else d.hi} for d in shape]


def _input(index: int, layer: Layer, shape: Shape, found: ir_details.Details, v10: bool,
           axes: dict[str, list[dict]] | None) -> dict:
    details = found.layers.get(layer.id)
    port = layer.outputs[0].id if layer.outputs else ""
    names = list(details.names.get(port, [])) if details else []
    element_type = elements.from_element_type(layer.data.get("element_type")) or "dynamic"
    if v10:  # read_model's v10 fix-up: the Parameter's name is a tensor name, f16 is f32
        names = _with(names, layer.name)
        element_type = "f32" if element_type == "f16" else element_type
    return _tensor(index, layer, names, element_type, shape, _layout(details, port),
                   None if axes is None else axes.get(layer.name, []),
                   _own_rt_info(details, details, port))


def _tensor(index: int, layer: Layer, names: list[str], element_type: str, shape: Shape,
            layout: str | None, axes: list[dict] | None, rt_info: dict[str, str]) -> dict:
    return {"index": index, "layer": layer.name, "layer_id": layer.id, "line": layer.line,
            "names": names, "element_type": element_type, "shape": _dims(shape),
            "shape_text": format_shape(shape, elide=False), "layout": layout, "axes": axes,
            "rt_info": rt_info}


#: rt_info every export rewrites (the names of the layers fused into one): not the interface
_NOISE = ("fused_names",)


def _own_rt_info(layer: ir_details.LayerDetails | None, port_owner: ir_details.LayerDetails | None,
                 port: str) -> dict[str, str]:
    """A tensor's rt_info: its Parameter's or Result's (``layer``), then its port's."""
    found = dict(layer.info) if layer else {}
    found.update(port_owner.port_info.get(port, {}) if port_owner else {})
    return {k: v for k, v in found.items() if k not in _NOISE}


def _output(index: int, result: Layer, source: tuple[Layer | None, str],
            found: ir_details.Details, v10: bool) -> dict:
    own = found.layers.get(result.id)
    producer, port_id = source
    feeder = found.layers.get(producer.id) if producer else None
    if own is not None and "output_names" in own.attributes:
        names = split_names(own.attributes["output_names"])
    else:
        names = list(feeder.names.get(port_id, [])) if feeder else []
    out_port = _port(producer, port_id)
    element_type = _port_type(out_port) or _port_type(result.inputs[0] if result.inputs else None)
    shape = _result_shape(result, producer, out_port)
    if v10 and producer is not None:
        names = _with(names, _v10_output_name(producer, port_id))
        element_type = _v10_output_type(element_type)
    return _tensor(index, result, names, element_type or "dynamic", shape,
                   _layout(feeder, port_id) or _layout(own, ""), None,
                   _own_rt_info(own, feeder, port_id))


def _port(layer: Layer | None, port_id: str) -> Port | None:
    if layer is None:
        return None
    index = layer.output_index(port_id)
    return None if index is None else layer.outputs[index]


def _port_type(port: Port | None) -> str | None:
    return None if port is None else elements.from_precision(port.precision)


def _result_shape(result: Layer, producer: Layer | None, out_port: Port | None) -> Shape:
    """As declared: a Parameter's ``shape`` attribute when it feeds the Result (a port
    cannot write an interval, nor tell a dynamic rank from a scalar), else the Result's
    input port dims."""
    if producer is not None and producer.type.lower() == "parameter":
        return parameters(Graph([producer]))[0][1]
    port = result.inputs[0] if result.inputs else out_port
    if port is None:
        return None
    return tuple(DYNAMIC if d is None else from_declared(d) for d in port.dims)


def _with(names: list[str], name: str) -> list[str]:
    return names if name in names else [*names, name]


def _v10_output_name(producer: Layer, port_id: str) -> str:
    """The name ``read_model`` gives a v10 output: the producer's name, with ``.N`` (the
    output's position) when it has several outputs."""
    if len(producer.outputs) <= 1:
        return producer.name
    return f"{producer.name}.{producer.output_index(port_id)}"


def _v10_output_type(element_type: str | None) -> str | None:
    """read_model's v10 fix-up: integer outputs become i32, any other that is not f32 f32."""
    if element_type in ("i64", "u64", "i32", "u32"):
        return "i32"
    return element_type if element_type in (None, "f32") else "f32"


def _layout(details: ir_details.LayerDetails | None, port: str) -> str | None:
    if details is None:
        return None
    return details.port_info.get(port, {}).get("layout") or details.info.get("layout")


def _axes(path: str, bin_path: str | None, reshapeable: Reshapeable, layers: int,
          doc: Document) -> dict[str, list[dict]] | None:
    """Each input's axes by layer name, from ``reshapeable``'s analysis of the records read
    here (``doc``); None when not asked (or the file is too large for ``auto``)."""
    if reshapeable == "never" or (reshapeable == "auto" and layers > RESHAPEABLE_LAYERS):
        return None
    from ..reshaping.constraints import constraints_of
    try:
        rows = constraints_of(path, bin_path=bin_path, doc=doc)
    except (ValueError, OSError, RecursionError):
        return None
    return {entry["name"]: [{k: row[k] for k in _AXIS_FIELDS} for row in entry["axes"]]
            for entry in rows}


#: what ``inspect`` keeps of reshapeable's row for an axis (model.AxisSizesModel)
_AXIS_FIELDS = ("axis", "exact", "min", "max", "multiple_of", "offset", "values", "residues")


# ---------------------------------------------------------------------------- the rest

def _layer_counts(counts: Counter) -> list[dict]:
    """Every layer of every graph, bodies included, by type (the reader's spelling) and
    version, the most frequent first."""
    merged: Counter = Counter()
    for (layer_type, version), count in counts.items():
        merged[(opsets.canonical_type(layer_type), version)] += count
    return [{"type": t, "opset": v, "count": n}
            for (t, v), n in sorted(merged.items(), key=lambda kv: (-kv[1], kv[0]))]


def _extensions(counts: Counter) -> list[str]:
    """The types an extension supplies, or that no opset defines."""
    return sorted({t for t, v in counts if t and v and t.lower() not in CONST_TYPES and (
        opsets.is_extension(v, t) or (not opsets.contains(v, t) and not opsets.opsets_with(t)))})


#: (producer key, where it is read: a section and a flattened path), the first found wins
_PRODUCER = (
    ("openvino", "rt_info", "Runtime_version"), ("openvino", "rt_info", "OpenVINO Runtime"),
    ("openvino", "meta_data", "Runtime_version"),
    ("mo", "rt_info", "MO_version"), ("mo", "meta_data", "MO_version"),
    ("framework", "rt_info", "conversion_parameters/framework"),
    ("framework", "meta_data", "cli_parameters/framework"),
    ("optimum", "rt_info", "optimum/optimum_version"),
    ("optimum_intel", "rt_info", "optimum/optimum_intel_version"),
    ("transformers", "rt_info", "optimum/transformers_version"),
    ("pytorch", "rt_info", "optimum/pytorch_version"),
    ("nncf", "rt_info", "optimum/nncf_version"), ("nncf", "rt_info", "nncf/version"),
    ("nncf_weight_compression", "rt_info", "nncf/weight_compression/mode"),
    ("nncf_quantization", "rt_info", "nncf/quantization/preset"),
)


def producer_of(sections: dict[str, dict[str, str]]) -> dict[str, str]:
    """What wrote the file, from the model's rt_info (or the legacy meta_data)."""
    found: dict[str, str] = {}
    for key, section, path in _PRODUCER:
        value = sections.get(section, {}).get(path)
        if value is not None and key not in found:
            found[key] = value
    return found


def _rt_info(sections: dict[str, dict[str, str]]) -> dict[str, str]:
    """The model's rt_info as path -> value; the legacy sections under their own name."""
    flat = dict(sections.get("rt_info", {}))
    for section in ("meta_data", "quantization_parameters"):
        flat.update({f"{section}/{k}": v for k, v in sections.get(section, {}).items()})
    return flat
