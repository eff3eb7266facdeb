"""The fast path builds a few named tuples with ``tuple.__new__`` (a named tuple's own
``__new__`` is a Python function, and these are built once per layer, or per port, of a
large file): the scanners' Layer and Port records, the memo's Inferred and Operand, the
likeness's Value, and the dims reshapeable's recall makes (symdims' SymDim).  Such a call passes every field in order, no default applies: this keeps
it to the modules listed here, and checks each call passes as many items as its type has
fields, so a field added to a record fails here rather than in a 100 MB file."""
from __future__ import annotations

import ast
from pathlib import Path

from irvalidate.ir.records import Layer, Port
from irvalidate.ops.support.spec import Inferred, Operand, Value
from irvalidate.shapes.symdims import SymDim

PACKAGE = Path(__file__).resolve().parents[1] / "irvalidate"
#: the modules allowed tuple.__new__, and what each builds with it
SITES = {
    "ir/scanner.py": {"Layer", "Port"},
    "ir/scan_process.py": {"Layer", "Port"},
    "ops/support/memo.py": {"Operand", "Inferred"},
    "analysis/likeness.py": {"Value"},
    "shapes/symdims.py": {"SymDim"},
}
RECORDS = {cls.__name__: cls for cls in (Layer, Port, Inferred, Operand, Value, SymDim)}


def _tree(relative: str) -> ast.AST:
    return ast.parse((PACKAGE / relative).read_text(encoding="utf-8"))


def _is_tuple_new(found: ast.AST) -> bool:
    return isinstance(found, ast.Attribute) and found.attr == "__new__" and \
        isinstance(found.value, ast.Name) and found.value.id == "tuple"


def _aliases(tree: ast.AST) -> set:
    """The names tuple.__new__ is bound to (``new = tuple.__new__``, or in a tuple)."""
    names = set()
    for found in ast.walk(tree):
        if isinstance(found, ast.Assign):
            for target in found.targets:
                pairs = zip(target.elts, found.value.elts) if isinstance(target, ast.Tuple) and \
                    isinstance(found.value, ast.Tuple) else [(target, found.value)]
                names |= {t.id for t, v in pairs if isinstance(t, ast.Name) and _is_tuple_new(v)}
    return names


def test_tuple_new_only_in_the_listed_modules():
    users = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
             if any(_is_tuple_new(n) for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))))}
    assert users == set(SITES)


def test_each_call_passes_every_field():
    for relative, builds in SITES.items():
        tree = _tree(relative)
        aliases = _aliases(tree)
        calls = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                 and c.func.id in aliases]
        assert calls, relative
        made = set()
        for call in calls:
            kind, items = call.args
            assert isinstance(kind, ast.Name) and isinstance(items, ast.Tuple), \
                f"{relative}:{call.lineno}: a literal type and tuple of items, so they can be counted"
            fields = RECORDS[kind.id]._fields
            assert len(items.elts) == len(fields), f"{relative}:{call.lineno}: {kind.id} has {fields}"
            made.add(kind.id)
        assert made == builds, relative
