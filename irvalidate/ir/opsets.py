"""Which layer types each opset of OpenVINO 2026.4 contains, looked up as its reader does.

The table (``data/opsets.json``) was extracted from the openvino package at development time
(``tests/support/extract_opsets.py``; a test fails when it drifts); irvalidate never imports openvino.
"""
from __future__ import annotations

import json
import re
from functools import cache, lru_cache

from ..data import data_path

_OPSET_NAME = re.compile(r"opset\d+", re.IGNORECASE)


@cache
def _table() -> dict:
    with open(data_path("opsets.json"), "rb") as handle:
        return json.load(handle)


@cache
def _lowered() -> dict[str, frozenset[str]]:
    return {name: frozenset(t.lower() for t in types) for name, types in _table()["opsets"].items()}


def known_opsets() -> list[str]:
    return sorted(_table()["opsets"], key=lambda n: int(n[5:]))


def canonical_type(layer_type: str) -> str:
    """The reader's own spelling (exact case only): ``PReLU`` -> ``PRelu``, ``Const`` -> ``Constant``."""
    return _table()["type_aliases"].get(layer_type, layer_type)


def opset_for(version: str, layer_type: str) -> str | None:
    """The opset the reader looks ``layer_type`` up in, or None: an unsupported version."""
    table, name = _table(), canonical_type(layer_type)
    if version in table["experimental_versions"]:
        return table["experimental_opset"] if name in table["experimental_types"] else None
    if version == "opset1" and name in table["opset1_redirect_types"]:
        return table["opset1_redirect_opset"]
    return version if version in table["opsets"] else None  # version names are case-sensitive


@lru_cache(maxsize=4096)  # asked for every layer; a file has few (version, type) pairs
def contains(version: str, layer_type: str) -> bool | None:
    """Whether the reader finds ``layer_type`` for ``version``; None when the version is
    not one it supports.  Type lookup is case-insensitive after the exact-case aliases."""
    opset = opset_for(version, layer_type)
    if opset is None:
        return None
    return canonical_type(layer_type).lower() in _lowered()[opset]


@lru_cache(maxsize=4096)  # asked for every layer; a file has few (version, type) pairs
def is_extension(version: str, layer_type: str) -> bool:
    """Whether a runtime extension, not OpenVINO itself, supplies the op.

    OpenVINO's serializer writes ``version="extension"`` for every op an extension registers
    (openvino_tokenizers' RegexSplit, BPETokenizer, ...); its reader maps that version to
    opset6 only for a handful of legacy types.  A version that does not look like an opset
    (``custom_opset``) names an extension's own opset too.
    """
    if not version or _OPSET_NAME.fullmatch(version):
        return False  # a missing version is the schema rule's to report
    table = _table()
    if version in table["experimental_versions"]:
        return canonical_type(layer_type) not in table["experimental_types"]
    return True


@cache
def _extension_packages() -> dict[str, str]:
    with open(data_path("extensions.json"), "rb") as handle:
        packages = json.load(handle)["packages"]
    return {name: package for package, entry in packages.items() for name in entry["types"]}


def extension_package(layer_type: str) -> str | None:
    """The Python package whose extension registers ``layer_type`` (exact case), if known."""
    return _extension_packages().get(layer_type)


def opsets_with(layer_type: str) -> list[str]:
    """The opsets that contain ``layer_type``, in numeric order."""
    wanted = canonical_type(layer_type).lower()
    return [name for name in known_opsets() if wanted in _lowered()[name]]


@cache
def _spellings() -> dict[str, str]:
    return {t.lower(): t for types in _table()["opsets"].values() for t in types}


def all_types_lowered() -> list[str]:
    """Every type some opset has, lower-cased (for near-miss suggestions)."""
    return sorted(_spellings())


def spelling(lowered: str) -> str:
    """The canonical spelling of a lower-cased type name."""
    return _spellings()[lowered]
