"""The rule registry: every rule, listed explicitly, in code order."""
from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

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
    extension_op,
    graph_cycle,
    incompatible,
    input_count,
    internal_error,
    invalid_attribute,
    invalid_constant,
    ir_version,
    malformed,
    missing_weights,
    multiple_edges,
    not_an_ir,
    output_mismatch,
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

#: the engine's own failure on a file: documented like a rule, but it checks nothing
INTERNAL_ERROR = internal_error

if TYPE_CHECKING:  # made on first use by __getattr__, below
    #: what ``compat`` runs, never a check: they read two interfaces (``rules._compat``),
    #: not a file's graph
    COMPAT_RULES: tuple[ModuleType, ...]
    #: everything with a code, IRV000 first (the listing, the docs, selection)
    ALL: tuple[ModuleType, ...]
    BY_CODE: dict[str, ModuleType]
    BY_SLUG: dict[str, ModuleType]


def _compat_rules() -> tuple[ModuleType, ...]:
    # imported on first use: a check never runs them, and the 16 modules cost a small
    # file's start several milliseconds
    from . import (
        element_type_changed,
        input_added,
        input_axis_pinned,
        input_order_changed,
        input_removed,
        input_shape_changed,
        input_shape_narrowed,
        input_shape_widened,
        layout_changed,
        model_file_unmatched,
        names_dropped,
        output_added,
        output_removed,
        output_shape_changed,
        output_shape_narrowed,
        weights_changed,
    )
    return (input_removed, input_added, names_dropped, element_type_changed,
            input_shape_changed, input_shape_widened, input_shape_narrowed, input_order_changed,
            output_removed, output_added, output_shape_changed, output_shape_narrowed,
            input_axis_pinned, layout_changed, weights_changed, model_file_unmatched)


def _registry() -> tuple[dict[str, ModuleType], dict[str, ModuleType]]:
    """BY_CODE and BY_SLUG, made (with COMPAT_RULES and ALL) on first use and kept."""
    made = globals()
    if "BY_CODE" not in made:
        compat = _compat_rules()
        every = (internal_error,) + RULES + compat
        by_code = {rule.CODE: rule for rule in every}
        by_slug = {rule.SLUG: rule for rule in every}
        assert len(by_code) == len(every) and len(by_slug) == len(every), \
            "codes and slugs are unique"
        made.update(COMPAT_RULES=compat, ALL=every, BY_CODE=by_code, BY_SLUG=by_slug)
    return made["BY_CODE"], made["BY_SLUG"]


def __getattr__(name: str) -> object:
    if name not in ("COMPAT_RULES", "ALL", "BY_CODE", "BY_SLUG"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    _registry()
    return globals()[name]


#: slugs a rule had before, still accepted in configuration and on the command line
ALIASES: dict[str, str] = {
    "broadcast-output-mismatch": output_mismatch.SLUG,
    "incompatible-broadcast": incompatible.SLUG,
    "invalid-broadcast-attribute": invalid_attribute.SLUG,
}

def canonical_slug(slug: str) -> str:
    """The slug a rule has now, for one it had before (or the slug itself)."""
    return ALIASES.get(slug.lower(), slug.lower())


def get(key: str) -> ModuleType:
    """A rule by code, slug or former slug; ValueError names the unknown key."""
    by_code, by_slug = _registry()
    rule = by_code.get(key.upper()) or by_slug.get(canonical_slug(key))
    if rule is None:
        raise ValueError(f"no such rule: {key}")
    return rule
