"""Every output port of a model and of its nested bodies, as the runtime's re-serialization
writes it, against what irvalidate infers.

    differing(path)   # [] when irvalidate's every port is what ov.save_model(read_model(x)) writes

The runtime re-infers each body it validates and writes what it ends with; a body it does not
validate (the untaken branch of an If whose condition is constant) keeps the shapes of its first
reading.  A port writes a static dim as itself and any other as -1, so irvalidate's inferred
shapes are compared the same way.  Layers are matched by name (openvino's friendly names are
unique in the models the tests build), outputs by their place.
"""
from __future__ import annotations

import re
from pathlib import Path

import openvino as ov
from lxml import etree

from irvalidate.cli.shapes import layers_of

Ports = dict[str, list[tuple[int, ...] | None]]


def runtime_ports(path: Path, folder: Path) -> Ports:
    """Layer name -> the dims of each output port in ``ov.save_model(read_model(path))``."""
    again = Path(folder) / f"{Path(path).stem}-runtime.xml"
    ov.save_model(ov.Core().read_model(str(path)), str(again), compress_to_fp16=False)
    return declared_ports(again)


def declared_ports(path: Path) -> Ports:
    """Layer name -> the dims each output port of a file declares (bodies included)."""
    found: Ports = {}
    for layer in etree.parse(str(path)).iter("layer"):
        ports = layer.find("output")
        found[layer.get("name")] = [] if ports is None else [
            tuple(int(d.text) for d in port.findall("dim")) for port in ports.findall("port")]
    return found


def stale(path: Path, folder: Path) -> list[str]:
    """The layers one of whose output ports declares other dims than the runtime writes."""
    runtime, declared = runtime_ports(path, folder), declared_ports(path)
    return sorted(name for name, ports in runtime.items() if declared.get(name) != ports)


def _as_port(text: str | None) -> tuple[int, ...] | None:
    """An inferred shape as a port writes it (None: nothing inferred; a dynamic rank writes
    no dim, as a scalar does)."""
    if text is None:
        return None
    if text == "[...]":
        return ()
    dims = [d for d in re.split(r",", text.strip("[]")) if d]
    return tuple(int(d) if d.isdigit() else -1 for d in dims)


def irvalidate_ports(path: Path) -> Ports:
    """Layer name -> irvalidate's inferred shape of each output, as a port writes it."""
    return {row["name"]: [_as_port(out["inferred"]) for out in row["outputs"]]
            for row in layers_of(str(path))}


def differing(path: Path, folder: Path) -> list[str]:
    """Every output port (model and bodies) where irvalidate's inference is not what the
    runtime writes; a port irvalidate infers nothing for counts as differing."""
    runtime, ours = runtime_ports(path, folder), irvalidate_ports(path)
    found = []
    for name, ports in runtime.items():
        mine = ours.get(name)
        if mine is None or len(mine) != len(ports):
            found.append(f"{name}: irvalidate has {mine}, the runtime writes {ports}")
            continue
        for index, (a, b) in enumerate(zip(mine, ports)):
            if a != b:
                found.append(f"{name} output {index}: irvalidate {a}, the runtime writes {b}")
    return found
