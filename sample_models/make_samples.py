#!/usr/bin/env python3
"""Regenerate every sample model of irvalidate next to this script.

Every model is built with openvino's Python API and written by its own serializer
(``ov.save_model(model, path, compress_to_fp16=False)``).  The broken samples then get one
small hand-edit, made line by line on the serialized text (lxml only locates the lines), so
the rest of each file stays byte-for-byte as OpenVINO wrote it.

    valid/<slug>.xml            a genuine model exercising what rule <slug> checks; no findings
    broken/<CODE>-<slug>.xml    one realistic breakage that rule <CODE> reports
    broken/not-an-ir/...        the IRV002 sample: a directory scan skips XML whose root is
                                not <net>, so it shows only when the file is named explicitly
    spec/broadcast1-*.xml       the three Broadcast-1 examples of the specification, plus
                                broadcast1-numpy-2inputs.xml: the numpy one without the unused
                                third input OpenVINO's builder adds (the seed's exact layout)

Usage (any working directory)::

    python make_samples.py            # regenerate
    python make_samples.py --check    # regenerate, then print what ov.Core().read_model does
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional

import numpy as np
import openvino as ov
from lxml import etree
from openvino import opset1, opset3

HERE = Path(__file__).resolve().parent
VALID, BROKEN, SPEC = HERE / "valid", HERE / "broken", HERE / "spec"
NOT_IR = BROKEN / "not-an-ir"

# --------------------------------------------------------------------------------------------
# model building helpers


def param(name: str, shape, dtype=np.float32) -> ov.Node:
    node = opset1.parameter(ov.PartialShape(shape) if isinstance(shape, str) else shape,
                            dtype, name=name)
    node.output(0).set_names({name})
    return node


def const(name: str, values, dtype=np.int64) -> ov.Node:
    return opset1.constant(np.array(values, dtype=dtype), name=name)


def named(node: ov.Node, tensor: str) -> ov.Node:
    """Give an op's output a stable tensor name (the Result's output_names follows it)."""
    node.output(0).set_names({tensor})
    return node


def pdpd(op, a: ov.Node, b: ov.Node, axis: int, name: str) -> ov.Node:
    """A binary op with auto_broadcast pdpd and an explicit axis.

    The Python builders take only the string "pdpd" (axis 0), so the op is built on (a, a),
    given its axis, then connected to b and re-validated.
    """
    node = op(a, a, auto_broadcast="pdpd", name=name)
    node.set_attribute("auto_broadcast.auto_broadcast_axis", axis)
    node.set_argument(1, b.output(0))
    node.validate_and_infer_types()
    return node


def model(name: str, outputs: List[ov.Node], params: List[ov.Node]) -> ov.Model:
    results = [opset1.result(out, name=f"{out.get_friendly_name()}/sink") for out in outputs]
    return ov.Model(results, params, name)


def save(m: ov.Model, xml: Path) -> Path:
    xml.parent.mkdir(parents=True, exist_ok=True)
    ov.save_model(m, str(xml), compress_to_fp16=False)
    return xml


# --------------------------------------------------------------------------------------------
# hand-edit helpers: lxml finds the element, the edit is a text replacement on its line(s)


class Edit:
    """The serialized lines of one IR, edited in place and written back unchanged elsewhere."""

    def __init__(self, xml: Path) -> None:
        self.xml = xml
        self.lines = xml.read_text(encoding="utf-8").split("\n")
        self.tree = etree.fromstring(xml.read_bytes())

    def one(self, xpath: str) -> etree._Element:
        found = self.tree.xpath(xpath)
        if len(found) != 1:
            raise AssertionError(f"{self.xml.name}: {xpath} matched {len(found)} elements")
        return found[0]

    def all(self, xpath: str) -> List[etree._Element]:
        found = self.tree.xpath(xpath)
        if not found:
            raise AssertionError(f"{self.xml.name}: {xpath} matched nothing")
        return found

    def replace(self, element: etree._Element, old: str, new: str) -> None:
        """Replace ``old`` (exactly once) on the line where ``element`` starts."""
        index = element.sourceline - 1
        line = self.lines[index]
        if line.count(old) != 1:
            raise AssertionError(f"{self.xml.name}:{index + 1}: {old!r} not once in {line!r}")
        self.lines[index] = line.replace(old, new)

    def set_dims(self, port: etree._Element, dims: List[int]) -> None:
        """Rewrite the values of a port's existing ``<dim>`` lines (same rank)."""
        children = port.findall("dim")
        assert len(children) == len(dims), (self.xml.name, len(children), dims)
        for child, value in zip(children, dims):
            self.replace(child, f"<dim>{child.text}</dim>", f"<dim>{value}</dim>")

    def _end_line(self, element: etree._Element) -> int:
        """The 0-based index of the line that closes ``element`` (serializer layout)."""
        start = element.sourceline - 1
        if self.lines[start].rstrip().endswith("/>"):
            return start
        indent = self.lines[start][: len(self.lines[start]) - len(self.lines[start].lstrip())]
        closing = f"{indent}</{element.tag}>"
        for index in range(start + 1, len(self.lines)):
            if self.lines[index].rstrip() == closing:
                return index
        raise AssertionError(f"{self.xml.name}: no closing tag for line {start + 1}")

    def delete(self, *elements: etree._Element) -> None:
        """Delete whole elements (their lines); the others keep their text."""
        spans = sorted(((e.sourceline - 1, self._end_line(e)) for e in elements), reverse=True)
        for start, end in spans:
            del self.lines[start:end + 1]

    def text(self) -> str:
        return "\n".join(self.lines)

    def save(self, target: Optional[Path] = None) -> None:
        (target or self.xml).write_text(self.text(), encoding="utf-8")


