"""``--diff`` and ``--fix``: the edits that make a file's declarations agree with inference.

A file is fixed in rounds.  Each round validates the current text, asks every finding's rule
what inference proves (irvalidate.rules._fixes), turns that into byte replacements
(irvalidate.fixing.editing) and applies them; a round that decides a Parameter's or Const's shape
attribute against its port writes only that, since the choice changes what every layer after
it infers.  Rounds stop when nothing is left to write.  Every round reads a private copy of
the file; the file itself is replaced once, atomically, and only when

* the file had no error that makes it unreadable or breaks its structure (the gate: XML,
  schema, graph integrity, constants, a refused input), and still has none after the edits
  (a refused layer and a Const's size are judged after the edits only: ``CURABLE``);
* it is no hostile or exotic text (a DTD, an encoding other than UTF-8).

The ``.bin`` is never touched.
"""
from __future__ import annotations

import os
import re
import shutil
import stat
from collections.abc import Sequence

from ..engine.validation import FileResult, validate_file
from ..files.tempfiles import (
    create_beside,
    held,
    private_folder,
    remove_stale_in,
    remove_stale_private,
)
from ..ir.encoding import sniff
from ..ir.records import Document
from ..rules import (
    body_port_map,
    dangling_edge,
    duplicate_layer_id,
    duplicate_port_id,
    graph_cycle,
    incompatible,
    invalid_constant,
    ir_version,
    malformed,
    missing_weights,
    multiple_edges,
    not_an_ir,
    reversed_edge,
    schema_violation,
    unconnected_input,
    unknown_op_type,
    unreadable_xml,
)
from ..rules.findings import FileFix, Finding, Fix, Problem
from .editing.diff import unified_diff
from .editing.ledger import Ledger, edits_of
from .editing.planner import Round
from .editing.spans import SpanMap, Unlocatable

#: rules whose errors forbid writing a file, before and after its edits, whatever is selected
GATE = (unreadable_xml, not_an_ir, ir_version, malformed, schema_violation, incompatible,
        dangling_edge, invalid_constant, missing_weights, duplicate_layer_id, duplicate_port_id,
        reversed_edge, multiple_edges, unconnected_input, graph_cycle, unknown_op_type,
        body_port_map)
