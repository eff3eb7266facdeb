"""The rule registry: every rule, listed explicitly, in code order."""
from __future__ import annotations

from types import ModuleType

from . import (
    body_port_map,
    const_port,
    dangling_edge,
    divergence,
    duplicate_layer_id,
    duplicate_port_id,
    dynamic_declared,
    edge_shape,
    element_type,
    element_type_changed,
    extension_op,
    graph_cycle,
    incompatible,
    input_added,
    input_axis_pinned,
    input_count,
    input_order_changed,
    input_removed,
    input_shape_changed,
    input_shape_narrowed,
    input_shape_widened,
    internal_error,
    invalid_attribute,
    invalid_constant,
    ir_version,
    layout_changed,
    malformed,
    missing_weights,
    model_file_unmatched,
    multiple_edges,
    names_dropped,
    not_an_ir,
    output_added,
    output_mismatch,
    output_removed,
    output_shape_changed,
    output_shape_narrowed,
    parameter_port,
    precision_mismatch,
    reshape_incompatible,
    reshape_not_applicable,
    reshape_rewrite,
    reversed_edge,
    schema_violation,
    static_declared,
    unconnected_input,
    unknown_attribute,
    unknown_op_type,
    unreachable_layer,
    unreadable_xml,
    weights_changed,
    weights_mismatch,
)

RULES: tuple[ModuleType, ...] = (
    unreadable_xml, not_an_ir, ir_version, malformed, schema_violation,
    output_mismatch, incompatible, dynamic_declared, invalid_attribute, input_count,
    element_type, divergence, unknown_attribute, static_declared,
    edge_shape, dangling_edge, invalid_constant, missing_weights, duplicate_layer_id,
    duplicate_port_id, reversed_edge, multiple_edges, unconnected_input, graph_cycle,
    unreachable_layer, unknown_op_type, precision_mismatch, parameter_port, const_port,
    body_port_map, extension_op, weights_mismatch, reshape_incompatible, reshape_rewrite,
    reshape_not_applicable,
)

#: what ``--reshape`` runs: the rules saying the runtime cannot read the file (its XML,
#: schema, weights, edges, op types and body port maps), and the what-if's own (the
#: declared dims describe the old shapes: they are not compared)
RESHAPE_RULES: tuple[ModuleType, ...] = (
    unreadable_xml, not_an_ir, ir_version, malformed, schema_violation, invalid_constant,
    missing_weights, dangling_edge, reversed_edge, multiple_edges, unconnected_input,
    graph_cycle, unknown_op_type, body_port_map, reshape_incompatible, reshape_rewrite,
    divergence, weights_mismatch, reshape_not_applicable,
)

#: what ``compat`` runs, never a check: they read two interfaces (``rules._compat``), not
#: a file's graph
COMPAT_RULES: tuple[ModuleType, ...] = (
    input_removed, input_added, names_dropped, element_type_changed, input_shape_changed,
    input_shape_widened, input_shape_narrowed, input_order_changed, output_removed,
    output_added, output_shape_changed, output_shape_narrowed, input_axis_pinned,
    layout_changed, weights_changed, model_file_unmatched,
)

#: the engine's own failure on a file: documented like a rule, but it checks nothing
INTERNAL_ERROR = internal_error
#: everything with a code, IRV000 first (the listing, the docs, selection)
ALL: tuple[ModuleType, ...] = (internal_error,) + RULES + COMPAT_RULES

#: slugs a rule had before, still accepted in configuration and on the command line
ALIASES: dict[str, str] = {
    "broadcast-output-mismatch": output_mismatch.SLUG,
    "incompatible-broadcast": incompatible.SLUG,
    "invalid-broadcast-attribute": invalid_attribute.SLUG,
}

BY_CODE: dict[str, ModuleType] = {rule.CODE: rule for rule in ALL}
BY_SLUG: dict[str, ModuleType] = {rule.SLUG: rule for rule in ALL}
assert len(BY_CODE) == len(ALL) and len(BY_SLUG) == len(ALL), "codes and slugs are unique"


def canonical_slug(slug: str) -> str:
    """The slug a rule has now, for one it had before (or the slug itself)."""
    return ALIASES.get(slug.lower(), slug.lower())


def get(key: str) -> ModuleType:
    """A rule by code, slug or former slug; ValueError names the unknown key."""
    rule = BY_CODE.get(key.upper()) or BY_SLUG.get(canonical_slug(key))
    if rule is None:
        raise ValueError(f"no such rule: {key}")
    return rule