def layer(edit: Edit, name: str) -> etree._Element:
    return edit.one(f"/net/layers/layer[@name='{name}']")


def out_port(edit: Edit, name: str, index: int = 0) -> etree._Element:
    return edit.all(f"/net/layers/layer[@name='{name}']/output/port")[index]


def in_port(edit: Edit, name: str, index: int) -> etree._Element:
    return edit.all(f"/net/layers/layer[@name='{name}']/input/port")[index]


def result_input(edit: Edit, producer: str) -> etree._Element:
    """The input port of the Result that sinks ``producer``."""
    return in_port(edit, f"{producer}/sink", 0)


# --------------------------------------------------------------------------------------------
# the models (each small: a few layers)


def m_add() -> ov.Model:
    """numpy Add: [2,1,5] + [4,1] -> [2,4,5]."""
    a, b = param("a", [2, 1, 5]), param("b", [4, 1])
    return model("add_numpy", [named(opset1.add(a, b, name="add"), "sum")], [a, b])


def m_broadcasting() -> ov.Model:
    """Broadcasts that work: numpy Add, numpy Multiply by a Const, pdpd Add with axis 1."""
    x, y, z = param("x", [2, 3, 4, 5]), param("y", [3, 1, 5]), param("z", [3, 4])
    add = opset1.add(x, y, name="add")                                  # [2,3,4,5]
    scale = opset1.multiply(add, const("scale", [[0.5], [2.0], [1.0], [4.0]], np.float32),
                            name="scale_mul")                           # * [4,1] -> [2,3,4,5]
    shift = pdpd(opset1.add, scale, z, 1, "pdpd_add")                  # + [3,4] at axis 1
    return model("broadcasting", [named(shift, "out")], [x, y, z])


def m_pdpd(axis: int = -1) -> ov.Model:
    """PaddlePaddle-style Add: [2,3,4,5] + [5] with an explicit axis."""
    x, bias = param("x", [2, 3, 4, 5]), param("bias", [5])
    add = pdpd(opset1.add, x, bias, axis, "pdpd_add")
    return model("pdpd_add", [named(add, "sum")], [x, bias])


def m_dynamic() -> ov.Model:
    """A genuinely dynamic batch: [?,3] + Const [3] -> [?,3] (declared -1 is right)."""
    x = param("x", [-1, 3])
    add = opset1.add(x, const("bias", [0.1, 0.2, 0.3], np.float32), name="add")
    return model("dynamic_batch", [named(add, "sum")], [x])


def m_attrs() -> ov.Model:
    """Each auto_broadcast value that is legal: none (explicit), numpy, pdpd with axis."""
    a, b, c = param("a", [2, 3]), param("b", [2, 3]), param("c", [3])
    same = opset1.add(a, b, auto_broadcast="none", name="add_none")
    nump = opset1.multiply(same, c, auto_broadcast="numpy", name="mul_numpy")
    pd = pdpd(opset1.subtract, nump, c, -1, "sub_pdpd")
    return model("broadcast_attributes", [named(pd, "out")], [a, b, c])


def m_select() -> ov.Model:
    """Select(cond, then, else) with numpy broadcasting: [2,3] bool, [2,3], [3] -> [2,3]."""
    cond, then, other = param("cond", [2, 3], np.bool_), param("then", [2, 3]), param("else", [3])
    sel = opset1.select(cond, then, other, name="select")
    return model("select", [named(sel, "picked")], [cond, then, other])


