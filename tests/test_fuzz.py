"""Structure-aware fuzzing: irvalidate must survive any IR, however broken (issue "Robustness").

Contract under test
-------------------
* ``engine.validate_file(xml, bin_path=None, config=None)`` returns a ``FileResult`` for the
  path it was given and never raises;
* no finding has code ``IRV000`` (internal-error: a rule or the parser crashed);
* every formatter renders the result (the CLI would otherwise fail with exit 2);
* ``cli.main([...])`` on a batch mixing mutated and valid files exits 0 or 1 (never 2), and the
  JSON report has one entry per file, in order.

How the inputs are made
-----------------------
Seeds are genuine OpenVINO-serialized IRs: ``sample_models/valid`` and ``sample_models/spec``
(read in place), plus a few models built by ``ovgen.generate`` (If and Loop bodies, shared
constants, every broadcasting op) when openvino is installed.  Each example parses one seed
with lxml and applies 1-5 mutations that hypothesis draws, so it shrinks to the fewest and
simplest mutations:

* tree: delete / duplicate / move an element (layer, port, dim, edge, data, body, port_map
  entry, back edge, ...), rename an element's tag, set or delete or add an attribute (random
  text, huge / negative ints, intervals, shapes, element types, enum values, unicode digits,
  ids that exist elsewhere in the file), set a ``<dim>``'s text, change a layer's type or
  version, rewire or add edges, add text where none belongs, nest bodies deeply;
* text (rarely): truncate the serialized XML, or splice in a DOCTYPE, entity, comment, CDATA,
  NUL byte or wrong encoding declaration;
* ``.bin``: keep, truncate, flip bytes, empty, append, replace, delete, make it a directory,
  and sometimes pass it explicitly as ``bin_path`` under another name.

Failures
--------
Every failing input is saved under ``$IRVALIDATE_FUZZ_SAVE_DIR`` (default ``fuzzfail`` in the temporary directory) as
``<n>/model.xml`` + ``<n>/model.bin`` (or ``weights.bin``) + ``<n>/README.txt`` (the message,
the mutations, a full traceback of the crashing rule); one folder per distinct failure
(where + exception type + raising line), replaced by a smaller input when shrinking finds one.
``index.json`` in that folder maps each signature to its folder.

Knobs (environment)
-------------------
``IRVALIDATE_FUZZ_EXAMPLES`` (150): examples per run of the file test (the CLI test runs a
tenth of that).  ``IRVALIDATE_FUZZ_DERANDOMIZE`` (1): 0 explores new examples on every run.
``IRVALIDATE_FUZZ_COLLECT`` (0): 1 records every failure and keeps going instead of stopping
at the first one (for long hunting runs; the test then fails at the end if any was found).
``IRVALIDATE_FUZZ_MAX_MUTATIONS`` (5): tree mutations per example, from 1.
``IRVALIDATE_FUZZ_SEED_DIRS``: more folders of seed IRs (``os.pathsep``-separated), e.g.
``sample_models/broken`` for hunting; the test of the seeds' cleanliness then fails, by design.
``IRVALIDATE_FUZZ_OVGEN_SEEDS`` (1,2,3,10,36): the ovgen seeds, e.g. ``0-99`` for more variety.
``IRVALIDATE_FUZZ_SLOW_SECONDS`` (0): in collect mode, also save inputs whose validation takes
longer than this plus a second per megabyte.
``IRVALIDATE_FUZZ_HANG_SECONDS`` (60): a file whose validation takes longer is saved as a hang
with the stack it was stuck in; the example is interrupted (or, when the validator is stuck
inside C code, the whole run exits with status 3 rather than block CI forever).
"""
from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings, strategies as st
from lxml import etree

from irvalidate.engine.validation import FileResult, validate_file

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
N_EXAMPLES = int(os.environ.get("IRVALIDATE_FUZZ_EXAMPLES", "150"))
DERANDOMIZE = os.environ.get("IRVALIDATE_FUZZ_DERANDOMIZE", "1") != "0"
COLLECT = os.environ.get("IRVALIDATE_FUZZ_COLLECT", "0") == "1"
SAVE_DIR = Path(os.environ.get("IRVALIDATE_FUZZ_SAVE_DIR", Path(tempfile.gettempdir()) / "fuzzfail"))
#: tree mutations per example: 1 to this many
MAX_MUTATIONS = int(os.environ.get("IRVALIDATE_FUZZ_MAX_MUTATIONS", "5"))
#: a validation taking longer than this is a hang (a valid seed takes milliseconds)
HANG_SECONDS = float(os.environ.get("IRVALIDATE_FUZZ_HANG_SECONDS", "60"))
#: in collect mode, also save files whose validation takes longer than this plus a second
#: per megabyte (0: never)
SLOW_SECONDS = float(os.environ.get("IRVALIDATE_FUZZ_SLOW_SECONDS", "0"))


def _seed_list(text: str) -> tuple[int, ...]:
    found: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        lo, _, hi = part.partition("-")
        found.extend(range(int(lo), int(hi or lo) + 1))
    return tuple(found)


#: ovgen seeds used as extra seeds: small, with If (2) and Loop (10, 36) bodies, and a large .bin (3)
OVGEN_SEEDS = _seed_list(os.environ.get("IRVALIDATE_FUZZ_OVGEN_SEEDS", "1,2,3,10,36"))

FUZZ_SETTINGS = settings(
    max_examples=N_EXAMPLES, deadline=None, derandomize=DERANDOMIZE,
    database=None if DERANDOMIZE else settings.default.database,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
    print_blob=True)


# --------------------------------------------------------------------------------------
# seeds


@dataclass(frozen=True)
class Seed:
    name: str
    xml: bytes
    bin: bytes | None


def _sample_seeds() -> list[Seed]:
    seeds = []
    folders = [ROOT / "sample_models" / "valid", ROOT / "sample_models" / "spec"]
    folders += [Path(p) for p in os.environ.get("IRVALIDATE_FUZZ_SEED_DIRS", "").split(os.pathsep) if p]
    for folder in folders:
        for xml in sorted(folder.glob("*.xml")):
            binp = xml.with_suffix(".bin")
            seeds.append(Seed(f"{folder.name}/{xml.name}", xml.read_bytes(),
                              binp.read_bytes() if binp.is_file() else None))
    return seeds


