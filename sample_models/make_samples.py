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

import hashlib
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
from lxml import etree
from openvino import opset1, opset3, opset6, opset8, opset13
from openvino.op.util import Variable, VariableInfo
from openvino.utils.node_factory import NodeFactory

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


def model(name: str, outputs: list[ov.Node], params: list[ov.Node]) -> ov.Model:
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

    def all(self, xpath: str) -> list[etree._Element]:
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

    def set_dims(self, port: etree._Element, dims: list[int]) -> None:
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

    def block(self, element: etree._Element) -> list[str]:
        """The lines of a whole element, as the serializer wrote them."""
        return self.lines[element.sourceline - 1:self._end_line(element) + 1]

    def insert_after(self, element: etree._Element, new_lines: list[str]) -> None:
        """Insert lines right after an element (call once per Edit: lines shift)."""
        end = self._end_line(element)
        self.lines[end + 1:end + 1] = new_lines

    def text(self) -> str:
        return "\n".join(self.lines)

    def save(self, target: Path | None = None) -> None:
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


def edge_into(edit: Edit, name: str, port: str) -> etree._Element:
    """The top-level edge into input ``port`` of layer ``name``."""
    return edit.one(f"/net/edges/edge[@to-layer='{layer(edit, name).get('id')}'][@to-port='{port}']")


def edge_line(from_layer: str, from_port: str, to_layer: str, to_port: str, like: str) -> str:
    """An edge line in the serializer's layout, indented like the line ``like``."""
    indent = like[: len(like) - len(like.lstrip())]
    return (f'{indent}<edge from-layer="{from_layer}" from-port="{from_port}" '
            f'to-layer="{to_layer}" to-port="{to_port}" />')


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


def m_computed_target() -> ov.Model:
    """An attention-mask Broadcast-3 whose target_shape is computed, as exporters write it:
    ShapeOf(ids [?,1..128]) -> Gather([0]) and Gather([1]) -> Concat with Consts -> [?,8,1..128,1..128]."""
    ids = param("input_ids", [-1, ov.Dimension(1, 128)], np.int64)
    shape = opset3.shape_of(ids, output_type="i64", name="shape")
    batch = opset8.gather(shape, const("batch_index", [0]), const("axis0", 0), name="batch")
    seq = opset8.gather(shape, const("seq_index", [1]), const("axis0b", 0), name="seq")
    target = opset1.concat([batch, const("heads", [8]), seq, seq], 0, name="target")
    mask = const("mask", np.zeros((1, 1), dtype=np.float32), np.float32)
    full = opset3.broadcast(mask, target, broadcast_spec="numpy", name="expand")
    return model("computed_target", [full], [ids])


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
# models of the graph and structure rules (IRV005, IRV205..IRV216); every node is named, so
# no auto-generated name (which would depend on what the process built before) reaches a file


def body_param(name: str, shape, dtype=np.float32) -> ov.Node:
    """A Parameter of a TensorIterator/Loop/If body (no tensor name: the serializer adds none)."""
    return opset1.parameter(shape, dtype, name=name)