def m_input_counts() -> ov.Model:
    """Select (3 inputs), Broadcast-3 explicit (3 inputs) and Broadcast-3 numpy (2 inputs)."""
    cond, then, other = param("cond", [4], np.bool_), param("then", [4]), param("else", [1])
    sel = opset1.select(cond, then, other, name="select")                            # [4]
    expl = opset3.broadcast(sel, const("target", [2, 4, 3]), const("axes", [1]),
                            "explicit", name="bcast_explicit")                        # [2,4,3]
    nump = opset3.broadcast(expl, const("target2", [5, 2, 4, 3]), broadcast_spec="numpy",
                            name="bcast_numpy")                                       # [5,2,4,3]
    return model("input_counts", [named(nump, "out")], [cond, then, other])


def m_types() -> ov.Model:
    """Less yields boolean, which Select takes as its condition; i32 target for Broadcast."""
    a, b = param("a", [2, 3]), param("b", [3])
    less = opset1.less(a, b, name="less")                                   # boolean [2,3]
    sel = opset1.select(less, a, const("zero", 0.0, np.float32), name="select")
    bc = opset3.broadcast(sel, const("target", [4, 2, 3], np.int32), name="bcast")
    return model("element_types", [named(bc, "out")], [a, b])


def m_interval(bound: str = "1..8") -> ov.Model:
    """Add of a Parameter with an interval dim against a static 10 (numpy)."""
    a, b = param("a", f"{bound},3"), param("b", [10, 3])
    return model("interval_add", [named(opset1.add(a, b, name="add"), "sum")], [a, b])


def m_chain() -> ov.Model:
    """Parameter -> Relu -> Add(Const) -> Result: edges between declared ports."""
    x = param("x", [2, 3])
    relu = opset1.relu(x, name="relu")
    add = opset1.add(relu, const("bias", [1.0, 2.0, 3.0], np.float32), name="add")
    return model("chain", [named(add, "out")], [x])


def m_two_heads() -> ov.Model:
    """One Add feeding two Results, the second through a Sigmoid."""
    a, b = param("a", [2, 3]), param("b", [3])
    add = named(opset1.add(a, b, name="add"), "sum")
    sig = named(opset1.sigmoid(add, name="sigmoid"), "prob")
    return model("two_heads", [add, sig], [a, b])


def m_broadcast_const() -> ov.Model:
    """Broadcast-3 numpy with a Const target_shape: [3,1] -> [2,3,6]."""
    d = param("data", [3, 1])
    bc = opset3.broadcast(d, const("target_shape", [2, 3, 6]), broadcast_spec="numpy",
                          name="bcast")
    return model("broadcast_const", [named(bc, "out")], [d])


def m_spec_numpy() -> ov.Model:
    d = param("data", [16, 1, 1])
    bc = opset1.broadcast(d, const("target_shape", [1, 16, 50, 50]), mode="numpy",
                          name="broadcast")
    # v1::Broadcast's two-input constructor adds a scalar u8 Const(0) as an unused
    # axes_mapping, so the serializer writes three inputs; give it a stable name
    bc.input_value(2).get_node().set_friendly_name("broadcast/unused_axes_mapping")
    return model("broadcast1_numpy", [named(bc, "out")], [d])


def m_spec_explicit_16() -> ov.Model:
    d = param("data", [16])
    bc = opset1.broadcast(d, const("target_shape", [1, 16, 50, 50]),
                          const("axes_mapping", [1]), mode="explicit", name="broadcast")
    return model("broadcast1_explicit_16", [named(bc, "out")], [d])


def m_spec_explicit_50x50() -> ov.Model:
    d = param("data", [50, 50])
    bc = opset1.broadcast(d, const("target_shape", [1, 50, 50, 16]),
                          const("axes_mapping", [1, 2]), mode="explicit", name="broadcast")
    return model("broadcast1_explicit_50x50", [named(bc, "out")], [d])


# --------------------------------------------------------------------------------------------
# the samples


def valid_samples() -> None:
    save(m_add(), VALID / "broadcast-output-mismatch.xml")
    save(m_broadcasting(), VALID / "incompatible-broadcast.xml")
    save(m_dynamic(), VALID / "dynamic-dim-declared.xml")
    save(m_attrs(), VALID / "invalid-broadcast-attribute.xml")
    save(m_input_counts(), VALID / "wrong-input-count.xml")
    save(m_types(), VALID / "element-type-mismatch.xml")
    save(m_pdpd(-1), VALID / "spec-runtime-divergence.xml")
    save(m_chain(), VALID / "edge-shape-mismatch.xml")
    save(m_two_heads(), VALID / "dangling-edge.xml")
    save(m_broadcast_const(), VALID / "invalid-constant.xml")
    save(m_broadcast_const(), VALID / "missing-weights.xml")


