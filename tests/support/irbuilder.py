"""A tiny IR writer for tests: layers, ports, edges and a .bin, without openvino.

Genuine serializer output is covered by the differential tests; this builder makes the
hand-edited and broken files that openvino's own builders refuse to produce.
"""
from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

_FMT = {"i8": "b", "i16": "h", "i32": "i", "i64": "q", "u8": "B", "u16": "H", "u32": "I",
        "u64": "Q", "f32": "f"}
_PRECISION = {"f32": "FP32", "f16": "FP16", "boolean": "BOOL", "i64": "I64", "i32": "I32",
              "u8": "U8", "i8": "I8", "u1": "BIN", "i16": "I16", "u16": "U16", "u32": "U32",
              "u64": "U64", "i4": "I4", "u4": "U4"}


def precision(et: str) -> str:
    return _PRECISION.get(et, et.upper())


def port_dims(shape: str) -> list[int]:
    """The dims a port writes for a shape attribute: intervals and ? become -1."""
    shape = shape.strip()
    if not shape or shape == "...":  # a scalar and a dynamic rank both write no <dim>
        return []
    return [int(t) if t.strip().lstrip("-").isdigit() else -1 for t in shape.split(",")]


@dataclass
class Ref:
    layer: str
    port: str
    dims: list[int]
    precision: str


@dataclass
class _Layer:
    id: str
    name: str
    type: str
    version: str
    data: dict[str, str]
    inputs: list[Ref]
    in_dims: list[list[int]]
    outputs: list[Ref]


@dataclass
class IR:
    version: str = "11"
    layers: list[_Layer] = field(default_factory=list)
    edges: list[tuple] = field(default_factory=list)
    weights: bytearray = field(default_factory=bytearray)

    def _next(self) -> str:
        return str(len(self.layers))

    def parameter(self, shape: str, et: str = "f32", name: str | None = None,
                  dims: list[int] | None = None) -> Ref:
        lid = self._next()
        data = {"shape": shape, "element_type": et}
        out = Ref(lid, "0", port_dims(shape) if dims is None else dims, precision(et))
        self.layers.append(_Layer(lid, name or f"p{lid}", "Parameter", "opset1", data, [], [], [out]))
        return out

    def const(self, values: Sequence, et: str = "i64", shape: list[int] | None = None,
              offset: int | None = None, size: int | None = None) -> Ref:
        lid = self._next()
        raw = b"".join(struct.pack("<" + _FMT[et], v) for v in values) if et in _FMT else bytes(values)
        start = len(self.weights)
        self.weights += raw
        shape = [len(values)] if shape is None else shape
        data = {"element_type": et, "shape": ", ".join(map(str, shape)),
                "offset": str(start if offset is None else offset),
                "size": str(len(raw) if size is None else size)}
        out = Ref(lid, "0", shape, precision(et))
        self.layers.append(_Layer(lid, f"c{lid}", "Const", "opset1", data, [], [], [out]))
        return out

    def op(self, type_: str, inputs: Sequence[Ref], out: Sequence[list[int]],
           data: dict[str, str] | None = None, version: str = "opset1",
           out_precision: str | None = None, in_dims: dict[int, list[int]] | None = None,
           name: str | None = None, connect: Sequence[bool] | None = None) -> Ref:
        lid = self._next()
        n = len(inputs)
        dims = [list((in_dims or {}).get(i, r.dims)) for i, r in enumerate(inputs)]
        prec = out_precision or (inputs[0].precision if inputs else "FP32")
        outs = [Ref(lid, str(n + k), list(d), prec) for k, d in enumerate(out)]
        self.layers.append(_Layer(lid, name or f"{type_.lower()}{lid}", type_, version,
                                  dict(data or {}), list(inputs), dims, outs))
        for i, ref in enumerate(inputs):
            if connect is None or connect[i]:
                self.edges.append((ref.layer, ref.port, lid, str(i)))
        return outs[0] if outs else Ref(lid, "", [], prec)

    def result(self, ref: Ref) -> None:
        self.op("Result", [ref], [])

    def xml(self) -> str:
        lines = ['<?xml version="1.0"?>', f'<net name="t" version="{self.version}">', "<layers>"]
        for layer in self.layers:
            lines.append(f'<layer id="{layer.id}" name="{layer.name}" type="{layer.type}" '
                         f'version="{layer.version}">')
            if layer.data:
                attrs = " ".join(f"{k}={quoteattr(v)}" for k, v in layer.data.items())
                lines.append(f"<data {attrs}/>")
            if layer.inputs:
                lines.append("<input>")
                for i, (ref, dims) in enumerate(zip(layer.inputs, layer.in_dims)):
                    lines.append(_port(str(i), ref.precision, dims))
                lines.append("</input>")
            if layer.outputs:
                lines.append("<output>")
                for ref in layer.outputs:
                    lines.append(_port(ref.port, ref.precision, ref.dims))
                lines.append("</output>")
            lines.append("</layer>")
        lines.append("</layers>")
        lines.append("<edges>")
        for e in self.edges:
            lines.append(f'<edge from-layer="{e[0]}" from-port="{e[1]}" to-layer="{e[2]}" to-port="{e[3]}"/>')
        lines.append("</edges>")
        lines.append("</net>")
        return "\n".join(lines) + "\n"

    def write(self, directory: Path, stem: str = "model", with_bin: bool = True) -> Path:
        path = Path(directory) / f"{stem}.xml"
        path.write_text(self.xml())
        if with_bin:
            path.with_suffix(".bin").write_bytes(bytes(self.weights))
        return path

    def line_of(self, layer_id: str) -> int:
        """The 1-based line of a layer's <layer> element in :meth:`xml`."""
        for number, text in enumerate(self.xml().splitlines(), 1):
            if text.startswith(f'<layer id="{layer_id}" '):
                return number
        raise KeyError(layer_id)


def _port(pid: str, prec: str, dims: Sequence[int]) -> str:
    inner = "".join(f"<dim>{d}</dim>" for d in dims)
    return f'<port id="{pid}" precision="{prec}">{inner}</port>'
