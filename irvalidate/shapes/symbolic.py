"""Symbolic sizes: expressions over input-dim symbols, conditions on them, and the exact
solver that turns conditions into the sizes of one symbol that work.

An :class:`Expr` is an affine combination of *atoms* (a symbol, or an operation the affine
part cannot hold: a floor or ceiling division, a min, a max, a product of two sizes) plus a
constant, kept in one normal form so that equal affine expressions compare equal
(``sym("a") + 1 + 1 == sym("a") + 2``). A :class:`Condition` is ``e == f``, ``e >= c``,
``e <= c`` or a disjunction of conditions (broadcasting), carrying an opaque ``cause``.

:func:`solve` fixes every other symbol and finds the exact set of sizes of one symbol that
satisfies the conditions. A quasi-affine expression f of one symbol (affine maps, floor and
ceiling division by positive constants, min and max, composed) is eventually periodic-affine:
there are ``start``, ``period`` and ``step`` with f(s + period) = f(s) + step for every
s >= start (:func:`tail`). A condition on such an f is then periodic where its slope is 0, or
settles once the linear part has passed every periodic wobble; before that the solver
evaluates the expression size by size. A quotient by a growing size ends constant or
periodic (a Reshape's -1 dividing by the size it multiplies), and so does a product one of
whose sides does. The result is an exact eventually periodic :class:`~.sizeset.SizeSet`;
what is not quasi-affine (a size times a size), or would pass the caps on period and start,
is checked size by size up to :data:`BRUTE_BOUND` and marked inexact.

    >>> h, w = sym("h"), sym("w")
    >>> pooled = floordiv(h - 7, 2) + 1  # a 7-wide window of stride 2, no padding
    >>> joined = eq(2 * ceildiv(w, 2), w, cause="concat")  # a stride-2 branch scaled back
    >>> sol = solve([ge(pooled, 1, cause="pool"), joined, eq(3 * h * w, 3 * 224 * 224)],
    ...             "w", {"h": 224})
    >>> sol.describe(), sol.exact, [c.condition.cause for c in sol.causes]
    ('only 224', True, ['concat', None])
"""
from __future__ import annotations

import itertools
import math
import operator
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from .sizeset import PERIOD_CAP, START_CAP, Constraint, SizeSet, repeat, summarise

__all__ = ["PERIOD_CAP", "START_CAP", "BRUTE_BOUND", "MAX_SIZE", "FIELDS", "Expr", "Condition",
           "SizeSet", "Constraint", "Cause", "Solution", "Tail", "Beyond", "sym", "const",
           "floordiv", "ceildiv", "minimum", "maximum", "eq", "ge", "le", "any_of", "solve",
           "condition_sizes", "ties", "tail", "compiled"]

#: sizes checked one by one where the solver cannot be exact
BRUTE_BOUND = 1 << 12
#: the largest size there is (a dim is an int64): past it a condition's changes are no
#: sizes', so min(s, 2^63 - 1), a Slice's end "to the last", is s exactly
MAX_SIZE = (1 << 63) - 1