def spec_samples() -> None:
    save(m_spec_numpy(), SPEC / "broadcast1-numpy.xml")
    save(m_spec_explicit_16(), SPEC / "broadcast1-explicit-16.xml")
    save(m_spec_explicit_50x50(), SPEC / "broadcast1-explicit-50x50.xml")
    # the seed's numpy example has no third input: the same model with the serializer's
    # unused axes_mapping Const removed, and the output port renumbered 3 -> 2 as in the seed
    xml = save(m_spec_numpy(), SPEC / "broadcast1-numpy-2inputs.xml")
    edit = Edit(xml)
    unused, bcast = layer(edit, "broadcast/unused_axes_mapping"), layer(edit, "broadcast")
    edit.replace(out_port(edit, "broadcast"), 'port id="3"', 'port id="2"')
    edit.replace(edit.one(f"/net/edges/edge[@from-layer='{bcast.get('id')}']"),
                 'from-port="3"', 'from-port="2"')
    edit.delete(unused, in_port(edit, "broadcast", 2),
                edit.one(f"/net/edges/edge[@from-layer='{unused.get('id')}']"))
    edit.save()


def broken_irv001() -> None:
    """An interrupted copy: the file stops in the middle of the <edges> section."""
    xml = save(m_add(), BROKEN / "IRV001-unreadable-xml.xml")
    text = xml.read_text(encoding="utf-8")
    cut = text.index("<edge ", text.index("<edges>")) + len('<edge from-layer="0" from-')
    xml.write_text(text[:cut], encoding="utf-8")


def broken_irv002() -> None:
    """The root element renamed: <network> instead of <net>."""
    xml = save(m_add(), NOT_IR / "IRV002-not-an-ir.xml")
    edit = Edit(xml)
    root = edit.tree
    edit.replace(root, "<net ", "<network ")
    closing = len(edit.lines) - 1
    while edit.lines[closing].strip() != "</net>":
        closing -= 1
    edit.lines[closing] = edit.lines[closing].replace("</net>", "</network>")
    edit.save()


def broken_irv003() -> None:
    """An IR version OpenVINO no longer reads: version="7"."""
    xml = save(m_add(), BROKEN / "IRV003-unsupported-ir-version.xml")
    edit = Edit(xml)
    edit.replace(edit.tree, 'version="11"', 'version="7"')
    edit.save()


def broken_irv004() -> None:
    """A Parameter shape attribute that does not parse: shape="2,one,5"."""
    xml = save(m_add(), BROKEN / "IRV004-malformed-ir.xml")
    edit = Edit(xml)
    edit.replace(layer(edit, "a").find("data"), 'shape="2,1,5"', 'shape="2,one,5"')
    edit.save()


def broken_irv005() -> None:
    """A hand-written Result layer that lost its mandatory version attribute."""
    xml = save(m_add(), BROKEN / "IRV005-schema-violation.xml")
    edit = Edit(xml)
    edit.replace(layer(edit, "add/sink"), ' version="opset1"', "")
    edit.save()


def broken_irv101() -> None:
    """The Add's declared output (and the Result's input) says 6 where [2,1,5]+[4,1] gives 5."""
    xml = save(m_add(), BROKEN / "IRV101-broadcast-output-mismatch.xml")
    edit = Edit(xml)
    edit.set_dims(out_port(edit, "add"), [2, 4, 6])
    edit.set_dims(result_input(edit, "add"), [2, 4, 6])
    edit.save()


def broken_irv102() -> None:
    """Parameter b edited from [4,1] to [4,3]: [2,1,5] + [4,3] no longer broadcasts."""
    xml = save(m_add(), BROKEN / "IRV102-incompatible-broadcast.xml")
    edit = Edit(xml)
    b = layer(edit, "b")
    edit.replace(b.find("data"), 'shape="4,1"', 'shape="4,3"')
    edit.set_dims(out_port(edit, "b"), [4, 3])
    edit.set_dims(in_port(edit, "add", 1), [4, 3])
    edit.save()


def broken_irv103() -> None:
    """The Add's output written as [2,-1,5] although [2,1,5]+[4,1] is static [2,4,5]."""
    xml = save(m_add(), BROKEN / "IRV103-dynamic-dim-declared.xml")
    edit = Edit(xml)
    edit.set_dims(out_port(edit, "add"), [2, -1, 5])
    edit.set_dims(result_input(edit, "add"), [2, -1, 5])
    edit.save()


