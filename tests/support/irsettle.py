"""Hand-written IRs (tests/irbuilder) made consistent with the runtime, for the per-op tests.

The openvino API will not build some layers a file may hold (a negative stride, a missing
attribute, an empty list); irbuilder writes them, with placeholder output dims.  ``settle``
reads the file with ``read_model`` and writes back every layer's output dims and precisions
(and its consumers' input dims) as the runtime infers them, so that the only thing left to
compare is irvalidate's inference: ``compare_ir`` does both.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import openvino as ov
from lxml import etree

from support import opcheck
from support.irbuilder import IR, precision


def _dims(shape: ov.PartialShape):
    if shape.rank.is_dynamic:
        return []
    return [d.get_length() if d.is_static else -1 for d in shape]


def settle(path: Path, model: ov.Model | None = None) -> Path:
    """Rewrite ``path`` with the runtime's output dims and precisions on every port
    (``model``: the file as read_model already read it)."""
    model = model or opcheck.core().read_model(str(path))
    found = {op.get_friendly_name(): op for op in model.get_ordered_ops()}
    tree = etree.parse(str(path))
    by_id = {layer.get("id"): layer for layer in tree.iter("layer")}
    written = {}
    for layer in by_id.values():
        op = found.get(layer.get("name"))
        out = layer.find("output")
        if op is None or out is None:
            continue
        for index, port in enumerate(out.findall("port")):
            dims = _dims(op.get_output_partial_shape(index))
            et = op.get_output_element_type(index).get_type_name()
            _write(port, dims, precision(et))
            written[(layer.get("id"), port.get("id"))] = (dims, precision(et))
    for edge in tree.iter("edge"):
        source = written.get((edge.get("from-layer"), edge.get("from-port")))
        target = by_id.get(edge.get("to-layer"))
        if source is None or target is None:
            continue
        for port in target.find("input").findall("port"):
            if port.get("id") == edge.get("to-port"):
                _write(port, *source)
    tree.write(str(path))
    return path


def _write(port, dims, prec) -> None:
    for dim in port.findall("dim"):
        port.remove(dim)
    for value in dims:
        etree.SubElement(port, "dim").text = str(value)
    port.set("precision", prec)


def compare_ir(ir: IR, folder: Path, types: Iterable[str], stem: str = "model") -> Path:
    """Write ``ir``, settle it, and compare irvalidate's inference with the runtime's."""
    return opcheck.compare_file(settle(ir.write(Path(folder), stem)), types)


def refused_ir(ir: IR, folder: Path, stem: str = "refused") -> str:
    """The runtime's message for an IR it refuses (fails the test when it loads)."""
    path = ir.write(Path(folder), stem)
    try:
        opcheck.core().read_model(str(path))
    except RuntimeError as err:
        lines = [line for line in str(err).strip().splitlines() if line.strip()]
        return re.sub(r"\s+", " ", lines[-1])
    raise AssertionError(f"read_model loads {path.name}")


def differential(ir: IR, folder: Path, types: Iterable[str], name: str,
                 stem: str = "model") -> bool:
    """Both ways: when read_model refuses the file an error finding must name layer ``name``;
    when it loads it, irvalidate's shapes must be the runtime's.  True when it loaded."""
    path = ir.write(Path(folder), stem)
    try:
        model = opcheck.core().read_model(str(path))
    except RuntimeError as err:
        assert opcheck.named(path, name), f"the runtime refuses {stem} ({err}), irvalidate does not"
        return False
    opcheck.compare_file(settle(path, model), types)
    return True


def assert_refused(ir: IR, folder: Path, words: str, code: str | None = None,
                   name: str = "op") -> None:
    """The runtime refuses ``ir``, and irvalidate's first error naming layer ``name`` (or its
    first finding of ``code``) says ``words``."""
    refused_ir(ir, folder)
    from irvalidate.engine.validation import validate_file
    findings = validate_file(str(ir.write(Path(folder), "mine"))).findings
    found = [f for f in findings if (f.code == code if code else
                                     f.level == "error" and f.layer and f.layer.name == name)]
    assert found and words in found[0].message, [f.message for f in findings]


def random_differential(make, seed: int, count: int, folder: Path) -> int:
    """``count`` layers from ``make(rng) -> (type, IR)`` (a layer named "op"), each checked
    both ways with :func:`differential`; the number the runtime loaded."""
    import random
    rng = random.Random(seed)
    loaded = 0
    for n in range(count):
        kind, ir = make(rng)
        loaded += differential(ir, folder, [kind], "op", stem=f"m{n}")
    return loaded
