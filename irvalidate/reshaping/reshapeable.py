"""``irvalidate reshapeable FILE...``: for every input axis, whether the model takes other
sizes there, and which constant pins it when it does not.

Each axis is tried alone (the other dims kept): dynamic (``?``), then the values 1, d+1 and
2d (for a static dim d; 1, 2 and 8 for one that is not), each a what-if as ``--reshape``
runs it (SmartReshape included unless ``--no-smart-reshape``).  A row says ``any`` when the
dynamic dim works and every value does, ``pinned`` with the first pin found otherwise.
The file is read and analysed once; each trial re-infers it.

JSON: ``{"files": [{"path", "axes": [{"input", "axis", "dim", "dynamic", "values":
{"<n>": bool}, "verdict", "pinned_by": {"layer", "type", "line", "const", "const_line"} |
null}]}]}``.  The trials of a file are capped (``MAX_TRIALS``, and ``MAX_TRIAL_DIMS``: a
huge rank makes each trial dear); where they stop, a last row says so: ``"verdict": "not
tried"``, ``"untried"``: how many axes of that input from ``axis`` on.
"""
from __future__ import annotations

import os
from collections.abc import Callable

from ..analysis import analyse
from ..engine.validation import default_bin
from ..ir.reader import parse
from ..ir.weights import BinFile
from ..ops.parameter_const import outputs_of
from ..reporting.names import line_start, printed, shown_path
from ..shapes.dims import DYNAMIC, Dim, format_dim
from .reshaped import ReshapeRun, what_if
from .smart_reshape import plan

#: the most trials one file may take (inputs x axes x 4); past it, axes are left out
MAX_TRIALS = 64
#: the most dims one file's trials may set, summed over the trials: each re-infers the model
#: at the input's rank (a rank-200,000 input took 64 trials and over 60 s; now 4)
MAX_TRIAL_DIMS = 1_000_000


def _values(dim: Dim) -> list[int]:
    if dim.is_static:
        return sorted({1, dim.lo + 1, 2 * dim.lo} - {dim.lo} or {dim.lo + 1})
    return [1, 2, 8]


def _pin(run: ReshapeRun) -> dict | None:
    for layer in run.refused_layers():
        pins = run.pins(layer)
        if pins:
            pin = pins[0]
            return {"layer": pin.consumer.name, "type": pin.consumer.type, "line": pin.consumer.line,
                    "const": pin.const.name, "const_line": pin.const.line,
                    "by": "value" if pin.by_value else "shape"}
    return None


def axes_of(path: str, smart: bool = True, bin_path: str | None = None) -> list[dict]:
    doc = parse(path)
    if doc.fatal:
        raise ValueError(doc.fatal[0].message)
    weights = BinFile(bin_path) if bin_path else BinFile(default_bin(path),
                                                         os.path.dirname(os.path.abspath(path)))
    graphs = doc.graphs()
    befores = analyse(graphs, weights)
    planned = plan(befores[0]) if smart else []  # the same for every trial
    trial = lambda layer, new: what_if(graphs, befores, weights,  # noqa: E731 - one trial, as a name
                                       {layer.id: new}, smart, planned)
    rows: list[dict] = []
    trials = dims = 0
    for layer in graphs[0].layers:
        if layer.type.lower() != "parameter":
            continue
        shapes, _, _ = outputs_of(layer)
        shape = shapes[0] if shapes else None
        if shape is None:  # no input, or no rank: nothing to try
            continue
        for axis, dim in enumerate(shape):
            cost = 1 + len(_values(dim))
            if trials + cost > MAX_TRIALS or dims + cost * len(shape) > MAX_TRIAL_DIMS:
                return rows + [_untried(layer.name, axis, len(shape) - axis)]
            rows.append(_axis_row(layer, shape, axis, trial))
            trials, dims = trials + cost, dims + cost * len(shape)
    return rows


def _axis_row(layer, shape: tuple, axis: int, trial: Callable) -> dict:
    """One axis tried: dynamic, then each of its values (see the module)."""
    dim = shape[axis]
    works: dict[str, bool] = {}
    broken: ReshapeRun | None = None  # the last trial that fails: its pin is told
    for name, value in [("dynamic", DYNAMIC)] + [(str(v), Dim(v, v)) for v in _values(dim)]:
        run = trial(layer, shape[:axis] + (value,) + shape[axis + 1:])
        works[name], broken = run.works, broken if run.works else run
        del run  # (each run holds a whole analysis: at most two are kept)
    dynamic = works.pop("dynamic")
    return {"input": layer.name, "axis": axis, "dim": format_dim(dim), "dynamic": dynamic,
            "values": works, "verdict": "any" if broken is None else "pinned",
            "pinned_by": _pin(broken) if broken is not None else None}


def _untried(name: str, axis: int, count: int) -> dict:
    """Where the trials stopped: ``count`` axes of the input from ``axis`` on are not tried
    (nor any input after it)."""
    return {"input": name, "axis": axis, "dim": None, "dynamic": None, "values": {},
            "verdict": "not tried", "untried": count, "pinned_by": None}


def text_report(path: str, rows: list[dict]) -> str:
    """The text ``reshapeable`` prints for one file."""
    lines = [shown_path(path)]
    for row in rows:
        if row["verdict"] == "not tried":
            lines.append(f"  {line_start(row['input'])} axis {row['axis']} and on "
                         f"({row['untried']} axes) and the inputs after it: not tried (at "
                         f"most {MAX_TRIALS} trials and {MAX_TRIAL_DIMS:,} dims set a file)")
            break
        values = ", ".join(f"{k} {'ok' if ok else 'fails'}" for k, ok in row["values"].items())
        head = (f"  {line_start(row['input'])} axis {row['axis']} (now {row['dim']}): "
                f"{'any size' if row['verdict'] == 'any' else 'pinned'}; "
                f"? {'ok' if row['dynamic'] else 'fails'}, {values}")
        lines.append(head)
        pin = row["pinned_by"]
        if pin:
            lines.append(printed(f"      by the {pin['by']} of Const '{pin['const']}' (line "
                                 f"{pin['const_line']}) at {pin['type']} '{pin['layer']}' "
                                 f"(line {pin['line']})"))
    return "\n".join(lines) + "\n"