def broken_irv104() -> None:
    """auto_broadcast="bidirectional" on an Add: only Broadcast-3's mode knows that value."""
    xml = save(m_add(), BROKEN / "IRV104-invalid-broadcast-attribute.xml")
    edit = Edit(xml)
    edit.replace(layer(edit, "add").find("data"), 'auto_broadcast="numpy"',
                 'auto_broadcast="bidirectional"')
    edit.save()


def broken_irv105() -> None:
    """The Select's else input (port 2 and its edge) removed: a Select with two inputs."""
    xml = save(m_select(), BROKEN / "IRV105-wrong-input-count.xml")
    edit = Edit(xml)
    sel_id = layer(edit, "select").get("id")
    edit.delete(edit.one(f"/net/edges/edge[@to-layer='{sel_id}'][@to-port='2']"),
                in_port(edit, "select", 2))
    edit.save()


def broken_irv106() -> None:
    """The Select's condition Parameter declared f32 instead of boolean."""
    xml = save(m_select(), BROKEN / "IRV106-element-type-mismatch.xml")
    edit = Edit(xml)
    edit.replace(layer(edit, "cond").find("data"), 'element_type="boolean"', 'element_type="f32"')
    edit.replace(out_port(edit, "cond"), 'precision="BOOL"', 'precision="FP32"')
    edit.replace(in_port(edit, "select", 0), 'precision="BOOL"', 'precision="FP32"')
    edit.save()


def broken_irv107() -> None:
    """[1..8,3] + [10,3]: OpenVINO itself builds and accepts it; only an exact 1 would broadcast."""
    save(m_interval("1..8"), BROKEN / "IRV107-spec-runtime-divergence.xml")


def broken_irv201() -> None:
    """The Relu's input port edited to [2,4]; its producer (Parameter x) still says [2,3]."""
    xml = save(m_chain(), BROKEN / "IRV201-edge-shape-mismatch.xml")
    edit = Edit(xml)
    edit.set_dims(in_port(edit, "relu", 0), [2, 4])
    edit.save()


def broken_irv202() -> None:
    """The Sigmoid head deleted by hand, but its incoming edge (add -> sigmoid) left behind."""
    xml = save(m_two_heads(), BROKEN / "IRV202-dangling-edge.xml")
    edit = Edit(xml)
    sig, sink = layer(edit, "sigmoid"), layer(edit, "sigmoid/sink")
    out_edge = edit.one(f"/net/edges/edge[@from-layer='{sig.get('id')}']")
    edit.delete(sig, sink, out_edge)
    edit.save()


def broken_irv203() -> None:
    """The .bin cut short (an interrupted copy): target_shape needs bytes 0..24 of 24 -> 12."""
    xml = save(m_broadcast_const(), BROKEN / "IRV203-invalid-constant.xml")
    weights = xml.with_suffix(".bin")
    data = weights.read_bytes()
    assert len(data) == 24, len(data)
    weights.write_bytes(data[:12])


def broken_irv204() -> None:
    """A Broadcast whose target_shape is a Const, shipped without its .bin."""
    xml = save(m_broadcast_const(), BROKEN / "IRV204-missing-weights.xml")
    xml.with_suffix(".bin").unlink()


BROKEN_SAMPLES: List[Callable[[], None]] = [
    broken_irv001, broken_irv002, broken_irv003, broken_irv004, broken_irv005,
    broken_irv101, broken_irv102, broken_irv103, broken_irv104, broken_irv105, broken_irv106,
    broken_irv107, broken_irv201, broken_irv202, broken_irv203, broken_irv204,
]


def generate() -> None:
    for folder in (VALID, BROKEN, SPEC):
        if folder.exists():
            shutil.rmtree(folder)
    valid_samples()
    spec_samples()
    for make in BROKEN_SAMPLES:
        make()


# --------------------------------------------------------------------------------------------
# --check: what OpenVINO itself does with each sample


def read_model_outcome(xml: Path) -> str:
    try:
        ov.Core().read_model(str(xml))
    except Exception as err:  # noqa: BLE001 - we report whatever the runtime says
        lines = [line for line in str(err).strip().splitlines() if line.strip()]
        return "FAILS: " + (lines[-1] if lines else type(err).__name__)
    return "loads"


def check() -> Dict[str, str]:
    outcomes = {}
    os.chdir(HERE)  # relative paths keep the runtime's messages short
    for xml in sorted(HERE.rglob("*.xml")):
        rel = xml.relative_to(HERE)
        outcomes[str(rel)] = read_model_outcome(rel)
        print(f"{rel}: {outcomes[str(rel)]}")
    return outcomes


def main(argv: List[str]) -> int:
    generate()
    if "--check" in argv:
        check()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