class Atom:
    """A symbol (``kind`` "sym", ``name``) or an operation on expressions (``args``):
    "floor" and "ceil" (a dividend and a divisor), "min", "max", "mul". Atoms are interned
    (:func:`_atom`): equal atoms are one object, keyed by a short ``key``, so an expression's
    key stays short however deep it is."""

    __slots__ = ("kind", "name", "args", "key", "symbols", "_hash", "__weakref__")

    def __init__(self, kind: str, name: str, args: tuple[Expr, ...], key: str) -> None:
        self.kind, self.name, self.args, self.key = kind, name, args, key
        self.symbols: frozenset[str] = (frozenset((name,)) if kind == "sym" else
                                        frozenset().union(*(a.symbols() for a in args)))
        self._hash = hash(key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Atom) and self.key == other.key

    def __hash__(self) -> int:
        return self._hash

    def apply(self, values: list[int]) -> int:
        """The operation on its arguments' values (Python's integer floor and ceiling)."""
        if self.kind == "floor":
            return values[0] // values[1]
        if self.kind == "ceil":
            return -(-values[0] // values[1])
        if self.kind == "mul":
            return values[0] * values[1]
        return min(values) if self.kind == "min" else max(values)

    def text(self, texts: Mapping[Atom, str]) -> str:
        """How it reads, its arguments' atoms read as ``texts`` says."""
        if self.kind == "sym":
            return self.name
        first, second = (_clip(_affine_text(a, texts)) for a in self.args)
        if self.kind in ("floor", "ceil"):
            return f"{self.kind}({_grouped(self.args[0], first)} / {_grouped(self.args[1], second)})"
        if self.kind == "mul":
            return f"{_grouped(self.args[0], first)} * {_grouped(self.args[1], second)}"
        return f"{self.kind}({first}, {second})"


_INTERNED: weakref.WeakValueDictionary[tuple[str, str, tuple[str, ...]], Atom] = \
    weakref.WeakValueDictionary()
_NUMBERS = itertools.count()


def _atom(kind: str, name: str = "", args: tuple[Expr, ...] = ()) -> Atom:
    """The one atom of this kind, name and arguments."""
    identity = (kind, name, tuple(a.key for a in args))
    found = _INTERNED.get(identity)
    if found is None:
        key = "$" + name if kind == "sym" else f"{kind}#{next(_NUMBERS)}"
        found = _INTERNED[identity] = Atom(kind, name, args, key)
    return found


class Expr:
    """``constant`` + the sum of coefficient * atom over ``terms`` (sorted, no zero term).
    Every walk over the atoms below is a loop over :meth:`atoms` (arguments before the atom
    that uses them), never a recursion: a chain of a thousand layers is a deep expression."""

    __slots__ = ("terms", "constant", "key", "_symbols", "_hash", "_order")

    def __init__(self, terms: tuple[tuple[Atom, int], ...], constant: int) -> None:
        self.terms, self.constant = terms, constant
        self.key = f"{constant}" + "".join(f"+{c}*{a.key}" for a, c in terms)
        self._symbols: frozenset[str] = frozenset().union(*(a.symbols for a, _ in terms))
        self._hash = hash(self.key)
        self._order: list[Atom] | None = None

    def symbols(self) -> frozenset[str]:
        return self._symbols

    @property
    def is_const(self) -> bool:
        return not self.terms

    @property
    def value(self) -> int:
        if self.terms:
            raise ValueError(f"{self} is not a constant")
        return self.constant

    def atoms(self) -> list[Atom]:
        """Every atom below, each once, an atom's arguments' atoms before it."""
        if self._order is None:
            self._order = _post_order(self)
        return self._order

    def least(self, smallest: int = 0) -> float:
        """A lower bound of the value over every size >= ``smallest`` of every symbol
        (interval arithmetic, so never above the true least value; -inf where it cannot
        tell).  A symbol is a size: 0 or more."""
        spans: dict[Atom, tuple[float, float]] = {}
        for atom in self.atoms():
            spans[atom] = _span(atom, spans, smallest)
        return _affine_span(self, spans)[0]

    def evaluate(self, env: Mapping[str, int]) -> int:
        """The value with every symbol set from ``env`` (Python's integer floor and ceiling)."""
        values: dict[Atom, int] = {}
        for atom in self.atoms():
            values[atom] = (env[atom.name] if atom.kind == "sym" else
                            atom.apply([_affine_value(a, values) for a in atom.args]))
        return _affine_value(self, values)

    def substitute(self, env: Mapping[str, int | Expr]) -> Expr:
        """This expression with the symbols of ``env`` fixed (or replaced by expressions: a
        symbol tied to another), folded as far as it goes."""
        if self._symbols.isdisjoint(env):
            return self
        made: dict[Atom, Expr] = {}
        for atom in self.atoms():
            if atom.symbols.isdisjoint(env):
                continue  # kept as it is
            if atom.kind == "sym":  # (fixed, or replaced by an expression: a tied symbol)
                found = env[atom.name]
                made[atom] = found if isinstance(found, Expr) else const(found)
            else:
                first, second = (_affine_made(a, made) for a in atom.args)
                made[atom] = _BUILDERS[atom.kind](first, second)
        return _affine_made(self, made)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, int):
            return not self.terms and self.constant == other
        return isinstance(other, Expr) and self.key == other.key

    def __hash__(self) -> int:
        return self._hash

    def __add__(self, other: Expr | int) -> Expr:
        return _affine(self, _expr(other), 1)

    __radd__ = __add__

    def __sub__(self, other: Expr | int) -> Expr:
        return _affine(self, _expr(other), -1)

    def __rsub__(self, other: Expr | int) -> Expr:
        return _affine(_expr(other), self, -1)

    def __neg__(self) -> Expr:
        return self * -1

    def __mul__(self, other: Expr | int) -> Expr:
        other = _expr(other)
        if other.is_const:
            return _scaled(self, other.constant)
        if self.is_const:
            return _scaled(other, self.constant)
        # (c*x) * (d*y) is c*d * (x*y): a product keeps no factor a division could cancel
        # (h*w*80 divided by 80)
        first, second = _content(self), _content(other)
        return _scaled(_operation("mul", _reduced(self, first), _reduced(other, second)),
                       first * second)

    __rmul__ = __mul__

    def __str__(self) -> str:
        texts: dict[Atom, str] = {}
        for atom in self.atoms():
            texts[atom] = _clip(atom.text(texts))
        return _clip(_affine_text(self, texts))

    def __repr__(self) -> str:
        return f"Expr({self})"


def _content(e: Expr) -> int:
    """The greatest common divisor of an expression's coefficients and constant (sign
    kept with the first coefficient, so the reduced expression leads with a positive one)."""
    g = abs(e.constant)
    for _, c in e.terms:
        g = math.gcd(g, abs(c))
    g = g or 1
    return -g if e.terms and e.terms[0][1] < 0 else g


