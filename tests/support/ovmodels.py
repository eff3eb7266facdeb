"""Building small openvino models for the per-op tests: shapes written as lists, layers made
with NodeFactory (any attribute, any version), and a model gathered from its outputs.

    x = param([2, (1, 8), -1])                      # [2,1..8,?] f32; None is a dynamic rank
    op = make("opset8", "PriorBox", [const([19, 19]), const([300, 300])], {...}, "pb")
    opcheck.compare(model_of(op), tmp_path, ["PriorBox"])

``accepted`` builds a layer and gives None when openvino refuses it (random tests draw
configurations and keep those the runtime accepts).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import openvino as ov
import openvino.opset8 as o8
from openvino.utils.node_factory import NodeFactory

from support import cassette

# one definition of each builder the shape-op tests share (shapeops also has a ``model`` of
# outputs and Parameters, a ``differential`` of one configuration and a ``near_shape``)
from support.shapeops import const, param, shape, shape_text  # noqa: F401

_FACTORIES = {}
cassette.per_test(_FACTORIES.clear)  # NodeFactory objects are the runtime's


def make(opset: str, type_: str, inputs: Sequence, attrs: dict, name: str = "op"):
    factory = _FACTORIES.get(opset)
    if factory is None:
        factory = _FACTORIES[opset] = NodeFactory(opset)
    node = factory.create(type_, [i.output(0) if hasattr(i, "output") else i for i in inputs],
                          attrs)
    node.set_friendly_name(name)
    return node


def accepted(build):
    """``build()``, or None when openvino refuses what it builds."""
    try:
        return build()
    except RuntimeError:
        return None


def parameters_of(outputs: Iterable) -> list:
    """The Parameters upstream of some outputs (by name)."""
    found, seen, stack = [], set(), [o.get_node() for o in outputs]
    while stack:
        node = stack.pop()
        key = node.get_name()  # unique per node (python wrappers are not)
        if key in seen:
            continue
        seen.add(key)
        if node.get_type_name() == "Parameter":
            found.append(node)
        stack.extend(i.get_source_output().get_node() for i in node.inputs())
    return sorted(found, key=lambda p: p.get_friendly_name())


def model_of(*nodes) -> ov.Model:
    """A model whose results are every output of ``nodes`` (its Parameters found upstream)."""
    outputs = [out for node in nodes for out in node.outputs()]
    return ov.Model([o8.result(out) for out in outputs], parameters_of(outputs), "m")


def reshaped(path: Path, shapes: dict) -> Path:
    """A copy of a saved IR whose Parameters (by name) have other shapes: their ``shape``
    attribute, their port and the input ports they feed (so only inference can object)."""
    from lxml import etree
    tree = etree.parse(str(path))
    for name, spec in shapes.items():
        layer = tree.find(f".//layers/layer[@name='{name}']")
        layer.find("data").set("shape", shape_text(spec))
        dims = [] if spec is None else [d if isinstance(d, int) else -1 for d in spec]
        ports = [layer.find("output").find("port")]
        for edge in tree.findall("edges/edge"):
            if edge.get("from-layer") == layer.get("id"):
                target = tree.find(f".//layers/layer[@id='{edge.get('to-layer')}']")
                ports += [p for p in target.find("input").findall("port")
                          if p.get("id") == edge.get("to-port")]
        for port in ports:
            for old in port.findall("dim"):
                port.remove(old)
            for d in dims:
                etree.SubElement(port, "dim").text = str(d)
    out = path.with_name(path.stem + "-reshaped.xml")
    tree.write(str(out))
    out.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
    return out


def refused_by_both(folder: Path, build, inputs, stem: str = "refused") -> tuple[str, list]:
    """A layer the runtime refuses for its input shapes, written as openvino would write it.

    ``inputs`` is a list of (shape, element type) for Parameters p0, p1...; ``build(params)``
    makes the layer (named 'victim') on Parameters of dynamic rank, which the builders
    accept; the saved file's Parameters then get the real shapes.  Returns read_model's
    message and irvalidate's error findings naming 'victim' (the caller asserts on both)."""
    from irvalidate.engine.validation import validate_file
    from support import opcheck
    params = [param(None, et, name=f"p{i}") for i, (_, et) in enumerate(inputs)]
    path = reshaped(opcheck.save(model_of(build(params)), folder, stem),
                    {f"p{i}": spec for i, (spec, _) in enumerate(inputs)})
    try:
        ov.Core().read_model(str(path))
        message = ""
    except RuntimeError as err:
        message = str(err).strip().splitlines()[-1]
    found = [f for f in validate_file(str(path)).findings
             if f.level == "error" and f.layer is not None and f.layer.name == "victim"]
    return message, found