def _ovgen_seeds() -> list[Seed]:
    try:
        from support import ovgen  # noqa: WPS433 - needs openvino; optional
    except Exception:  # noqa: BLE001 - no openvino: the sample models alone
        return []
    seeds = []
    with tempfile.TemporaryDirectory(prefix="irv-fuzz-seeds-") as tmp:
        for seed in OVGEN_SEEDS:
            try:
                gm = ovgen.generate(seed, Path(tmp) / str(seed))
            except Exception:  # noqa: BLE001 - a generator problem is not ours to report
                continue
            seeds.append(Seed(f"ovgen/{seed}", gm.xml.read_bytes(), gm.bin.read_bytes()))
    return seeds


_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                          huge_tree=True)


def _parses(seed: Seed) -> bool:
    try:
        etree.fromstring(seed.xml, _PARSER)
    except etree.XMLSyntaxError:  # an extra seed that is not XML at all: nothing to mutate
        return False
    return True


@functools.cache
def seeds() -> tuple[Seed, ...]:
    found = tuple(s for s in _sample_seeds() + _ovgen_seeds() if _parses(s))
    assert len(found) >= 10, "the fuzz seeds are missing (sample_models/valid, sample_models/spec)"
    return found


# --------------------------------------------------------------------------------------
# value pools

#: XML-safe text (lxml refuses control characters, surrogates and non-characters)
_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cn", "Co")), max_size=12)
_XML_NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,12}", fullmatch=True)

ELEMENT_TYPES = ("boolean", "bf16", "f16", "f32", "f64", "f8e4m3", "f8e5m2", "f8e8m0", "f4e2m1",
                 "nf4", "i4", "i8", "i16", "i32", "i64", "u1", "u2", "u3", "u4", "u6", "u8",
                 "u16", "u32", "u64", "string", "dynamic", "undefined", "FP32", "I64", "BOOL",
                 "BIN", "UNSPECIFIED", "U8", "f33", "I64 ", "")
INTERESTING = (
    "", " ", "0", "1", "-1", "-2", "2", "3", "4", "7", "8", "16", "64", "65536", "65537",
    "-9223372036854775808", "9223372036854775807", "9223372036854775808",
    "18446744073709551615", "18446744073709551616", "9" * 30, "-" + "9" * 30,
    "1..8", "5..2", "..5", "3..", "..", "-3..-1", "0..0", "1..9223372036854775807", "?",
    "...", "[...]", "1,2,3", "2,-1,3", "1..8,?", "[2,3]", "[]", "[", ",", "1,,2", "2,3,",
    " 2 , 3 ", "-2,-3", "0", "0,0", "65536,65536", "1," * 40 + "1",
    "0x10", "1.5", "1e3", "nan", "inf", "-inf", "abc", "  3 ", "+3", "-0", "٣", "３", "²",
    "\u00a0", "3\u00a0", "true", "false", "none", "numpy", "NUMPY", "pdpd", "explicit",
    "bidirectional", "BIDIRECTIONAL", "Explicit ", "numpy\t", "execution_condition",
    "current_iteration", "I64", "i64", "u1", "u3", "u6", "i4", "string", "dynamic", "boolean",
) + ELEMENT_TYPES
OP_TYPES = ("Broadcast", "Select", "FakeQuantize", "Add", "Subtract", "Multiply", "Equal",
            "LogicalAnd", "LogicalNot", "Xor", "BitwiseAnd", "BitwiseLeftShift", "If", "Loop",
            "TensorIterator", "Const", "Constant", "Parameter", "Result", "Convert",
            "ConvertLike", "IsNaN", "ReLU", "ShapeOf", "Reshape", "Concat", "Split", "ReadValue",
            "", " ", "add", "BROADCAST", "select", "Foo", "Ω", " Add", "Add ", "Add\u200b",
            "Broadcast\u00a0", "1", "NotAnOp")
VERSIONS = tuple(f"opset{i}" for i in range(0, 21)) + (
    "opset", "", "opset-1", "opset99999999999999999999", "Opset3", "OPSET1", "ie", "extension",
    "experimental", "opset1 ", " opset3", "opset3.1", "opset٣", "opset３", "opset0x3")
TAGS = ("net", "layers", "layer", "edges", "edge", "data", "input", "output", "port", "dim",
        "body", "then_body", "else_body", "port_map", "then_port_map", "else_port_map",
        "back_edges", "rt_info", "attribute", "meta_data", "Layer", "foo", "{urn:x}net",
        "{urn:x}layer", "{http://www.w3.org/XML/1998/namespace}dim")
KNOWN_ATTRS = {
    "net": ("version", "name", "batch"),
    "layer": ("id", "name", "type", "version", "output_names"),
    "data": ("shape", "element_type", "offset", "size", "mode", "auto_broadcast",
             "auto_broadcast.auto_broadcast_axis", "mode.auto_broadcast_axis", "mode.mode.axis",
             "axis", "destination_type", "levels", "then_body", "special_body_ports",
             "num_iterations", "variable_id", "special_zero"),
    "port": ("id", "precision", "names"),
    "edge": ("from-layer", "from-port", "to-layer", "to-port"),
    "input": ("external_port_id", "internal_layer_id", "internal_port_id", "axis", "start",
              "end", "stride", "part_size", "purpose"),
    "output": ("external_port_id", "internal_layer_id", "internal_port_id", "axis", "start",
               "end", "stride", "part_size", "purpose"),
}
DIM_TOKENS = ("-1", "-2", "1..8", "", "abc", "9" * 30, "  3 ", "0", "1", "2", "3", "-0", "+4",
              "٣", "²", "1.0", "9223372036854775807", "9223372036854775808",
              "-9223372036854775808", "?", " ", "\n")
TEXT_SNIPPETS = (
    '<!DOCTYPE net [<!ENTITY x "1">]>', '<!DOCTYPE net SYSTEM "http://example.invalid/x.dtd">',
    "&x;", "&amp;", "&#0;", "&#x1F600;", "<!-- c -->", "<?pi x?>", "<![CDATA[3]]>", "\x00",
    "\ufeff", "<", ">", "]]>", "<dim>1</dim>", "</layer>", "<layer/>", "é")


def _ids(root: etree._Element) -> list[str]:
    """Layer and port ids that exist somewhere in the file: rewiring to them is the
    interesting case (ids that are valid, just wrong)."""
    found = set()
    for elem in root.iter("layer", "port"):
        if elem.get("id") is not None:
            found.add(elem.get("id"))
    return sorted(found)