GATE_CODES = frozenset(rule.CODE for rule in GATE) | {"IRV000"}
#: gate errors an edit of declarations may cure, judged on the file after its edits only: a
#: layer refused for what a Parameter's or Const's shape attribute says (the side of the
#: attribute and its port that agrees with the graph wins), a Const's shape its size does
#: not cover.  Where the edits leave them, the file is refused as if they had been judged first
CURABLE = frozenset({incompatible.CODE, invalid_constant.CODE})
#: a file still changing after this many rounds is left alone (a fix that undoes another)
MAX_ROUNDS = 6
#: Parameter/Const shape attributes decided per round (each decision validates twice)
MAX_DECISIONS = 16
_ENCODING = re.compile(rb"""^<\?xml[^>]*\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


class FixError(Exception):
    """The file cannot be written: the message says why, in plain words (exit 2)."""


def hostile(data: bytes) -> str | None:
    """Why a file's text is not one --fix edits, or None."""
    encoding = sniff(data[:4])
    if encoding is not None:  # with or without a byte order mark (XML 1.0, appendix F)
        return f"it is {encoding}-encoded, and --fix edits UTF-8 only"
    match = _ENCODING.match(data.lstrip(b"\xef\xbb\xbf"))
    if match and match.group(1).lower() not in (b"utf-8", b"utf8", b"us-ascii", b"ascii"):
        return f"it declares encoding {match.group(1).decode()}, and --fix edits UTF-8 only"
    root = data.find(b"<net")
    if b"<!DOCTYPE" in data[:root if root >= 0 else len(data)]:
        return "it has a document type declaration (DTD), which IR files never need"
    return None


def gate_findings(result: FileResult, curable: bool = True) -> list[Finding]:
    """The errors that forbid writing the file (``curable``: those edits may cure too)."""
    return [f for f in list(result.findings) + list(result.extra)
            if f.code in GATE_CODES and f.level == "error" and (curable or f.code not in CURABLE)]


def _where(finding: Finding) -> tuple:
    return finding.code, finding.scope, finding.layer.id if finding.layer is not None else None


def _reason(blocking: Sequence[Finding], when: str) -> str:
    first = blocking[0]
    more = f" and {len(blocking) - 1} more" if len(blocking) > 1 else ""
    return (f"{when} has {first.code} {first.slug} errors ({brief(first.message)}{more}); "
            f"fix those first")


def brief(message: str, limit: int = 200) -> str:
    """A message of at most about ``limit`` characters: its first clauses (up to a "; "), else
    its first words, never a word or a parenthesis cut in two."""
    if len(message) <= limit:
        return message
    cut = message.rfind("; ", 0, limit)
    if cut > 0 and message.count("(", 0, cut) == message.count(")", 0, cut):
        return message[:cut]
    words = message[:limit].rsplit(" ", 1)[0]
    return words + ("..." if words.count("(") == words.count(")") else ")...")


class _Fixer:
    """Fixes one file: rounds over private copies, then at most one atomic write."""

    def __init__(self, path: str, bin_path: str | None, config, workdir: str) -> None:
        self.path, self.bin_path, self.config = path, bin_path, config
        # the copies keep the file's name, which findings may quote ("put model.bin beside
        # model.xml")
        name = os.path.basename(path)
        self.copy = os.path.join(workdir, name)
        self.trial = os.path.join(workdir, "trial", name)
        self.round: Round | None = None
        self.data = b""
        self.decisions = 0

    def validate(self, data: bytes) -> FileResult:
        _write_copy(self.copy, data)
        self.data = data
        self.round = None
        return validate_file(self.path, self.bin_path, self.config, read_from=self.copy,
                             planner=self._plan, extra_rules=GATE)

    def disagreements(self, data: bytes, layer) -> int:
        """How many declarations of ``data`` disagree with inference: those the fixes of its
        findings would change (each port or attribute once), plus one per finding no fix
        covers; the findings about ``layer``'s attribute and port themselves left out."""
        _write_copy(self.trial, data)
        plans: list[Round] = []

        def plan(doc: Document, problems: list[tuple[str, Problem]]):
            plans.append(Round(doc, data, problems))  # no decisions: a choice counts as one
            return plans[-1].infos
        result = validate_file(self.path, self.bin_path, self.config, read_from=self.trial,
                               planner=plan, extra_rules=GATE)
        changed = len(plans[0].changed) if plans else 0
        unfixed = sum(1 for f in list(result.findings) + list(result.extra)
                      if f.level != "info" and not _about(f, layer)
                      and (f.fix is None or not f.fix.edits))
        return changed + unfixed

    def _plan(self, doc: Document, problems: list[tuple[str, Problem]]):
        self.decisions = 0
        self.round = Round(doc, self.data, problems, lambda p, fix: self._decide(doc, p, fix))
        return self.round.infos

    def _decide(self, doc: Document, problem: Problem, fix: Fix):
        """Try each choice on the whole file.  The one that agrees with the rest of the graph
        changes fewer declarations: its own edits plus the problems that remain after it
        (each one a declaration that still disagrees).  A tie proves nothing."""
        if self.decisions >= MAX_DECISIONS:
            return "too many shape attributes disagree with their ports to decide in one run"
        self.decisions += 1
        data, layer = self.data, problem.layer
        scores = []
        for choice in fix.choices:
            try:
                spans = SpanMap(doc, data, choice)
                edits = sorted({r for c in choice for r in spans.replacements(c)})
            except Unlocatable as err:
                return f"the text to edit cannot be found ({err})"
            scores.append(len(choice) + self.disagreements(_splice(data, edits), layer))
        best = min(scores)
        if scores.count(best) > 1:
            return (f"neither the attribute nor the port is proven: either way {best} "
                    f"declaration(s) of the graph disagree; fix it by hand")
        return scores.index(best)


def _write_copy(path: str, data: bytes) -> None:
    """A private copy written, or a FixError that says where it could not be (a full $TMPDIR
    fails this file, not the run)."""
    try:
        with open(path, "wb") as handle:
            handle.write(data)
    except OSError as err:
        raise FixError(f"cannot write its private copy in {os.path.dirname(os.path.dirname(path))}"
                       f": {err.strerror or err}") from None


def _about(finding: Finding, layer) -> bool:
    """A finding about the Parameter or Const being decided itself (its attribute-port
    disagreement), which the trial is meant to remove."""
    return finding.code in ("IRV214", "IRV215") and finding.layer is not None and \
        layer is not None and finding.layer.id == layer.id


def _splice(data: bytes, edits: Sequence[tuple[int, int, bytes]]) -> bytes:
    pieces, at = [], 0
    for start, end, text in sorted(edits):
        pieces += [data[at:start], text]
        at = end
    pieces.append(data[at:])
    return b"".join(pieces)


def fix_file(path: str, bin_path: str | None = None, config=None, write: bool = False,
             display: str | None = None) -> FileResult:
    """Fix one file (``write``) or only work out its edits.  The result's findings are those
    of the file after its edits when they were written, else of the file as it is; its
    ``fix`` says what was edited, or why not."""
    from ..settings.config import Defaults
    config = config or Defaults()
    target = os.path.realpath(path)  # a symlink: its target is fixed, the link stays
    try:
        with open(target, "rb") as handle:
            original = handle.read()
    except OSError as err:
        result = validate_file(path, bin_path, config)
        return _with(result, FileFix(refused=f"cannot read it: {err.strerror or err}", failed=True))
    if write:  # what a killed run left beside it goes, whether this one writes or not
        remove_stale_in(os.path.dirname(target) or os.curdir)
    workdir = None
    try:
        with held():  # created and noted at once: a signal cannot leave it behind
            workdir = _private_folder()
        os.mkdir(os.path.join(workdir, "trial"))
        return _fix(path, target, original, bin_path, config, write, workdir,
                    display or diff_name(path))
    except (FixError, OSError) as err:
        # this file fails, the others go on; FixError from our own copies, OSError from mkdir
        reason = str(err) if isinstance(err, FixError) else \
            f"cannot make its private copy: {err.strerror or err}"
        return _with(validate_file(path, bin_path, config),
                     FileFix(refused=reason, failed=True))
    finally:
        if workdir is not None:
            with held():
                shutil.rmtree(workdir, ignore_errors=True)


_stale_private_removed = False


def _private_folder() -> str:
    """--fix's private folder; the first of a process also removes those dead runs left."""
    global _stale_private_removed
    if not _stale_private_removed:
        _stale_private_removed = True
        remove_stale_private()
    try:
        return private_folder()
    except OSError as err:
        import tempfile
        raise FixError(f"cannot make its private copy in {tempfile.gettempdir()}: "
                       f"{err.strerror or err}") from None


def diff_name(path: str) -> str:
    """The name a diff gives a file: relative to the working directory, with ``/``, so that
    ``git apply`` and ``patch -p1`` run there find it (an absolute path outside it keeps its
    full name, without the leading ``/``)."""
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute)
    name = absolute.lstrip(os.sep) if relative.startswith(os.pardir) else relative
    return name.replace(os.sep, "/")


