"""What the --fix differential tests share: the runtime's reference for a saved model, the
ports a file declares, running the CLI in-process, line edits and the lines a fix changed.

The reference of a model file is what ``ov.save_model`` writes of ``ov.Core().read_model``
of it: the dims the runtime infers, spelled by its own serializer.
"""
from __future__ import annotations

import contextlib
import difflib
import io
import os
from pathlib import Path

import openvino as ov
from lxml import etree

import irvalidate
from irvalidate.cli.main import main
from irvalidate.ops.support import registry


def cli(*args):
    """Run ``irvalidate`` in-process; returns (exit status, stdout)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        return main(list(map(str, args))), out.getvalue()


def reference(path: Path) -> Path:
    ref = path.parent / "reference" / "model.xml"
    ref.parent.mkdir(exist_ok=True)
    ov.save_model(ov.Core().read_model(str(path)), str(ref), compress_to_fp16=False)
    return ref


def ports(path: Path) -> dict:
    """(layer names from the top, "input"/"output", position) -> declared dims, bodies too."""
    found, todo = {}, [((), etree.parse(str(path)).getroot())]
    while todo:
        prefix, graph = todo.pop()
        for layer in graph.find("layers").findall("layer"):
            key = prefix + (layer.get("name"),)
            for kind in ("input", "output"):
                for i, port in enumerate(layer.findall(f"{kind}/port")):
                    found[key + (kind, i)] = [int(d.text) for d in port.findall("dim")]
            todo += [(key + (b.tag,), b) for b in layer if b.tag in ("body", "then_body", "else_body")]
    return found


def inferred(layer) -> bool:
    if layer.get("version") == "extension":  # an extension's op is opaque, whatever its name
        return False
    spec = registry.lookup(layer.get("type"), layer.get("version") or "")
    return spec is not None and spec.infer is not None


def line_of(data: bytes, xpath: str) -> int:
    """0-based line of the first element ``xpath`` finds (the serializer writes one per line)."""
    return etree.fromstring(data).xpath(xpath)[0].sourceline - 1


def edit_line(data: bytes, index: int, old: bytes, new: bytes) -> bytes:
    lines = data.splitlines(keepends=True)
    assert old in lines[index], (old, lines[index])
    lines[index] = lines[index].replace(old, new, 1)
    return b"".join(lines)


def outside_lines(mutant: bytes, fixed: bytes, allowed: set) -> list:
    """Changes from the mutant to the fixed text on lines not in ``allowed`` (an insertion
    must be next to an allowed line)."""
    a, b = mutant.splitlines(keepends=True), fixed.splitlines(keepends=True)
    return [(tag, a[i1:i2], b[j1:j2])
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
            if tag != "equal" and not (set(range(i1, i2)) <= allowed if i2 > i1
                                       else {i1 - 1, i1} & allowed)]


def assert_untouched(path: Path) -> None:
    before, data = os.stat(path), path.read_bytes()
    assert irvalidate.fix(path) == []
    assert cli("--fix", path)[0] == 0
    after = os.stat(path)
    assert path.read_bytes() == data
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
