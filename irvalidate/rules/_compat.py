"""What the compat rules (IRV401-IRV416) share: the context that carries the two interfaces
(``interface.model.InterfaceModel``, read here only through their attributes) and how
their inputs and outputs are matched and their shapes compared.

An input of the old file is the same input in the new file when the two share a tensor
name: callers find a tensor by its names, not by its Parameter's name or position.  Tensors
with no name on either side are matched by their layer's name.  An old tensor no new one
shares a name with, and a new one at the same position left over too, are a rename (one
finding, the old one's); the others left over are removed or added.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..ir.records import Layer
from .findings import Problem

if TYPE_CHECKING:  # the models belong to the feature above; the rules only read them
    from ..interface.model import DimModel, InterfaceModel, TensorModel


class Matching(NamedTuple):
    """The inputs (or the outputs) of the two files, paired."""
    #: (old, new) sharing a tensor name (or, both unnamed, a layer name)
    kept: tuple[tuple[TensorModel, TensorModel], ...]
    #: (old, new) at the same position, sharing no name: a rename
    renamed: tuple[tuple[TensorModel, TensorModel], ...]
    removed: tuple[TensorModel, ...]
    added: tuple[TensorModel, ...]

    def pairs(self) -> Iterator[tuple[TensorModel, TensorModel]]:
        """Every old tensor with the new one it became (kept or renamed)."""
        yield from self.kept
        yield from self.renamed


class CompatContext(NamedTuple):
    """What the compat rules read: the old and the new interface (one of them None for a
    file present on one side only, which IRV416 alone reports), and their tensors matched."""
    old: InterfaceModel | None
    new: InterfaceModel | None
    inputs: Matching
    outputs: Matching
    #: the old file's name, as the messages give it
    old_name: str = "the old file"

    def sides(self) -> tuple[tuple[str, Matching, str], ...]:
        """("input", the inputs matched, "Parameter"), then the outputs' the same way."""
        return (("input", self.inputs, "Parameter"), ("output", self.outputs, "Result"))


NO_MATCHING = Matching((), (), (), ())


def compat_context(old: InterfaceModel | None, new: InterfaceModel | None,
                   old_name: str = "the old file") -> CompatContext:
    if old is None or new is None:
        return CompatContext(old, new, NO_MATCHING, NO_MATCHING, old_name)
    return CompatContext(old, new, match(old.inputs, new.inputs),
                         match(old.outputs, new.outputs), old_name)


def match(old: Sequence[TensorModel], new: Sequence[TensorModel]) -> Matching:
    by_name: dict[str, list[int]] = {}  # (one port feeding two Results: both bear its names)
    for index, tensor in enumerate(new):
        for name in tensor.names:
            by_name.setdefault(name, []).append(index)
    unnamed = {t.layer: i for i, t in enumerate(new) if not t.names}
    taken: dict[int, int] = {}  # new index -> old index
    for index, tensor in enumerate(old):
        found = _partner(tensor, by_name, unnamed, taken)
        if found is not None:
            taken[found] = index
    kept = tuple((old[o], new[n]) for n, o in sorted(taken.items(), key=lambda item: item[1]))
    old_left = [i for i in range(len(old)) if i not in taken.values()]
    new_left = [i for i in range(len(new)) if i not in taken]
    paired = [i for i in old_left if i in new_left]
    return Matching(kept, tuple((old[i], new[i]) for i in paired),
                    tuple(old[i] for i in old_left if i not in paired),
                    tuple(new[i] for i in new_left if i not in paired))


def _partner(tensor: TensorModel, by_name: dict[str, list[int]], unnamed: dict[str, int],
             taken: dict[int, int]) -> int | None:
    """The new tensor sharing most of this one's names and not taken yet (the first of
    those), or, for a tensor with no name, the unnamed one of its layer's name."""
    if not tensor.names:
        found = unnamed.get(tensor.layer)
        return found if found is not None and found not in taken else None
    shared: dict[int, int] = {}
    for name in tensor.names:
        for index in by_name.get(name, ()):
            if index not in taken:
                shared[index] = shared.get(index, 0) + 1
    return max(shared, key=lambda i: (shared[i], -i)) if shared else None


