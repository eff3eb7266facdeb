"""Differential checks of one op's inference against the runtime, for the per-op tests.

    model = ov.Model(...)                       # built with the openvino API
    compare(model, tmp_path, "Convolution")     # irvalidate's shapes == read_model's

``compare`` writes the model with ``ov.save_model`` and reads it back with
``Core().read_model`` (the runtime's own inference of the file), then asks irvalidate
(``layer_shapes.layers_of``) for every layer of the given types: each must be modelled and
its every output shape must print exactly as the runtime prints it.  The file must also give
no error finding.  ``mutate`` edits one declared output dim (on both ends of its edges, as a
stale export would) and ``named`` says whether an error finding names a layer.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import openvino as ov
import pytest

from irvalidate.cli.shapes import layers_of
from irvalidate.engine.validation import validate_file
from support import cassette


def save(model: ov.Model, folder: Path, stem: str = "model") -> Path:
    path = Path(folder) / f"{stem}.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def convert(source: Path) -> ov.Model:
    """``ov.convert_model`` of a file with CI=true, which every conversion in the tests goes
    through: the converter's telemetry is a process-wide singleton made by the first call,
    and one made outside CI sends from threads on every later call (the network attempts
    slowed the session's later tests 10-25 times, and its exit by a minute)."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CI", "true")
        return ov.convert_model(str(source))


_CORE: list[ov.Core] = []


def core() -> ov.Core:
    """One Core for the session (making one per model costs as much as reading the model)."""
    if not _CORE:
        _CORE.append(ov.Core())
    return _CORE[0]


cassette.per_test(_CORE.clear)


def runtime_shapes(path: Path) -> dict[str, list[str]]:
    """Friendly name -> the output shapes ``read_model`` infers, as it prints them."""
    model = core().read_model(str(path))
    return {op.get_friendly_name(): [str(op.get_output_partial_shape(i)).replace(" ", "")
                                     for i in range(op.get_output_size())]
            for op in model.get_ordered_ops()}


def irvalidate_shapes(path: Path) -> dict[str, dict]:
    return {row["name"]: row for row in layers_of(str(path)) if not row["scope"]}


def errors(path: Path) -> list[str]:
    return [f"{f.code} {f.message}" for f in validate_file(str(path)).findings if f.level == "error"]


def compare(model: ov.Model, folder: Path, types: Iterable[str], stem: str = "model") -> Path:
    """Save ``model``; every layer of ``types`` must be modelled and match the runtime."""
    return compare_file(save(model, folder, stem), types)


def compare_file(path: Path, types: Iterable[str]) -> Path:
    """An IR file read_model loads: every layer of ``types`` must be modelled and match it."""
    runtime = runtime_shapes(path)
    ours = irvalidate_shapes(path)
    wanted = {t.lower() for t in types}
    checked = 0
    for name, row in ours.items():
        if row["type"].lower() not in wanted:
            continue
        checked += 1
        assert row["modelled"], f"{row['type']} '{name}' is not modelled"
        inferred = [o["inferred"] for o in row["outputs"]]
        assert inferred == runtime[name], (f"{row['type']} '{name}': irvalidate {inferred}, "
                                           f"read_model {runtime[name]}")
    assert checked, f"no layer of {sorted(wanted)} in the model"
    found = errors(path)
    assert not found, f"error findings on a model read_model loads: {found}"
    return path


def inferred_types(path: Path) -> dict[str, tuple]:
    """Friendly name -> the output element types irvalidate infers (None: not inferred)."""
    from irvalidate.analysis import GraphAnalysis
    from irvalidate.ir.parser import parse
    from irvalidate.ir.weights import BinFile
    doc = parse(str(path))
    graph = next(iter(doc.graphs()))
    analysis = GraphAnalysis(graph, BinFile(str(Path(path).with_suffix(".bin")), str(Path(path).parent)))
    names = {layer.id: layer.name for layer in graph.layers}
    return {names[lid]: tuple(inferred.output_types) for lid, inferred in analysis.inferences.items()
            if inferred is not None}


def compare_types(path: Path, types: Iterable[str]) -> None:
    """Every output element type irvalidate infers for a layer of ``types`` must be the
    runtime's (a type it leaves unknown, None, is not compared); there must be such a layer
    (a check of nothing passes whatever irvalidate infers)."""
    model = ov.Core().read_model(str(path))
    ours = inferred_types(path)
    wanted = {t.lower() for t in types}
    checked = 0
    for op in model.get_ordered_ops():
        if op.get_type_name().lower() not in wanted:
            continue
        checked += 1
        runtime = [op.get_output_element_type(i).get_type_name() for i in range(op.get_output_size())]
        found = ours[op.get_friendly_name()]
        assert len(found) == len(runtime) and all(
            t is None or t == r for t, r in zip(found, runtime)), (op.get_friendly_name(), found, runtime)
    assert checked, f"no layer of {sorted(wanted)} in the model"


def refused(build, folder: Path) -> str | None:
    """The runtime's message when building or reading fails, else None."""
    try:
        model = build()
        path = save(model, folder, "refused")
        core().read_model(str(path))
    except RuntimeError as err:
        return str(err).strip().splitlines()[-1]
    return None


def mutate(path: Path, layer_name: str, port_index: int, axis: int, value: int) -> Path:
    """A copy of the IR with one declared output dim of a layer changed, on its output port
    and on every input port its edges feed (a consistent, stale declaration)."""
    from lxml import etree
    tree = etree.parse(str(path))
    layer = tree.find(f".//layers/layer[@name='{layer_name}']")
    port = layer.find("output").findall("port")[port_index]
    port.findall("dim")[axis].text = str(value)
    for edge in tree.findall("edges/edge"):
        if edge.get("from-layer") == layer.get("id") and edge.get("from-port") == port.get("id"):
            target = tree.find(f".//layers/layer[@id='{edge.get('to-layer')}']")
            for p in target.find("input").findall("port"):
                if p.get("id") == edge.get("to-port"):
                    p.findall("dim")[axis].text = str(value)
    out = path.with_name(path.stem + f"-mut-{port_index}-{axis}.xml")
    tree.write(str(out))
    out.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
    return out


def named(path: Path, layer_name: str) -> bool:
    """Whether an error finding names the layer."""
    return any(f.level == "error" and f.layer is not None and f.layer.name == layer_name
               for f in validate_file(str(path)).findings)
