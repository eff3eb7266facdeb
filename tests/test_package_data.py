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