def _with(result: FileResult, fix: FileFix, findings: list[Finding] | None = None) -> FileResult:
    return FileResult(result.path, result.findings if findings is None else findings, [], fix)


def _errors(result: FileResult) -> tuple[Finding, ...]:
    return tuple(f for f in result.findings if f.level == "error")


def _fix(path: str, target: str, original: bytes, bin_path, config, write: bool,
         workdir: str, display: str) -> FileResult:
    fixer = _Fixer(path, bin_path, config, workdir)
    first = fixer.validate(original)
    why = hostile(original)
    blocking = gate_findings(first, curable=False)
    if why or blocking:
        # a file --fix does not edit says why whenever it has errors: its own edits may not
        # even be locatable (UTF-16 text read as bytes)
        refused = f"not edited: {why}" if why and _errors(first) else \
            _reason(blocking, "the file") if blocking and _has_edits(first) else None
        return _with(first, FileFix(refused=refused, remain=_errors(first)))
    ledger = Ledger(original)
    current = first
    for _ in range(MAX_ROUNDS):
        plan = fixer.round
        if plan is None or not plan.replacements:
            break
        ledger.apply(plan.replacements)
        current = fixer.validate(ledger.current)
    else:
        return _with(first, FileFix(refused="the edits do not settle; nothing written",
                                    remain=_errors(first)))
    return _judged(target, original, first, current, ledger, write, display)


def _judged(target: str, original: bytes, first: FileResult, current: FileResult,
            ledger: Ledger, write: bool, display: str) -> FileResult:
    """The file after its edits judged by the gate, then written when asked."""
    net, left = ledger.net(), _errors(current)
    blocking = gate_findings(current)
    before = {_where(f) for f in gate_findings(first)}
    if blocking and all(_where(f) in before for f in blocking):
        # errors the edits did not cure: refused as a gate error found first would be
        return _with(first, FileFix(refused=_reason(blocking, "the file")
                                    if _has_edits(first) else None, remain=left))
    if not net:
        return _with(first, FileFix(remain=left))
    edits = tuple(edits_of(original, net))
    diff = unified_diff(original, [(s, e, t) for s, e, t, _ in net], display)
    fixed = max(0, len(first.findings) - len(current.findings))
    if blocking:
        return _with(first, FileFix(edits, refused=_reason(blocking, "the file after its edits"),
                                    fixed=0, diff=diff, remain=left))
    if not write:
        return _with(first, FileFix(edits, fixed=fixed, diff=diff, remain=left))
    try:
        write_atomically(target, original, ledger.current)
    except FixError as err:
        return _with(first, FileFix(edits, refused=str(err), failed=True, diff=diff, remain=left))
    return _with(current, FileFix(edits, written=True, fixed=fixed, diff=diff, remain=left))


