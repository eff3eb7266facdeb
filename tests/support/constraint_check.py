"""The stated constraints of ``reshapeable --format json`` against ``Model.reshape``'s
recorded verdicts (reshape_probes.py), and the stated equalities against the runtime, live.

    problems = check_constraints(report, reshape_probes.load("samples"))
    problems += check_partners(report, lambda name: path_of[name])   # with openvino

The report is issue 27's contract: ``files[].inputs[]{name, shape, axes[]{axis, now, exact,
min, max, multiple_of, offset, values, equal_to[]{input, axis}, causes[]}}``.  A size s is
said to work exactly when ``(values is null or s in values) and s >= min and (max is null or
s <= max) and (s - offset) % multiple_of == 0``.  Each axis was probed alone, the other
inputs as declared, so that is what the predicate is held to: where ``exact`` is true it
must give the runtime's verdict at every recorded size; where it is false, every size it
says fails must fail.  Every disagreement is one readable line; none means agreement.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from support.reshape_probes import verdicts

#: the fields every stated axis has (the contract)
AXIS_FIELDS = ("axis", "now", "exact", "min", "max", "multiple_of", "offset", "values",
               "equal_to", "causes")


def allows(axis: dict, size: int) -> bool:
    """Whether the stated constraint says ``size`` works (nulls: no bound, 1, 0)."""
    values, low, high = axis.get("values"), axis.get("min"), axis.get("max")
    step, offset = axis.get("multiple_of") or 1, axis.get("offset") or 0
    return ((values is None or size in values) and (low is None or size >= low)
            and (high is None or size <= high) and (size - offset) % step == 0)


def allows_exactly(axis: dict, size: int) -> bool:
    """The verdict of ``residues`` where stated (the sizes exactly, in a form of several
    residue classes: min, max and the residue modulo ``modulo``)."""
    residues = axis["residues"]
    return (allows(axis, size) and size % residues["modulo"] in residues["classes"])


def stated(axis: dict) -> str:
    """The constraint in a few words, for the lines that quote it."""
    parts = [f"{k} {axis.get(k)}" for k in ("min", "max", "multiple_of", "offset", "values")
             if axis.get(k) is not None]
    return ", ".join(parts) or "any size"


def ranges(sizes: Iterable[int]) -> str:
    """``1..3, 8, 10..12``: a list of sizes, short."""
    out: list[str] = []
    for s in sorted(sizes):
        if out and out[-1].split("..")[-1] == str(s - 1):
            out[-1] = f"{out[-1].split('..')[0]}..{s}"
        else:
            out.append(str(s))
    return ", ".join(out)


def _axis_problems(where: str, axis: dict, probed: dict[int, bool]) -> list[str]:
    missing = [k for k in AXIS_FIELDS if k not in axis]
    if missing:
        return [f"{where}: the contract's {', '.join(missing)} missing"]
    said = {s: allows(axis, s) for s in probed}
    wrongly_works = [s for s, ok in probed.items() if said[s] and not ok]
    wrongly_fails = [s for s, ok in probed.items() if not said[s] and ok]
    out = []
    if wrongly_fails:
        out.append(f"{where} ({stated(axis)}, exact: {axis['exact']}): says "
                   f"{ranges(wrongly_fails)} fail, the runtime takes them")
    if axis["exact"] is True and wrongly_works:
        out.append(f"{where} ({stated(axis)}, exact): says {ranges(wrongly_works)} work, "
                   f"the runtime refuses them")
    elif axis["exact"] is not True and axis["exact"] is not False:
        out.append(f"{where}: exact is {axis['exact']!r}, not true or false")
    if axis.get("residues"):
        wrong = [s for s, ok in probed.items() if allows_exactly(axis, s) != ok]
        if wrong:
            out.append(f"{where} (residues {axis['residues']}): says wrongly of "
                       f"{ranges(wrong)}")
    return out


def _input_problems(data: dict, label: str, said: dict | None, recorded: dict) -> list[str]:
    where = f"{label} input {recorded['name']!r}"
    if said is None:
        return [f"{where}: not in the report"]
    axes = {a.get("axis"): a for a in said.get("axes") or []}
    out = [f"{where} axis {k}: stated, but the input has no such axis"
           for k in sorted(set(axes) - {a["axis"] for a in recorded["axes"]}, key=str)]
    for row in recorded["axes"]:
        axis = axes.get(row["axis"])
        if axis is None:
            out.append(f"{where} axis {row['axis']} (now {row['now']}): not stated")
            continue
        probed = verdicts(data, row, recorded)
        out += _axis_problems(f"{where} axis {row['axis']} (now {row['now']})", axis, probed)
    return out


def _file_problems(data: dict, label: str, file: dict, record: dict) -> list[str]:
    if not record.get("readable", True):
        return []  # the runtime reads no such model: nothing to hold the report to
    said = {i.get("name"): i for i in file.get("inputs") or []}
    recorded = {i["name"]: i for i in record["inputs"]}
    out = [f"{label} input {name!r}: stated, but the model has no such input"
           for name in sorted(set(said) - set(recorded), key=str)]
    for name, entry in recorded.items():
        out += _input_problems(data, label, said.get(name), entry)
    return out


def _record_for(probes: dict, path: str) -> tuple[str, dict] | None:
    """The recorded model a report's file is: its key is the path or ends it."""
    models = probes.get("models", {})
    if path in models:
        return path, models[path]
    posix = Path(path).as_posix()
    found = [k for k in models if posix.endswith("/" + k)]
    if not found:
        return None
    key = max(found, key=len)  # the longest: "a/m.xml" rather than "m.xml"
    return key, models[key]


