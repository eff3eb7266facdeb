"""Dims that carry a symbolic size, and the conditions inference puts on them (issue 27).

``reshapeable`` asks which sizes each input axis takes.  It gives every input axis a symbol
and infers the model once, each input dim a :class:`SymDim`: a ``Dim`` whose interval is the
size the file has now (the witness: inference takes the path it takes today) and which also
carries an expression over the symbols (``shapes.symbolic``).  While a :class:`Recording`
is active, the merges of ``dims``, the arithmetic of ``arith`` and the windows of
``windows`` keep the expressions, and record each condition a merge or a window puts on
them, with the layer being inferred as its cause.  A merge that fails at the witness is not
recorded: it is an alternative inference did not take.

What is not followed is not guessed: a dim that an op not declared symbolic makes from
symbolic inputs, or that comes from a value computed from them (ShapeOf -> ... -> Reshape),
is *opaque*: a SymDim without an expression, which knows the symbols it may depend on and
the layer where they were lost.  A condition that touches it is recorded as unknown, and
the axes of those symbols are not exact.  Outside a recording nothing changes: the hooks
cost one test of a module global.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple, Protocol

from . import dims as _dims
from .dims import ONE as _ONE, Dim, Shape
from .symbolic import Condition, Expr, any_of, ceildiv, const, eq, floordiv, ge, maximum, minimum


class SymDim(Dim):
    """A dim whose size is ``expr`` of the input axes' symbols (None: opaque, see the
    module); its interval is the witness."""

    expr: Expr | None
    #: the symbols it may depend on
    depends: frozenset[str]
    #: where an opaque dim's symbols were lost (a layer)
    origin: Any
    #: the layer that made it (None: an input's own dim)
    made_by: Any

    def __repr__(self) -> str:
        return f"SymDim({self.lo}, {self.hi}, {self.expr if self.expr is not None else '?'})"


class Site(NamedTuple):
    """Where a condition comes from: the layer that puts it, and the layers that made the
    sizes it compares (their own conditions are elsewhere: a Slice's stop, a window)."""
    layer: Any
    makers: tuple[Any, ...]
    #: the sizes it compares (a layer alike finds its own in the same places: ``Replay``)
    sizes: tuple[Dim, ...] = ()


class Unknown(NamedTuple):
    """A condition on an opaque dim: the sizes of ``depends`` it allows are not known."""
    depends: frozenset[str]
    cause: Any
    origin: Any
    #: the symbols reach ``cause`` through a value computed from ``origin`` (a ShapeOf)
    by_value: bool = False


class Given(Protocol):
    """What reaches a layer's input, as ``Replay`` reads it (ops.support.spec.Value)."""

    @property
    def shape(self) -> Shape: ...

    @property
    def tensor(self) -> Any: ...

    @property
    def producer(self) -> Any: ...


#: how a shape or a value's bounds are repeated: each dim (an int: the input dim in that
#: slot, see ``slots``; a SymDim: one like it, made by the layer that repeats it; else the
#: dim itself), or the dims themselves when they are all plain (``fixed``)
Plan = tuple[tuple[Any, ...], bool]
#: how an output is repeated: its shape's plan (None: no shape), and its value's (None: no
#: value; else its shape, element type and bounds' plan)
OutputPlan = tuple[Plan | None, tuple[Any, str, Plan] | None]


class Replay(NamedTuple):
    """What a layer alike one inferred repeats of it (``Recording.replay_of``; the stream's
    likeness recalls it): its outputs, the conditions it put (each with the slots of the
    dims whose makers it names), and the symbols its values are tainted by."""
    outputs: tuple[OutputPlan, ...]
    conditions: tuple[tuple[Condition, tuple[int | tuple[int, ...], ...]], ...]
    taint: frozenset[str] | None
    #: the taint is the producers' (settle's ``of_shapes`` reads none)
    producers: bool
    #: whether a plan or a condition reads a slot
    slotted: bool


def slots(inputs: Sequence[Given]) -> list[Dim]:
    """The dims a layer's inputs hand it, in one list: each input's shape, then the bounds
    of its value (a Tensor's; a value made later has none): alike layers have them in the
    same places."""
    found: list[Dim] = []
    for value in inputs:
        shape = value.shape
        if shape is not None:
            found += shape
        bounds = getattr(value.tensor, "bounds", None)
        if bounds:
            found += bounds
    return found


class Keyed(NamedTuple):
    """A plan's dim passed on by its expression, as ``owned`` finds it in a layer's inputs:
    the slots of the inputs' shapes that hold that expression (one size there is that
    size; else ``owned``'s choice is made again)."""
    key: str
    at: tuple[int, ...]


def with_expr(witness: Dim, expr: Expr | None) -> Dim:
    """``witness`` carrying ``expr`` (a plain dim when there is none, or it is a constant).
    While recording, an expression that does not give the witness's size at the sizes now
    is a mistake of the maths that made it: the dim is then opaque, never wrong."""
    if expr is None or expr.is_const:
        return Dim(witness.lo, witness.hi) if type(witness) is SymDim else witness
    if _active is not None and witness.lo == witness.hi and not _active.agrees(expr, witness.lo):
        return opaque(witness, expr.symbols(), _active.cause)
    out = SymDim(witness.lo, witness.hi)
    out.expr, out.depends, out.origin = expr, expr.symbols(), None
    out.made_by = _active.cause if _active is not None else None
    return out


def opaque(witness: Dim, depends: frozenset[str], origin: Any) -> Dim:
    """``witness``, a size that depends on ``depends`` in a way not followed."""
    if not depends:
        return Dim(witness.lo, witness.hi) if type(witness) is SymDim else witness
    out = SymDim(witness.lo, witness.hi)
    out.expr, out.depends, out.origin = None, depends, origin
    out.made_by = origin
    return out


def expr_of(d: Dim) -> Expr | None:
    """What a dim is as an expression: its own, a static dim's size; None for an opaque dim
    or a dynamic one that carries none."""
    if type(d) is SymDim:
        return d.expr
    return const(d.lo) if d.lo == d.hi else None


def symbolic(*found: Dim) -> bool:
    return any(type(d) is SymDim for d in found)


def depends_of(found: Sequence[Dim]) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for d in found:
        if type(d) is SymDim:
            out |= d.depends
    return out


def _origin(found: Sequence[Dim]) -> Any:
    return next((d.origin for d in found if type(d) is SymDim and d.expr is None), None)


class Recording:
    """The conditions of one symbolic inference, and the layer each comes from."""

    def __init__(self, witness: dict[str, int] | None = None) -> None:
        #: the size of each symbol now, where it is static
        self.witness = witness or {}
        self.conditions: list[Condition] = []
        self.unknowns: list[Unknown] = []
        self._cause: Any = None
        #: how many conditions there were when each layer started, by id() of the layer
        #: (a TensorIterator's body layers start and end inside it)
        self._starts: dict[int, int] = {}
        #: the layers whose values depend on symbols, by id() of the layer (a body's layer
        #: ids repeat the model's): (the symbols, where they were lost)
        self.tainted: dict[int, tuple[frozenset[str], Any]] = {}
        #: how many reasons named the layer that made a size (``_shown``)
        self.named = 0

    @property
    def cause(self) -> Any:
        """The layer being inferred (the propagation says, layer by layer)."""
        return self._cause

    @cause.setter
    def cause(self, layer: Any) -> None:
        self._cause = layer
        self._starts.setdefault(id(layer), len(self.conditions))

    def agrees(self, expr: Expr, size: int) -> bool:
        """Whether ``expr`` gives ``size`` at the sizes now (True when a symbol has none)."""
        if not expr.symbols() <= self.witness.keys():
            return True
        return expr.evaluate(self.witness) == size

    def signature(self, shapes: Sequence[Shape]) -> tuple:
        """What the symbols make of some shapes: each dim's expression (an opaque one's
        symbols and origin), so that inference remembered for one set of inputs is recalled
        only for inputs that are alike in their expressions too."""
        return tuple(None if shape is None else tuple(
            None if type(d) is not SymDim else
            d.expr.key if d.expr is not None else (d.depends, id(d.origin)) for d in shape)
            for shape in shapes)

    def forget(self, layer: Any) -> None:
        """A layer no later layer reads (a streamed run frees it, and a layer made later may
        take its id()): what is kept of it by id() goes."""
        self.tainted.pop(id(layer), None)
        if self._starts:  # (settle takes a layer's own: one is left only if it failed)
            self._starts.pop(id(layer), None)

    def record(self, condition: Condition) -> None:
        if condition.symbols():  # (both sides constant: decided already)
            self.conditions.append(condition)

    def _site(self, *found: Dim) -> Site:
        return Site(self._cause, _makers(found, self._cause), found)

    def _unfollowed(self, found: Sequence[Dim], result: Dim | None) -> Dim | None:
        """A condition between dims of which one is opaque (or dynamic and plain)."""
        depends = depends_of(found)
        origin = _origin(found) or self.cause
        self.unknowns.append(Unknown(depends, self.cause, origin))
        return None if result is None else opaque(result, depends, origin)

    # the hooks the shape maths call while this recording is active ----------------------

    def merged(self, a: Dim, b: Dim, result: Dim | None) -> Dim | None:
        """``Dimension::merge``: the two must be equal."""
        if result is None or not symbolic(a, b):
            return result
        ea, eb = expr_of(a), expr_of(b)
        if ea is None or eb is None:
            return self._unfollowed((a, b), result)
        self.record(eq(ea, eb, cause=self._site(a, b), reason=f"must equal {_shown(b, eb)}"))
        # the two are one size now: keep the expression of a static one (an input axis that
        # is dynamic now takes the other's size when only that other is set)
        keep_a = type(a) is SymDim and (a.lo == a.hi or type(b) is not SymDim or b.lo != b.hi)
        return with_expr(result, ea if keep_a else eb)

    def broadcast(self, a: Dim, b: Dim, result: Dim | None) -> Dim | None:
        """``Dimension::broadcast_merge``: equal, or one of them 1; the result is the other."""
        if result is None or not symbolic(a, b):
            return result
        # a plain 1 takes any size, the other's (a symbol whose witness is 1 does not)
        if type(a) is not SymDim and a == _ONE:
            return b
        if type(b) is not SymDim and b == _ONE:
            return a
        ea, eb = expr_of(a), expr_of(b)
        if ea is None or eb is None:
            return self._unfollowed((a, b), result)
        self.record(any_of(eq(ea, eb), eq(ea, const(1)), eq(eb, const(1)), cause=self._site(a, b),
                           reason=f"{_shown(a, ea)} broadcasts with {_shown(b, eb)}"))
        return with_expr(result, maximum(ea, eb))

    def to_target(self, d: Dim, target: Dim, one_takes_any: bool = False) -> bool:
        """Broadcast to a target: the data's size must be 1 or the target's (the output is
        the target's dim).  True when that condition was recorded: either carries a symbol,
        and (``one_takes_any``, pdpd) the target is not a plain 1, which takes any size."""
        plain_one = type(target) is not SymDim and target == _ONE
        if not symbolic(d, target) or (one_takes_any and plain_one):
            return False
        ed, et = expr_of(d), expr_of(target)
        if ed is None or et is None:
            self._unfollowed((d, target), None)
            return True
        self.record(any_of(eq(ed, const(1)), eq(ed, et), cause=self._site(d, target),
                           reason=f"{_shown(d, ed)} must be 1 or {_shown(target, et)}"))
        return True

    def divisible(self, a: Dim, n: int, result: Dim) -> Dim:
        """``Dimension / n`` where it divides: ``a`` must be a multiple of ``n``."""
        if type(a) is not SymDim:
            return result
        ea = a.expr
        if ea is None:
            return self._unfollowed((a,), result) or result
        self.record(eq(ea - floordiv(ea, n) * n, const(0), cause=self._site(a),
                       reason=f"{_shown(a, ea)} must be a multiple of {n}"))
        return with_expr(result, floordiv(ea, n))

    def scaled(self, d: Dim, ratio: tuple[int, int] | None, result: Dim) -> Dim:
        """Interpolate's ``floor(size * p / q)``; opaque where the scale is not such a ratio."""
        if type(d) is not SymDim:
            return result
        if d.expr is None or ratio is None:
            return opaque(result, d.depends, _origin((d,)) or self.cause)
        return with_expr(result, floordiv(d.expr * ratio[0], ratio[1]))

    def padded(self, d: Dim, pad: int, result: Dim) -> Dim:
        """A dim padded by a signed ``pad``."""
        if type(d) is not SymDim:
            return result
        if d.expr is None:
            return opaque(result, d.depends, _origin((d,)) or self.cause)
        return with_expr(result, d.expr + pad)

    def grouped(self, channels: Dim, groups: Dim, per_group: Dim) -> Dim | None:
        """A grouped convolution whose group width is symbolic: the data channels must be
        groups x that width (None: no symbol here, the plain check goes on)."""
        if not symbolic(per_group):
            return None
        ec, eg, ew = expr_of(channels), expr_of(groups), expr_of(per_group)
        if ec is None or eg is None or ew is None:
            return self._unfollowed((channels, groups, per_group), groups)
        if channels.lo != groups.lo * per_group.lo or not channels.lo == channels.hi:
            return None  # (the plain check refuses it, or says what it does with an interval)
        self.record(eq(ec, eg * ew, cause=self._site(channels, per_group),
                       reason=f"the channels must be {_shown(groups, eg)} groups of "
                              f"{_shown(per_group, ew)}"))
        return groups

    def left(self, d: Dim, taken: int, result: Dim) -> Dim:
        """What is left of ``d`` once ``taken`` is split off (VariadicSplit's -1).  Not
        followed: below ``taken`` the runtime gives ``?`` or 0 and goes on, which no
        expression says."""
        return self.lost(d, result)

    @staticmethod
    def carries(d: Dim) -> bool:
        """Whether ``d`` owes its size to an input axis's symbol."""
        return type(d) is SymDim

    def at_least(self, d: Dim, least: int, why: str) -> None:
        """``d`` must be ``least`` or more (a padding mode's own check, made at every static
        size); ``why`` says what needs it."""
        if type(d) is not SymDim:
            return
        if d.expr is None:
            self._unfollowed((d,), None)
            return
        self.record(ge(d.expr, const(least), cause=self._site(d),
                       reason=f"{why}: {_shown(d, d.expr)} must be at least {least}"))

    def sliced_by(self, d: Dim, start: Dim, stop: Dim, step: int, result: Dim) -> Dim:
        """Slice's length where its start or stop is a size read from a symbolic dim
        (position ids sliced to the sequence's length: min(length, rows))."""
        if not symbolic(start, stop):
            return result
        depends = depends_of((d, start, stop))
        size = expr_of(d)
        if size is None or step <= 0:
            return opaque(result, depends, _origin((d, start, stop)) or self.cause)
        first, last = _bound_index(start, size), _bound_index(stop, size)
        if first is None or last is None:
            return opaque(result, depends, _origin((d, start, stop)) or self.cause)
        length = maximum(last - first, const(0))
        return with_expr(Dim(result.lo, result.hi),
                         ceildiv(length, step) if step > 1 else length)

    def counted(self, stop: Dim, start: int, step: int, result: Dim) -> Dim:
        """Range's length, ``max(ceil((stop - start) / step), 0)``, for a stop that is a size
        read from a symbolic dim, a constant start and a positive constant step."""
        if type(stop) is not SymDim:
            return result
        if stop.expr is None:
            return opaque(result, stop.depends, _origin((stop,)) or self.cause)
        span = maximum(stop.expr - start, const(0))
        return with_expr(Dim(result.lo, result.hi), ceildiv(span, step) if step > 1 else span)

    def valued(self, kind: str, a: Dim, b: Dim, result: Dim) -> Dim:
        """An element of Add, Subtract or Multiply of two integer values, one of them a size
        read from a symbolic dim (YOLO's h * w anchors); any other kind is opaque."""
        if not symbolic(a, b):
            return result
        ea, eb = expr_of(a), expr_of(b)
        depends = depends_of((a, b))
        if ea is None or eb is None or kind not in ("add", "subtract", "multiply"):
            return opaque(result, depends, _origin((a, b)) or self.cause)
        made = ea + eb if kind == "add" else ea - eb if kind == "subtract" else ea * eb
        return with_expr(Dim(result.lo, result.hi), made)

    def unsure(self, d: Dim) -> None:
        """What the layer makes of ``d`` is not followed at all (a rank that depends on its
        size): whatever the layers after it check, the sizes it allows are not known."""
        if type(d) is SymDim:
            self._unfollowed((d,), None)

    def lost(self, d: Dim, result: Dim) -> Dim:
        """A dim made from ``d`` by maths not followed (a pad read as bounds, not numbers)."""
        if type(d) is not SymDim:
            return result
        return opaque(result, d.depends, _origin((d,)) or self.cause)

    def at_most(self, a: Dim, b: Dim) -> None:
        """``a`` may not be larger than ``b`` (pdpd broadcasts B into A only)."""
        self._no_less(b, a, lambda eb, ea: f"{_shown(a, ea)} may not be larger than "
                                           f"{_shown(b, eb)}")

    def window(self, padded: Dim, window: Dim) -> None:
        """A window must fit in the padded data (the runtime checks it at every static size,
        so it holds whatever the witness)."""
        self._no_less(padded, window, lambda ep, ew: f"a window of {_shown(window, ew)} must fit")

    def _no_less(self, big: Dim, small: Dim, reason: Callable[[Expr, Expr], str]) -> None:
        """``big`` >= ``small``, where either carries a symbol (an unknown if one is opaque)."""
        if not symbolic(big, small):
            return
        eb, es = expr_of(big), expr_of(small)
        if eb is None or es is None:
            self._unfollowed((big, small), None)
            return
        self.record(ge(eb - es, const(0), cause=self._site(small, big), reason=reason(eb, es)))

    def reshaped(self, shape: tuple[Dim, ...], out: tuple[Dim, ...], minus_one: int | None,
                 copied: frozenset[int], counted: bool) -> tuple[Dim, ...]:
        """Reshape: the element count of ``shape`` and of ``out`` (the dims special_zero
        copies apart) are equal; a -1 takes the quotient, which must be whole.  ``counted``:
        the runtime compares the counts (no -1, no copy)."""
        if not symbolic(*shape, *out):
            return out
        ins = [d for i, d in enumerate(shape) if i not in copied]
        outs = [d for i, d in enumerate(out) if i not in copied and i != minus_one]
        inside, outside = _cancelled([expr_of(d) for d in ins], [expr_of(d) for d in outs])
        if inside is None or outside is None or (minus_one is not None and (
                not outside.is_const or outside.value <= 0)):
            if minus_one is None and not counted:
                return out
            found = list(out)
            if minus_one is not None:
                found[minus_one] = self._unfollowed(ins + outs, out[minus_one]) or out[minus_one]
            else:
                self._unfollowed(ins + outs, None)
            return tuple(found)
        if minus_one is None:
            if counted:
                self.record(eq(inside, outside, cause=self._site(*shape),
                               reason=f"the element count must stay {outside}"))
            return out
        self.record(eq(inside - floordiv(inside, outside.value) * outside.value, const(0),
                       cause=self._site(*shape), reason=f"the element count must divide by "
                                                        f"{outside.value}"))
        found = list(out)
        found[minus_one] = with_expr(out[minus_one], floordiv(inside, outside.value))
        return tuple(found)

    # what a layer's outputs owe to the symbols (the propagation asks, layer by layer) ----

    def settle(self, layer: Any, follows: tuple[bool, bool, bool], reads: Sequence[int],
               inputs: Sequence[tuple[Shape, Any, int | None]], made_values: bool = False,
               evaluates: bool = True) -> tuple[frozenset[str], Any, bool]:
        """For one inferred layer: the symbols its output dims may depend on, where they
        were lost, and whether they are to be taken as opaque.  ``follows``: whether its op
        follows symbols in its dims, and in its values (OpSpec.symbolic, symbolic_values);
        ``inputs``: each input's shape, value (a Tensor, or None) and id() of its producer.  Its dims
        are opaque when its op does not follow symbols, or when it reads a value whose
        symbols it does not follow (a Reshape's target computed with an Add); what such a
        layer recorded is replaced by one unknown condition (``follows``' third: the values it
        reads reach its dims whole, OpSpec.symbolic_reads).  A layer that makes values
        depending on symbols it does not carry is remembered as tainted, with the layer
        that first made such values (``made_values``: it computed a value; ``evaluates``:
        its op can make values at all)."""
        dims_follow, values_follow, reads_follow = follows
        depends: frozenset[str] = frozenset()  # what its dims may depend on
        lost = None  # where an input dim was already opaque
        for shape, _, _ in inputs:
            if shape is not None:
                depends |= depends_of(shape)
                lost = lost or _origin(shape)
        values = depends  # what its values may depend on
        read = lost_value = None  # where a value it reads (or is given) stopped being followed
        for index, (_, tensor, producer) in enumerate(inputs):
            found = self.tainted.get(producer) if producer is not None else None
            carries = carried(tensor)
            if found is None and not carries:
                continue
            symbols = found[0] if found is not None else carries
            values |= symbols
            if found is not None:
                lost_value = lost_value or found[1]
            if index in reads:
                depends |= symbols
                if found is not None or not reads_follow:
                    read = read or (found[1] if found is not None else layer)
        # its values are followed only when it made them by moving followed ones; one it
        # could not make, or made otherwise, leaves its readers nothing they can trust (an
        # op that never makes values, a Convolution, taints nothing)
        if values and evaluates and not (made_values and values_follow and lost_value is None):
            self.tainted[id(layer)] = (values, lost_value or layer)
        unfollowed = bool(depends) and (not dims_follow or read is not None)
        start = self._starts.pop(id(layer), len(self.conditions))
        if unfollowed:
            # what its own checks refuse is not known: the conditions its merges (and the
            # layers of its bodies) recorded may be explorations, or rest on a value the
            # symbols do not reach
            del self.conditions[start:]
            self.unknowns.append(Unknown(depends, layer, read or lost or layer, read is not None))
        return depends, read or lost or layer, unfollowed

    def first_lost(self, layer: Any, inputs: Sequence[Given]) -> Any:
        """Where the values of ``layer``, made from those of ``inputs``, stopped being
        followed, as ``settle`` finds it: the first tainted producer's place, else the
        layer itself."""
        tainted = self.tainted
        for value in inputs:
            found = tainted.get(id(value.producer))
            if found is not None:
                return found[1]
        return layer

    def moment(self) -> tuple[int, int, int]:
        """Where the recording stands (before a layer is inferred: ``replay_of``)."""
        return len(self.conditions), len(self.unknowns), self.named

    def replay_of(self, layer: Any, inputs: Sequence[Given], outputs: Sequence[Given],
                  before: tuple[int, int, int], with_conditions: bool,
                  of_shapes: bool) -> Replay | None:
        """How a layer alike ``layer`` repeats what inferring it did since ``before``, or
        None where it cannot: an unknown condition, a reason naming a layer, a dim or a
        maker found in no slot, a taint from elsewhere than ``first_lost`` finds.
        ``with_conditions``: the layer alike puts them again (the whole run's memo recalls
        no layer whose inputs carry values, so each puts its own)."""
        conditions_before, unknowns_before, named_before = before
        if len(self.unknowns) != unknowns_before or self.named != named_before:
            return None
        given = slots(inputs)
        place = _places(given)
        # a layer the whole run's memo recalls gets the first one's dims, named by owned():
        # a size one of its inputs' shapes has is that input's (the last such), else its own
        by_key = {} if with_conditions else _shape_keys(inputs)
        plans: list[OutputPlan] = []
        for value in outputs:
            shape, tensor = value.shape, value.tensor
            shape_plan = None if shape is None else _plan(shape, layer, place, by_key)
            bounds = getattr(tensor, "bounds", None)
            bounds_plan = None if bounds is None else _plan(bounds, layer, place, {})
            if (shape is not None and shape_plan is None) or (
                    tensor is not None and bounds_plan is None):
                return None
            plans.append((shape_plan, None if bounds_plan is None else
                          (tensor.shape, tensor.et, bounds_plan)))
        conditions = self._replayable(layer, place, conditions_before) if with_conditions else ()
        taint = self.tainted.get(id(layer))
        if conditions is None or (taint is not None and taint[1] is not self.first_lost(
                layer, () if of_shapes else inputs)):
            return None
        entries = [entry for found in plans for plan in (found[0], found[1] and found[1][2])
                   if plan and not plan[1] for entry in plan[0]]
        return Replay(tuple(plans), conditions, None if taint is None else taint[0],
                      not of_shapes, bool(conditions) or any(type(e) in (int, tuple, Keyed)
                                                             for e in entries))

    def _replayable(self, layer: Any, place: dict[int, int | tuple[int, ...]], start: int
                    ) -> tuple[tuple[Condition, tuple[int | tuple[int, ...], ...]], ...] | None:
        """The conditions ``layer`` put since ``start``, each with the slots of the sizes it
        compares that it did not make (a layer alike may have one another layer made
        there); None where such a size is in no slot."""
        found = []
        for condition in self.conditions[start:]:
            site = condition.cause
            if not isinstance(site, Site) or site.layer is not layer:
                return None
            at = []
            for d in site.sizes:
                if type(d) is SymDim and d.made_by is not layer:  # (an input's own too)
                    if id(d) not in place:
                        return None
                    at.append(place[id(d)])
            found.append((condition, tuple(at)))
        return tuple(found)

    def replayed(self, layer: Any, replay: Replay, inputs: Sequence[Given]
                 ) -> list[tuple[Shape, tuple[Any, Any, str] | None]] | None:
        """What a layer alike repeats (``replay_of``): its outputs' shapes and values'
        (shape, bounds, element type), its own sizes named as made by it; its conditions
        and taint recorded.  None (nothing recorded) where it has two sizes in slots that
        held one size in the layer repeated: it is to be inferred."""
        given = slots(inputs) if replay.slotted else []
        made: dict[int, SymDim] = {}
        out: list[tuple[Shape, tuple[Any, Any, str] | None]] = []
        try:
            for shape_plan, tensor_plan in replay.outputs:
                shape = None if shape_plan is None else shape_plan[0] if shape_plan[1] \
                    else _replayed(shape_plan[0], given, inputs, layer, made)
                if tensor_plan is None:
                    out.append((shape, None))
                    continue
                plan, fixed = tensor_plan[2]
                out.append((shape, (tensor_plan[0], plan if fixed else
                                    _replayed(plan, given, inputs, layer, made), tensor_plan[1])))
            compared = [tuple([_taken(index, given) for index in at])
                        for _, at in replay.conditions]
        except _Diverged:
            return None
        for (condition, _), sizes in zip(replay.conditions, compared):
            self.conditions.append(Condition(condition.kind, condition.gap, condition.options,
                                             Site(layer, _makers(sizes, layer), sizes),
                                             condition.reason, condition.sides))
        if replay.taint is not None:
            self.tainted[id(layer)] = (replay.taint, self.first_lost(
                layer, inputs if replay.producers else ()))
        return out

    def opaque_shape(self, shape: Shape, depends: frozenset[str], origin: Any) -> Shape:
        if shape is None:
            return None
        return tuple(d if type(d) is SymDim and d.expr is None else opaque(d, depends, origin)
                     for d in shape)

    def owned(self, layer: Any, shape: Shape, inputs: Sequence[Shape]) -> Shape:
        """``layer``'s outputs with its own dims named as made by it: a layer recalled from
        the memo gives back the dims the first layer alike made (naming that one), or
        passed on from its inputs (the first one's inputs, alike in their expressions)."""
        if shape is None or not any(type(d) is SymDim and d.expr is not None
                                    and d.made_by is not layer for d in shape):
            return shape
        given, by_key = _passed_on(inputs)
        out = []
        for d in shape:
            if type(d) is not SymDim or d.expr is None or d.made_by is layer or id(d) in given:
                out.append(d)
            elif d.expr.key in by_key:  # passed on: this layer's own input
                out.append(by_key[d.expr.key])
            else:
                mine = SymDim(d.lo, d.hi)
                mine.expr, mine.depends, mine.origin, mine.made_by = d.expr, d.depends, None, layer
                out.append(mine)
        return tuple(out)

    def loosened(self, shape: Shape, depends: frozenset[str], origin: Any) -> Shape:
        """An op that follows symbols: a plain dim it gives that is not static (an interval
        it could not narrow, say) is taken as opaque; a static one is its own (a channel
        count from the weights)."""
        if shape is None or all(type(d) is SymDim or d.lo == d.hi for d in shape):
            return shape
        return tuple(d if type(d) is SymDim or d.lo == d.hi else opaque(d, depends, origin)
                     for d in shape)

    def sliced(self, d: Dim, start: tuple[int, int], stop: tuple[int, int], step: int,
               result: Dim) -> Dim:
        """``slice::make_dim`` of a symbolic dim by constant bounds and a positive step:
        Python's slice length, ``ceil((clamp(stop) - clamp(start)) / step)``."""
        if type(d) is not SymDim:
            return result
        if d.expr is None or start[0] != start[1] or stop[0] != stop[1] or step <= 0:
            return opaque(result, d.depends, _origin((d,)) or self.cause)
        size = d.expr
        length = maximum(_index(stop[0], size) - _index(start[0], size), const(0))
        return with_expr(result, ceildiv(length, step) if step > 1 else length)


def _bound_index(bound: Dim, size: Expr) -> Expr | None:
    """A slice bound that is a Dim: a constant one as ``_index`` reads it; one read from a
    symbolic dim is a size (never negative), so it counts from the front, clamped to the
    dim; None for an opaque one, or a constant not known exactly."""
    if type(bound) is SymDim:
        return None if bound.expr is None else minimum(bound.expr, size)
    return _index(bound.lo, size) if bound.lo == bound.hi else None


def _index(bound: int, size: Expr) -> Expr:
    """A slice bound on a dim of ``size``, clamped into [0, size] as Python clamps it."""
    if bound >= _dims.INF:
        return size
    if bound >= 0:
        return minimum(const(bound), size)
    return maximum(size + bound, const(0))


def _places(given: list[Dim]) -> dict[int, int | tuple[int, ...]]:
    """The slot of each size the inputs hand a layer, by id(); every slot of one found in
    several (a Concat of x with x): which one the op took is not known, so a layer alike
    is repeated only where those slots hold one size too (``_taken``)."""
    found: dict[int, list[int]] = {}
    for index, d in enumerate(given):
        if type(d) is SymDim:
            found.setdefault(id(d), []).append(index)
    return {key: at[0] if len(at) == 1 else tuple(at) for key, at in found.items()}


class _Diverged(Exception):
    """A layer alike has two sizes where the one repeated had one (``_places``)."""


def _taken(entry: int | tuple[int, ...], given: list[Dim]) -> Dim:
    """The size in a slot, or in several that must hold one (else _Diverged)."""
    if isinstance(entry, int):
        return given[entry]
    first = given[entry[0]]
    if any(given[index] is not first for index in entry[1:]):
        raise _Diverged
    return first


def _makers(sizes: Sequence[Dim], layer: Any) -> tuple[Any, ...]:
    """The layers other than ``layer`` that made ``sizes``, each once, in order."""
    makers: list[Any] = []
    for d in sizes:
        maker = d.made_by if type(d) is SymDim else None
        if maker is not None and maker is not layer and maker not in makers:
            makers.append(maker)
    return tuple(makers)


def _passed_on(inputs: Sequence[Shape]) -> tuple[dict[int, Dim], dict[str, Dim]]:
    """The dims of the inputs' shapes by id(), and by expression the one ``owned`` passes
    on: of the dims with one expression, the last met (each counted where first met)."""
    given = {id(d): d for found in inputs if found is not None for d in found}
    return given, {d.expr.key: d for d in given.values() if type(d) is SymDim and d.expr is not None}


def _shape_keys(inputs: Sequence[Given]) -> dict[str, tuple[int, ...]]:
    """The slots (see ``slots``) of the inputs' shapes that hold each expression."""
    found: dict[str, tuple[int, ...]] = {}
    index = 0
    for value in inputs:
        for d in value.shape or ():
            if type(d) is SymDim and d.expr is not None:
                found[d.expr.key] = found.get(d.expr.key, ()) + (index,)
            index += 1
        index += len(getattr(value.tensor, "bounds", None) or ())
    return found


def _plan(found: Sequence[Dim], layer: Any, place: dict[int, int | tuple[int, ...]],
          by_key: dict[str, tuple[int, ...]]) -> Plan | None:
    """How ``Replay`` repeats the dims of ``found`` (None: it cannot, an opaque one): each
    by the slot of an input dim with its expression (``by_key``), else by the slot of the
    very dim, else one like it made by the layer."""
    plan: list[Any] = []
    fixed = True
    for d in found:
        if type(d) is not SymDim:
            plan.append(d)
            continue
        fixed = False
        if d.expr is not None and d.expr.key in by_key:  # (found as owned() finds it)
            plan.append(Keyed(d.expr.key, by_key[d.expr.key]))
        elif id(d) in place:
            plan.append(place[id(d)])
        elif d.expr is not None and d.made_by is layer:
            plan.append(d)
        else:
            return None
    return (tuple(found), True) if fixed else (tuple(plan), False)


def _replayed(plan: tuple[Any, ...], given: list[Dim], inputs: Sequence[Given], layer: Any,
              made: dict[int, SymDim]) -> tuple[Dim, ...]:
    out: list[Dim] = []
    new = tuple.__new__  # (a named tuple's own __new__ is a Python function)
    for entry in plan:
        kind = type(entry)
        if kind is int:
            out.append(given[entry])
        elif kind is Keyed:
            at = entry.at
            first = given[at[0]]
            if len(at) > 1:
                for index in at:
                    if given[index] is not first:  # (several sizes: owned()'s choice)
                        first = _passed_on([value.shape for value in inputs])[1][entry.key]
                        break
            out.append(first)
        elif kind is tuple:
            out.append(_taken(entry, given))
        elif kind is SymDim:  # (made by the layer repeated: one of its own, once)
            mine = made.get(id(entry))
            if mine is None:
                mine = made[id(entry)] = new(SymDim, (entry.lo, entry.hi))
                mine.expr, mine.depends, mine.origin, mine.made_by = \
                    entry.expr, entry.depends, None, layer
            out.append(mine)
        else:
            out.append(entry)
    return tuple(out)


def axis_symbol(name: str, axis: int) -> str:
    """The symbol of an input's axis: ``input_ids[1]`` (what the answers name)."""
    return f"{name}[{axis}]"


def input_dim(witness: Dim, symbol: str) -> Dim:
    """An input axis's dim: ``witness`` (its size now) carrying its own symbol, made by no
    layer (as ``with_expr`` makes it before a recording starts)."""
    from .symbolic import sym  # (the one use of it here)
    out = SymDim(witness.lo, witness.hi)
    expr = sym(symbol)
    out.expr, out.depends, out.origin, out.made_by = expr, expr.symbols(), None, None
    return out


def carried(tensor: Any) -> frozenset[str]:
    """The symbols a value's elements carry (a size ShapeOf read from a symbolic dim)."""
    bounds = getattr(tensor, "bounds", None)
    if not bounds:
        return frozenset()
    return depends_of(bounds)


def _cancelled(ins: list[Expr | None], outs: list[Expr | None]) -> tuple[Expr | None, Expr | None]:
    """The products of two lists of sizes, the factors both hold struck out (a target that
    copies a size from ShapeOf divides it out: sizes are never 0)."""
    if None in ins or None in outs:
        return None, None
    left = list(outs)
    kept = []
    for e in ins:
        match = next((i for i, f in enumerate(left) if f is not None and e is not None
                      and not e.is_const and f.key == e.key), None)
        if match is None:
            kept.append(e)
        else:
            del left[match]
    return _product(kept), _product(left)


def _product(found: list[Expr | None]) -> Expr | None:
    out = const(1)
    for e in found:
        if e is None:
            return None
        out = out * e
    return out


#: an expression longer than this is named by the layer that made it
SHOWN_EXPRESSION = 40


def _shown(d: Dim, e: Expr) -> str:
    """A size in a reason: a number, a short expression, else the layer that made it."""
    text = str(e)
    if e.is_const or len(text) <= SHOWN_EXPRESSION:
        return text
    if _active is not None:  # (a reason of its own: a layer alike cannot repeat it)
        _active.named += 1
    maker = d.made_by if type(d) is SymDim else None
    name, kind = getattr(maker, "name", None), getattr(maker, "type", None)
    return f"the size from {kind} '{name}'" if name is not None else "a computed size"


#: the active recording (one at a time: reshapeable runs one inference at a time)
_active: Recording | None = None


def active() -> Recording | None:
    return _active


@contextmanager
def recording(witness: dict[str, int] | None = None) -> Iterator[Recording]:
    """Symbolic inference inside the block (``witness``: each symbol's size now, where it
    is static); what it recorded on the way out."""
    global _active
    if _active is not None:
        raise RuntimeError("a symbolic recording is already active")
    _active = found = Recording(witness)
    _dims.SYMBOLIC = found
    try:
        yield found
    finally:
        _active, _dims.SYMBOLIC = None, None


# arithmetic that keeps expressions (arith and windows call these when a dim is symbolic) -

def add(a: Dim, b: Dim, result: Dim) -> Dim:
    return _combined(a, b, result, lambda x, y: x + y)


def sub(a: Dim, b: Dim, result: Dim) -> Dim:
    return _combined(a, b, result, lambda x, y: x - y)


def mul(a: Dim, b: Dim, result: Dim) -> Dim:
    return _combined(a, b, result, lambda x, y: x * y)


def divided(a: Dim, n: int, result: Dim, up: bool) -> Dim:
    """``a`` over a positive ``n``, rounded down or up."""
    ea = expr_of(a)
    if ea is None or n <= 0:
        return opaque(result, depends_of((a,)), _origin((a,)) or _cause())
    return with_expr(result, ceildiv(ea, n) if up else floordiv(ea, n))


def _combined(a: Dim, b: Dim, result: Dim, op) -> Dim:
    ea, eb = expr_of(a), expr_of(b)
    if ea is None or eb is None:
        return opaque(result, depends_of((a, b)), _origin((a, b)) or _cause())
    return with_expr(result, op(ea, eb))


def _cause() -> Any:
    return _active.cause if _active is not None else None