def differential_batches(folder: Path, configs, build, types: Sequence[str], batch: int = 16) -> tuple[int, int]:
    """Random configurations against the runtime, both ways.

    ``configs`` yields (inputs, extra): inputs a list of (shape, element type) for the
    Parameters, extra whatever ``build(params, extra, name)`` needs to make the layer.  A
    layer the builders accept is compared with read_model (``opcheck.compare``, in models of
    ``batch`` layers); one they refuse must be refused by read_model too, once written, and
    irvalidate must give an error naming it.  Returns (compared, refused)."""
    from support import opcheck
    pending, compared, refused = [], 0, 0

    def flush():
        nonlocal pending, compared
        if pending:
            opcheck.compare(model_of(*pending), folder, types, stem=f"batch{compared}")
            compared += len(pending)
            pending = []
    for index, (inputs, extra) in enumerate(configs):
        params = [param(spec, et) for spec, et in inputs]
        node = accepted(lambda: build(params, extra, f"n{index}"))
        if node is not None:
            pending.append(node)
            if len(pending) == batch:
                flush()
            continue
        if accepted(lambda: build([param(None, et) for _, et in inputs], extra, "victim")) is None:
            continue  # refused whatever the shapes (attributes, types): not written this way
        message, found = refused_by_both(folder, lambda ps: build(ps, extra, "victim"), inputs,
                                         stem=f"r{index}")
        assert message, f"the builders refuse {inputs} {extra}, read_model does not"
        assert found, f"read_model refuses {inputs} {extra} ({message}); irvalidate says nothing"
        refused += 1
    flush()
    return compared, refused


def compare_file(path: Path, types: Sequence[str], stale_parameters: bool = False) -> Path:
    """``opcheck.compare`` for a file already written (a saved model edited by hand).

    ``stale_parameters``: body Parameters were redeclared, which the runtime sets from the
    outer inputs; they must then be reported (IRV101, IRV106 for a precision), nothing
    else, and every port of the model and its bodies must be what the runtime writes."""
    from support import opcheck
    runtime = opcheck.runtime_shapes(path)
    wanted = {t.lower() for t in types}
    rows = [(name, row) for name, row in opcheck.irvalidate_shapes(path).items()
            if row["type"].lower() in wanted]
    assert rows, f"no layer of {sorted(wanted)} in the model"
    for name, row in rows:
        assert row["modelled"], f"{row['type']} '{name}' is not modelled"
        inferred = [o["inferred"] for o in row["outputs"]]
        assert inferred == runtime[name], f"{name}: irvalidate {inferred}, read_model {runtime[name]}"
    if stale_parameters:
        from irvalidate.engine.validation import validate_file
        from support.bodyports import differing
        errors = [f for f in validate_file(str(path)).findings if f.level == "error"]
        assert errors and all(f.scope and f.layer.type == "Parameter" and
                              f.code in ("IRV101", "IRV106") for f in errors), errors
        assert differing(path, path.parent) == []
        return path
    found = opcheck.errors(path)
    assert not found, f"error findings on a model read_model loads: {found}"
    return path


def edit_data(path: Path, layer_name: str, stem: str, **attributes) -> Path:
    """A copy of an IR with a layer's ``<data>`` attributes set (None removes one)."""
    from lxml import etree
    tree = etree.parse(str(path))
    data = tree.find(f".//layer[@name='{layer_name}']/data")
    for key, value in attributes.items():
        if value is None:
            data.attrib.pop(key, None)
        else:
            data.set(key, value)
    out = path.with_name(f"{stem}.xml")
    tree.write(str(out))
    out.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
    return out


def near(rng, value: int, keep: float = 0.65, unknown: float = 0.15, interval: float = 0.1,
         unbounded: float = 0.0):
    """A random dim for a random test: ``value`` itself, ``?``, an interval around it, one
    starting at it and unbounded, or (the rest) something off it (a neighbour, an interval
    past it) that an op may refuse."""
    roll = rng.random()
    for share, make in ((keep, lambda: value), (unknown, lambda: -1),
                        (interval, lambda: (max(value - 3, 0), value + rng.choice([0, 2, 5]))),
                        (unbounded, lambda: (value, -1))):
        if roll < share:
            return make()
        roll -= share
    return rng.choice([value + rng.choice([-1, 1, 3]), (value + 1, value + 5)]) if value else 1


def near_dims(rng, dims, dynamic: float = 0.1, other_rank: float = 0.04, **kwargs):
    """A random shape for a random test: ``dims`` each ``near``, sometimes a dynamic rank,
    sometimes a dim more or less."""
    if rng.random() < dynamic:
        return None
    shape_ = [near(rng, d, **kwargs) for d in dims]
    if rng.random() < other_rank:
        shape_ = shape_ + [1] if rng.random() < 0.5 or not shape_ else shape_[:-1]
    return shape_


def edited(path: Path, stem: str, edit) -> Path:
    """A copy of an IR after ``edit(tree)`` (an lxml tree of it)."""
    from lxml import etree
    tree = etree.parse(str(path))
    edit(tree)
    out = path.with_name(f"{stem}.xml")
    tree.write(str(out))
    out.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
    return out


def redeclare_parameter(body, layer, shape_text: str | None = None,
                        precision: str | None = None, element_type: str | None = None):
    """A body Parameter (lxml elements) declared otherwise: its attributes, its port and the
    body input ports it feeds (the file stays consistent; only the runtime replaces it)."""
    from lxml import etree
    data = layer.find("data")
    if shape_text is not None:
        data.set("shape", shape_text)
    if element_type is not None:
        data.set("element_type", element_type)
    ports = [layer.find("output/port")]
    for edge in body.findall("edges/edge"):
        if edge.get("from-layer") == layer.get("id"):
            target = body.find(f"layers/layer[@id='{edge.get('to-layer')}']")
            ports += [p for p in target.findall("input/port") if p.get("id") == edge.get("to-port")]
    for port in ports:
        if precision is not None:
            port.set("precision", precision)
        if shape_text is not None:
            for old in port.findall("dim"):
                port.remove(old)
            for d in ([] if shape_text == "..." else shape_text.split(",")):
                etree.SubElement(port, "dim").text = d