def label(tensor: TensorModel) -> str:
    """How a message names a tensor: its first tensor name, else its layer's name."""
    return repr(tensor.names[0] if tensor.names else tensor.layer)


def where_old(ctx: CompatContext, tensor: TensorModel) -> str:
    return f"line {tensor.line} of {ctx.old_name}"


def record(tensor: TensorModel, kind: str) -> Layer:
    """The Parameter or Result a finding names, as the reports name a layer."""
    return Layer(tensor.layer_id, tensor.layer, kind, "", tensor.line, {}, (), ())


def at_new(ctx: CompatContext, message: str, old: TensorModel, new: TensorModel,
           kind: str) -> Problem:
    """A problem about a tensor of both files: located in the new file, the old file's line
    in its message."""
    return Problem(f"{message} ({where_old(ctx, old)})", line=new.line or None,
                   layer=record(new, kind))


# the ways a declared shape changes, worst first
CHANGED, NARROWED, WIDENED, MOVED = "changed", "narrowed", "widened", "moved"


def _contains(outer: DimModel, inner: DimModel) -> bool:
    return outer.lo <= inner.lo and (outer.hi is None or (inner.hi is not None
                                                          and inner.hi <= outer.hi))


def dim_change(old: DimModel, new: DimModel) -> str | None:
    """How one dim changed: None (the same), CHANGED (static to another static), WIDENED
    (the new one takes every size the old took, and more), NARROWED (the reverse), MOVED
    (each takes sizes the other does not)."""
    if (old.lo, old.hi) == (new.lo, new.hi):
        return None
    if old.lo == old.hi and new.lo == new.hi:
        return CHANGED
    if _contains(new, old):
        return WIDENED
    return NARROWED if _contains(old, new) else MOVED


def shape_changes(old: TensorModel, new: TensorModel) -> dict[str, list[int]]:
    """The axes of each kind of change; a rank changed is CHANGED with no axis, a dynamic
    rank that became static NARROWED, a static rank that became dynamic WIDENED."""
    if old.shape is None or new.shape is None:
        if old.shape is new.shape:
            return {}
        return {NARROWED: []} if old.shape is None else {WIDENED: []}
    if len(old.shape) != len(new.shape):
        return {CHANGED: []}
    found: dict[str, list[int]] = {}
    for axis, (was, now) in enumerate(zip(old.shape, new.shape)):
        kind = dim_change(was, now)
        if kind is not None:
            found.setdefault(kind, []).append(axis)
    return found


def shape_message(what: str, old: TensorModel, new: TensorModel, axes: list[int]) -> str:
    at = f" at axis {', '.join(map(str, axes))}" if axes else \
        (" (rank)" if old.shape is not None and new.shape is not None else "")
    return f"{what} {label(new)}: shape was {old.shape_text}, now {new.shape_text}{at}"


def shape_problems(ctx: CompatContext, matching: Matching, kinds: tuple[str, ...],
                   what: str, record_kind: str) -> Iterator[Problem]:
    """One problem per tensor whose shape changed in one of ``kinds``."""
    for old, new in matching.pairs():
        changes = shape_changes(old, new)
        axes = sorted({axis for kind in kinds for axis in changes.get(kind, [])})
        if any(kind in changes for kind in kinds):
            yield at_new(ctx, shape_message(what, old, new, axes), old, new, record_kind)


def gone(ctx: CompatContext, matching: Matching, what: str, kind: str) -> Iterator[Problem]:
    """IRV401's and IRV409's findings: each ``what`` ("input", "output") of the old file
    renamed (none of its tensor names kept, found at the same position) or gone."""
    for old, new in matching.renamed:
        yield at_new(ctx, f"{what} {label(old)} renamed {label(new)}: none of its tensor names "
                     f"({', '.join(old.names) or 'none'}) is kept", old, new, kind)
    for old in matching.removed:
        names = f" (tensor names {', '.join(old.names)})" if old.names else ""
        yield Problem(f"{what} {label(old)}{names} is gone: no {what} of the new file has any "
                      f"of its names ({where_old(ctx, old)})")