def _value(draw, root: etree._Element) -> str:
    kind = draw(st.sampled_from(("pool", "pool", "pool", "id", "int", "text", "list")))
    if kind == "pool":
        return draw(st.sampled_from(INTERESTING))
    if kind == "id":
        ids = _ids(root)
        return draw(st.sampled_from(ids)) if ids else "0"
    if kind == "int":
        return str(draw(st.one_of(st.integers(-3, 70), st.integers(-(1 << 70), 1 << 70))))
    if kind == "list":
        items = draw(st.lists(st.sampled_from(("1", "2", "3", "-1", "0", "?", "1..4", "x", "",
                                               "9" * 25)), max_size=6))
        return ",".join(items)
    return draw(_TEXT)


# --------------------------------------------------------------------------------------
# tree mutations: each returns a description, or None when it does not apply


def _elements(root: etree._Element) -> list[etree._Element]:
    return [e for e in root.iter() if isinstance(e.tag, str)]


def _pick(draw, root: etree._Element, include_root: bool = False,
          tags: tuple[str, ...] | None = None) -> etree._Element | None:
    """An element: first a tag (so rare tags such as back_edges get their share), then one."""
    by_tag: dict[str, list[etree._Element]] = {}
    for elem in _elements(root):
        if (elem is root and not include_root) or (tags and elem.tag not in tags):
            continue
        by_tag.setdefault(elem.tag, []).append(elem)
    if not by_tag:
        return None
    tag = draw(st.sampled_from(sorted(by_tag)))
    group = by_tag[tag]
    return group[draw(st.integers(0, len(group) - 1))]


def _where(elem: etree._Element) -> str:
    ident = elem.get("id") or elem.get("name") or ""
    return f"<{elem.tag}{' ' + ident if ident else ''}> (line {elem.sourceline})"


def m_delete(draw, root):
    elem = _pick(draw, root)
    if elem is None:
        return None
    elem.getparent().remove(elem)
    return f"delete {_where(elem)}"


def _destination(draw, root, elem) -> tuple[etree._Element, int]:
    inside = set(elem.iter()) if elem is not None else set()
    parents = [e for e in _elements(root) if e not in inside]
    parent = parents[draw(st.integers(0, len(parents) - 1))]
    return parent, draw(st.integers(0, len(parent)))


def m_duplicate(draw, root):
    elem = _pick(draw, root)
    if elem is None:
        return None
    clone = copy.deepcopy(elem)
    if draw(st.booleans()):
        elem.addnext(clone)
        return f"duplicate {_where(elem)} in place"
    parent, index = _destination(draw, root, None)
    parent.insert(index, clone)
    return f"duplicate {_where(elem)} into {_where(parent)} at {index}"


def m_move(draw, root):
    elem = _pick(draw, root)
    if elem is None:
        return None
    desc = _where(elem)
    parent, index = _destination(draw, root, elem)
    parent.insert(index, elem)
    return f"move {desc} into {_where(parent)} at {index}"


def m_rename_tag(draw, root):
    elem = _pick(draw, root, include_root=True)
    new = draw(st.sampled_from(TAGS))
    if elem is None or new == elem.tag:
        return None
    desc = _where(elem)
    elem.tag = new
    return f"rename {desc} to <{new}>"


def _set(elem, name: str, value: str) -> bool:
    try:
        elem.set(name, value)
    except (ValueError, TypeError):
        return False
    return True


def m_set_attribute(draw, root):
    elem = _pick(draw, root, include_root=True)
    if elem is None:
        return None
    names = sorted(set(elem.attrib) | set(KNOWN_ATTRS.get(elem.tag, ())))
    if not names:
        return None
    name = draw(st.sampled_from(names))
    value = _value(draw, root)
    if not _set(elem, name, value):
        return None
    return f"set {_where(elem)} {name}={value!r}"


def m_delete_attribute(draw, root):
    elem = _pick(draw, root, include_root=True)
    if elem is None or not elem.attrib:
        return None
    name = draw(st.sampled_from(sorted(elem.attrib)))
    del elem.attrib[name]
    return f"delete attribute {name} of {_where(elem)}"


def m_add_attribute(draw, root):
    elem = _pick(draw, root, include_root=True)
    if elem is None:
        return None
    name = draw(st.one_of(_XML_NAME, st.sampled_from(sorted({a for v in KNOWN_ATTRS.values()
                                                             for a in v}))))
    value = _value(draw, root)
    if not _set(elem, name, value):
        return None
    return f"add attribute {name}={value!r} to {_where(elem)}"


def m_dim_text(draw, root):
    elem = _pick(draw, root, tags=("dim",))
    if elem is None:
        return None
    value = draw(st.one_of(st.sampled_from(DIM_TOKENS), st.integers(-(1 << 65), 1 << 65).map(str),
                           _TEXT))
    elem.text = value
    return f"set {_where(elem)} text to {value!r}"


def m_layer_type(draw, root):
    elem = _pick(draw, root, tags=("layer",))
    if elem is None:
        return None
    value = draw(st.sampled_from(OP_TYPES))
    desc = _where(elem)
    elem.set("type", value)
    return f"set type of {desc} to {value!r}"


def m_layer_version(draw, root):
    elem = _pick(draw, root, tags=("layer",))
    if elem is None:
        return None
    value = draw(st.one_of(st.sampled_from(VERSIONS), _TEXT))
    if not _set(elem, "version", value):
        return None
    return f"set version of {_where(elem)} to {value!r}"


def m_rewire(draw, root):
    elem = _pick(draw, root, tags=("edge", "input", "output"))
    if elem is None:
        return None
    if elem.tag == "edge":
        names = ("from-layer", "from-port", "to-layer", "to-port")
    else:  # a port map entry, or a layer's <input>/<output> section (harmless either way)
        names = ("external_port_id", "internal_layer_id", "internal_port_id")
    name = draw(st.sampled_from(names))
    ids = _ids(root)
    value = draw(st.sampled_from(ids)) if ids and draw(st.integers(0, 3)) else _value(draw, root)
    if not _set(elem, name, value):
        return None
    return f"rewire {_where(elem)} {name}={value!r}"


def _ports(layer: etree._Element, section: str) -> list[str]:
    found = layer.find(section)
    return [p.get("id", "") for p in (found if found is not None else ()) if p.tag == "port"]


