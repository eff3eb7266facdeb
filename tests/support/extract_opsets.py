"""Development-time extraction of the opset membership table in
``irvalidate/data/opsets.json``.

The validator itself never imports openvino; it reads the committed JSON.  This
script regenerates that JSON from the installed openvino wheel (pinned to
2026.4.1 in ``pyproject.toml``)::

    python tests/support/extract_opsets.py            # rewrite irvalidate/data/opsets.json
    python tests/support/extract_opsets.py --check    # exit 1 if the committed file is stale

How the table is obtained
-------------------------
1. Candidate type names are collected from everything the wheel ships:
   string literals passed to ``.create(...)`` in every ``.py`` file of the
   ``openvino`` package (the ``opsetN/ops.py`` builders call
   ``_get_node_factory_opsetN().create("TypeName", ...)``); every name in the
   C++ opset tables ``include/openvino/opsets/opsetN_tbl.hpp`` (commented-out
   entries included); public names of ``openvino.op`` / ``openvino._pyopenvino.op``;
   and the op names mentioned in the project research notes (``RESEARCH_CANDIDATES``).
2. Every candidate is probed in every opset with
   ``NodeFactory("opsetN").create(name)`` (default-constructs the node; raises
   when the opset does not register that exact, case-sensitive name).  The
   node's ``get_type_info()`` gives the class version (``version_id``).

``NodeFactory`` resolves names case-sensitively; the IR reader resolves them
case-insensitively (``OpSet::create_insensitive``), which is why the stored names
are the canonical spellings and the validator must compare case-insensitively.
``verify_with_reader`` cross-checks the table against ``ov.Core().read_model``.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

OPSET_COUNT = 17
OPSET_NAMES = tuple(f"opset{i}" for i in range(1, OPSET_COUNT + 1))

REPO_ROOT = Path(__file__).resolve().parents[2]
JSON_PATH = REPO_ROOT / "irvalidate" / "data" / "opsets.json"

# Op names mentioned in ../shared/research/ov_semantics.md (copied here so the
# extraction does not depend on a file outside the repository).  Names that are
# not registered anywhere (aliases such as PReLU/Const, Foo) simply probe negative.
RESEARCH_CANDIDATES = (
    "Add", "Assign", "BitwiseAnd", "BitwiseLeftShift", "BitwiseOr", "BitwiseRightShift",
    "BitwiseXor", "Broadcast", "Concat", "Const", "Constant", "Convert", "Divide", "Equal",
    "ExperimentalDetectronDetectionOutput", "ExperimentalDetectronGenerateProposalsSingleImage",
    "ExperimentalDetectronPriorGridGenerator", "ExperimentalDetectronROIFeatureExtractor",
    "ExperimentalDetectronTopKROIs", "FakeQuantize", "FloorMod", "Foo", "GRUCell", "Gather",
    "Greater", "GreaterEqual", "If", "Less", "LessEqual", "LogicalAnd", "LogicalOr",
    "LogicalXor", "Loop", "MVN", "Maximum", "Minimum", "Mod", "Multiply", "NotEqual", "PReLU",
    "PRelu", "Parameter", "Power", "Proposal", "RNNCell", "ROIPooling", "ReLU", "Relu",
    "ReorgYolo", "Result", "Select", "ShapeOf", "SoftMax", "Softmax", "SquaredDifference",
    "Subtract", "TensorIterator", "Unsqueeze", "Xor",
)

# --- reader special cases (src/core/xml_util/src/xml_deserialize_util.cpp, create_node) ---
# Exact-match (case-sensitive) renames applied to the layer `type` before the lookup.
TYPE_ALIASES = {"Const": "Constant", "PReLU": "PRelu", "ReLU": "Relu", "SoftMax": "Softmax"}
# With version="experimental" or "extension", these exact (post-alias) type names are
# looked up in opset6; anything else with those versions is "unsupported opset".
EXPERIMENTAL_VERSIONS = ("experimental", "extension")
EXPERIMENTAL_TYPES = (
    "ExperimentalDetectronDetectionOutput",
    "ExperimentalDetectronGenerateProposalsSingleImage",
    "ExperimentalDetectronPriorGridGenerator",
    "ExperimentalDetectronROIFeatureExtractor",
    "ExperimentalDetectronTopKROIs",
    "GRUCell",
    "Proposal",
    "RNNCell",
)
EXPERIMENTAL_OPSET = "opset6"
# With version="opset1", these exact (post-alias) type names are looked up in opset2.
OPSET1_REDIRECT_TYPES = ("MVN", "ROIPooling", "ReorgYolo")
OPSET1_REDIRECT_OPSET = "opset2"

NOTES = (
    "opsets: type names registered in each opset of the openvino version above, "
    "probed with NodeFactory(opsetN).create(name) and cross-checked with "
    "ov.Core().read_model for every (opset, type) pair (tests/support/extract_opsets.py).",
    "Lookup in the IR reader: t = type_aliases.get(type, type) (exact, case-sensitive "
    "match); then OpSet::create_insensitive(t), i.e. the membership test is "
    "case-insensitive ('add', 'ADD' are accepted). Not found -> "
    "'Opset <version> doesn't contain the operation with type: <t>'.",
    "The error message names the type after aliasing, e.g. type='Const' version='opset17' "
    "-> 'Opset opset17 doesn't contain the operation with type: Constant'.",
    "type_aliases are case-sensitive: 'Const' is read as Constant but 'const'/'CONST' fail "
    "('doesn't contain the operation with type: const'); 'prelu'/'relu'/'softmax' work "
    "anyway because they case-insensitively match PRelu/Relu/Softmax.",
    "version='opset1' with type (after aliasing, case-sensitive) MVN, ROIPooling or "
    "ReorgYolo is looked up in opset2 (opset1 does not contain them); 'mvn' with opset1 fails.",
    "version 'experimental' or 'extension' with a type in experimental_types "
    "(case-sensitive) is looked up in opset6; any other type with those versions fails "
    "with 'Cannot create <type> layer <name> id:<id> from unsupported opset: <version>'.",
    "A version that is not a registered opset (e.g. opset0, opset18, opset99, OPSET1) "
    "fails with 'Cannot create <type> layer <name> id:<id> from unsupported opset: "
    "<version>'; version names are case-sensitive.",
    "The lookup happens only for layers reachable from a Result/Assign (plus all "
    "Parameters); an unreachable layer with an unknown type is never created and "
    "read_model accepts it.",
    "Xor (v0::Xor) is in opset1 only: opset2_tbl.hpp and opset3_tbl.hpp list it commented "
    "out, and read_model rejects type='Xor' with version='opset2'/'opset3'. "
    "LogicalXor is in opsets 1-16. Likewise Reverse (v1) is in opset1 only, and "
    "RNNCell/ShuffleChannels are in opset1 and opset3-16 but not opset2.",
    "opset17 in 2026.4.1 is sparse (only Parameter, Convert, ShapeOf and the new v17 ops); "
    "e.g. Add/Result/Constant with version='opset17' are rejected.",
    "class_version: version_id of the C++ class each (opset, type) creates, e.g. "
    "Broadcast in opset5 is the opset3 class; this is also the 'version' the serializer "
    "writes for that op.",
)


# ----------------------------------------------------------------------------------------
# candidate collection
# ----------------------------------------------------------------------------------------

_IDENT = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
# `_OPENVINO_OP_REG(Name, ov::op::vN)`; the namespace must contain "::" so that the
# `#define _OPENVINO_OP_REG(x, y)` / `(a,b)` lines in the header comments do not match.
_TBL_ENTRY = re.compile(
    r"_OPENVINO_OP_REG\(\s*([A-Za-z][A-Za-z0-9_]*)\s*,\s*([A-Za-z0-9_]+(?:::[A-Za-z0-9_]+)+)\s*\)"
)


def _openvino_root() -> Path:
    import openvino

    return Path(openvino.__file__).resolve().parent


def names_from_python_sources(ov_root: Path) -> set[str]:
    """String literals passed as first argument to any ``.create(...)`` call."""
    names: set[str] = set()
    for path in sorted(ov_root.rglob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "create(" not in text:
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "create"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and _IDENT.match(node.args[0].value)
            ):
                names.add(node.args[0].value)
    return names


def header_tables(ov_root: Path | None = None) -> dict[str, set[str]]:
    """Active (non-commented) entries of ``include/openvino/opsets/opsetN_tbl.hpp``.

    Returns an empty dict when the wheel ships no headers.
    """
    root = (ov_root or _openvino_root()) / "include" / "openvino" / "opsets"
    tables: dict[str, set[str]] = {}
    for opset in OPSET_NAMES:
        path = root / f"{opset}_tbl.hpp"
        if not path.is_file():
            continue
        active: set[str] = set()
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            code = line.split("//", 1)[0]
            active.update(m.group(1) for m in _TBL_ENTRY.finditer(code))
        tables[opset] = active
    return tables


def names_from_headers(ov_root: Path) -> set[str]:
    """Every name in the opset tables, commented-out entries included."""
    names: set[str] = set()
    root = ov_root / "include" / "openvino" / "opsets"
    for path in sorted(root.glob("opset*_tbl.hpp")):
        text = path.read_text(encoding="utf-8", errors="replace")
        names.update(m.group(1) for m in _TBL_ENTRY.finditer(text))
    return names


def names_from_bindings() -> set[str]:
    import openvino._pyopenvino.op as pyop
    import openvino.op

    names: set[str] = set()
    for mod in (openvino.op, pyop):
        names.update(n for n in dir(mod) if n[:1].isupper() and _IDENT.match(n))
    return names


def candidate_type_names(ov_root: Path | None = None) -> set[str]:
    ov_root = ov_root or _openvino_root()
    names = set(RESEARCH_CANDIDATES)
    names |= set(TYPE_ALIASES) | set(TYPE_ALIASES.values())
    names |= set(EXPERIMENTAL_TYPES) | set(OPSET1_REDIRECT_TYPES)
    names |= names_from_python_sources(ov_root)
    names |= names_from_headers(ov_root)
    names |= names_from_bindings()
    return names


# ----------------------------------------------------------------------------------------
# probing
# ----------------------------------------------------------------------------------------


def _constant_type_info() -> Any:
    import numpy as np
    import openvino as ov

    return ov.op.Constant(np.zeros([1], np.float32)).get_type_info()


def probe_opsets(candidates: Iterable[str]) -> tuple[dict[str, list[str]], dict[str, dict[str, str]]]:
    """Probe every candidate in every opset with NodeFactory.

    Returns (opsets, class_version): ``opsets[opsetN]`` is the sorted list of names
    the factory creates; ``class_version[opsetN][name]`` is the created class's
    ``version_id``.
    """
    from openvino.utils.node_factory import NodeFactory

    cands = sorted(set(candidates))
    opsets: dict[str, list[str]] = {}
    class_version: dict[str, dict[str, str]] = {}
    for opset in OPSET_NAMES:
        factory = NodeFactory(opset)
        found: dict[str, str] = {}
        for name in cands:
            try:
                info = factory.create(name).get_type_info()
            except RuntimeError as exc:
                msg = str(exc)
                if "Couldn't create operation" in msg:
                    continue  # the opset does not register this (case-sensitive) name
                if "doesn't support Constant node" in msg:
                    # The factory created the node (so the opset has it) and then
                    # refused to return a Constant; its class is v0::Constant.
                    info = _constant_type_info()
                else:
                    raise
            if info.name != name:
                raise AssertionError(f"{opset}: create({name!r}) made {info.name!r}")
            found[name] = info.version_id
        opsets[opset] = sorted(found)
        class_version[opset] = dict(sorted(found.items()))
    return opsets, class_version


def extract_opsets(include_class_version: bool = True) -> dict[str, Any]:
    """Build the full ``opsets.json`` document from the installed openvino."""
    import openvino

    opsets, class_version = probe_opsets(candidate_type_names())
    data: dict[str, Any] = {
        "openvino": openvino.get_version(),
        "opsets": opsets,
    }
    if include_class_version:
        data["class_version"] = class_version
    data["type_aliases"] = dict(sorted(TYPE_ALIASES.items()))
    data["experimental_versions"] = list(EXPERIMENTAL_VERSIONS)
    data["experimental_types"] = sorted(EXPERIMENTAL_TYPES)
    data["experimental_opset"] = EXPERIMENTAL_OPSET
    data["opset1_redirect_types"] = sorted(OPSET1_REDIRECT_TYPES)
    data["opset1_redirect_opset"] = OPSET1_REDIRECT_OPSET
    data["notes"] = list(NOTES)
    return data


# ----------------------------------------------------------------------------------------
# cross-check against the real IR reader
# ----------------------------------------------------------------------------------------

# Ops whose default-constructed, input-less form crashes the reader (segfault in
# validate_and_infer_types: Broadcast-1, MaxPool-1, Assign-6, ReadValue-6 in 2026.4.1)
# get real inputs and attributes in the probe IR: name.lower() -> (inputs, data attrs).
_PROBE_OVERRIDES: dict[str, tuple[tuple[tuple[str, str], ...], dict[str, str]]] = {
    "broadcast": ((("f32", "2"), ("i64", "1")), {"mode": "numpy"}),
    "maxpool": (
        (("f32", "1,1,4,4"),),
        {"strides": "1,1", "pads_begin": "0,0", "pads_end": "0,0", "kernel": "1,1"},
    ),
    "assign": ((("f32", "2"),), {"variable_id": "v"}),
    "readvalue": ((("f32", "2"),), {"variable_id": "v", "variable_type": "f32", "variable_shape": "2"}),
}


def probe_ir(type_name: str, version: str, layout: str | None = None) -> str:
    """IR text: [Parameter...] -> <type_name, version> -> Result.

    The inputs/attributes come from ``_PROBE_OVERRIDES[layout or type_name.lower()]``
    (none by default).  Output port dims are ignored by the reader.
    """
    key = layout if layout is not None else type_name.lower()
    inputs, attrs = _PROBE_OVERRIDES.get(key, ((), {}))
    layers, edges, in_ports = [], [], []
    for i, (et, shape) in enumerate(inputs):
        pid = i + 2
        dims = "".join(f"<dim>{d}</dim>" for d in shape.split(","))
        layers.append(
            f'<layer id="{pid}" name="in{i}" type="Parameter" version="opset1">'
            f'<data shape="{shape}" element_type="{et}"/>'
            f'<output><port id="0" precision="{et}">{dims}</port></output></layer>'
        )
        in_ports.append(f'<port id="{i}">{dims}</port>')
        edges.append(f'<edge from-layer="{pid}" from-port="0" to-layer="0" to-port="{i}"/>')
    data = "".join(f' {k}="{v}"' for k, v in attrs.items())
    n_in = len(inputs)
    layers.append(
        f'<layer id="0" name="op" type="{type_name}" version="{version}">'
        + (f"<data{data}/>" if data else "")
        + (f"<input>{''.join(in_ports)}</input>" if in_ports else "")
        + f'<output><port id="{n_in}" precision="FP32"><dim>1</dim></port></output></layer>'
    )
    layers.append(
        '<layer id="1" name="out" type="Result" version="opset1">'
        '<input><port id="0" precision="FP32"><dim>1</dim></port></input></layer>'
    )
    edges.append(f'<edge from-layer="0" from-port="{n_in}" to-layer="1" to-port="0"/>')
    return (
        '<?xml version="1.0"?>\n<net name="probe" version="11"><layers>'
        + "".join(layers)
        + "</layers><edges>"
        + "".join(edges)
        + "</edges></net>\n"
    )


def reader_outcome(type_name: str, version: str, core: Any = None, layout: str | None = None) -> str:
    """Feed a two-layer IR (``<type>`` -> Result) to ``read_model``.

    Returns "missing" when the reader says the opset does not contain the type,
    "unsupported" for "... from unsupported opset: ...", "ok" when the model loads,
    and "found" when the type was resolved but creating/validating the
    input-less node failed for another reason.
    """
    import numpy as np
    import openvino as ov

    core = core or ov.Core()
    xml = probe_ir(type_name, version, layout)
    try:
        core.read_model(xml, ov.Tensor(np.zeros([0], np.uint8)))
    except Exception as exc:  # noqa: BLE001
        msg = str(exc)
        if "doesn't contain the operation with type" in msg:
            return "missing"
        if "from unsupported opset" in msg:
            return "unsupported"
        return "found"
    return "ok"


def reader_resolves(type_name: str, version: str, core: Any = None) -> bool:
    return reader_outcome(type_name, version, core) in ("ok", "found")


def expected_reader_membership(data: dict[str, Any], type_name: str, version: str) -> bool:
    """What the validator should conclude from ``data`` (mirrors create_node)."""
    t = data["type_aliases"].get(type_name, type_name)
    opset = version
    if version in data["experimental_versions"]:
        if t not in data["experimental_types"]:
            return False
        opset = data["experimental_opset"]
    elif version == "opset1" and t in data["opset1_redirect_types"]:
        opset = data["opset1_redirect_opset"]
    if opset not in data["opsets"]:
        return False
    return t.lower() in {n.lower() for n in data["opsets"][opset]}


def verify_with_reader(
    data: dict[str, Any],
    names: Iterable[str] | None = None,
    versions: Iterable[str] | None = None,
    casings: bool = False,
) -> list[str]:
    """Compare ``expected_reader_membership`` with ``read_model`` for names x versions.

    Returns a list of human-readable mismatches (empty when all agree).
    """
    import openvino as ov

    core = ov.Core()
    # The probe IR must reach the type lookup: every layout (plain, or with the
    # inputs/attributes of an override) must make a bogus type report "missing",
    # otherwise an unrelated pre-lookup error would be mistaken for "found".
    for layout in [""] + sorted(_PROBE_OVERRIDES):
        for version in ("opset1", "opset16"):
            outcome = reader_outcome("NoSuchOpType", version, core, layout)
            if outcome != "missing":
                raise AssertionError(f"probe IR layout {layout or 'plain'!r} gives {outcome!r}")
    if names is None:
        names = sorted(set().union(*map(set, data["opsets"].values())))
    versions = list(versions) if versions is not None else list(OPSET_NAMES)
    mismatches = []
    for name in names:
        spellings = [name, name.lower(), name.upper()] if casings else [name]
        for spelling in spellings:
            for version in versions:
                want = expected_reader_membership(data, spelling, version)
                got = reader_resolves(spelling, version, core)
                if want != got:
                    mismatches.append(
                        f"type={spelling!r} version={version!r}: table says "
                        f"{'present' if want else 'absent'}, read_model says "
                        f"{reader_outcome(spelling, version, core)}"
                    )
    return mismatches


# ----------------------------------------------------------------------------------------
# serialisation
# ----------------------------------------------------------------------------------------


def render_json(data: dict[str, Any]) -> str:
    """Compact, stable rendering: one line per opset list / class_version map."""

    def dump(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))

    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key in ("opsets", "class_version"):
            lines.append(f"  {dump(key)}: {{")
            sub = list(value.items())
            for j, (k2, v2) in enumerate(sub):
                c2 = "," if j < len(sub) - 1 else ""
                lines.append(f"    {dump(k2)}: {dump(v2)}{c2}")
            lines.append(f"  }}{comma}")
        elif key == "notes":
            lines.append(f"  {dump(key)}: [")
            for j, note in enumerate(value):
                c2 = "," if j < len(value) - 1 else ""
                lines.append(f"    {dump(note)}{c2}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {dump(key)}: {dump(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with the committed JSON")
    parser.add_argument("--verify", action="store_true", help="also cross-check with read_model")
    parser.add_argument("--output", type=Path, default=JSON_PATH)
    args = parser.parse_args(argv)

    data = extract_opsets()
    text = render_json(data)
    if args.verify:
        problems = verify_with_reader(data, casings=True)
        problems += verify_with_reader(
            data,
            names=sorted(set(TYPE_ALIASES) | set(EXPERIMENTAL_TYPES) | set(OPSET1_REDIRECT_TYPES)),
            versions=list(OPSET_NAMES) + list(EXPERIMENTAL_VERSIONS),
            casings=True,
        )
        for p in problems:
            print("MISMATCH", p, file=sys.stderr)
        if problems:
            return 1
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is out of date; run python tests/support/extract_opsets.py", file=sys.stderr)
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    counts = ", ".join(f"{k}={len(v)}" for k, v in data["opsets"].items())
    print(f"wrote {args.output} ({counts})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