def m_tensor_iterator() -> ov.Node:
    """TensorIterator: a running sum over axis 1 of x[2,4,3], one [2,1,3] slice per iteration.

    The body adds the slice to the accumulator, whose Result feeds the next iteration through
    a back edge; the TensorIterator returns the last accumulator.
    """
    x, init = param("x", [2, 4, 3]), param("init", [2, 1, 3])
    piece, acc = body_param("ti/x_slice", [2, 1, 3]), body_param("ti/acc", [2, 1, 3])
    total = opset1.add(acc, piece, name="ti/add")
    body = ov.Model([opset1.result(total, name="ti/acc_out")], [piece, acc], "ti_body")
    ti = opset8.tensor_iterator()
    ti.set_friendly_name("ti")
    ti.set_body(body)
    ti.set_sliced_input(piece, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(acc, init.output(0), total.output(0))
    ti.get_iter_value(total.output(0), -1)
    return named(ti, "ti_sum")


def m_loop(prefix: str = "loop", data: str = "y") -> ov.Node:
    """Loop, 3 iterations: state[2,3] += the current iteration number (a Convert of it).

    The body's current_iteration Parameter and its execution_condition Result (a Const True)
    are special ports (external_port_id -1); the state goes round through a back edge.
    """
    y = param(data, [2, 3])
    step, state = body_param(f"{prefix}/iteration", [], np.int64), body_param(f"{prefix}/state", [2, 3])
    add = opset1.add(state, opset1.convert(step, "f32", name=f"{prefix}/iteration_f32"),
                     name=f"{prefix}/add")
    keep = opset1.constant(np.array(True), name=f"{prefix}/keep_going")
    body = ov.Model([opset1.result(keep, name=f"{prefix}/cond_out"),
                     opset1.result(add, name=f"{prefix}/state_out")], [step, state], f"{prefix}_body")
    loop = opset8.loop(const(f"{prefix}/trip_count", 3),
                       opset1.constant(np.array(True), name=f"{prefix}/exec_cond"))
    loop.set_friendly_name(prefix)
    loop.set_function(body)
    loop.set_special_body_ports([0, 0])  # body Parameter 0: iteration, body Result 0: condition
    loop.set_merged_input(state, y.output(0), add.output(0))
    loop.get_iter_value(add.output(0), -1)
    return named(loop, f"{prefix}_out")


def m_if_node(data: ov.Output, flag: ov.Node, shape) -> ov.Node:
    """If(flag): then Relu(data), else Negative(data)."""
    then_in, else_in = body_param("if/then_in", shape), body_param("if/else_in", shape)
    then_out = opset1.result(opset1.relu(then_in, name="if/relu"), name="if/then_out")
    else_out = opset1.result(opset1.negative(else_in, name="if/negative"), name="if/else_out")
    node = opset8.if_op(flag.output(0))
    node.set_friendly_name("if")
    node.set_then_body(ov.Model([then_out], [then_in], "then_body"))
    node.set_else_body(ov.Model([else_out], [else_in], "else_body"))
    node.set_input(data, then_in, else_in)
    node.set_output(then_out, else_out)
    return node


def m_structure() -> ov.Model:
    """What the IR schema knows: a Split with three outputs, an If with then/else bodies and
    port maps, layers with and without <data>, and model-level <rt_info> sections."""
    x, flag = param("x", [2, 6]), param("flag", [], np.bool_)
    parts = opset1.split(x, const("split_axis", 1), 3, name="split")
    picked = named(m_if_node(parts.output(0), flag, [2, 2]), "picked")
    add = named(opset1.add(parts.output(1), parts.output(2), name="add"), "sum")
    m = model("structure", [picked, add], [x, flag])
    m.set_rt_info("irvalidate sample", ["framework", "name"])
    m.set_rt_info("make_samples.py", ["conversion_parameters", "input_model"])
    return m


def m_if() -> ov.Model:
    """If(flag) over z[2,3]: the model and both bodies number their layers from 0."""
    z, flag = param("z", [2, 3]), param("flag", [], np.bool_)
    return model("if", [named(m_if_node(z.output(0), flag, [2, 3]), "out")], [z, flag])


def m_ports() -> ov.Model:
    """Layers with many ports: Split (in 0,1; out 2,3,4), Concat (in 0,1,2; out 3),
    TopK (in 0,1; out 2,3, both used)."""
    x = param("x", [2, 6])
    parts = opset1.split(x, const("split_axis", 1), 3, name="split")
    cat = opset1.concat([parts.output(2), parts.output(0), parts.output(1)], 1, name="concat")
    top = named(opset1.topk(cat, const("k", 2), 1, "max", "value", name="topk"), "values")
    top.output(1).set_names({"indices"})
    sinks = [opset1.result(top.output(0), name="topk/values"),
             opset1.result(top.output(1), name="topk/indices")]
    return ov.Model(sinks, [x], "many_ports")


def m_directions() -> ov.Model:
    """Less -> Select(mask, a, b) and Less -> LogicalNot: edges leave output ports (Less's 2,
    Select's 3) and enter input ports, the BOOL mask into two consumers."""
    a, b = param("a", [2, 3]), param("b", [3])
    less = named(opset1.less(a, b, name="less"), "mask")
    picked = named(opset1.select(less, a, b, name="select"), "picked")
    unmasked = named(opset1.logical_not(less, name="not"), "unmasked")
    return model("directions", [picked, unmasked], [a, b])


def m_fan_out() -> ov.Model:
    """x feeds five input ports: both ports of Multiply(x, x), a Relu and two of the four
    ports of a Concat; each input port has exactly one edge."""
    x, y = param("x", [2, 3]), param("y", [2, 3])
    square, relu = opset1.multiply(x, x, name="square"), opset1.relu(x, name="relu")
    cat = opset1.concat([square, relu, x, y], 0, name="concat")
    return model("fan_out", [named(cat, "out")], [x, y])


def m_concat() -> ov.Model:
    """Concat of three [2,3] Parameters along axis 0 -> [6,3], then a Relu."""
    a, b, c = param("a", [2, 3]), param("b", [2, 3]), param("c", [2, 3])
    cat = opset1.concat([a, b, c], 0, name="concat")
    return model("concat", [named(opset1.relu(cat, name="relu"), "out")], [a, b, c])


def m_all_inputs() -> ov.Model:
    """Every declared input connected: FakeQuantize (5), Select (3), Concat (4)."""
    x, cond = param("x", [2, 3]), param("cond", [2, 3], np.bool_)
    fq = opset1.fake_quantize(x, const("in_low", 0.0, np.float32), const("in_high", 6.0, np.float32),
                              const("out_low", 0.0, np.float32), const("out_high", 6.0, np.float32),
                              256, name="fq")
    sel = opset1.select(cond, fq, x, name="select")
    cat = opset1.concat([sel, x, fq, x], 0, name="concat")
    return model("all_inputs", [named(cat, "out")], [x, cond])


def m_dag() -> ov.Model:
    """A diamond (x -> Relu and Sigmoid -> Add) and a Loop whose back edge closes a cycle
    inside its body, which is legal."""
    x = param("x", [2, 3])
    add = opset1.add(opset1.relu(x, name="relu"), opset1.sigmoid(x, name="sigmoid"), name="add")
    loop = m_loop("loop", "y")
    return model("dag", [named(add, "sum"), loop], [x, loop.input_value(2).get_node()])


def m_stateful() -> ov.Model:
    """ReadValue/Assign: the Assign is a sink, so the layers behind it need no Result; the
    Parameter 'unused' feeds nothing (Parameters are always kept)."""
    x, unused = param("x", [2, 3]), param("unused", [4])
    info = VariableInfo()
    info.variable_id, info.data_shape, info.data_type = "running_sum", ov.PartialShape([2, 3]), ov.Type.f32
    state = Variable(info)
    read = opset6.read_value(const("zeros", np.zeros((2, 3)), np.float32), state, name="read_state")
    add = opset1.add(read, x, name="accumulate")
    write = opset6.assign(add, state)
    write.set_friendly_name("write_state")
    sink = opset1.result(named(opset1.relu(add, name="relu"), "out"), name="relu/sink")
    return ov.Model([sink], [write], [x, unused], "stateful")


def m_opsets() -> ov.Model:
    """Types from many opsets, each with the version the serializer writes: BitwiseAnd
    (opset13), Xor (opset1 only), LogicalXor (opset2), Gelu (opset7), SoftMax (opset8)."""
    a, b = param("a", [2, 3], np.int32), param("b", [3], np.int32)
    p, q = param("p", [2, 3], np.bool_), param("q", [2, 3], np.bool_)
    bits = opset13.bitwise_and(a, b, name="bitwise_and")
    xor = NodeFactory("opset1").create("Xor", [p.output(0), q.output(0)], {"auto_broadcast": "numpy"})
    xor.set_friendly_name("xor")
    flags = opset1.logical_xor(xor, q, name="logical_xor")
    total = opset1.add(opset1.convert(bits, "f32", name="bits_f32"),
                       opset1.convert(flags, "f32", name="flags_f32"), name="add")
    soft = opset8.softmax(opset8.gelu(total, "erf", name="gelu"), -1, name="softmax")
    return model("opsets", [named(soft, "out")], [a, b, p, q])


def m_precisions() -> ov.Model:
    """FP16, I64 and U8 Parameters converted to FP32, a BOOL mask from Less into Select, an
    I32 output: each edge's two ports declare one precision."""
    h, n, s = param("h", [2, 3], np.float16), param("n", [3], np.int64), param("s", [2, 3], np.uint8)
    hf = opset1.convert(h, "f32", name="h_f32")
    less = opset1.less(hf, opset1.convert(n, "f32", name="n_f32"), name="less")
    sel = opset1.select(less, opset1.convert(s, "f32", name="s_f32"), hf, name="select")
    return model("precisions", [named(opset1.convert(sel, "i32", name="as_i32"), "out")], [h, n, s])


def m_parameters() -> ov.Model:
    """Parameters of every kind: static, interval (1..8), dynamic (?), dynamic rank (...),
    scalar, boolean, f16 and i64; the ports write every non-static dim as -1."""
    static, interval, dynamic = param("static", [2, 3]), param("interval", "1..8,3"), param("dynamic", "?,3")
    any_rank = opset1.parameter(ov.PartialShape.dynamic(), np.float32, name="any_rank")
    any_rank.output(0).set_names({"any_rank"})
    scalar, flags = param("scalar", [], np.float32), param("flags", [2, 3], np.bool_)
    half, index = param("half", [3], np.float16), param("index", [2], np.int64)
    picked = opset1.select(flags, static, opset1.convert(half, "f32", name="half_f32"), name="select")
    outs = [named(picked, "picked"),
            named(opset1.relu(interval, name="relu_interval"), "o1"),
            named(opset1.relu(dynamic, name="relu_dynamic"), "o2"),
            named(opset1.multiply(any_rank, scalar, name="scale_any_rank"), "o3"),
            named(opset1.convert(index, "f32", name="index_f32"), "o4")]
    return model("parameters", outs, [static, interval, dynamic, any_rank, scalar, flags, half, index])


def m_constants() -> ov.Model:
    """Consts of every kind: scalar f32, [2,3] f32, f16, u8, packed i4, boolean, i64, and two
    [2,3] Consts with equal values that the serializer stores once (one shared offset)."""
    x = param("x", [2, 3])
    packed = ov.Tensor(ov.Type.i4, ov.Shape([3]))
    packed.data[:] = np.array([0x21, 0x03], np.int8)  # 1, 2, 3: two per byte, low nibble first
    nibbles = ov.op.Constant(packed)
    nibbles.set_friendly_name("nibbles")
    values = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    scaled = opset1.multiply(x, const("scale", 0.5, np.float32), name="scale_mul")
    first = opset1.add(scaled, const("bias_a", values, np.float32), name="add_a")
    second = opset1.add(first, const("bias_b", values, np.float32), name="add_b")
    half = opset1.convert(const("half", [0.25, 0.5, 0.75], np.float16), "f32", name="half_f32")
    small = opset1.convert(const("bytes", [1, 2, 3], np.uint8), "f32", name="bytes_f32")
    mixed = opset1.multiply(opset1.add(second, half, name="add_half"), small, name="mul_bytes")
    mixed = opset1.subtract(mixed, opset1.convert(nibbles, "f32", name="nibbles_f32"),
                            name="sub_nibbles")
    mask = const("mask", [[True, False, True], [False, True, False]], np.bool_)
    sel = opset1.select(mask, mixed, x, name="select")
    bc = opset3.broadcast(sel, const("target", [4, 2, 3]), name="bcast")
    return model("constants", [named(bc, "out")], [x])


def m_bias() -> ov.Model:
    """x[2,3] + Const bias [1,3] (numpy) -> [2,3]."""
    x = param("x", [2, 3])
    add = opset1.add(x, const("bias", [[1.0, 2.0, 3.0]], np.float32), name="add")
    return model("bias", [named(add, "out")], [x])


def m_bodies() -> ov.Model:
    """A TensorIterator, a Loop and an If side by side (see m_tensor_iterator, m_loop, m_if_node)."""
    ti = m_tensor_iterator()
    loop = m_loop("loop", "y")
    z, flag = param("z", [2, 3]), param("flag", [], np.bool_)
    branch = named(m_if_node(z.output(0), flag, [2, 3]), "if_out")
    params = [ti.input_value(0).get_node(), ti.input_value(1).get_node(),
              loop.input_value(2).get_node(), z, flag]
    return model("bodies", [ti, loop, branch], params)


def m_strings(factory=None) -> ov.Model:
    """Unpack a string tensor, fold it to lower case (with an extension's ``factory``; else
    pass it through), pack it again: the start of every tokenizer model."""
    from openvino import opset15
    text = param("text", ov.PartialShape([-1]), ov.Type.string)
    unpacked = opset15.string_tensor_unpack(text, name="unpack")
    parts = unpacked.outputs()
    if factory:
        fold = factory.create("CaseFold", parts, {})
        fold.set_friendly_name("fold")  # stable names: regenerating gives the same file
        parts = fold.outputs()
    packed = named(opset15.string_tensor_pack(*parts, name="pack"), "folded")
    return model("strings", [packed], [text])


def m_ti() -> ov.Model:
    """The TensorIterator of m_bodies on its own."""
    ti = m_tensor_iterator()
    return model("tensor_iterator", [ti], [ti.input_value(0).get_node(), ti.input_value(1).get_node()])


# --------------------------------------------------------------------------------------------
# the samples


def valid_samples() -> None:
    save(m_add(), VALID / "output-shape-mismatch.xml")
    save(m_broadcasting(), VALID / "incompatible-inputs.xml")
    save(m_dynamic(), VALID / "dynamic-dim-declared.xml")
    save(m_attrs(), VALID / "invalid-attribute.xml")
    save(m_input_counts(), VALID / "wrong-input-count.xml")
    save(m_types(), VALID / "element-type-mismatch.xml")
    save(m_pdpd(-1), VALID / "spec-runtime-divergence.xml")
    save(m_chain(), VALID / "edge-shape-mismatch.xml")
    save(m_two_heads(), VALID / "dangling-edge.xml")
    save(m_broadcast_const(), VALID / "invalid-constant.xml")
    save(m_broadcast_const(), VALID / "missing-weights.xml")
    save(m_structure(), VALID / "schema-violation.xml")
    save(m_if(), VALID / "duplicate-layer-id.xml")
    save(m_ports(), VALID / "duplicate-port-id.xml")
    save(m_directions(), VALID / "reversed-edge.xml")
    save(m_fan_out(), VALID / "multiple-edges-into-port.xml")
    save(m_all_inputs(), VALID / "unconnected-input.xml")
    save(m_dag(), VALID / "graph-cycle.xml")
    save(m_stateful(), VALID / "unreachable-layer.xml")
    save(m_opsets(), VALID / "unknown-op-type.xml")
    save(m_precisions(), VALID / "precision-mismatch.xml")
    save(m_parameters(), VALID / "parameter-port-mismatch.xml")
    save(m_constants(), VALID / "const-port-mismatch.xml")
    save(m_bodies(), VALID / "body-port-map.xml")
    save(m_computed_target(), VALID / "computed-target.xml")
    save(m_strings(), VALID / "extension-op.xml")  # opset15's own string ops
    save(m_attrs(), VALID / "unknown-attribute.xml")


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
    xml = save(m_add(), BROKEN / "IRV101-output-shape-mismatch.xml")
    edit = Edit(xml)
    edit.set_dims(out_port(edit, "add"), [2, 4, 6])
    edit.set_dims(result_input(edit, "add"), [2, 4, 6])
    edit.save()


def broken_irv101_computed() -> None:
    """The mask's declared head dim edited from 8 to 4 (and the Result's input with it): the
    target is computed (ShapeOf -> Gather -> Concat with Const 'heads' [8]); the finding
    shows that chain."""
    xml = save(m_computed_target(), BROKEN / "IRV101-computed-target.xml")
    edit = Edit(xml)
    edit.set_dims(out_port(edit, "expand"), [-1, 4, -1, -1])
    edit.set_dims(result_input(edit, "expand"), [-1, 4, -1, -1])
    edit.save()


def broken_irv102_computed() -> None:
    """The Const 'heads' of the computed target edited to -1 in the .bin: bound evaluation
    gives a negative dim and read_model refuses the model."""
    xml = save(m_computed_target(), BROKEN / "IRV102-negative-computed-target.xml")
    heads = Edit(xml).one("//layer[@name='heads']/data")
    weights = xml.with_suffix(".bin")
    blob = bytearray(weights.read_bytes())
    offset = int(heads.get("offset"))
    blob[offset:offset + 8] = (-1).to_bytes(8, "little", signed=True)
    weights.write_bytes(bytes(blob))


def broken_irv102() -> None:
    """Parameter b edited from [4,1] to [4,3]: [2,1,5] + [4,3] no longer broadcasts."""
    xml = save(m_add(), BROKEN / "IRV102-incompatible-inputs.xml")
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
    xml = save(m_add(), BROKEN / "IRV104-invalid-attribute.xml")
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


def broken_irv108() -> None:
    """The Add's auto_broadcast attribute misspelled auto_brodcast: the reader ignores it."""
    xml = save(m_add(), BROKEN / "IRV108-unknown-attribute.xml")
    edit = Edit(xml)
    edit.replace(layer(edit, "add").find("data"), 'auto_broadcast="numpy"', 'auto_brodcast="numpy"')
    edit.save()


def broken_irv109() -> None:
    """A dynamic-batch chain (x is ?,3) whose Add output, and the Result input it feeds, were
    written with the batch of one trace, 2: the model does not guarantee it."""
    x = param("x", "?,3")
    relu = opset1.relu(x, name="relu")
    add = opset1.add(relu, const("bias", [1.0, 2.0, 3.0], np.float32), name="add")
    xml = save(model("chain", [named(add, "out")], [x]), BROKEN / "IRV109-static-dim-declared.xml")
    edit = Edit(xml)
    edit.set_dims(out_port(edit, "add"), [2, 3])
    edit.set_dims(result_input(edit, "add"), [2, 3])
    edit.save()


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


def m_gather_reshape() -> ov.Model:
    """data [2,3,4] -> Reshape [6,4] -> Gather(indices [1], axis 0) -> [1,4]: three i64 Consts."""
    data = param("data", [2, 3, 4])
    flat = opset1.reshape(data, const("flat_shape", [6, 4]), special_zero=False, name="flat")
    first = opset8.gather(flat, const("second", [1]), const("rows", 0), name="second_row")
    return model("gather_reshape", [named(first, "out")], [data])


def broken_irv218() -> None:
    """The .bin of another model, of the same length (32 bytes of float32 weights): read as
    i64, the Reshape target, the Gather indices and its axis are absurd; OpenVINO refuses the
    Reshape."""
    xml = save(m_gather_reshape(), BROKEN / "IRV218-weights-mismatch.xml")
    weights = xml.with_suffix(".bin")
    assert weights.stat().st_size == 32, weights.stat().st_size
    other = np.array([0.5, -1.25, 3.0, 7.5, 0.125, -2.0, 1.0, 0.25], dtype=np.float32)
    weights.write_bytes(other.tobytes())


def broken_irv204() -> None:
    """A Broadcast whose target_shape is a Const, shipped without its .bin."""
    xml = save(m_broadcast_const(), BROKEN / "IRV204-missing-weights.xml")
    xml.with_suffix(".bin").unlink()


def broken_irv204_lfs() -> None:
    """A CI checkout without Git LFS: the .bin is the LFS pointer, not the weights."""
    xml = save(m_broadcast_const(), BROKEN / "IRV204-lfs-pointer.xml")
    weights = xml.with_suffix(".bin")
    digest = hashlib.sha256(weights.read_bytes()).hexdigest()
    size = weights.stat().st_size
    weights.write_text(f"version https://git-lfs.github.com/spec/v1\noid sha256:{digest}\n"
                       f"size {size}\n")


def broken_irv205() -> None:
    """A copy of the Relu pasted below it (renamed relu_copy, to become a new layer) keeps id 1."""
    xml = save(m_chain(), BROKEN / "IRV205-duplicate-layer-id.xml")
    edit = Edit(xml)
    relu = layer(edit, "relu")
    edit.insert_after(relu, [line.replace('name="relu"', 'name="relu_copy"')
                             for line in edit.block(relu)])
    edit.save()


def broken_irv206() -> None:
    """The Relu's output port renumbered from 0 like its input (id 1 -> 0), its edge too."""
    xml = save(m_chain(), BROKEN / "IRV206-duplicate-port-id.xml")
    edit = Edit(xml)
    relu_id = layer(edit, "relu").get("id")
    edit.replace(out_port(edit, "relu"), 'port id="1"', 'port id="0"')
    edit.replace(edit.one(f"/net/edges/edge[@from-layer='{relu_id}']"),
                 'from-port="1"', 'from-port="0"')
    edit.save()


def broken_irv207() -> None:
    """The edge add -> sigmoid written a second time, backwards: from the Sigmoid's input
    port 0 to the Add's output port 2."""
    xml = save(m_two_heads(), BROKEN / "IRV207-reversed-edge.xml")
    edit = Edit(xml)
    edge = edge_into(edit, "sigmoid", "0")
    backwards = edge_line(edge.get("to-layer"), edge.get("to-port"), edge.get("from-layer"),
                          edge.get("from-port"), edit.lines[edge.sourceline - 1])
    edit.insert_after(edge, [backwards])
    edit.save()


def broken_irv208() -> None:
    """Concat input 1 rewired from b to a by adding the new edge; the old one was kept."""
    xml = save(m_concat(), BROKEN / "IRV208-multiple-edges-into-port.xml")
    edit = Edit(xml)
    edge = edge_into(edit, "concat", "1")
    rewired = edge_line(layer(edit, "a").get("id"), "0", edge.get("to-layer"), "1",
                        edit.lines[edge.sourceline - 1])
    edit.insert_after(edge, [rewired])
    edit.save()


def broken_irv209() -> None:
    """The edge c -> concat (port 2) deleted; the Concat still declares three inputs."""
    xml = save(m_concat(), BROKEN / "IRV209-unconnected-input.xml")
    edit = Edit(xml)
    edit.delete(edge_into(edit, "concat", "2"))
    edit.save()


def broken_irv210() -> None:
    """The Relu's input edge re-pointed from x to the Add's output: relu -> add -> relu."""
    xml = save(m_chain(), BROKEN / "IRV210-graph-cycle.xml")
    edit = Edit(xml)
    edit.replace(edge_into(edit, "relu", "0"), 'from-layer="0" from-port="0"',
                 f'from-layer="{layer(edit, "add").get("id")}" from-port="2"')
    edit.save()


def broken_irv211() -> None:
    """The Result of the Sigmoid head deleted (with its edge): the Sigmoid feeds nothing."""
    xml = save(m_two_heads(), BROKEN / "IRV211-unreachable-layer.xml")
    edit = Edit(xml)
    edit.delete(layer(edit, "sigmoid/sink"), edge_into(edit, "sigmoid/sink", "0"))
    edit.save()


def broken_irv212() -> None:
    """The BitwiseAnd's version edited opset13 -> opset12 (BitwiseAnd arrived in opset13)."""
    xml = save(m_opsets(), BROKEN / "IRV212-unknown-op-type.xml")
    edit = Edit(xml)
    edit.replace(layer(edit, "bitwise_and"), 'version="opset13"', 'version="opset12"')
    edit.save()


def broken_irv213() -> None:
    """The Relu's input port precision edited FP32 -> FP16; Parameter x still says FP32."""
    xml = save(m_chain(), BROKEN / "IRV213-precision-mismatch.xml")
    edit = Edit(xml)
    edit.replace(in_port(edit, "relu", 0), 'precision="FP32"', 'precision="FP16"')
    edit.save()


def broken_irv214() -> None:
    """Parameter x's port, and the Relu input it feeds, written with a -1 batch by a tool,
    although the shape attribute, which the runtime uses, is static 2,3."""
    xml = save(m_chain(), BROKEN / "IRV214-parameter-port-mismatch.xml")
    edit = Edit(xml)
    edit.set_dims(out_port(edit, "x"), [-1, 3])
    edit.set_dims(in_port(edit, "relu", 0), [-1, 3])
    edit.save()


def broken_irv215() -> None:
    """The bias Const's shape attribute squeezed by hand, 1, 3 -> 3; its port says [1,3]."""
    xml = save(m_bias(), BROKEN / "IRV215-const-port-mismatch.xml")
    edit = Edit(xml)
    edit.replace(layer(edit, "bias").find("data"), 'shape="1, 3"', 'shape="3"')
    edit.save()


def broken_irv216() -> None:
    """TensorIterator: the output's internal_layer_id edited 3 -> 2, naming the body's Add
    instead of the Result that carries its value."""
    xml = save(m_ti(), BROKEN / "IRV216-body-port-map.xml")
    edit = Edit(xml)
    edit.replace(edit.one("/net/layers/layer[@name='ti']/port_map/output"),
                 'internal_layer_id="3"', 'internal_layer_id="2"')
    edit.save()


def broken_irv217() -> None:
    """A tokenizer-like model written with openvino_tokenizers loaded: the serializer writes
    version="extension" for all three string ops.  Built last: importing the package
    registers its ops in openvino for the rest of the process."""
    import openvino_tokenizers
    save(m_strings(openvino_tokenizers._get_factory()), BROKEN / "IRV217-extension-op.xml")


BROKEN_SAMPLES: list[Callable[[], None]] = [
    broken_irv001, broken_irv002, broken_irv003, broken_irv004, broken_irv005,
    broken_irv101, broken_irv101_computed, broken_irv102, broken_irv102_computed, broken_irv103, broken_irv104, broken_irv105, broken_irv106,
    broken_irv107, broken_irv108, broken_irv109, broken_irv201, broken_irv202, broken_irv203, broken_irv204, broken_irv204_lfs,
    broken_irv205, broken_irv206, broken_irv207, broken_irv208, broken_irv209, broken_irv210,
    broken_irv211, broken_irv212, broken_irv213, broken_irv214, broken_irv215, broken_irv216,
    broken_irv218, broken_irv217,  # IRV217 last: see its docstring
]


# --------------------------------------------------------------------------------------------
# reshape/: valid models that a new input shape breaks, or that only SmartReshape saves
# (irvalidate --reshape; the SPEC each is tried with is in tests/test_sample_models.py)


def m_classifier_head() -> ov.Model:
    """A flatten traced with batch 1 ([1,64]) before a classifier: Model.reshape to batch 4
    works because SmartReshape's ReshapeAMatMul makes the target [-1,64]."""
    x = param("x", [1, 8, 8])
    flat = opset1.reshape(x, const("flatten/target", [1, 64]), False, name="flatten")
    weights = opset1.constant(np.linspace(-1, 1, 640, dtype=np.float32).reshape(64, 10),
                              name="fc/weights")
    return model("classifier_head", [named(opset1.matmul(flat, weights, False, False, name="fc"),
                                           "logits")], [x])


def m_cropped_upsample() -> ov.Model:
    """openvinotoolkit/openvino#16177 in small: a crop exported with literal ends (256)
    pins the width, and a wider image fails at the Add below it."""
    image = param("image", [1, 3, 512, 512])

    def conv(name: str, scale: float) -> ov.Node:
        w = opset1.constant(np.full((17, 3, 1, 1), scale, np.float32), name=f"{name}/weights")
        return opset1.convolution(image, w, [2, 2], [0, 0], [0, 0], [1, 1], name=name)
    crop = opset8.slice(opset1.relu(conv("branch0", 0.5), name="act"), const("crop/start", [0, 0]),
                        const("crop/stop", [256, 256]), const("crop/step", [1, 1]),
                        const("crop/axes", [2, 3]), name="crop")
    return model("cropped_upsample", [named(opset1.add(crop, conv("branch1", 0.25), name="sum"),
                                            "heatmaps")], [image])


RESHAPE = HERE / "reshape"


def reshape_samples() -> None:
    save(m_classifier_head(), RESHAPE / "classifier-head.xml")
    save(m_cropped_upsample(), RESHAPE / "cropped-upsample.xml")


def generate() -> None:
    for folder in (VALID, BROKEN, SPEC, HERE / "reshape"):
        if folder.exists():
            shutil.rmtree(folder)
    valid_samples()
    spec_samples()
    reshape_samples()
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


def check() -> dict[str, str]:
    outcomes = {}
    os.chdir(HERE)  # relative paths keep the runtime's messages short
    for xml in sorted(HERE.rglob("*.xml")):
        rel = xml.relative_to(HERE)
        outcomes[str(rel)] = read_model_outcome(rel)
        print(f"{rel}: {outcomes[str(rel)]}")
    return outcomes


def main(argv: list[str]) -> int:
    generate()
    if "--check" in argv:
        check()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
