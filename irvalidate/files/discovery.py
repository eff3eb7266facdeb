"""Which files a run checks: the paths given, and the IR files found under directories.

* A directory is walked for ``*.xml`` files whose root element is ``<net>`` (or that do not
  even parse to their root: a broken model must not pass silently).  The walk skips what
  ``exclude`` and ``extend-exclude`` match (by default hidden folders, ``venv``,
  ``node_modules`` and ``__pycache__``) and, in a git work tree, what git ignores.  Each
  folder's entries are judged by the settings of the nearest configuration above it.
* A file or folder named on the command line is checked even when excluded (a folder that
  git ignores is then walked without .gitignore), unless ``force-exclude``
  (ruff's convention, for pre-commit, which passes every staged file).  A ``.bin`` stands
  for the ``.xml`` beside it with the same stem: a commit that changes only the weights is
  checked too.
* Each file is checked once, however many times and under whatever names it is given
  (symlinks, hard links, bind mounts: a file is its device and inode).
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported when a walk is inside a git work tree
    from .gitignore import GitIgnore


class DiscoveryError(ValueError):
    """A path given on the command line that cannot be checked; the message says why."""


class Finder:
    def __init__(self, resolver, skip_non_ir: bool = False):
        self.resolver = resolver
        self.skip_non_ir = skip_non_ir
        self.found: list[str] = []
        self._seen: set[object] = set()
        self._git: GitIgnore | None = None
        #: named paths --force-exclude left out, each with what excludes it
        self.force_excluded: list[tuple[str, str]] = []

    def _settings(self, path: str):
        # an entry is judged by its folder's configuration, like the files in it
        return self.resolver.settings_for(os.path.dirname(os.path.abspath(path)))

    def excluded(self, path: str, is_dir: bool, ancestors: bool = False,
                 gitignore: bool = True) -> bool:
        return self.exclusion(path, is_dir, ancestors, gitignore) is not None

    def exclusion(self, path: str, is_dir: bool, ancestors: bool = False,
                  gitignore: bool = True) -> str | None:
        """What excludes ``path``, in words, or None."""
        from ..settings.globs import match
        settings = self._settings(path)
        patterns = [*settings.exclude, *settings.extend_exclude]
        if match(patterns, path, settings.root, is_dir, ancestors):
            # the pattern is looked for only once one matched (a walk asks for every entry)
            found = next(p for p in patterns if match([p], path, settings.root, is_dir,
                                                      ancestors))
            return f"it matches the exclude pattern {found!r}"
        if gitignore and settings.respect_gitignore and self._git_ignored(path, is_dir,
                                                                          ancestors):
            return "git ignores it (.gitignore or .git/info/exclude)"
        return None

    def _git_ignored(self, path: str, is_dir: bool, ancestors: bool) -> bool:
        if self._git is None:
            from .gitignore import GitIgnore
            self._git = GitIgnore()
        return self._git.ignored(path, is_dir, ancestors)

    def _add(self, path: str) -> None:
        # ./m.xml, m.xml, a symlink, a hard link, the same file through a bind mount: one file
        # (by device and inode; two reports of one file would contradict each other)
        key: object
        try:
            info = os.stat(path)
            key = (info.st_dev, info.st_ino)
        except OSError:  # left for the check to report
            key = os.path.realpath(path)
        if key not in self._seen:
            self._seen.add(key)
            self.found.append(_without_dot(path))

    def add_path(self, path: str) -> None:
        """A path named on the command line."""
        is_dir = os.path.isdir(path)
        if path.lower().endswith(".bin") and not is_dir:
            xml = _ir_of(path)
            if xml is None:
                if self.skip_non_ir:  # weights of something else, or an IR's .bin alone
                    return
                raise DiscoveryError(f"{path}: a .bin is checked through the .xml beside it, "
                                     f"and there is no {os.path.basename(_xml_name(path))}")
            path = xml
        if self._settings(path).force_exclude:
            why = self.exclusion(path, is_dir, ancestors=True)
            if why is not None:
                self.force_excluded.append((path, why))
                return
        if is_dir:
            self.walk(path)
            return
        # a well-formed file whose root is not <net> (pom.xml, an .svg) is skipped; a broken
        # one is not, so the hook still reports a truncated IR
        if self.skip_non_ir:
            from ..ir.reader import net_or_broken
            if not net_or_broken(path):
                return
        self._add(path)

    def walk(self, top: str) -> None:
        from ..ir.reader import net_or_broken
        # a folder named on the command line that git ignores (or that lies in one) is walked
        # as asked, .gitignore aside: git would ignore everything in it (ruff walks it too)
        git = not (self.resolver.settings_for(top).respect_gitignore
                   and self._git_ignored(top, True, True))
        for folder, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if not self.excluded(os.path.join(folder, d),
                                                                  is_dir=True, gitignore=git))
            for name in sorted(files):
                if not name.lower().endswith(".xml"):
                    continue
                candidate = os.path.join(folder, name)
                # other well-formed XML is skipped; an .xml that does not even parse to its
                # root is reported, or a broken model would pass a CI scan silently
                if not self.excluded(candidate, is_dir=False, gitignore=git) and \
                        net_or_broken(candidate):
                    self._add(candidate)


def _without_dot(path: str) -> str:
    """``./m.xml`` (a walk of ``.``, or typed) as ``m.xml``: every report then names a file as
    GitHub's annotations do, relative to the working directory without ``./``."""
    while path.startswith(("./", "." + os.sep)) and len(path) > 2:
        path = path[2:].lstrip("/" + os.sep) or path
    return path


def _xml_name(bin_path: str) -> str:
    return os.path.splitext(bin_path)[0] + ".xml"


def _ir_of(bin_path: str) -> str | None:
    xml = _xml_name(bin_path)
    return xml if os.path.isfile(xml) else None


def find(paths: Sequence[str], resolver, skip_non_ir: bool = False,
         left_out: list[tuple[str, str]] | None = None) -> list[str]:
    """The files to check, in the order given, each once; ``left_out`` gets the named paths
    force-exclude left out, each with what excludes it."""
    finder = Finder(resolver, skip_non_ir)
    for path in paths:
        finder.add_path(path)
    if left_out is not None:
        left_out.extend(finder.force_excluded)
    return finder.found
