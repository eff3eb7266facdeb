"""reporting/common.py: what the report formats share."""
import os
from pathlib import Path

import pytest

from irvalidate.reporting.common import relative_path


def by_pathlib(path, cwd):
    """The recipe relative_path follows, as pathlib computes it."""
    try:
        return Path(os.path.realpath(path)).relative_to(Path(os.path.realpath(cwd))).as_posix()
    except ValueError:
        return None


@pytest.mark.parametrize("cwd", ["/", "top", "top/a", "top/a/"])
def test_relative_path_is_pathlibs(tmp_path, monkeypatch, cwd):
    top = tmp_path / "top"
    (top / "a" / "b").mkdir(parents=True)
    (top / "ab").mkdir()  # a sibling whose name starts with "a": not inside "a"
    (top / "link").symlink_to(top / "a")
    monkeypatch.chdir(cwd if cwd == "/" else tmp_path / cwd)
    paths = [top / "a" / "b" / "m.xml", top / "ab" / "m.xml", top / "a", top, tmp_path, "/",
             top / "link" / "m.xml", "m.xml", "../m.xml", "./b/../m.xml"]
    for path in map(str, paths):
        assert relative_path(path) == by_pathlib(path, os.getcwd()), path