def check_constraints(report_json: dict, probes: dict) -> list[str]:
    """Every disagreement between the report's constraints and the recorded verdicts.

    ``probes`` is a set as ``reshape_probes.load`` gives it (each file found by its key:
    the report's path is the key or ends with it), or one model's record inside
    ``{"sizes": ..., "record": ...}`` for a report of one file (a generated model)."""
    files = report_json.get("files")
    if not isinstance(files, list):
        return ["the report has no files[]"]
    out: list[str] = []
    for file in files:
        path = str(file.get("path", ""))
        if "record" in probes:
            found: tuple[str, dict] | None = (path, probes["record"])
        else:
            found = _record_for(probes, path)
        if found is None:
            out.append(f"{path}: no recorded probes for this file")
            continue
        out += _file_problems(probes, found[0], file, found[1])
    return out


# ---------------------------------------------------------------------------- partners, live

def _together_sizes(constraints: list[dict], now: set[int], count: int) -> list[int]:
    """Sizes every constraint allows, other than the declared ones where there are such:
    the smallest, a middle one and the largest of the probe sizes (``count`` at most)."""
    from support.reshape_probes import SIZES
    every = [s for s in SIZES if constraints and all(allows(c, s) for c in constraints)]
    moved = [s for s in every if s not in now] or every
    if len(moved) <= count:
        return moved
    picks = {moved[0], moved[len(moved) // 2], moved[-1]}
    return sorted(picks)[:count]


def _known(group: list[tuple[str, dict]]) -> list[dict]:
    """What says exactly which sizes work for the group: its ``together`` where exact, else
    every member's own constraint where all are exact; else nothing is claimed ([]: no
    size is tried)."""
    together = group[0][1].get("together")
    if together and together.get("exact"):
        return [together]
    rows = [axis for _, axis in group]
    return rows if all(axis.get("exact") for axis in rows) else []


def _groups(file: dict) -> list[list[tuple[str, dict]]]:
    """Each axis with its partners (equal_to), as (input name, axis) rows, each group once."""
    inputs = {i.get("name"): i for i in file.get("inputs") or []}
    found: dict[frozenset, list[tuple[str, dict]]] = {}
    for entry in inputs.values():
        for axis in entry.get("axes") or []:
            group = [(entry["name"], axis)]
            for partner in axis.get("equal_to") or []:
                other = inputs.get(partner.get("input"))
                rows = {a.get("axis"): a for a in (other or {}).get("axes") or []}
                if other is not None and partner.get("axis") in rows:
                    group.append((other["name"], rows[partner["axis"]]))
            if len(group) > 1:
                found.setdefault(frozenset((n, a["axis"]) for n, a in group), group)
    return list(found.values())


def check_partners(report_json: dict, model_path: Callable[[str], Path], count: int = 3) -> list[str]:
    """Each axis and its stated partners tried with the runtime (openvino installed): all set
    to a size every one of their constraints allows (up to ``count`` sizes), every other dim
    as declared, must work.  ``model_path`` gives the model file of a report's ``path``."""
    from support.opcheck import core
    out: list[str] = []
    for file in report_json.get("files") or []:
        groups = _groups(file)
        if not groups:
            continue
        model = core().read_model(str(model_path(str(file.get("path")))))
        for group in groups:
            now = {_static(axis.get("now")) for _, axis in group}
            for size in _together_sizes(_known(group), now, count):
                refused = _refusal(model, {(name, axis["axis"]): size for name, axis in group})
                if refused is not None:
                    named = " = ".join(f"{name!r} axis {axis['axis']}" for name, axis in group)
                    out.append(f"{file.get('path')}: {named} = {size}: stated to work "
                               f"together, the runtime refuses: {refused}")
    return out


def _static(now: Any) -> int | None:
    try:
        return int(now)
    except (TypeError, ValueError):
        return None


def _refusal(model: Any, setting: dict[tuple[str, int], int]) -> str | None:
    """None when ``Model.reshape`` takes ``setting`` ({(input, axis): size}, the rest as
    declared) on a clone of ``model``, else the refusal's last line."""
    import openvino as ov
    trial = model.clone()
    request = {}
    for parameter in trial.get_parameters():
        shape = ov.PartialShape(parameter.get_output_partial_shape(0))
        for (name, axis), size in setting.items():
            if name == parameter.get_friendly_name():
                shape[axis] = ov.Dimension(size)
        request[parameter.output(0)] = shape
    try:
        trial.reshape(request)
    except RuntimeError as err:
        lines = [line.strip() for line in str(err).splitlines() if line.strip()]
        return (lines[-1] if lines else "refused")[:200]
    return None


#: the sizes a class of partners is set to at once (the runtime's verdict on each compared
#: with what ``together`` says)
TOGETHER_SIZES = (1, 2, 3, 5, 8, 16, 31, 32, 33, 64, 100, 128, 511, 512, 513, 1024)


def check_together(report_json: dict, model_path: Callable[[str], Path]) -> tuple[list[str], int]:
    """Each axis's ``together`` (the sizes that work when it and its partners take one size)
    against Model.reshape, each class of partners once: where it is exact, every verdict
    must agree; where not, every size it excludes must fail.  Also the probes made."""
    from support.opcheck import core
    out: list[str] = []
    probes = 0
    for file in report_json.get("files") or []:
        classes = _classes(file)
        if not classes:
            continue
        model = core().read_model(str(model_path(str(file.get("path")))))
        for members, together in classes:
            for size in TOGETHER_SIZES:
                works = _refusal(model, {member: size for member in members}) is None
                said, probes = allows(together, size), probes + 1
                if works != said and (works or together["exact"]):
                    out.append(f"{file.get('path')}: {members} together at {size}: said "
                               f"{'works' if said else 'fails'} ({stated(together)}, exact: "
                               f"{together['exact']}), the runtime "
                               f"{'takes' if works else 'refuses'} it")
    return out, probes


def _classes(file: dict) -> list[tuple[tuple[tuple[str, int], ...], dict]]:
    """Each class of partners once, as (its (input, axis) members, the first's together)."""
    found: dict[frozenset, tuple[tuple[tuple[str, int], ...], dict]] = {}
    for entry in file.get("inputs") or []:
        for axis in entry.get("axes") or []:
            if not axis.get("together"):
                continue
            members = ((entry["name"], axis["axis"]),) + tuple(
                (t["input"], t["axis"]) for t in axis.get("equal_to") or [])
            found.setdefault(frozenset(members), (members, axis["together"]))
    return list(found.values())
