"""``compat --against REV PATH...``: every IR that git says changed under the paths since
REV, compared with what it was at REV.

``git diff --name-status -M REV -- PATH...`` names the files (the working tree against REV,
renames followed as git finds them); the old XML is read with ``git cat-file`` into a
private folder, without its ``.bin`` (the interface reads the XML alone).  An IR on one side
only (deleted, added, or named on the command line and untracked) is IRV416's; an XML
file that is not an IR on either side (a pom.xml) is left out.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from ..engine.validation import FileResult
from ..files.tempfiles import held, private_folder, remove_stale_private
from ..ir.reader import net_or_broken
from .compat import CompatError, axes_asked, compare, interface
from .inspect import RESHAPEABLE_LAYERS

if TYPE_CHECKING:
    from ..settings.config import Settings


class GitError(ValueError):
    """git cannot answer: not a work tree, a revision it does not know (exit 2)."""


class Change(NamedTuple):
    """One IR file between REV and the working tree, as paths from the work tree's top:
    ``old`` None when it is new, ``new`` None when it is gone."""
    old: str | None
    new: str | None


def git(top: str, *args: str, into: BinaryIO | None = None) -> bytes:
    """git's output (written to ``into`` instead, when given: a .bin of gigabytes is not
    held in memory); GitError with its first line of complaint."""
    try:
        done = subprocess.run(["git", *args], cwd=top, check=False, stderr=subprocess.PIPE,
                              stdout=subprocess.PIPE if into is None else into)
    except OSError as err:
        raise GitError(f"cannot run git: {err.strerror or err}") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(said[0] if said else f"git {args[0]} failed")
    return done.stdout or b""


def work_tree() -> str:
    try:
        return os.fsdecode(git(os.getcwd(), "rev-parse", "--show-toplevel").rstrip(b"\n"))
    except GitError:
        raise GitError("not in a git work tree: --against needs one") from None


def _is_xml(path: str | None) -> bool:
    return path is not None and path.lower().endswith(".xml")


#: git's empty tree: what HEAD holds before the first commit
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def _unborn(top: str, rev: str) -> bool:
    """Whether ``rev`` is HEAD in a repository with no commit yet (the pre-commit hook's
    first commit)."""
    if rev != "HEAD":
        return False
    try:
        git(top, "rev-parse", "--verify", "--quiet", "HEAD")
        return False
    except GitError:
        return not git(top, "rev-list", "-n", "1", "--all")


def _under(path: str | None, specs: Sequence[str]) -> bool:
    return path is not None and any(spec == os.curdir or path == spec or
                                    path.startswith(spec.rstrip("/") + "/") for spec in specs)


def changes(top: str, rev: str, paths: Sequence[str]) -> list[Change]:
    """The XML files that differ between REV and the working tree under ``paths``."""
    if _unborn(top, rev):
        rev = EMPTY_TREE  # the first commit: every IR in it is new
    try:
        kind = "tree" if rev == EMPTY_TREE else "commit"
        git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{{kind}}}")
    except GitError:
        raise GitError(f"--against {rev}: not a revision git knows") from None
    specs = [os.path.relpath(os.path.abspath(p), top) for p in paths]
    # every XML of the tree, so that a rename out of the paths or into them is seen whole
    listed = git(top, "diff", "--name-status", "-M", "-z", "--no-ext-diff", "--no-color",
                 rev, "--", ":(icase)*.xml")
    found = [change for change in _parsed(listed)
             if _under(change.old, specs) or _under(change.new, specs)]
    named = [s for s, p in zip(specs, paths) if os.path.isfile(p) and _is_xml(p)]
    if named:  # an IR named and untracked is new too
        untracked = git(top, "ls-files", "-z", "--others", "--exclude-standard", "--", *named)
        found += [Change(None, os.fsdecode(p)) for p in untracked.split(b"\0") if p]
    return found


def _parsed(listed: bytes) -> Iterator[Change]:
    """``git diff --name-status -z``: a status, then one path, or two for a rename or copy."""
    fields = [os.fsdecode(f) for f in listed.split(b"\0")]
    at = 0
    while at < len(fields) and fields[at]:
        status = fields[at][:1]
        if status in "RC":
            old, new = fields[at + 1], fields[at + 2]
            yield Change(old if status == "R" else None, new)
            at += 3
            continue
        path = fields[at + 1]
        yield Change(None if status == "A" else path, None if status == "D" else path)
        at += 2


def compare_against(rev: str, paths: Sequence[str],
                    config_for: Callable[[str], Settings]) -> list[FileResult]:
    """One result per IR that changed (its path as given from the working directory)."""
    top = work_tree()
    found = changes(top, rev, paths)
    if not found:
        return []
    remove_stale_private()
    with held():  # created and noted at once: a signal cannot leave it behind
        folder = private_folder()
    try:
        return [result for index, change in enumerate(found)
                for result in _compared(top, rev, change, os.path.join(folder, str(index)),
                                        config_for)]
    finally:
        with held():
            shutil.rmtree(folder, ignore_errors=True)


def _compared(top: str, rev: str, change: Change, scratch: str,
              config_for: Callable[[str], Settings]) -> list[FileResult]:
    """The change's result, or none when neither side is an IR."""
    old_path = old_bin = None
    shown = os.path.relpath(os.path.join(top, change.new or change.old or ""))
    config = config_for(shown)
    axes = axes_asked(config, shown)
    if change.old is not None:
        os.mkdir(scratch)
        old_path = os.path.join(scratch, os.path.basename(change.old))
        xml = git(top, "cat-file", "blob", f"{rev}:{change.old}")
        with open(old_path, "wb") as handle:
            handle.write(xml)
        old_path = old_path if net_or_broken(old_path) else None
        old_bin = _old_weights(top, rev, change.old, xml, old_path) if old_path and axes \
            else None
    new_path = None
    if change.new is not None:
        new_path = os.path.join(top, change.new)
        new_path = new_path if net_or_broken(new_path) else None
    if old_path is None and new_path is None:
        return []
    old_name = f"{change.old} at {rev}" if change.old is not None else rev
    try:
        old = interface(old_path, old_bin, axes) if old_path is not None else None
        new = interface(new_path, axes=axes) if new_path is not None else None
    except CompatError as err:
        raise CompatError(str(err).replace(str(old_path), old_name)) from None
    return [compare(old, new, shown, config, old_name=old_name)]


def _old_weights(top: str, rev: str, old: str, xml: bytes, old_path: str) -> str | None:
    """The .bin the old XML's reshapeable axes read: none for a file too large to have them
    computed (the interface reads the XML alone); the working tree's when git says it has
    not changed since REV; else REV's own, written beside the old XML."""
    if xml.count(b"<layer ") > RESHAPEABLE_LAYERS:
        return None
    weights = os.path.splitext(old)[0] + ".bin"
    here = os.path.join(top, weights)
    if os.path.isfile(here) and not git(top, "diff", "--name-only", rev, "--", weights):
        return here
    path = os.path.splitext(old_path)[0] + ".bin"
    try:
        with open(path, "wb") as handle:
            git(top, "cat-file", "blob", f"{rev}:{weights}", into=handle)
    except GitError:
        os.remove(path)
        return None  # no .bin at REV: the axes say what they can without it
    return path