def _reduced(e: Expr, content: int) -> Expr:
    if content == 1:
        return e
    return Expr(tuple((a, c // content) for a, c in e.terms), e.constant // content)


def _post_order(e: Expr) -> list[Atom]:
    order: list[Atom] = []
    seen: set[Atom] = set()
    stack = [(atom, False) for atom, _ in reversed(e.terms)]
    while stack:
        atom, expanded = stack.pop()
        if expanded:
            order.append(atom)
        elif atom not in seen:
            seen.add(atom)
            stack.append((atom, True))
            stack.extend((child, False) for arg in reversed(atom.args)
                         for child, _ in reversed(arg.terms) if child not in seen)
    return order


def _affine_span(e: Expr, spans: Mapping[Atom, tuple[float, float]]) -> tuple[float, float]:
    lo = hi = float(e.constant)
    for atom, c in e.terms:
        a, b = spans[atom]
        lo, hi = (lo + c * a, hi + c * b) if c > 0 else (lo + c * b, hi + c * a)
    return lo, hi


def _times(x: float, y: float) -> float:
    return 0.0 if x == 0 or y == 0 else x * y  # (0 x inf is 0 here: a size times nothing)


def _span(atom: Atom, spans: Mapping[Atom, tuple[float, float]],
          smallest: int) -> tuple[float, float]:
    """The interval an atom takes when every symbol is a size >= ``smallest``."""
    whole = (-math.inf, math.inf)
    if atom.kind == "sym":
        return float(smallest), math.inf
    (alo, ahi), (blo, bhi) = (_affine_span(a, spans) for a in atom.args)
    if atom.kind in ("floor", "ceil"):
        if blo != bhi or blo <= 0:
            return whole
        rounded = math.floor if atom.kind == "floor" else math.ceil
        return (rounded(alo / blo) if alo > -math.inf else alo,
                rounded(ahi / blo) if ahi < math.inf else ahi)
    if atom.kind == "min":
        return min(alo, blo), min(ahi, bhi)
    if atom.kind == "max":
        return max(alo, blo), max(ahi, bhi)
    if atom.kind == "mul":
        corners = [_times(x, y) for x in (alo, ahi) for y in (blo, bhi)]
        return min(corners), max(corners)
    return whole


def _affine_value(e: Expr, values: Mapping[Atom, int]) -> int:
    return e.constant + sum(c * values[a] for a, c in e.terms)


def _affine_made(e: Expr, made: Mapping[Atom, Expr]) -> Expr:
    """e with each atom replaced by what ``made`` made of it, summed once (not term by term:
    a substitution over many conditions makes one expression each)."""
    constant, merged = e.constant, dict[Atom, int]()
    for atom, coefficient in e.terms:
        replaced = made.get(atom)
        if replaced is None:  # nothing in it was fixed
            merged[atom] = merged.get(atom, 0) + coefficient
            continue
        constant += coefficient * replaced.constant
        for inner, c in replaced.terms:
            merged[inner] = merged.get(inner, 0) + coefficient * c
    terms = tuple(sorted(((a, c) for a, c in merged.items() if c), key=lambda ac: ac[0].key))
    return Expr(terms, constant)


#: the longest text of one expression: a deep one reads as its outer layers
MAX_TEXT = 160


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 3] + "..."


def _affine_text(e: Expr, texts: Mapping[Atom, str]) -> str:
    text = ""
    for atom, c in e.terms:
        body = texts[atom] if abs(c) == 1 else f"{abs(c)}*{_grouped_atom(atom, texts[atom])}"
        if not text:
            text = ("-" if c < 0 else "") + body
        else:
            text += (" - " if c < 0 else " + ") + body
    if not text:
        return str(e.constant)
    if e.constant:
        text += f" - {-e.constant}" if e.constant < 0 else f" + {e.constant}"
    return text


def _grouped(e: Expr, text: str) -> str:
    single = not e.constant and len(e.terms) == 1 and e.terms[0][1] == 1
    return text if e.is_const or single else f"({text})"


def _grouped_atom(atom: Atom, text: str) -> str:
    return f"({text})" if atom.kind == "mul" else text


def _expr(value: Expr | int) -> Expr:
    """An expression, or an integer of any kind (a numpy one read from a Const) as one."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        raise TypeError(f"not an expression or an int: {value!r}")
    try:
        return Expr((), operator.index(value))
    except TypeError:
        raise TypeError(f"not an expression or an int: {value!r}") from None


def sym(name: str) -> Expr:
    """The size a symbol stands for."""
    return Expr(((_atom("sym", name), 1),), 0)


def const(value: int) -> Expr:
    return _expr(value)


def _affine(a: Expr, b: Expr, scale: int) -> Expr:
    """a + scale * b, in normal form."""
    if not b.terms:
        return Expr(a.terms, a.constant + scale * b.constant)
    merged = dict(a.terms)
    for atom, c in b.terms:
        merged[atom] = merged.get(atom, 0) + scale * c
    terms = tuple(sorted(((t, c) for t, c in merged.items() if c), key=lambda tc: tc[0].key))
    return Expr(terms, a.constant + scale * b.constant)


def _scaled(e: Expr, factor: int) -> Expr:
    if factor == 0:
        return Expr((), 0)
    return Expr(tuple((a, c * factor) for a, c in e.terms), e.constant * factor)


def _operation(kind: str, a: Expr, b: Expr) -> Expr:
    if kind in ("min", "max", "mul") and b.key < a.key:
        a, b = b, a  # commutative: one order
    return Expr(((_atom(kind, args=(a, b)), 1),), 0)


def floordiv(e: Expr | int, divisor: Expr | int) -> Expr:
    """floor(e / divisor) as Python's ``//``; a constant divisor must be positive."""
    return _divided("floor", _expr(e), _positive(divisor))


def ceildiv(e: Expr | int, divisor: Expr | int) -> Expr:
    """ceil(e / divisor) as Python's ``-(-e // divisor)``; a constant divisor must be positive."""
    return _divided("ceil", _expr(e), _positive(divisor))


def _positive(divisor: Expr | int) -> Expr:
    divisor = _expr(divisor)
    if divisor.is_const and divisor.constant <= 0:
        raise ValueError(f"a division by {divisor.constant}: a divisor is a positive constant")
    return divisor


def _divided(kind: str, e: Expr, divisor: Expr) -> Expr:
    if not divisor.is_const:
        return _operation(kind, e, divisor)  # even 0 / x: x may be 0
    d = divisor.constant
    if d <= 0:  # only a substitution gets here (the public builders refuse it): kept as written
        return _operation(kind, e, divisor)
    # whole multiples of d leave the division: floor((d*x + y + q*d + r) / d) = x + q + floor((y + r) / d)
    whole = Expr(tuple((a, c // d) for a, c in e.terms if c % d == 0), 0)
    rest = tuple((a, c) for a, c in e.terms if c % d)
    q, r = divmod(e.constant, d)
    if not rest:
        return whole + q + (1 if kind == "ceil" and r else 0)
    if r == 0 and len(rest) == 1 and rest[0][1] == 1:
        atom = rest[0][0]
        if atom.kind == kind and atom.args[1].is_const:  # floor(floor(x / a) / b) = floor(x / ab)
            return whole + q + _divided(kind, atom.args[0], const(atom.args[1].constant * d))
    return whole + q + _operation(kind, Expr(rest, r), divisor)


def minimum(e: Expr | int, other: Expr | int) -> Expr:
    return _extreme("min", _expr(e), _expr(other))


def maximum(e: Expr | int, other: Expr | int) -> Expr:
    return _extreme("max", _expr(e), _expr(other))


def _extreme(kind: str, a: Expr, b: Expr) -> Expr:
    absorbed = _absorbing(kind, a, b)
    if absorbed is not None:
        return absorbed
    gap = a - b
    if gap.is_const:  # min(s + 1, s) is s, and two constants fold
        return a if (gap.constant <= 0) == (kind == "min") else b
    # symbols are sizes, 0 or more: max(0, 4*floor((s + 1) / 2)) is the second, which
    # interval bounds prove
    if gap.least() >= 0:
        return b if kind == "min" else a
    if (b - a).least() >= 0:
        return a if kind == "min" else b
    return _operation(kind, a, b)


def _absorbing(kind: str, a: Expr, b: Expr) -> Expr | None:
    """max(a, max(a, c)) is max(a, c), and min alike: one side already an argument of the
    other.  (Without it, a size merged by every block of a stack, max(y, max(x, y)) and so
    on, grows by one level a block.)"""
    for inner, outer in ((a, b), (b, a)):
        if outer.constant == 0 and len(outer.terms) == 1 and outer.terms[0][1] == 1:
            atom = outer.terms[0][0]
            if atom.kind == kind and any(arg.key == inner.key for arg in atom.args):
                return outer
    return None


def _mul(a: Expr, b: Expr) -> Expr:
    return a * b


def _floor(e: Expr, divisor: Expr) -> Expr:
    return _divided("floor", e, divisor)


def _ceil(e: Expr, divisor: Expr) -> Expr:
    return _divided("ceil", e, divisor)


_BUILDERS = {"floor": _floor, "ceil": _ceil, "min": minimum, "max": maximum, "mul": _mul}


@dataclass(frozen=True, eq=False)
class Condition:
    """``gap == 0`` ("eq"), ``gap >= 0`` ("ge"), or one of ``options`` holds ("any").
    ``cause`` is the caller's (the layer), ``reason`` its words; ``sides`` is what it was
    written as (left, relation, right), made into text only when it is shown."""

    kind: str
    gap: Expr
    options: tuple[Condition, ...] = ()
    cause: object = None
    reason: str = ""
    sides: tuple[Expr, str, Expr] | None = None

    def symbols(self) -> frozenset[str]:
        if self.kind == "any":
            return frozenset().union(*(o.symbols() for o in self.options))
        return self.gap.symbols()

    def always(self) -> bool:
        """Whether it holds at every size >= 1 of every symbol (proved by interval bounds:
        False may mean it cannot tell); the solver asks of a condition that holds another
        input's axis, dynamic now, which then excludes nothing."""
        if self.kind == "any":
            return any(option.always() for option in self.options)
        if self.kind == "ge":
            return self.gap.least(1) >= 0
        return self.gap.is_const and self.gap.constant == 0

    def holds(self, env: Mapping[str, int]) -> bool:
        """Whether the condition holds with every symbol set from ``env`` (a division by
        zero on the way is a condition that fails)."""
        if self.kind == "any":
            return any(o.holds(env) for o in self.options)
        try:
            value = self.gap.evaluate(env)
        except ZeroDivisionError:
            return False
        return value == 0 if self.kind == "eq" else value >= 0

    def substitute(self, env: Mapping[str, int | Expr], shown: bool = True) -> Condition:
        """The condition with the symbols of ``env`` fixed (its written sides too, unless
        ``shown`` is False: the solver reads only the gap)."""
        if self.kind == "any":
            options = tuple(o.substitute(env, shown) for o in self.options)
            return Condition("any", self.gap, options, self.cause, self.reason)
        sides = shown and self.sides and (self.sides[0].substitute(env), self.sides[1],
                                          self.sides[2].substitute(env)) or None
        return Condition(self.kind, self.gap.substitute(env), (), self.cause, self.reason, sides)

    @property
    def key(self) -> str:
        """The same for conditions that say the same (causes and words aside)."""
        if self.kind == "any":
            return "any(" + ",".join(o.key for o in self.options) + ")"
        return f"{self.kind}({self.gap.key})"

    @property
    def truth(self) -> bool | None:
        """True or False when no symbol is left to decide it, else None."""
        return None if self.symbols() else self.holds({})

    def __str__(self) -> str:
        if self.kind == "any":
            return " or ".join(f"({o})" for o in self.options) or "false"
        left, relation, right = self.sides or (self.gap, "==" if self.kind == "eq" else ">=", 0)
        return f"{left} {relation} {right}"


def eq(e: Expr | int, f: Expr | int, cause: object = None, reason: str = "") -> Condition:
    e, f = _expr(e), _expr(f)
    return Condition("eq", e - f, (), cause, reason, (e, "==", f))


def ge(e: Expr | int, c: Expr | int, cause: object = None, reason: str = "") -> Condition:
    e, c = _expr(e), _expr(c)
    return Condition("ge", e - c, (), cause, reason, (e, ">=", c))


def le(e: Expr | int, c: Expr | int, cause: object = None, reason: str = "") -> Condition:
    e, c = _expr(e), _expr(c)
    return Condition("ge", c - e, (), cause, reason, (e, "<=", c))


def any_of(*conditions: Condition, cause: object = None, reason: str = "") -> Condition:
    """At least one of ``conditions`` holds (none: the condition never holds)."""
    return Condition("any", const(0), tuple(conditions), cause, reason)


def ties(conditions: Iterable[Condition], options: bool = False) -> list[tuple[str, str]]:
    """The pairs of symbols that an "eq" condition equates outright (a == b, 2*a == 2*b),
    each once, in the order met; with ``options``, also those that an "any" condition
    offers as one of its ways (a broadcast's "equal, or one of them 1")."""
    found: list[tuple[str, str]] = []
    for condition in conditions:
        ways = condition.options if options and condition.kind == "any" else (condition,)
        for way in ways:
            pair = _equated(way)
            if pair is not None and pair not in found:
                found.append(pair)
    return found


def _equated(condition: Condition) -> tuple[str, str] | None:
    """The two symbols an "eq" condition says are equal, in order, or None."""
    gap = condition.gap
    if condition.kind != "eq" or gap.constant or len(gap.terms) != 2:
        return None
    (a, ca), (b, cb) = gap.terms
    if a.kind == b.kind == "sym" and ca == -cb:
        return (min(a.name, b.name), max(a.name, b.name))
    return None


def compiled(e: Expr, symbol: str) -> Callable[[int], int]:
    """``e`` of ``symbol`` alone as a Python function of the size, where the solver evaluates
    it size by size: one line per atom, so no line nests deeper than one operation. The
    source holds only integers, operators, min, max and its own names: every other symbol is
    substituted before (Beyond if one is left)."""
    names: dict[Atom, str] = {}
    lines = ["def value(size):"]
    for atom in e.atoms():
        names[atom] = f"v{len(names)}"
        lines.append(f"    {names[atom]} = {_atom_source(atom, names, symbol)}")
    lines.append(f"    return {_affine_source(e, names)}")
    scope: dict[str, object] = {"__builtins__": {}, "min": min, "max": max}
    exec("\n".join(lines), scope)
    return scope["value"]  # type: ignore[return-value]  # the function just defined


def _affine_source(e: Expr, names: Mapping[Atom, str]) -> str:
    return "+".join([str(e.constant)] + [f"({c})*{names[a]}" for a, c in e.terms])


def _atom_source(atom: Atom, names: Mapping[Atom, str], symbol: str) -> str:
    if atom.kind == "sym":
        if atom.name != symbol:
            raise Beyond(f"{atom.name} is not fixed")
        return "size"
    a, b = (_affine_source(arg, names) for arg in atom.args)
    if atom.kind == "floor":
        return f"({a})//({b})"
    if atom.kind == "ceil":
        return f"-(-({a})//({b}))"
    return f"({a})*({b})" if atom.kind == "mul" else f"{atom.kind}({a},{b})"


class Beyond(Exception):
    """The expression is not quasi-affine in the symbol, or passes a cap: why, in words."""


@dataclass(frozen=True)
class Tail:
    """f(s + period) == f(s) + step for every s with start <= s and s + period <= until
    (a min or max whose sides part only past START_CAP is followed up to where they do)."""

    start: int
    period: int
    step: int
    until: int = MAX_SIZE

    @property
    def slope(self) -> Fraction:
        return Fraction(self.step, self.period)


def tail(e: Expr, symbol: str, memo: dict[Atom, Tail] | None = None) -> Tail:
    """The periodic-affine tail of ``e``, an expression of ``symbol`` alone; Beyond when it is
    not quasi-affine or its period or start passes PERIOD_CAP or START_CAP."""
    memo = {} if memo is None else memo
    for atom in e.atoms():
        if atom not in memo:
            memo[atom] = _atom_tail(atom, symbol, memo)
    return _affine_tail(e, memo)


def _affine_tail(e: Expr, memo: Mapping[Atom, Tail]) -> Tail:
    """The tail of an affine combination of atoms whose tails are known."""
    start, period, step, until = 1, 1, 0, MAX_SIZE
    for atom, coefficient in e.terms:
        part = memo[atom]
        joint = _lcm(period, part.period)
        step = step * (joint // period) + coefficient * part.step * (joint // part.period)
        start, period, until = max(start, part.start), joint, min(until, part.until)
    return Tail(start, period, step, until)


def _lcm(a: int, b: int) -> int:
    joint = math.lcm(a, b)
    if joint > PERIOD_CAP:
        raise Beyond(f"a period of {joint} sizes (past {PERIOD_CAP})")
    return joint


def _atom_tail(atom: Atom, symbol: str, memo: dict[Atom, Tail]) -> Tail:
    """An atom's tail, its arguments' atoms' tails being in ``memo``."""
    if atom.kind == "sym":
        if atom.name != symbol:
            raise Beyond(f"{atom.name} is not fixed")
        return Tail(1, 1, 1)
    if atom.kind == "mul":
        return _product_tail(atom, symbol, memo)
    if atom.kind in ("floor", "ceil"):
        divisor = atom.args[1]
        if divisor.symbols():
            return _quotient_tail(atom, symbol, memo)
        if divisor.constant <= 0:
            raise Beyond(f"a division by {divisor.constant}")
        inner = _affine_tail(atom.args[0], memo)
        # after `periods` periods the dividend has moved by a multiple of the divisor
        periods = divisor.constant // math.gcd(inner.step, divisor.constant)
        return Tail(inner.start, _lcm(inner.period * periods, 1),
                    inner.step * periods // divisor.constant, inner.until)
    return _extreme_tail(atom, symbol, memo)


def _product_tail(atom: Atom, symbol: str, memo: dict[Atom, Tail]) -> Tail:
    """A product is periodic-affine where one side ends constant (a quotient that settled)
    or both sides end periodic; a size times a size is not."""
    tails = [_affine_tail(arg, memo) for arg in atom.args]
    start, until = max(t.start for t in tails), min(t.until for t in tails)
    if tails[0].step == tails[1].step == 0:
        return Tail(start, _lcm(tails[0].period, tails[1].period), 0, until)
    for side, other in ((0, 1), (1, 0)):
        if tails[side].step == 0 and tails[side].period == 1:
            factor = compiled(atom.args[side], symbol)(tails[side].start)
            return Tail(start, tails[other].period, factor * tails[other].step, until)
    raise Beyond(f"{_clip(str(Expr(((atom, 1),), 0)))} multiplies two sizes")


def _sign_change(diff: Expr, symbol: str, memo: dict[Atom, Tail]) -> tuple[Tail, int, int]:
    """The tail of ``diff``, and where its slope is not 0, the size from which it has the
    sign of its slope for good (``settled``) and the last size up to which it has the other
    sign or is 0 (``parting``)."""
    gap = _affine_tail(diff, memo)
    if gap.step == 0:
        return gap, gap.start, gap.start
    # period * diff(s) - step * (s - start) repeats: its extremes bound where the sign settles
    at = compiled(diff, symbol)
    wobble = [gap.period * at(s) - gap.step * (s - gap.start)
              for s in range(gap.start, gap.start + gap.period)]
    if gap.step > 0:
        return (gap, gap.start + (-min(wobble)) // gap.step + 1,
                gap.start + (-max(wobble)) // gap.step)
    return gap, gap.start + max(wobble) // -gap.step + 1, gap.start + min(wobble) // -gap.step


def _quotient_tail(atom: Atom, symbol: str, memo: dict[Atom, Tail]) -> Tail:
    """floor(P / Q) (ceil: -floor(-P / Q)) with Q growing: P / Q tends to slope(P) / slope(Q)
    = k + a fraction, so the quotient ends at k, or where k is whole, at k or k - 1 as the
    periodic P - kQ is negative or not (a Reshape's -1 dividing by the size it multiplies)."""
    numerator, divisor = atom.args
    numerator = -numerator if atom.kind == "ceil" else numerator
    p, q = _affine_tail(numerator, memo), _affine_tail(divisor, memo)
    if q.step <= 0:
        raise Beyond("a division by a size that does not grow with it")
    k = math.floor(p.slope / q.slope)
    starts = [p.start, q.start, _sign_change(divisor, symbol, memo)[1],
              _sign_change(numerator - divisor * (k + 1), symbol, memo)[1]]  # below k + 1
    remainder, from_k, _ = _sign_change(numerator - divisor * k, symbol, memo)
    period = 1
    if remainder.step == 0:  # whole: k where P - kQ >= 0, else k - 1 (never below)
        starts += [remainder.start, _sign_change(numerator - divisor * (k - 1), symbol, memo)[1]]
        period = remainder.period
    else:
        starts.append(from_k)
    if max(starts) > START_CAP:
        raise Beyond(f"a quotient that settles only past size {START_CAP}")
    return Tail(max(starts), period, 0, min(p.until, q.until))


def _extreme_tail(atom: Atom, symbol: str, memo: dict[Atom, Tail]) -> Tail:
    """min or max: one argument's tail once the other's line has parted from it for good."""
    first, second = atom.args
    tails = (_affine_tail(first, memo), _affine_tail(second, memo))
    gap, settled, parting = _sign_change(first - second, symbol, memo)
    until = min(tails[0].until, tails[1].until)
    if gap.step == 0:  # equal slopes: the difference is periodic, and so is the choice
        period = _lcm(tails[0].period, tails[1].period)
        start = max(tails[0].start, tails[1].start)
        return Tail(start, period, tails[0].step * (period // tails[0].period), until)
    rising = gap.step > 0  # first ends above second, after being below it up to `parting`
    if settled <= START_CAP:  # the last regime, from where the sides parted for good
        winner = tails[0] if (atom.kind == "max") == rising else tails[1]
        return Tail(max(settled, winner.start, gap.start), winner.period, winner.step, until)
    if parting < START_CAP:
        raise Beyond(f"a {atom.kind} whose sides cross between {parting} and {settled}")
    # the sides part only far out (a Slice's end of 2^31 - 1): the first regime, up to there;
    # past MAX_SIZE is no size, so min(s, 2^63 - 1) is s for good
    winner = tails[0] if (atom.kind == "min") == rising else tails[1]
    return Tail(max(gap.start, winner.start), winner.period, winner.step,
                min(until, MAX_SIZE if parting >= MAX_SIZE else parting))


def condition_sizes(condition: Condition, symbol: str,
                    memo: dict[Atom, Tail] | None = None) -> tuple[SizeSet, str]:
    """The sizes of ``symbol`` (the only symbol left in ``condition``) that satisfy it, and
    "" when that set is exact, else why not (the set is then a superset: sizes up to
    BRUTE_BOUND checked one by one, every larger size kept)."""
    try:
        sizes, until = _exact_sizes(condition, symbol, {} if memo is None else memo)
        if until >= MAX_SIZE:
            return sizes, ""
        # exact up to START_CAP at least (until is past it); what lies past it is kept
        why = f"{condition} is solved up to size {until} only: larger sizes are kept"
        return sizes | SizeSet.progression(START_CAP + 1, None), why
    except Beyond as beyond:
        bits = 0
        for size in range(1, BRUTE_BOUND + 1):
            if condition.holds({symbol: size}):
                bits |= 1 << size
        why = f"{condition} is not solved exactly ({beyond}): sizes past {BRUTE_BOUND} not checked"
        return SizeSet(BRUTE_BOUND + 1, bits, 1, 1), why


def _exact_sizes(condition: Condition, symbol: str,
                 memo: dict[Atom, Tail]) -> tuple[SizeSet, int]:
    """The sizes that satisfy ``condition``, exact up to the size given with them."""
    truth = condition.truth
    if truth is not None:
        return (SizeSet.everything() if truth else SizeSet.nothing()), MAX_SIZE
    if condition.kind == "any":
        union, until = SizeSet.nothing(), MAX_SIZE
        for option in condition.options:
            sizes, reach = _exact_sizes(option, symbol, memo)
            try:
                union, until = union | sizes, min(until, reach)
            except OverflowError as overflow:
                raise Beyond(str(overflow)) from None
        return union, until
    shape = tail(condition.gap, symbol, memo)
    holds = (lambda v: v == 0) if condition.kind == "eq" else (lambda v: v >= 0)
    at, prefix = compiled(condition.gap, symbol), 0
    for size in range(1, shape.start):
        try:
            if holds(at(size)):
                prefix |= 1 << size
        except ZeroDivisionError:  # a division by a size that is 0 here: the condition fails
            pass
    values = [at(s) for s in range(shape.start, shape.start + shape.period)]
    if shape.step == 0:
        residues = sum(1 << ((shape.start + r) % shape.period)
                       for r, value in enumerate(values) if holds(value))
        return SizeSet(shape.start, prefix, shape.period, residues), shape.until
    if condition.kind == "eq":
        return _crossings(shape, values, prefix), shape.until
    return _thresholds(shape, values, prefix), shape.until


def _crossings(shape: Tail, values: list[int], prefix: int) -> SizeSet:
    """gap == 0 where the gap keeps moving: at most one size per residue (none past
    MAX_SIZE, which is no size)."""
    end = shape.start
    for r, value in enumerate(values):
        periods, left = divmod(-value, shape.step)
        size = shape.start + r + periods * shape.period
        if left == 0 and periods >= 0 and size <= MAX_SIZE:
            if size > START_CAP:
                raise Beyond(f"a solution past size {START_CAP}")
            prefix |= 1 << size
            end = max(end, size + 1)
    return SizeSet(end, prefix, 1, 0)


def _thresholds(shape: Tail, values: list[int], prefix: int) -> SizeSet:
    """gap >= 0 where the gap keeps moving: per residue, from some size on (rising) or up to
    some size (falling); a run that ends past MAX_SIZE holds for good, one that starts past
    it never holds."""
    runs: list[tuple[int, int | None]] = []  # first size, and periods it holds (None: all)
    for r, value in enumerate(values):
        first, count = shape.start + r, None
        if shape.step > 0:
            first += max(0, -(value // shape.step)) * shape.period
        elif value >= 0:
            count = value // -shape.step + 1
            if first + count * shape.period > MAX_SIZE:
                count = None
        else:
            continue
        if first <= MAX_SIZE:
            runs.append((first, count))
    end = max([shape.start] + [first + (count - 1) * shape.period + 1 if count else first
                               for first, count in runs])
    if end > START_CAP:
        raise Beyond(f"the condition settles only past size {START_CAP}")
    residues = 0
    for first, count in runs:
        if count is None:
            residues |= 1 << (first % shape.period)
            count = -(-(end - first) // shape.period)
        prefix |= repeat(1, shape.period, count) << first if count else 0
    return SizeSet(end, prefix, shape.period, residues)


#: the parts of a contract a cause may decide (``offset`` goes with ``multiple_of``)
FIELDS = ("min", "max", "multiple_of", "values")


@dataclass(frozen=True, eq=False)
class Cause:
    """A condition that excludes some size, the sizes it alone allows (``part``), and the
    fields of the solution it decides: those its own part imposes as they are, and those that
    would change without it (a stride chain's joins decide "multiple of 32" together)."""

    condition: Condition
    part: Constraint
    decides: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class Solution(Constraint):
    """The sizes of one symbol that satisfy every condition (``sizes``, summarised by the
    contract fields), each ``cause`` with its part, and the conditions ``dropped`` because
    another symbol in them is free."""

    causes: tuple[Cause, ...] = ()
    dropped: tuple[Condition, ...] = field(default=())


def solve(conditions: Iterable[Condition], symbol: str, fixed: Mapping[str, int]) -> Solution:
    """The sizes of ``symbol`` that satisfy ``conditions`` with the symbols of ``fixed`` set."""
    env = {name: size for name, size in fixed.items() if name != symbol}
    memo: dict[Atom, Tail] = {}
    solved: dict[str, tuple[SizeSet, str]] = {}  # repeated blocks repeat their conditions
    kept: list[tuple[Condition, str]] = []
    dropped: list[Condition] = []
    notes: list[str] = []
    for condition in conditions:
        settled = condition.substitute(env, shown=False)
        if settled.symbols() - {symbol}:
            if not settled.always():  # (one that holds at any sizes excludes nothing)
                dropped.append(condition)
            continue
        key = settled.key
        if key not in solved:
            solved[key] = condition_sizes(settled, symbol, memo)
        part, why = solved[key]
        if why and why not in notes:
            notes.append(why)
        if not part.is_everything:
            kept.append((condition, key))
    units = list(dict.fromkeys(key for _, key in kept))
    sizes = SizeSet.everything()
    for key in units:
        sizes = _intersection(sizes, solved[key][0], notes)
    whole = summarise(sizes, "; ".join(notes))
    parts = {key: summarise(*solved[key]) for key in units}
    decides = _decisive(units, {key: solved[key][0] for key in units}, parts, whole)
    causes = tuple(Cause(condition, parts[key], decides[key]) for condition, key in kept)
    return Solution(**{name: getattr(whole, name) for name in Constraint.__dataclass_fields__},
                    causes=causes, dropped=tuple(dropped))


def _decisive(units: list[str], sets: dict[str, SizeSet], parts: dict[str, Constraint],
              whole: Constraint) -> dict[str, tuple[str, ...]]:
    """Per condition (by key), the fields of ``whole`` it decides: those its part imposes,
    and those that change when it alone is left out (the others' intersections met from
    both ends, so each is two intersections away)."""
    before: list[SizeSet | None] = [SizeSet.everything()]
    after: list[SizeSet | None] = [SizeSet.everything()]
    for key in units:
        before.append(_meet(before[-1], sets[key]))
    for key in reversed(units):
        after.append(_meet(after[-1], sets[key]))
    after.reverse()
    compared = ("values",) if whole.values is not None else FIELDS  # values decide the rest
    decided = {}
    for i, key in enumerate(units):
        fields = set(_imposed(parts[key], whole))
        rest = _meet(before[i], after[i + 1])
        if rest is not None:
            without = summarise(rest)
            fields.update(f for f in compared if _field(without, f) != _field(whole, f))
        decided[key] = tuple(f for f in FIELDS if f in fields)
    return decided


def _meet(a: SizeSet | None, b: SizeSet | None) -> SizeSet | None:
    """a & b, or None where one is unknown or their periods pass the cap."""
    if a is None or b is None:
        return None
    try:
        return a & b
    except OverflowError:
        return None


def _field(c: Constraint, name: str) -> object:
    return (c.multiple_of, c.offset) if name == "multiple_of" else getattr(c, name)


def _imposed(part: Constraint, whole: Constraint) -> list[str]:
    """The fields of ``whole`` that ``part`` imposes as they stand."""
    if whole.values is not None:
        return ["values"] if part.values is not None else []
    found = []
    if part.min > 1 and part.min == whole.min:
        found.append("min")
    if part.max is not None and part.max == whole.max:
        found.append("max")
    if 1 < part.multiple_of and whole.multiple_of % part.multiple_of == 0:
        found.append("multiple_of")
    if part.values is not None and whole.values is not None:
        found.append("values")
    return found


def _intersection(sizes: SizeSet, part: SizeSet, notes: list[str]) -> SizeSet:
    """sizes & part; where the periods together pass PERIOD_CAP, part's contract superset,
    and failing that its bounds alone (said in ``notes``)."""
    try:
        return sizes & part
    except OverflowError as overflow:
        summary = summarise(part)
        notes.append(f"{overflow}: a condition kept only as '{summary.describe()}' or wider")
        try:
            return sizes & SizeSet.progression(summary.min, summary.max, summary.multiple_of,
                                               summary.offset)
        except OverflowError:
            return sizes & SizeSet.progression(summary.min, summary.max)
