"""What git ignores, for directory walks: .gitignore files and .git/info/exclude.

Only inside a git work tree (a folder above holds ``.git``), as git and ruff do: a
``.gitignore`` in an unpacked archive or a plain folder is not obeyed.  The rules are git's:
``$GIT_DIR/info/exclude`` first, then each ``.gitignore`` from the work tree's root down to
the file's folder, the last matching pattern deciding (``!`` re-includes).  A nested
repository (a submodule) is a work tree of its own.  The user's global excludes file
(``core.excludesFile``) is not read, so a run gives the same files on every machine.
Patterns are matched by ``pathspec``'s ``GitIgnoreSpec``, imported only when a walk meets a
work tree.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported when a walk meets a .gitignore
    from pathspec import GitIgnoreSpec


def _read_lines(path: str) -> list[str] | None:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            return handle.read().splitlines()
    except OSError:  # absent, a folder, unreadable: no rules
        return None


def _git_dir(root: str) -> str:
    """The repository folder of a work tree: ``.git`` itself, or where a ``.git`` file
    (``gitdir: ...``, a linked worktree or a submodule) points; a linked worktree's
    info/exclude lives in the common directory its ``commondir`` file names."""
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    lines = _read_lines(dot_git) or [""]
    git_dir = os.path.join(root, lines[0].partition("gitdir:")[2].strip())
    common = _read_lines(os.path.join(git_dir, "commondir"))
    return os.path.join(git_dir, common[0].strip()) if common else git_dir


class GitIgnore:
    """The ignore rules met by one run, each folder's read once."""

    def __init__(self) -> None:
        self._roots: dict[str, str | None] = {}
        self._specs: dict[tuple[str, str], GitIgnoreSpec | None] = {}
        self._chains: dict[str, list[tuple[str, GitIgnoreSpec]]] = {}

    def work_tree(self, folder: str) -> str | None:
        """The root of the git work tree ``folder`` is in, or None."""
        folder = os.path.abspath(folder)
        if folder not in self._roots:
            parent = os.path.dirname(folder)
            if os.path.lexists(os.path.join(folder, ".git")):
                self._roots[folder] = folder
            else:
                self._roots[folder] = None if parent == folder else self.work_tree(parent)
        return self._roots[folder]

    def _spec(self, base: str, file: str) -> GitIgnoreSpec | None:
        key = (base, file)
        if key not in self._specs:
            lines = _read_lines(file)
            if lines:
                from pathspec import GitIgnoreSpec
                self._specs[key] = GitIgnoreSpec.from_lines(lines)
            else:
                self._specs[key] = None
        return self._specs[key]

    def _chain(self, root: str, folder: str) -> list[tuple[str, GitIgnoreSpec]]:
        """(base folder, spec) pairs in git's order of precedence, lowest first."""
        if folder not in self._chains:
            if folder == root:
                exclude = os.path.join(_git_dir(root), "info", "exclude")
                chain: list[tuple[str, GitIgnoreSpec | None]] = [
                    (root, self._spec(root, exclude))]
            else:
                chain = list(self._chain(root, os.path.dirname(folder)))
            chain.append((folder, self._spec(folder, os.path.join(folder, ".gitignore"))))
            self._chains[folder] = [(base, spec) for base, spec in chain if spec is not None]
        return self._chains[folder]

    def ignored(self, path: str, is_dir: bool, ancestors: bool = False) -> bool:
        """Whether git ignores ``path``; with ``ancestors`` also when a folder it is in is
        ignored (a walk never enters those, a named file needs the check)."""
        path = os.path.abspath(path)
        folder = os.path.dirname(path)
        root = self.work_tree(folder)
        if root is None or path == root:
            return False
        if ancestors and folder != root and self.ignored(folder, True, True):
            return True
        decision = None
        for base, spec in self._chain(root, folder):
            relative = os.path.relpath(path, base).replace(os.sep, "/")
            include = spec.check_file(relative + ("/" if is_dir else "")).include
            if include is not None:
                decision = include
        return bool(decision)
