"""``--reshape``: whether a model works with new input shapes, as ``Model.reshape`` decides.

The file is read and analysed as it is (SmartReshape matches its patterns on that), then
analysed again with the new Parameter shapes and the rewrites; the rules of
``RESHAPE_RULES`` read the second analysis.  The outcome (the new shapes of the inputs and
of the model's outputs, the rewrites, the verdict) goes with the file's result.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..analysis import analyse
from ..analysis.what_if import Rewrite, UsageError, resolve
from ..engine.validation import FileResult, validate_file
from ..ir.records import Document
from ..ir.tensor_names import parameter_names
from ..ir.weights import BinFile
from ..rules import RESHAPE_RULES
from ..rules._common import Context
from ..shapes.dims import Dim, Shape
from .reshaped import ReshapeRun, what_if

if TYPE_CHECKING:
    from ..settings.config import Config

Request = tuple[str | None, tuple[Dim, ...]]

__all__ = ["ReshapeOutcome", "UsageError", "reshape_file", "reshape_work"]


@dataclass(frozen=True)
class ReshapeOutcome:
    #: (Parameter name, new shape) for every input, asked for or kept
    inputs: list[tuple[str, Shape]]
    #: (Result layer name, shape reaching it) for every model output
    outputs: list[tuple[str, Shape]]
    rewrites: list[Rewrite]
    #: Model.reshape succeeds (no layer refused)
    works: bool
    #: False when every input asked for already has that shape: Model.reshape does nothing
    changed: bool
    smart: bool
    #: the run, for ``shapes --reshape`` (every layer's new shapes)
    run: ReshapeRun | None = None


def _outcome(run: ReshapeRun) -> ReshapeOutcome:
    after = run.after
    inputs, outputs = [], []
    for layer in after.layers.values():
        kind = layer.type.lower()
        if kind == "parameter" and layer.outputs:
            value = after.propagation.outputs.get((layer.id, layer.outputs[0].id))
            inputs.append((layer.name, value.shape if value else None))
        elif kind == "result":
            values = after.propagation.input_values(layer)
            outputs.append((layer.name, values[0].shape if values else None))
    shown = [r for r in run.rewrites if r.shown]
    return ReshapeOutcome(inputs, outputs, shown, run.works, run.changed, run.smart, run)


def reshape_file(path: str, requests: Sequence[Request], smart: bool = True,
                 config: Config | None = None, bin_path: str | None = None,
                 rules: Sequence = RESHAPE_RULES) -> FileResult:
    """The findings of the what-if for one file, and its outcome (``result.reshape``).
    Raises UsageError when the requests do not fit the model's inputs."""
    runs: list[ReshapeRun] = []

    def contexts_of(doc: Document, weights: BinFile) -> list[Context]:
        graphs = doc.graphs()
        befores = analyse(graphs, weights)
        new: dict[str, Shape] = resolve(graphs[0], parameter_names(doc.path), requests)
        run = what_if(graphs, befores, weights, new, smart)
        runs.append(run)
        bodies = [Context(doc, g, run.bodies_after[id(g)], False, reshape=run)
                  for g in graphs[1:] if id(g) in run.bodies_after]
        return [Context(doc, graphs[0], run.after, True, reshape=run)] + bodies

    result = validate_file(path, bin_path, config, rules, contexts_of=contexts_of)
    return result._replace(reshape=_outcome(runs[0])) if runs else result


def reshape_work(path: str, bin_path: str | None, config: Config, requests: Sequence[Request],
                 smart: bool = True) -> FileResult:
    """api.validate_files' ``work`` for --reshape; a usage error names the file."""
    try:
        return reshape_file(path, requests, smart, config, bin_path)
    except UsageError as err:
        from ..reporting.names import display_path
        raise UsageError(f"{display_path(path)}: {err}") from None


def inputs_of(path: str) -> str:
    """The model's inputs with their shapes, for a usage message ("" when unreadable)."""
    from ..analysis.what_if import inputs_listing
    from ..ir.reader import parse
    try:
        doc = parse(path)
        return "" if doc.fatal else inputs_listing(doc.graph, parameter_names(path))
    except Exception:  # noqa: BLE001 - the usage message stands without the listing
        return ""
