"""``reshapeable``: the exact set of sizes each input axis takes, with its causes (issue 27).

One symbolic inference: every axis of every input with a static rank gets a symbol (named
``input[axis]``), its dim a ``shapes.symdims.SymDim`` whose interval is the size the file
has now, and the model is inferred as ``Model.reshape`` would infer it at another size
(SmartReshape's rewrites included), recording the conditions that merges, broadcasts,
windows and Reshape put on the expressions.  Each axis's sizes are then solved with the
other axes at their sizes now (``shapes.symbolic``); axes that conditions equate outright
are stated as equal.

Nothing is guessed.  An op that does not declare that it follows symbols (``OpSpec.symbolic``),
or that reads a value computed from them (ShapeOf -> ... -> Reshape), makes its output dims
opaque; an axis whose size reaches a condition through one is ``exact: false``, naming the
layer, and its fields are then a superset (every size they exclude fails).  So is every axis
when the model does not infer as it is, or when a Const's values could not be read.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..analysis import analyse
from ..analysis.what_if import parameters
from ..engine import streaming
from ..engine.validation import weights_of
from ..ir.reader import parse
from ..ir.records import Document, Graph, Layer
from ..ir.weights import BinFile
from ..ops.support import memo
from ..reporting.names import line_start, printed, shown_path
from ..shapes.dims import INF, Dim, Shape, format_dim, format_shape
from ..shapes.symbolic import Condition, Solution, const, ge, le, solve, sym, ties
from ..shapes.symdims import Recording, Site, axis_symbol, recording, with_expr
from .streamed import StreamedSymbols

if TYPE_CHECKING:
    from .reshaped import ReshapeRun


@dataclass(frozen=True)
class Axis:
    """One input axis and its symbol."""
    layer: Layer
    shape: tuple[Dim, ...]
    axis: int

    @property
    def symbol(self) -> str:
        return axis_symbol(self.layer.name, self.axis)

    @property
    def now(self) -> Dim:
        return self.shape[self.axis]


#: the most axes one file's answer covers (each gets a symbol, a solution and a confirming
#: what-if; an input of rank 200,000 is a hostile file, not a model)
MAX_AXES = 256


def input_axes(model: Graph) -> list[Axis]:
    """Every axis of every Parameter of a static rank, in order (at most MAX_AXES)."""
    found: list[Axis] = []
    for layer, shape in parameters(model):
        if shape is not None:
            found += [Axis(layer, shape, i) for i in range(min(len(shape), MAX_AXES))]
    return found[:MAX_AXES]


def constraints_of(path: str, smart: bool = True, bin_path: str | None = None,
                   doc: Document | None = None) -> list[dict]:
    """The file's inputs, each with the constraint on each of its axes (the JSON contract
    of ``reshapeable``).  A large plain file is run as it streams (``streamed``), in the
    memory a check takes; the stream declines what it cannot run exactly as the whole
    graph runs it, and the file is then read whole (``doc``: the file as a caller has read
    it already, ``ir.reader.parse``'s records, which the whole run then takes)."""
    # (what one file's inferences remember is no use to the next; and a memo another file
    # filled would be cleared midway through this one, at one layer in the streamed run and
    # at another in the whole run, which then name different causes)
    memo.clear()
    weights = weights_of(path, bin_path)
    if streaming.wanted(path):
        answer = _streamed(path, smart, weights)
        if answer is not None:
            return answer
    return _whole(path, smart, weights, doc)


def _whole(path: str, smart: bool, weights: BinFile, doc: Document | None) -> list[dict]:
    """The answer of the symbolic run over the whole graph, SmartReshape's rewrites made."""
    # (imported here: SmartReshape's matchers and the what-if run cost 20 ms of the start-up
    # of a streamed run, which needs neither)
    from .reshaped import what_if
    from .smart_reshape import plan
    memo.clear()  # (as the streamed run found it: one that declined filled it)
    doc = parse(path) if doc is None else doc
    if doc.fatal:
        raise ValueError(doc.fatal[0].message)
    graphs = doc.graphs()
    befores = analyse(graphs, weights)
    planned = plan(befores[0]) if smart else []
    axes = input_axes(graphs[0])
    symbolic: dict[str, Shape] = {a.layer.id: a.shape for a in axes}
    for a in axes:  # (the axes past MAX_AXES keep their plain dims)
        shape = symbolic[a.layer.id]
        assert shape is not None
        symbolic[a.layer.id] = shape[:a.axis] + (with_expr(a.now, sym(a.symbol)),) + \
            shape[a.axis + 1:]
    with recording({a.symbol: a.now.lo for a in axes if a.now.is_static}) as found:
        # other sizes are asked about: Model.reshape would make its rewrites
        run = what_if(graphs, befores, weights, symbolic, smart, planned, changed=True)
    _in_file_order(found)
    refusal = None if run.works else _refused(run)
    return _answer(parameters(graphs[0]), axes, found, refusal, _unread(weights, befores[0]))


def _streamed(path: str, smart: bool, weights: BinFile) -> list[dict] | None:
    """The answer of the symbolic run streamed, or None (the file is read whole): with no
    refusal, no rewrite and every Const readable, or the stream declines."""
    with recording() as found:
        watch = StreamedSymbols(path, weights, smart, found, MAX_AXES)
        if streaming.check(path, weights, [], watch) is None:
            return None
    _in_file_order(found)
    axes = [Axis(layer, shape, axis) for layer, shape, axis in watch.axes]
    return _answer(watch.params, axes, found, None, "")


def _in_file_order(found: Recording) -> None:
    """The recording's conditions and unknowns in the file order of their layers (stable:
    a layer's own in the order it put them), however the run went through the graph: the
    streamed run reads the file in its order, the whole run in the graph's.  The answer
    does not depend on it; the order of the causes and the first unknown named do."""
    def line(cause: object) -> int:
        layer = cause.layer if isinstance(cause, Site) else cause
        return (layer.line or 0) if isinstance(layer, Layer) else -1
    found.conditions.sort(key=lambda c: line(c.cause))
    found.unknowns.sort(key=lambda u: line(u.cause))


def _answer(params: list[tuple[Layer, Shape]], axes: list[Axis], found: Recording,
            refusal: str | None, unread: str) -> list[dict]:
    """Each axis solved from what the symbolic run recorded (``refusal``: why the model
    does not infer as it is, None when it does), by input."""
    by_symbol: dict[str, list[Condition]] = {a.symbol: [] for a in axes}
    for condition in found.conditions:  # (an axis's answer reads only the conditions on it)
        for name in condition.symbols():
            by_symbol[name].append(condition)
    tied = ties(found.conditions)
    classes = _tie_classes(tied)
    rows = [_axis_row(a, axes, _conditions_of(a, axes, by_symbol, classes), found, refusal,
                      unread) for a in axes]
    # (every axis that moves with it, transitively, not only its own pairs)
    partners = _tie_classes(_partners(axes, found.conditions, tied))
    _together(axes, rows, partners, by_symbol, found, unread if refusal is None else "not inferred")
    return _by_input(params, axes, rows, partners)


def _together(axes: list[Axis], rows: list[dict], classes: dict[str, frozenset[str]],
              by_symbol: dict[str, list[Condition]], found: Recording, unread: str) -> None:
    """Each axis with partners (``classes``: its class of them) gets ``together``: the sizes
    that work when it and all its partners take that one size, the other inputs as they
    are; solved once a class, for its first axis."""
    solved: dict[frozenset[str], dict] = {}
    for axis, row in zip(axes, rows):
        group = classes.get(axis.symbol)
        if group is not None:
            if group not in solved:
                solved[group] = _together_of(axis, group, axes, by_symbol, found, unread)
            row["together"] = dict(solved[group])


def _together_of(axis: Axis, group: frozenset[str], axes: list[Axis],
                 by_symbol: dict[str, list[Condition]], found: Recording, unread: str) -> dict:
    mine = sym(axis.symbol)
    unique = {c.key: c for name in sorted(group) for c in by_symbol.get(name, [])}
    # (a repeated block repeats its conditions: each is substituted once)
    conditions = [c.substitute({name: mine for name in group}) for c in unique.values()]
    fixed = {a.symbol: a.now.lo for a in axes if a.symbol not in group and a.now.is_static}
    solution = solve(conditions, axis.symbol, fixed)
    why = (solution.why_inexact or unread or _entangled(axis, solution, fixed)
           or next(filter(None, (_unfollowed(a, found) for a in axes if a.symbol in group)), ""))
    return {"min": solution.min, "max": solution.max, "multiple_of": solution.multiple_of,
            "offset": solution.offset, "values": solution.values, "exact": not why,
            "why_inexact": why or None, "causes": _causes_of(solution)}


def _partners(axes: list[Axis], conditions: list[Condition],
              tied: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The axes stated equal: those equated outright, and those a broadcast wants equal
    unless one is 1 where one is dynamic now (each then takes any size alone; where both
    are static, their values say it).  Once partners are taken as one size, a condition may
    equate another axis with them (a mask's length against max(ids, token types)): it
    joins them, until none does."""
    dynamic = {a.symbol for a in axes if not a.now.is_static}
    pairs = list(tied)
    shared = list({c.key: c for c in conditions if len(c.symbols()) > 1}.values())
    for _ in range(len(axes)):
        classes = _tie_classes(pairs)
        one = {name: sym(min(group)) for name, group in classes.items()}
        seen = [c.substitute(one) for c in shared] if one else shared
        outright = ties(seen)
        more = [pair for pair in dict.fromkeys(ties(seen, options=True) + _equal_when_equal(seen))
                if pair not in pairs
                and (pair[0] in dynamic or pair[1] in dynamic or pair in outright)]
        if not more:
            break
        pairs += more
    return pairs


#: the sizes at which a condition's two symbols, set equal, are tried (a heuristic for who
#: moves together; what ``together`` then says is solved exactly)
SET_EQUAL_AT = (1, 2, 3, 7, 64, 100, 511, 512, 513, 1000, 4096)
#: ... and apart, where such a condition must fail somewhere (a Reshape's count that holds
#: at every size, e.g. height x width x 80 divided by 80, equates nothing)
SET_APART_AT = ((2, 3), (3, 2), (32, 64), (64, 32), (640, 480), (7, 64))


def _equal_when_equal(conditions: list[Condition]) -> list[tuple[str, str]]:
    """Pairs of symbols that a condition wants equal, through expressions the solver does
    not fold (max(min(x, 512), x) against y): an "eq" option of exactly two symbols that
    holds at every size of SET_EQUAL_AT when the two take that size, and fails at some pair
    of SET_APART_AT."""
    found: list[tuple[str, str]] = []
    for condition in conditions:
        for way in condition.options if condition.kind == "any" else (condition,):
            names = sorted(way.symbols())
            if way.kind != "eq" or len(names) != 2 or tuple(names) in found:
                continue
            a, b = names
            if all(way.gap.substitute({a: n, b: n}) == 0 for n in SET_EQUAL_AT) and any(
                    way.gap.substitute({a: m, b: n}) != 0 for m, n in SET_APART_AT):
                found.append((a, b))
    return found


def _tie_classes(tied: list[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """The symbols equated outright, each with every symbol equal to it (transitively)."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x
    for x, y in tied:
        parent[root(x)] = root(y)
    members: dict[str, set[str]] = {}
    for x in parent:
        members.setdefault(root(x), set()).add(x)
    for r, found in members.items():
        found.add(r)
    return {x: frozenset(group) for group in members.values() for x in group}


def _conditions_of(axis: Axis, axes: list[Axis], by_symbol: dict[str, list[Condition]],
                   classes: dict[str, frozenset[str]]) -> list[Condition]:
    """The conditions on an axis; an axis tied to it outright that is an interval now
    merges only with sizes inside it.  Such a partner's other conditions are not its: those
    upstream of the merge are on the partner's own '?', which the runtime does not refuse
    (what both take together is ``together``'s)."""
    now = {a.symbol: a.now for a in axes}
    out = list(by_symbol.get(axis.symbol, []))
    mine = sym(axis.symbol)
    for name in sorted(classes.get(axis.symbol, frozenset()) - {axis.symbol}):
        bounds = now[name]
        if bounds.is_static:
            continue
        if bounds.lo > 0:
            out.append(ge(mine, const(bounds.lo), reason=f"must be in {name}'s {bounds}"))
        if bounds.hi < INF:
            out.append(le(mine, const(bounds.hi), reason=f"must be in {name}'s {bounds}"))
    return out


def _unread(weights: BinFile, before) -> str:
    """Why no answer can be exact: the Consts' values are not there to read (a missing .bin
    is never "any size": a Reshape's target or a Slice's stop may be among them)."""
    consts = any(layer.type.lower() == "const" for layer in before.graph.layers)
    if weights.error and consts:
        return (f"the weights could not be read ({weights.error}): the sizes that depend on "
                f"constants are not known")
    const = before.propagation.unread_const
    if const is None:
        return ""
    return (f"the values of Const '{const.name}' (line {const.line}) could not be read: the "
            f"sizes that depend on them are not known")


def _axis_row(axis: Axis, axes: list[Axis], conditions: list[Condition], found: Recording,
              refusal: str | None, unread: str) -> dict:
    fixed = {a.symbol: a.now.lo for a in axes if a is not axis and a.now.is_static}
    if refusal is not None:  # a size that differs may mend it: nothing is excluded
        return _row(axis, solve([], axis.symbol, fixed), [],
                    "the model does not infer as it is: " + refusal)
    solution = solve(conditions, axis.symbol, fixed)
    other = unread or _unfollowed(axis, found) or _entangled(axis, solution, fixed)
    why = "; ".join(part for part in (other, solution.why_inexact) if part)  # (the cause first)
    row = _row(axis, solution, _causes_of(solution), why)
    if solution.residues is not None and not other:  # exact, in a form of more classes
        period, classes = solution.residues
        row["residues"] = {"modulo": period, "classes": list(classes)}
    return row


def _causes_of(solution: Solution) -> list[dict]:
    """Each condition that excludes a size, at its layer, then the layers that made the
    sizes it compares (a Slice whose stop caps a size, a window that halves it)."""
    causes: list[dict] = []
    for cause in solution.causes:
        site = cause.condition.cause
        if not isinstance(site, Site) or not isinstance(site.layer, Layer):
            continue
        part = cause.part.describe()
        causes.append(_cause(site.layer, f"{part}: {cause.condition.reason}"))
        causes += [_cause(maker, f"{part}: it makes a size that {site.layer.type} "
                                 f"'{site.layer.name}' compares")
                   for maker in site.makers if isinstance(maker, Layer)]
    unique: list[dict] = []
    for found in causes:  # (a layer may put one condition on a size twice)
        if found not in unique:
            unique.append(found)
    return unique


def _cause(layer: Layer, reason: str) -> dict:
    return {"layer": layer.name, "type": layer.type, "line": layer.line, "reason": reason}


def _row(axis: Axis, solution: Solution, causes: list[dict], why: str) -> dict:
    return {"axis": axis.axis, "now": _now(axis.now), "exact": not why,
            "why_inexact": why or None, "min": solution.min, "max": solution.max,
            "multiple_of": solution.multiple_of, "offset": solution.offset,
            "values": solution.values, "residues": None, "equal_to": [], "together": None,
            "causes": causes}


def _unfollowed(axis: Axis, found: Recording) -> str:
    """Why the axis is not exact: a condition on a size not followed symbolically."""
    for unknown in found.unknowns:
        if axis.symbol in unknown.depends:
            through = "" if unknown.origin is unknown.cause else \
                f" through {'a value computed from ' if unknown.by_value else ''}" \
                f"{_named(unknown.origin)}"
            return (f"the size reaches {_named(unknown.cause)}{through}, which irvalidate does "
                    f"not follow symbolically yet")
    return ""


def _entangled(axis: Axis, solution: Solution, fixed: dict[str, int]) -> str:
    """Why the axis is not exact: a condition on it also holds an input axis that is dynamic
    now (not tied to it outright), which the runtime reads as an interval."""
    for condition in solution.dropped:
        if axis.symbol in condition.symbols():
            others = sorted(condition.symbols() - {axis.symbol} - fixed.keys())
            site = condition.cause
            at = f" at {_named(site.layer)}" if isinstance(site, Site) else ""
            which = "which is" if len(others) == 1 else "which are"
            return (f"a condition{at} also holds {', '.join(others)}, {which} dynamic now: "
                    f"what this axis takes depends on the size that one gets")
    return ""


def _named(layer) -> str:
    if not isinstance(layer, Layer):
        return "a layer"
    return f"{layer.type} '{layer.name}' (line {layer.line})"


def _now(d: Dim) -> int | str:
    return d.lo if d.is_static else format_dim(d)


def _refused(run: ReshapeRun) -> str:
    layers = run.refused_layers()
    return ", ".join(f"{layer.type} '{layer.name}' (line {layer.line})" for layer in layers[:3])


def _by_input(params: list[tuple[Layer, Shape]], axes: list[Axis], rows: list[dict],
              classes: dict[str, frozenset[str]]) -> list[dict]:
    """Every input in order (one of dynamic rank or a scalar has no axes), each with its
    axes' rows and their equal partners."""
    out: dict[str, dict] = {
        layer.id: {"name": layer.name, "shape": format_shape(shape), "axes": [],
                   "axes_not_analysed": len(shape) if shape else 0}
        for layer, shape in params}
    for a, row in zip(axes, rows):
        group = classes.get(a.symbol, frozenset())
        row["equal_to"] = [{"input": b.layer.name, "axis": b.axis} for b in axes
                           if b.symbol in group and b is not a]
        entry = out[a.layer.id]
        entry["axes"].append(row)
        entry["axes_not_analysed"] = len(a.shape) - a.axis - 1
    return list(out.values())


def described(row: dict) -> str:
    """The sizes of one axis in a few words: "multiple of 32, ≥ 64", "only 224", "≤ 512",
    "0 or 25..31 mod 32, ≥ 32" (several residue classes)."""
    if row.get("residues"):
        classes, modulo = row["residues"]["classes"], row["residues"]["modulo"]
        return f"{_spans(classes)} mod {modulo}, ≥ {row['min']}"
    if row["values"] is not None:
        values = row["values"]
        return "no size" if not values else (f"only {values[0]}" if len(values) == 1 else
                                             "one of " + ", ".join(map(str, values)))
    parts, step, offset = [], row["multiple_of"], row["offset"]
    if step > 1:
        parts.append(f"multiple of {step}" if offset == 0 else f"{offset} more than a "
                                                               f"multiple of {step}")
    if row["min"] > (offset or step):  # not implied by the residue class
        parts.append(f"≥ {row['min']}")
    if row["max"] is not None:
        parts.append(f"≤ {row['max']}")
    return ", ".join(parts) or "any size"


def _axis_lines(head: str, row: dict) -> list[str]:
    """One axis: its sizes, partners and causes, then why it is not exact.  Where the sizes
    alone are not known but those its partners take with it are, those lead."""
    inexact = not row["exact"] and not row.get("residues")
    together = row.get("together")
    if inexact and together and together["exact"]:
        named = ", ".join(f"{line_start(t['input'])} axis {t['axis']}" for t in row["equal_to"])
        said = described(together)
        return [f"{head}{said} together with {named}{_causes(together)}",
                f"      (alone, not exact: {row['why_inexact']})"]
    sizes = f"not exact, at most: {described(row)}" if inexact else described(row)
    lines = [head + sizes + _partners_text(row) + _causes(row)]
    return lines + [f"      ({row['why_inexact']})"] if inexact else lines


def _partners_text(row: dict) -> str:
    """``; = mask axis 1 (together: ≤ 512)``: the partners, and the sizes all take at once."""
    if not row["equal_to"]:
        return ""
    named = ", ".join(f"{line_start(t['input'])} axis {t['axis']}" for t in row["equal_to"])
    together = row.get("together")
    if together is None:
        return f"; = {named}"
    said = described(together)
    return f"; = {named} (together: {said if together['exact'] else 'not exact, at most ' + said})"


def _spans(classes: list[int]) -> str:
    """``0 or 25..31``: residues in runs."""
    runs: list[list[int]] = []
    for c in classes:
        if runs and runs[-1][-1] == c - 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    said = [f"{r[0]}..{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs]
    return ", ".join(said[:-1]) + " or " + said[-1] if len(said) > 1 else said[0]


#: the causes named on an axis's line (the JSON has them all)
SHOWN_CAUSES = 3


def _causes(row: dict) -> str:
    seen: list[str] = []
    for cause in row["causes"]:
        named = f"{cause['type']} '{cause['layer']}' (line {cause['line']})"
        if named not in seen:
            seen.append(named)
    if not seen:
        return ""
    shown = seen[:SHOWN_CAUSES] + ([f"{len(seen) - SHOWN_CAUSES} more"]
                                   if len(seen) > SHOWN_CAUSES else [])
    return " — " + (", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0])


def text_report(path: str, inputs: list[dict]) -> str:
    """The text ``reshapeable`` prints for one file: a line per axis."""
    lines = [shown_path(path)]
    if not inputs:
        lines.append("  no input")
    for found in inputs:
        if found["shape"] == "[...]" or found["shape"] == "[]":
            what = "a dynamic rank" if found["shape"] == "[...]" else "a scalar"
            lines.append(f"  {line_start(found['name'])}: {what}, no axis to size")
        for row in found["axes"]:
            head = f"  {line_start(found['name'])} axis {row['axis']} (now {row['now']}): "
            lines += [printed(line) for line in _axis_lines(head, row)]
        if found["axes_not_analysed"]:
            lines.append(f"  {line_start(found['name'])}: {found['axes_not_analysed']:,} more "
                         f"axes not analysed (at most {MAX_AXES} axes a file)")
    return "\n".join(lines) + "\n"