def m_add_edge(draw, root):
    """A new edge between existing layers and ports of one graph (or random ids)."""
    containers = [e for e in _elements(root) if e.tag in ("edges", "back_edges")]
    if not containers:
        return None
    container = containers[draw(st.integers(0, len(containers) - 1))]
    graph = container.getparent()
    section = graph.find("layers") if graph is not None else None
    layers = [l for l in (section if section is not None else ()) if l.tag == "layer"]
    if not layers:
        return None
    source = layers[draw(st.integers(0, len(layers) - 1))]
    target = layers[draw(st.integers(0, len(layers) - 1))]
    out_ports = _ports(source, "output") or ["0"]
    in_ports = _ports(target, "input") or ["0"]
    attrs = {"from-layer": source.get("id", ""), "from-port": draw(st.sampled_from(out_ports)),
             "to-layer": target.get("id", ""), "to-port": draw(st.sampled_from(in_ports))}
    edge = etree.SubElement(container, "edge", attrs)
    return f"add {etree.tostring(edge).decode()} to {_where(container)}"


def m_swap_edges(draw, root):
    """Exchange the targets (or sources) of two edges of one graph: ports stay real."""
    containers = [e for e in _elements(root) if e.tag == "edges" and len(e) >= 2]
    if not containers:
        return None
    container = containers[draw(st.integers(0, len(containers) - 1))]
    edges = [e for e in container if e.tag == "edge"]
    if len(edges) < 2:
        return None
    a, b = (edges[draw(st.integers(0, len(edges) - 1))] for _ in range(2))
    end = draw(st.sampled_from(("to", "from")))
    for name in (f"{end}-layer", f"{end}-port"):
        va, vb = a.get(name), b.get(name)
        if va is not None and vb is not None:
            a.set(name, vb)
            b.set(name, va)
    return f"swap {end} ends of {_where(a)} and {_where(b)}"


#: values that mean something for a known attribute
_ENUMS = ("none", "explicit", "numpy", "pdpd", "bidirectional", "NUMPY", "Explicit", "PDPD",
          "numpy ", "", "fancy", " numpy", "numpy,pdpd")


def _semantic_value(draw, name: str, old: str | None) -> str:
    if name in ("auto_broadcast", "mode"):
        return draw(st.sampled_from(_ENUMS))
    if name in ("element_type", "precision", "destination_type"):
        return draw(st.sampled_from(ELEMENT_TYPES))
    if name == "shape":
        return draw(st.one_of(st.sampled_from(INTERESTING),
                              st.lists(st.sampled_from(("0", "1", "2", "3", "-1", "?", "1..8",
                                                        "5..2", "..3", "4..", "65536", "9" * 20)),
                                       max_size=5).map(",".join)))
    if name in ("offset", "size"):
        base = int(old) if old is not None and re.fullmatch(r"[0-9]{1,30}", old) else 0
        return str(draw(st.one_of(st.integers(-2, 4).map(lambda d: base + d),
                                  st.sampled_from((0, -1, 1 << 31, 1 << 63, 1 << 64, 10 ** 30))
                                  )))
    if "axis" in name or name in ("start", "end", "stride", "part_size", "levels"):
        return draw(st.one_of(st.integers(-6, 6).map(str), st.sampled_from(INTERESTING)))
    if name == "purpose":
        return draw(st.sampled_from(("execution_condition", "current_iteration", "", "x")))
    return draw(st.sampled_from(INTERESTING))


def m_semantic_attribute(draw, root):
    """An attribute the rules read (data, port precision, port maps) set to a value of its kind."""
    elem = _pick(draw, root, tags=("data", "port", "input", "output"))
    if elem is None:
        return None
    names = sorted(elem.attrib) or sorted(KNOWN_ATTRS.get(elem.tag, ()))
    if not names:
        return None
    name = draw(st.sampled_from(names))
    value = _semantic_value(draw, name, elem.get(name))
    if not _set(elem, name, value):
        return None
    return f"set {_where(elem)} {name}={value!r}"


def m_text(draw, root):
    elem = _pick(draw, root, include_root=True)
    if elem is None:
        return None
    value = draw(st.one_of(st.sampled_from(("3", " ", "x", "1..2")), _TEXT))
    if draw(st.booleans()):
        elem.text = value
        return f"set text of {_where(elem)} to {value!r}"
    if elem is root:
        return None
    elem.tail = value
    return f"set tail of {_where(elem)} to {value!r}"


def m_nest(draw, root):
    """Give a layer a body, a chain of ``depth`` bodies deep; shallow ones copy the model."""
    layer = _pick(draw, root, tags=("layer",))
    if layer is None:
        return None
    tag = draw(st.sampled_from(("body", "then_body", "else_body")))
    depth = draw(st.sampled_from((1, 2, 3, 63, 64, 65, 66, 90)))
    layers, edges = root.find("layers"), root.find("edges")
    full = depth <= 3 and layers is not None and draw(st.booleans())
    host = layer
    for level in range(depth):
        body = etree.SubElement(host, tag)
        if full:
            inner = copy.deepcopy(layers)
            body.append(inner)
            body.append(copy.deepcopy(edges) if edges is not None else etree.Element("edges"))
            if len(inner) == 0:
                break
            host = inner[draw(st.integers(0, len(inner) - 1))]
        else:
            inner = etree.SubElement(body, "layers")
            etree.SubElement(body, "edges")
            host = etree.SubElement(inner, "layer", id=str(level), name=f"n{level}",
                                    type="Loop", version="opset5")
    return f"nest {tag} x{depth} under {_where(layer)}" + (" (copies of the model)" if full else "")


_BROADCASTING = ("broadcast", "select", "fakequantize", "add", "subtract", "multiply", "divide",
                 "power", "maximum", "minimum", "floormod", "mod", "squareddifference", "equal",
                 "notequal", "less", "lessequal", "greater", "greaterequal", "logicaland",
                 "logicalor", "logicalxor", "xor", "bitwiseand", "bitwiseor", "bitwisexor",
                 "bitwiseleftshift", "bitwiserightshift")
_AXIS_VALUES = st.one_of(st.integers(-4, 6), st.sampled_from((-2, 100000, 1 << 31, 1 << 63, 10 ** 25)))


def _layers_of_kind(root, kinds: tuple[str, ...]) -> list[etree._Element]:
    return [l for l in root.iter("layer") if (l.get("type") or "").lower() in kinds]


def _data_of(layer: etree._Element) -> etree._Element:
    data = layer.find("data")
    if data is None:
        data = etree.Element("data")
        layer.insert(0, data)
    return data


