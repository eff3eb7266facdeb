"""The package's data files are files: a checkout without symbolic links (git on Windows, or
core.symlinks=false) turned the IR schema, once a link to schemas/ir.rng, into a one-line
text file, and every file that reached the schema check became an internal error."""
import os
from pathlib import Path

import irvalidate

PACKAGE = Path(irvalidate.__file__).parent
ROOT = PACKAGE.parent


def test_the_package_holds_no_symbolic_links():
    links = [str(Path(folder, name).relative_to(PACKAGE))
             for folder, dirs, files in os.walk(PACKAGE) for name in dirs + files
             if os.path.islink(os.path.join(folder, name))]
    assert links == []


def test_the_published_ir_schema_is_the_one_the_package_checks_with():
    published = ROOT / "schemas" / "ir.rng"
    if not published.exists():
        import pytest
        pytest.skip("an installed package: schemas/ is the repository's")
    assert (PACKAGE / "data" / "ir.rng").read_bytes() == published.read_bytes(), (
        "schemas/ir.rng and irvalidate/data/ir.rng differ: the package's copy is the one "
        "checked with; copy it over schemas/ir.rng")


def _pyproject() -> dict:
    import pytest
    path = ROOT / "pyproject.toml"
    if not path.exists():
        pytest.skip("an installed package: pyproject.toml is the repository's")
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_the_package_ships_its_py_typed_marker():
    # PEP 561: without the marker in the wheel, users' type checkers ignore the annotations
    assert (PACKAGE / "py.typed").is_file()
    shipped = _pyproject()["tool"]["setuptools"]["package-data"].get("irvalidate", [])
    assert "py.typed" in shipped
