"""The architecture can be read from the tree: imports point one way, and there are no circles.

Each module belongs to a layer; a module may import its own layer and the layers below it,
never one above (ARCHITECTURE.md).  Imports are read from the source (``ast``), those inside
functions included; ``if TYPE_CHECKING:`` imports are left out, since they never run.
"""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "irvalidate"

#: top to bottom: a layer may import the layers after it
LAYERS = (
    ("entry", ("__init__", "__main__")),
    ("cli", ("cli",)),  # the command line: options, commands, output
    ("api", ("api",)),  # the Python API, which the command line drives
    ("features", ("fixing", "reshaping", "interface")),  # --diff/--fix, --reshape and
    # reshapeable, inspect and compat
    ("engine", ("engine",)),
    ("files", ("files",)),
    ("settings", ("settings",)),
    ("reporting", ("reporting",)),
    ("rules", ("rules",)),
    ("analysis", ("analysis",)),
    ("ops", ("ops",)),
    ("ir", ("ir",)),
    ("shapes", ("shapes",)),
    ("version", ("version",)),
    ("data", ("data",)),  # package data read through importlib.resources
)
RANK = {head: rank for rank, (_, heads) in enumerate(LAYERS) for head in heads}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int:
    parts = module.split(".")
    head = parts[1] if len(parts) > 1 else "__init__"
    if head not in RANK:
        raise AssertionError(f"{module} belongs to no layer: add it to LAYERS")
    return RANK[head]


def _type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def imports_of(path: Path):
    """The irvalidate modules ``path`` imports (at run time)."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking(node)
            for child in node.body for n in ast.walk(child)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("irvalidate"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("irvalidate"):
                target = node.module
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                where = PACKAGE.parent / Path(*sub.split("."))
                # ``from . import x`` names a module x; anything else is from the module itself
                found.add(sub if where.with_suffix(".py").exists() or where.is_dir() else target)
    found.discard(module)
    return found


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module):
    here = layer_of(module)
    upward = sorted(t for t in imports_of(MODULES[module]) if layer_of(t) < here)
    assert not upward, f"{module} (layer {LAYERS[here][0]}) imports a layer above it: {upward}"


def test_the_pure_maths_imports_nothing_else_of_the_package():
    for module, path in MODULES.items():
        if module.startswith("irvalidate.shapes"):
            assert all(t.startswith("irvalidate.shapes") for t in imports_of(path)), module


def test_no_import_circles():
    graph = {m: {t for t in imports_of(p) if t in MODULES} for m, p in MODULES.items()}
    state, cycle = {}, []

    def visit(start):
        stack = [(start, iter(sorted(graph[start])))]
        state[start] = "open"
        path = [start]
        while stack:
            node, children = stack[-1]
            for child in children:
                if state.get(child) == "open":
                    cycle.extend(path[path.index(child):] + [child])
                    return
                if child not in state:
                    state[child] = "open"
                    path.append(child)
                    stack.append((child, iter(sorted(graph[child]))))
                    break
            else:
                state[node] = "done"
                path.pop()
                stack.pop()

    for module in sorted(graph):
        if module not in state and not cycle:
            visit(module)
    assert not cycle, " -> ".join(cycle)


def test_every_registered_type_has_a_spec_in_its_module():
    from importlib import import_module

    from irvalidate.ops.support.registry import REGISTRY
    seen = set()
    for kind, name in REGISTRY.items():
        module = import_module(f"irvalidate.ops.{name}")
        assert kind in module.SPECS, f"{name}.py has no spec for {kind}"
        seen.add(name)
    for name in seen:  # and no module models a type the registry does not route to it
        module = import_module(f"irvalidate.ops.{name}")
        assert {k for k in module.SPECS if REGISTRY.get(k) != name} == set(), name