def m_broadcast_attrs(draw, root):
    """A broadcasting layer's mode and axis together (pdpd with an odd axis needs both)."""
    layers = _layers_of_kind(root, _BROADCASTING)
    if not layers:
        return None
    layer = layers[draw(st.integers(0, len(layers) - 1))]
    data = _data_of(layer)
    done = []
    if layer.get("type", "").lower() == "broadcast":
        mode = draw(st.sampled_from(_ENUMS))
        data.set("mode", mode)
        done.append(f"mode={mode!r}")
        for name in ("mode.auto_broadcast_axis", "mode.mode.axis"):
            if draw(st.booleans()):
                value = str(draw(_AXIS_VALUES))
                data.set(name, value)
                done.append(f"{name}={value}")
        if draw(st.booleans()):
            version = draw(st.sampled_from(("opset1", "opset3", "opset2", "opset16", "opset0")))
            layer.set("version", version)
            done.append(f"version={version}")
    else:
        mode = draw(st.sampled_from(_ENUMS))
        data.set("auto_broadcast", mode)
        done.append(f"auto_broadcast={mode!r}")
        if draw(st.booleans()):
            value = str(draw(_AXIS_VALUES))
            data.set("auto_broadcast.auto_broadcast_axis", value)
            done.append(f"auto_broadcast.auto_broadcast_axis={value}")
    return f"set {_where(layer)} " + ", ".join(done)


_BITS = {"boolean": 8, "bf16": 16, "f16": 16, "f32": 32, "f64": 64, "f8e4m3": 8, "f8e5m2": 8,
         "f8e8m0": 8, "f4e2m1": 4, "nf4": 4, "i4": 4, "i8": 8, "i16": 16, "i32": 32, "i64": 64,
         "u1": 1, "u2": 2, "u3": 3, "u4": 4, "u6": 6, "u8": 8, "u16": 16, "u32": 32, "u64": 64}


def m_retype_const(draw, root):
    """A Const's element type, shape, offset and size, consistent or nearly so, so that the
    decoder (sub-byte packings included) runs instead of stopping at the first check."""
    layers = _layers_of_kind(root, ("const", "constant"))
    if not layers:
        return None
    layer = layers[draw(st.integers(0, len(layers) - 1))]
    data = _data_of(layer)
    et = draw(st.sampled_from(sorted(_BITS) + ["string", "dynamic", "undefined", "U8", "x"]))
    shape = draw(st.lists(st.integers(0, 9), max_size=3))
    if draw(st.integers(0, 4)) == 0:
        shape = draw(st.sampled_from(([65536], [65537], [1 << 20], [1 << 40, 1 << 40], [0, 1 << 62])))
    count = 1
    for d in shape:
        count *= d
    size = (count * _BITS.get(et, 8) + 7) // 8 + draw(st.sampled_from((0, 0, 0, -1, 1, 8)))
    offset = draw(st.sampled_from((0, 0, 1, 3, 8, 16, 1 << 40, -1)))
    data.set("element_type", et)
    data.set("shape", ",".join(map(str, shape)))
    data.set("offset", str(offset))
    data.set("size", str(size))
    port = layer.find("output/port")
    if port is not None and draw(st.booleans()):
        for dim in port.findall("dim"):
            port.remove(dim)
        for d in shape:
            etree.SubElement(port, "dim").text = str(d)
    return f"set {_where(layer)} element_type={et} shape={shape} offset={offset} size={size}"


def m_port_dims(draw, root):
    """Replace every <dim> of a port (a new rank and values), or of a Parameter and its shape."""
    port = _pick(draw, root, tags=("port",))
    if port is None:
        return None
    for dim in port.findall("dim"):
        port.remove(dim)
    dims = draw(st.lists(st.sampled_from(("0", "1", "2", "3", "4", "5", "-1", "16", "65536")),
                         max_size=6))
    for d in dims:
        etree.SubElement(port, "dim").text = d
    layer = port.getparent().getparent() if port.getparent() is not None else None
    extra = ""
    if layer is not None and (layer.get("type") or "").lower() in ("parameter", "const") \
            and draw(st.booleans()):
        shape = ",".join(d if d != "-1" else draw(st.sampled_from(("?", "1..8", "2..", "..3")))
                         for d in dims)
        _data_of(layer).set("shape", shape)
        extra = f" and shape={shape!r}"
    return f"set dims of {_where(port)} to {dims}{extra}"


def m_graft(draw, root):
    """Insert a layer (or an edge) of another seed: real content, clashing ids and ports."""
    pool = seeds()
    donor = etree.fromstring(pool[draw(st.integers(0, len(pool) - 1))].xml, _PARSER)
    part = _pick(draw, donor, tags=("layer", "edge"))
    targets = [e for e in _elements(root) if e.tag == ("layers" if part is not None and
                                                       part.tag == "layer" else "edges")]
    if part is None or not targets:
        return None
    target = targets[draw(st.integers(0, len(targets) - 1))]
    target.insert(draw(st.integers(0, len(target))), copy.deepcopy(part))
    return f"graft {_where(part)} of another seed into {_where(target)}"


