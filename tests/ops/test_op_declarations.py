"""Family modules: an op module holding several op types names each in its docstring."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPS = ROOT / "irvalidate" / "ops"


def op_modules():
    return sorted(p.stem for p in OPS.glob("*.py") if p.stem != "__init__")


def test_a_family_module_names_every_op_it_holds():
    for name in op_modules():
        module = importlib.import_module(f"irvalidate.ops.{name}")
        names = {spec.name for specs in module.SPECS.values() for spec in specs}
        if len(names) < 2:
            continue
        doc = module.__doc__ or ""
        unnamed = sorted(n for n in names if not re.search(rf"(?<![A-Za-z]){n}(?![A-Za-z])", doc))
        assert not unnamed, f"ops/{name}.py's docstring does not name {unnamed}"
