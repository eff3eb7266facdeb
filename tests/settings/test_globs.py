"""Path patterns as ruff matches them (irvalidate/globs.py): exclude and per-file-ignores."""
import os

import pytest

from irvalidate.settings.globs import anchored, compile_pattern, match

BASE = "/repo"


@pytest.mark.parametrize("pattern,path,expected", [
    # no "/": the name of a file or folder at any depth
    ("legacy", "/repo/legacy", True),
    ("legacy", "/repo/models/legacy/m.xml", True),
    ("*.tmp.xml", "/repo/a/b/m.tmp.xml", True),
    ("*.tmp.xml", "/repo/a/b/m.xml", False),
    ("m?.xml", "/repo/m1.xml", True),
    ("m[0-9].xml", "/repo/x/m7.xml", True),
    ("m[!0-9].xml", "/repo/x/m7.xml", False),
    ("m[!0-9].xml", "/repo/x/mA.xml", True),
    # "/" anchors at the base; "./" is allowed
    ("models/legacy", "/repo/models/legacy/m.xml", True),
    ("models/legacy", "/repo/x/models/legacy/m.xml", False),
    ("./legacy", "/repo/legacy/m.xml", True),
    ("./legacy", "/repo/models/legacy/m.xml", False),
    ("./m.xml", "/repo/m.xml", True),
    # "*" stays inside one name; "**" crosses folders
    ("models/*.xml", "/repo/models/m.xml", True),
    ("models/*.xml", "/repo/models/sub/m.xml", False),
    ("*/legacy/*.xml", "/repo/models/legacy/m.xml", True),
    ("*/legacy/*.xml", "/repo/a/models/legacy/m.xml", False),
    ("**/legacy/*.xml", "/repo/a/models/legacy/m.xml", True),
    ("**/legacy/*.xml", "/repo/legacy/m.xml", True),
    ("models/**", "/repo/models/a/b/m.xml", True),
    ("models/**/m.xml", "/repo/models/m.xml", True),
    ("models/**/m.xml", "/repo/models/a/b/m.xml", True),
    # a folder matches what is in it; a trailing "/" matches folders only
    ("models/*", "/repo/models/sub/m.xml", True),
    ("m.xml/", "/repo/m.xml", False),
    ("build/", "/repo/build/m.xml", True),
    # absolute patterns match the absolute path
    ("/repo/models/*.xml", "/repo/models/m.xml", True),
    ("/elsewhere/*.xml", "/repo/m.xml", False),
    # outside the base: names only
    ("m.xml", "/other/m.xml", True),
    ("other/m.xml", "/other/m.xml", False),
])
def test_patterns(pattern, path, expected):
    assert (match([pattern], path, BASE) == pattern) is expected


def test_trailing_slash_and_is_dir():
    assert match([".*/"], "/repo/.hidden", BASE, is_dir=True)
    assert not match([".*/"], "/repo/.hidden.xml", BASE, is_dir=False)
    assert match([".*/"], "/repo/.git/x/m.xml", BASE)
    assert not match([".*/"], "/repo/.git/x/m.xml", BASE, ancestors=False)


def test_special_characters_are_literal():
    assert match(["a+b(1).xml"], "/repo/a+b(1).xml", BASE)
    assert match(["[[]x].xml"], "/repo/[x].xml", BASE)
    assert match(["x[.xml"], "/repo/x[.xml", BASE)


def test_relative_paths_use_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert match(["./models/*.xml"], "models/m.xml", None)
    assert match(["./models/*.xml"], os.path.join(str(tmp_path), "models", "m.xml"), None)


def test_anchored_patterns_keep_their_base():
    assert anchored("legacy", "/cwd") == "legacy"
    assert anchored("./models/*.xml", "/c*d") == "/c[*]d/models/*.xml"
    assert match([anchored("./models/*.xml", "/c*d")], "/c*d/models/m.xml", "/elsewhere")
    assert not match([anchored("./models/*.xml", "/c*d")], "/cXd/models/m.xml", "/elsewhere")


def test_empty_pattern_is_refused():
    with pytest.raises(ValueError, match="empty"):
        compile_pattern("./")