def _has_edits(result: FileResult) -> bool:
    return any(f.fix is not None and f.fix.edits for f in result.findings)


def write_atomically(target: str, original: bytes, data: bytes) -> None:
    """Replace ``target`` with ``data``: a temporary file in the same folder, then a rename,
    with the file's owner, group, mode, ACLs and extended attributes.  The original is either
    whole or replaced, never half written; ``original`` is what was read, so a file changed
    meanwhile is left alone.  No signal that can be caught leaves the temporary file behind;
    one that cannot (SIGKILL) leaves it to the next run's removal of stale files."""
    info = os.stat(target)
    _writable(target, info)
    remove_stale_in(os.path.dirname(target) or os.curdir)
    temp = None
    try:
        with held():  # created and noted at once
            handle, temp = _create_beside(target)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        _keep_attributes(target, temp, info)
        with open(target, "rb") as check:
            seen = os.fstat(check.fileno())  # before the read: what the read compares
            if check.read() != original:
                raise FixError("the file changed while it was being fixed")
            with held():
                _unchanged(target, check.fileno(), seen)  # an append since the read: refused
                os.replace(temp, target)
                temp = None
    except BaseException as err:
        if temp is not None:
            with held():
                _unlink(temp)
        if isinstance(err, OSError) and not isinstance(err, FixError):
            raise FixError(f"writing failed: {err.strerror or err}") from err
        raise


def _writable(target: str, info: os.stat_result) -> None:
    if not os.access(target, os.W_OK) or not info.st_mode & 0o222:
        raise FixError("the file is read-only")
    if info.st_nlink > 1:
        raise FixError(f"the file has {info.st_nlink} hard links, which replacing it would split")
    folder = os.path.dirname(target) or os.curdir
    # mode bits too: a superuser may write anywhere, but a folder without write permission
    # says the files in it are not to be replaced
    if not os.access(folder, os.W_OK | os.X_OK) or not os.stat(folder).st_mode & 0o222:
        raise FixError("its folder is read-only")


def _create_beside(target: str):
    try:
        return create_beside(target)
    except OSError as err:
        raise FixError(f"cannot write in its folder: {err.strerror or err}") from err


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _unchanged(target: str, fd: int, seen: os.stat_result) -> None:
    """The file as last compared: same inode, size and modification time, on the open file
    and under its name, just before the rename."""
    now, named = os.fstat(fd), os.stat(target)
    if (now.st_size, now.st_mtime_ns) != (seen.st_size, seen.st_mtime_ns) or \
            (named.st_dev, named.st_ino) != (now.st_dev, now.st_ino):
        raise FixError("the file changed while it was being fixed")


def _keep_attributes(target: str, temp: str, info: os.stat_result) -> None:
    """The owner and group first (a chown clears the setuid and setgid bits), then the mode,
    then the extended attributes (ACLs among them, set last as they set the group bits)."""
    made = os.stat(temp)
    if (info.st_uid, info.st_gid) != (made.st_uid, made.st_gid):
        try:
            os.chown(temp, info.st_uid, info.st_gid)
        except OSError as err:
            raise FixError("cannot keep the file's owner and group") from err
    os.chmod(temp, stat.S_IMODE(info.st_mode))
    if not hasattr(os, "listxattr"):
        return
    wanted, made_with = _xattrs(target), _xattrs(temp)
    for name in set(made_with) - set(wanted):  # inherited from the folder's default ACL
        try:
            os.removexattr(temp, name)
        except OSError:
            pass
    for name, value in wanted.items():
        if made_with.get(name) == value:  # a security label the folder gave it already
            continue
        try:
            os.setxattr(temp, name, value)
        except OSError as err:
            raise FixError(f"cannot keep its extended attribute {name}: "
                           f"{err.strerror or err}") from err


def _xattrs(path: str) -> dict:
    """The extended attributes of ``path`` (none where the file system has none)."""
    try:
        return {name: os.getxattr(path, name) for name in os.listxattr(path)}
    except OSError:
        return {}
