"""The rule registry: every rule, listed explicitly, in code order."""
from __future__ import annotations

from types import ModuleType
from typing import Dict, Tuple

from . import (dangling_edge, divergence, dynamic_declared, edge_shape, element_type,
               incompatible, input_count, invalid_attribute, invalid_constant, ir_version,
               malformed, missing_weights, not_an_ir, output_mismatch, unreadable_xml)

RULES: Tuple[ModuleType, ...] = (
    unreadable_xml, not_an_ir, ir_version, malformed,
    output_mismatch, incompatible, dynamic_declared, invalid_attribute, input_count,
    element_type, divergence,
    edge_shape, dangling_edge, invalid_constant, missing_weights,
)

#: the code of the engine's own failure inside a rule; not a rule module
INTERNAL_ERROR = ("IRV000", "internal-error")

BY_CODE: Dict[str, ModuleType] = {rule.CODE: rule for rule in RULES}
BY_SLUG: Dict[str, ModuleType] = {rule.SLUG: rule for rule in RULES}


def get(key: str) -> ModuleType:
    """A rule by code or slug; ValueError names the unknown key."""
    rule = BY_CODE.get(key.upper()) or BY_SLUG.get(key.lower())
    if rule is None:
        raise ValueError(f"no such rule: {key}")
    return rule