def m_explode(draw, root):
    """Repeat an element many times (edges, layers, dims, port map entries): no rule may be
    quadratic enough to hang on a file of a few megabytes."""
    elem = _pick(draw, root)
    if elem is None:
        return None
    times = draw(st.sampled_from((10, 100, 1000, 3000)))
    times = min(times, max(1, 2_000_000 // len(etree.tostring(elem))))  # a few MB at most
    for _ in range(times):
        elem.addnext(copy.deepcopy(elem))
    return f"repeat {_where(elem)} {times} times"


TREE_MUTATIONS: dict[str, Callable] = {
    "delete": m_delete, "duplicate": m_duplicate, "move": m_move, "rename_tag": m_rename_tag,
    "set_attribute": m_set_attribute, "delete_attribute": m_delete_attribute,
    "add_attribute": m_add_attribute, "dim_text": m_dim_text, "layer_type": m_layer_type,
    "layer_version": m_layer_version, "rewire": m_rewire, "add_edge": m_add_edge,
    "text": m_text, "nest": m_nest, "swap_edges": m_swap_edges,
    "semantic_attribute": m_semantic_attribute, "broadcast_attrs": m_broadcast_attrs,
    "retype_const": m_retype_const, "port_dims": m_port_dims, "graft": m_graft,
    "explode": m_explode,
}
#: weights: the cheap, semantic mutations more often than the structural ones
_KINDS = ("delete", "delete", "duplicate", "move", "rename_tag", "set_attribute",
          "set_attribute", "set_attribute", "delete_attribute", "add_attribute", "dim_text",
          "dim_text", "layer_type", "layer_type", "layer_version", "rewire", "rewire",
          "add_edge", "text", "nest", "swap_edges", "swap_edges", "semantic_attribute",
          "semantic_attribute", "semantic_attribute", "semantic_attribute",
          "broadcast_attrs", "broadcast_attrs", "retype_const", "retype_const", "port_dims",
          "port_dims", "graft", "graft", "explode")


# --------------------------------------------------------------------------------------
# text and .bin mutations


def _text_mutation(draw, xml: bytes) -> tuple[bytes, str | None]:
    kind = draw(st.sampled_from(("none",) * 12 + ("truncate", "splice", "declaration", "utf16",
                                                   "entity")))
    if kind == "entity":  # a DTD declaring entities, referenced where a value or element goes
        dtd = (b'<!DOCTYPE net [<!ENTITY v "3"><!ENTITY e "<dim>2</dim>"><!ENTITY n "&#38;v;">'
               b'<!ENTITY lol "&v;&v;&v;&v;&v;&v;&v;&v;&v;&v;">]>')
        body = re.sub(rb"^\s*<\?xml[^>]*\?>", b"", xml)
        spots = [m.end() for m in re.finditer(rb">", body)]
        ref = draw(st.sampled_from((b"&v;", b"&e;", b"&n;", b"&lol;", b"&undefined;")))
        if not spots:
            return dtd + body, "DTD"
        at = spots[draw(st.integers(0, len(spots) - 1))]
        return dtd + body[:at] + ref + body[at:], f"DTD with entities, {ref!r} at byte {at}"
    if kind == "utf16":  # the same document, declared and encoded as UTF-16
        text = re.sub(rb"^\s*<\?xml[^>]*\?>", b"", xml).decode("utf-8", "replace")
        return ("<?xml version='1.0' encoding='UTF-16'?>" + text).encode("utf-16"), "UTF-16"
    if kind == "truncate":
        at = draw(st.integers(0, max(0, len(xml) - 1)))
        return xml[:at], f"truncate XML at byte {at}"
    if kind == "splice":
        snippet = draw(st.sampled_from(TEXT_SNIPPETS)).encode("utf-8")
        at = draw(st.integers(0, len(xml)))
        return xml[:at] + snippet + xml[at:], f"splice {snippet!r} at byte {at}"
    if kind == "declaration":
        decl = draw(st.sampled_from((b"<?xml version='1.0' encoding='UTF-16'?>",
                                     b"<?xml version='1.0' encoding='latin-1'?>",
                                     b"<?xml version='1.1'?>", b"<?xml version='2.0'?>",
                                     b"<?xml version='1.0' encoding='bogus'?>", b"")))
        body = re.sub(rb"^\s*<\?xml[^>]*\?>", b"", xml)
        return decl + body, f"XML declaration {decl!r}"
    return xml, None


def _bin_mutation(draw, blob: bytes | None) -> tuple[object, str | None]:
    """The new .bin: bytes, "missing" or "directory"; and what was done."""
    kind = draw(st.sampled_from(("keep",) * 8 + ("truncate", "flip", "empty", "append",
                                                   "replace", "missing", "directory")))
    blob = blob if blob is not None else b""
    if kind == "truncate":
        at = draw(st.integers(0, max(0, len(blob))))
        return blob[:at], f"truncate .bin to {at} bytes"
    if kind == "flip" and blob:
        data = bytearray(blob)
        flips = draw(st.lists(st.tuples(st.integers(0, len(blob) - 1), st.integers(1, 255)),
                              min_size=1, max_size=8))
        for at, mask in flips:
            data[at] ^= mask
        return bytes(data), f"flip .bin bytes {flips}"
    if kind == "empty":
        return b"", "empty .bin"
    if kind == "append":
        extra = draw(st.binary(min_size=1, max_size=64))
        return blob + extra, f"append {len(extra)} bytes to .bin"
    if kind == "replace":
        new = draw(st.binary(max_size=256))
        return new, f"replace .bin with {len(new)} random bytes"
    if kind in ("missing", "directory"):
        return kind, f".bin is {kind}"
    return blob, None


# --------------------------------------------------------------------------------------
# one fuzz case


@dataclass
class Case:
    seed: str
    xml: bytes
    bin: object          # bytes, "missing" or "directory"
    bin_name: str        # model.bin (found by default) or weights.bin (passed as bin_path)
    mutations: list[str]

    def write(self, folder: Path) -> tuple[str, str | None]:
        folder.mkdir(parents=True, exist_ok=True)
        xml = folder / "model.xml"
        xml.write_bytes(self.xml)
        binp = folder / self.bin_name
        if self.bin == "directory":
            binp.mkdir()
            (binp / "x").write_bytes(b"\0")
        elif self.bin != "missing":
            binp.write_bytes(self.bin)  # type: ignore[arg-type]
        return str(xml), (str(binp) if self.bin_name != "model.bin" else None)


def draw_case(draw) -> Case:
    pool = seeds()
    groups = sorted({s.name.split("/")[0] for s in pool})
    group = draw(st.sampled_from(groups))
    members = [s for s in pool if s.name.split("/")[0] == group]
    seed = members[draw(st.integers(0, len(members) - 1))]
    root = etree.fromstring(seed.xml, _PARSER)
    done = []
    for _ in range(draw(st.integers(1, MAX_MUTATIONS))):
        kind = draw(st.sampled_from(_KINDS))
        desc = TREE_MUTATIONS[kind](draw, root)
        if desc:
            done.append(desc)
    xml = etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8")
    xml, text_desc = _text_mutation(draw, xml)
    blob, bin_desc = _bin_mutation(draw, seed.bin)
    explicit = draw(st.sampled_from((False, False, False, True)))
    done += [d for d in (text_desc, bin_desc) if d]
    if explicit:
        done.append("bin passed as bin_path=weights.bin")
    return Case(seed.name, xml, blob, "weights.bin" if explicit else "model.bin", done)


# --------------------------------------------------------------------------------------
# failure records


_INTERNAL = re.compile(r"internal error in (?P<where>.+?): (?P<exc>[A-Za-z_][\w.]*): .*"
                       r" at (?P<at>\S+:\d+); please", re.S)


def _signature_of_message(message: str) -> str:
    match = _INTERNAL.search(message)
    if match is None:
        return "IRV000|" + message[:80]
    return f"IRV000|{match['where']}|{match['exc']}|{match['at']}"


def _signature_of_exception(kind: str, err: BaseException) -> str:
    frames = traceback.extract_tb(err.__traceback__)
    ours = [f for f in frames if "irvalidate" in f.filename] or frames
    at = f"{os.path.basename(ours[-1].filename)}:{ours[-1].lineno}" if ours else "?"
    return f"{kind}|{type(err).__name__}|{at}"


def _full_traceback(xml: str, bin_path: str | None) -> str:
    """Run the engine again with every rule, and its parse and analysis steps, wrapped so
    that the traceback of whatever crashed is kept (the IRV000 message has only its last
    frame)."""
    from irvalidate.engine import validation as engine
    from irvalidate.rules import RULES

    traces: list[str] = []

    class Recording:
        def __init__(self, rule) -> None:
            self._rule = rule

        def __getattr__(self, name: str):
            return getattr(self._rule, name)

        def check(self, ctx):
            try:
                yield from self._rule.check(ctx)
            except Exception:
                scope = getattr(getattr(ctx, "graph", None), "scope", "") or "model"
                traces.append(f"in rule {self._rule.CODE} {self._rule.SLUG} (graph {scope!r}):\n"
                              + traceback.format_exc())
                raise

    def recording(step: Callable, name: str) -> Callable:
        def wrapper(*args, **kwargs):
            try:
                return step(*args, **kwargs)
            except Exception:
                traces.append(f"in {name}:\n" + traceback.format_exc())
                raise
        return wrapper

    steps = {name: getattr(engine, name) for name in ("parse", "BinFile", "GraphAnalysis")
             if hasattr(engine, name)}
    try:
        for name, step in steps.items():
            setattr(engine, name, recording(step, name))
        engine.validate_file(xml, bin_path, None, rules=tuple(Recording(r) for r in RULES))
    except Exception:  # noqa: BLE001 - internals moved: the message alone must do
        traces.append("(could not re-run the engine: " + traceback.format_exc(limit=3) + ")")
    finally:
        for name, step in steps.items():
            setattr(engine, name, step)
    return "\n".join(traces) or "(the crash did not reproduce)"


_recorded: dict[str, int] = {}


def record_failure(case: Case, signature: str, message: str, details: str) -> Path:
    """Save the case under SAVE_DIR/<n>/, one folder per signature, keeping the smallest."""
    SAVE_DIR.mkdir(parents=True, exist_ok=True)
    index_path = SAVE_DIR / "index.json"
    try:
        index = json.loads(index_path.read_text())
    except (OSError, ValueError):
        index = {}
    entry = index.get(signature)
    size = len(case.xml)
    if entry is None:
        numbers = [int(p.name) for p in SAVE_DIR.iterdir() if p.name.isdigit()]
        entry = {"n": max(numbers, default=0) + 1, "size": None, "count": 0}
        index[signature] = entry
    entry["count"] = entry.get("count", 0) + 1
    folder = SAVE_DIR / str(entry["n"])
    if entry["size"] is None or size < entry["size"]:
        entry["size"] = size
        shutil.rmtree(folder, ignore_errors=True)
        xml, bin_path = case.write(folder)
        (folder / "README.txt").write_text(
            f"signature: {signature}\nseed: {case.seed}\nmessage: {message}\n\nmutations:\n"
            + "".join(f"  - {m}\n" for m in case.mutations)
            + f"\nrepro:\n  python -c \"from irvalidate.engine.validation import validate_file; "
              f"print(validate_file({xml!r}, {bin_path!r}))\"\n\n{details}\n", encoding="utf-8")
    index_path.write_text(json.dumps(index, indent=1, sort_keys=True))
    _recorded[signature] = entry["n"]
    return folder


def _fail(case: Case, failures: list[tuple[str, str, str]]) -> None:
    saved = [f"{record_failure(case, sig, msg, det)}: {msg}" for sig, msg, det in failures]
    for line in saved:
        print(line)
    if not COLLECT:
        pytest.fail("irvalidate failed on a mutated IR:\n" + "\n".join(saved)
                    + "\nmutations:\n" + "\n".join(case.mutations), pytrace=False)


# --------------------------------------------------------------------------------------
# the tests


class Hang(BaseException):
    """Raised in the validating thread by the watchdog (BaseException: the engine must not
    turn it into an IRV000 finding)."""


@contextlib.contextmanager
def watchdog(case: Case):
    """Save the case and interrupt the validator when it runs longer than HANG_SECONDS."""
    import ctypes

    done = threading.Event()
    ident = threading.get_ident()

    def watch() -> None:
        if done.wait(HANG_SECONDS):
            return
        frame = sys._current_frames().get(ident)
        stack = traceback.extract_stack(frame) if frame is not None else []
        ours = [f for f in stack if "irvalidate" in f.filename] or stack
        at = f"{os.path.basename(ours[-1].filename)}:{ours[-1].lineno}" if ours else "?"
        message = f"validate_file did not return within {HANG_SECONDS:g} s (stuck at {at})"
        folder = record_failure(case, f"hang|{at}", message,
                                "stack of the stuck thread:\n" + "".join(traceback.format_list(stack)))
        print(f"\n{folder}: {message}", file=sys.__stderr__, flush=True)
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(Hang))
        if not done.wait(30):  # stuck inside C code: the exception cannot be delivered
            print("the validator is stuck in C code; exiting", file=sys.__stderr__, flush=True)
            os._exit(3)

    thread = threading.Thread(target=watch, name="irvalidate-fuzz-watchdog", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()


def _check_file(case: Case, folder: Path) -> None:
    from irvalidate import __version__
    from irvalidate.reporting import FORMATTERS

    xml, bin_path = case.write(folder)
    failures: list[tuple[str, str, str]] = []
    started = time.monotonic()
    try:
        with watchdog(case):
            result = validate_file(xml, bin_path, None)
        elapsed = time.monotonic() - started
        if COLLECT and SLOW_SECONDS and elapsed > SLOW_SECONDS + len(case.xml) / 1e6:
            record_failure(case, f"slow|{case.seed}|{case.mutations[0].split()[0] if case.mutations else ''}",
                           f"validate_file took {elapsed:.1f} s on {len(case.xml)} bytes", "")
    except Hang:
        if not COLLECT:
            pytest.fail(f"validate_file hung on a mutated IR (saved under {SAVE_DIR})",
                        pytrace=False)
        return
    except Exception as err:  # noqa: BLE001 - the bug class we hunt
        failures.append((_signature_of_exception("escaped", err), f"{type(err).__name__}: {err}",
                         traceback.format_exc()))
        _fail(case, failures)
        return
    assert isinstance(result, FileResult), type(result)
    assert result.path == xml
    for finding in result.findings:
        assert re.fullmatch(r"IRV\d{3}", finding.code), finding
        assert finding.level in ("error", "warning", "info"), finding
        if finding.code == "IRV000":
            failures.append((_signature_of_message(finding.message), finding.message,
                             _full_traceback(xml, bin_path)))
    for name, render in sorted(FORMATTERS.items()):
        try:
            render([result], __version__)
        except Exception as err:  # noqa: BLE001 - the CLI would exit 2
            failures.append((_signature_of_exception(f"render-{name}", err),
                             f"{name} formatter: {type(err).__name__}: {err}",
                             traceback.format_exc()))
    if failures:
        _fail(case, failures)


@FUZZ_SETTINGS
@given(st.data())
def test_mutated_ir_never_crashes_the_validator(data):
    case = draw_case(data.draw)
    for line in case.mutations:
        note(line)
    with tempfile.TemporaryDirectory(prefix="irv-fuzz-") as tmp:
        _check_file(case, Path(tmp) / "case")


def _root_tag(path: str) -> str | None:
    """The root element's tag, as far as the start of the file tells (None: not XML there)."""
    try:
        for _, elem in etree.iterparse(path, events=("start",), resolve_entities=False,
                                       no_network=True, load_dtd=False):
            return elem.tag if isinstance(elem.tag, str) else None
    except (etree.XMLSyntaxError, OSError, ValueError):
        return None
    return None


@functools.cache
def _schema_validators() -> dict[str, Callable[[dict], None]]:
    """The committed report schema and the SARIF 2.1.0 schema, when jsonschema is installed."""
    try:
        from jsonschema.validators import validator_for
    except ImportError:  # pragma: no cover - an optional check
        return {}
    found = {}
    for name, path in (("json", ROOT / "schemas" / "report.schema.json"),
                       ("sarif", HERE / "reporting" / "data" / "sarif-schema-2.1.0.json")):
        if path.is_file():
            schema = json.loads(path.read_text(encoding="utf-8"))
            found[name] = validator_for(schema)(schema).validate
    return found


def _run_cli(argv: list[str]) -> tuple[int, str, str]:
    from irvalidate.cli.main import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # main returns its status; exiting is a failure too
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


@settings(FUZZ_SETTINGS, max_examples=max(3, N_EXAMPLES // 10))
@given(st.data())
def test_cli_reports_every_file_of_a_mixed_batch(data):
    pool = seeds()
    with tempfile.TemporaryDirectory(prefix="irv-fuzz-cli-") as tmp:
        tmp_path = Path(tmp)
        config = tmp_path / "irvalidate.toml"
        config.write_text("")  # the defaults, whatever pyproject.toml is nearest
        paths, cases = [], []
        n_mutated = data.draw(st.integers(1, 4), label="mutated files")
        for i in range(n_mutated):
            case = draw_case(data.draw)
            if case.bin_name != "model.bin":  # --bin takes one IR only: keep the default
                case.bin_name = "model.bin"
            xml, _ = case.write(tmp_path / f"m{i}")
            paths.append(xml)
            cases.append(case)
            note(f"m{i}: {case.seed}: " + "; ".join(case.mutations))
        valid = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=3),
                          label="valid seeds")
        for j, index in enumerate(valid):
            seed = pool[index]
            folder = tmp_path / f"v{j}"
            folder.mkdir()
            (folder / "model.xml").write_bytes(seed.xml)
            if seed.bin is not None:
                (folder / "model.bin").write_bytes(seed.bin)
            paths.append(str(folder / "model.xml"))
        order = data.draw(st.permutations(range(len(paths))), label="order")
        paths = [paths[k] for k in order]
        jobs = data.draw(st.sampled_from(("1", "1", "2")), label="jobs")
        # sometimes the folder itself: discovery then reads every file's root element
        by_folder = data.draw(st.sampled_from((False, False, True)), label="by folder")
        targets = [str(tmp_path)] if by_folder else paths
        code, stdout, stderr = _run_cli(["--format", "json", "--config", str(config), "-j", jobs,
                                         *targets])
        note(f"exit {code}; stderr: {stderr[-2000:]}")
        assert code in (0, 1), f"the CLI failed (exit {code}): {stderr[-2000:]}"
        report = json.loads(stdout)
        reported = [f["path"] for f in report["files"]]
        if by_folder:
            # every IR (root <net>) is found, once, in a stable order; other XML may be
            # skipped, and whether a file that does not parse counts is the tool's choice
            assert len(set(reported)) == len(reported) and set(reported) <= set(paths), reported
            assert reported == sorted(reported, key=lambda p: Path(p).parent.name), reported
            assert {p for p in paths if _root_tag(p) == "net"} <= set(reported), reported
            paths = reported
        assert reported == paths
        if "json" in _schema_validators():
            _schema_validators()["json"](report)
        internal = [(entry["path"], f["message"]) for entry in report["files"]
                    for f in entry["findings"] if f["rule"] == "IRV000"]
        for path, message in internal:
            case = cases[int(Path(path).parent.name[1:])] if Path(path).parent.name[0] == "m" \
                else Case("valid", Path(path).read_bytes(), b"", "model.bin", [])
            record_failure(case, _signature_of_message(message), message,
                           _full_traceback(path, None))
        assert COLLECT or not internal, f"internal errors: {internal}"
        errors = any(f["severity"] == "error" for entry in report["files"]
                     for f in entry["findings"])
        assert code == (1 if errors else 0), (code, errors)
        assert report["summary"]["files"] == len(paths)
        # the other formats render the same results: same status, never a tool failure
        fmt = data.draw(st.sampled_from(("text", "sarif", "github")), label="other format")
        other, out, err = _run_cli(["--format", fmt, "--config", str(config), "--statistics",
                                    "--color", "always", *targets])
        assert other == code, f"--format {fmt} exits {other}, json {code}: {err[-2000:]}"
        if fmt == "sarif" and "sarif" in _schema_validators():
            _schema_validators()["sarif"](json.loads(out))


def test_seeds_are_clean():
    """The unmutated seeds are valid: a failure here is a false positive, not a crash."""
    with tempfile.TemporaryDirectory(prefix="irv-fuzz-seeds-") as tmp:
        for i, seed in enumerate(seeds()):
            case = Case(seed.name, seed.xml, seed.bin if seed.bin is not None else "missing",
                        "model.bin", [])
            xml, _ = case.write(Path(tmp) / str(i))
            result = validate_file(xml)
            errors = [f"{f.code} {f.message}" for f in result.findings if f.level == "error"]
            assert not errors, (seed.name, errors)


def test_collected_failures():
    """In collect mode the fuzz test keeps going; report what it found here, at the end."""
    if not COLLECT:
        pytest.skip("IRVALIDATE_FUZZ_COLLECT is not set")
    assert not _recorded, "failures saved under " + ", ".join(
        f"{SAVE_DIR / str(n)} ({sig})" for sig, n in sorted(_recorded.items()))
