"""``--format sarif``: one SARIF 2.1.0 log for GitHub code scanning (``upload-sarif``).

Why these choices (github/docs "SARIF support for code scanning"):

* Every registered rule plus IRV000 is listed, not only those that fired, so the rule table of
  a log does not depend on the code analysed ("you should see differences in the results ...
  but not in the rules").  A code the registry does not know still gets a minimal descriptor,
  so every ``ruleIndex`` points at its rule.
* Required strings are never empty, and ``fullDescription`` stays within GitHub's 1024 chars.
* A uri is relative to the working directory (the checkout, in CI) with forward slashes and
  ``uriBaseId: %SRCROOT%``; outside it, an absolute ``file://`` URI, which GitHub converts
  itself when it lies under the checkout.  Symlinks are resolved first, as GitHub asks.
* ``region.startLine`` is required; a finding without a line (unreadable file, whole file)
  gets line 1 and ``properties.lineKnown: false``.  ``startColumn`` is where the element the
  finding names starts (1, SARIF's default, when unknown); ``endLine`` without ``endColumn``
  runs the region to the end of that line.
* ``partialFingerprints`` carries irvalidate's own hash (see ``_fingerprint``): stable when
  lines move.  Code scanning itself keys alerts on ``primaryLocationLineHash``, which
  ``upload-sarif`` adds next to ours from the file's text; faking that one would be wrong.
* Output is deterministic: no timestamps, findings in the engine's order, ASCII-only JSON (a
  layer name in any script survives a console that cannot print it).
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from functools import cache
from importlib import import_module
from typing import Any

from ..rules import ALL, INTERNAL_ERROR
from .common import message_text, relative_path
from .docs import blocks, cleandoc

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
#: SARIF has no "info"; "note" is its lowest level that still shows in code scanning
SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note"}
#: GitHub's "problem.severity" vocabulary for non-security rules
SEVERITY = {"error": "error", "warning": "warning", "info": "recommendation"}
#: the rule families, by the hundreds digit of the code
FAMILY = {"0": "file", "1": "inference", "2": "graph"}
#: versioned like SARIF's own examples ("/v1"); bump it whenever the recipe in _fingerprint changes
FINGERPRINT = "irvalidateFindingHash/v1"
LIMIT = 1024  # GitHub's limit for shortDescription and fullDescription
#: the bytes a uri keeps as they are: RFC 3986's unreserved characters and "/"
_KEPT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/")
_SEMVER = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")

def _fit_description(text: str) -> str:
    return text if len(text) <= LIMIT else text[:LIMIT - 3].rstrip() + "..."


def _doc_parts(doc: str) -> tuple[str, str]:
    """(description, help): the docstring minus its ``CODE slug: summary`` heading; the
    description stops at the Passing/Failing examples and is unwrapped."""
    _, _, body = cleandoc(doc).partition("\n\n")
    description = []
    for paragraph in body.split("\n\n"):
        if paragraph.lstrip().startswith(("Passing", "Failing")):
            break
        description.append(" ".join(paragraph.split()))
    return "\n\n".join(p for p in description if p), body.strip()


def _inline_md(text: str) -> str:
    """RST inline text to Markdown: ``code`` becomes `code`; elsewhere ``<``, ``>``, ``&``
    and ``*`` are escaped, or GitHub would swallow ``<net>`` as an HTML tag."""
    parts = re.split(r"``(.+?)``", text)
    for i, part in enumerate(parts):
        if i % 2:
            parts[i] = f"`` {part} ``" if "`" in part else f"`{part}`"
        else:
            parts[i] = (part.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                        .replace("*", r"\*"))
    return "".join(parts)


def _markdown(body: str) -> str:
    """The docstring body as Markdown: paragraphs unwrapped; a literal block (after a
    paragraph ending in ``::``) becomes a fenced ``xml`` block (the examples are IR
    snippets)."""
    out: list[str] = []
    for kind, lines in blocks(body):
        if kind == "literal":
            out.extend(["```xml", *lines, "```", ""])
        else:
            out.extend([_inline_md(" ".join(part.strip() for part in lines)), ""])
    return "\n".join(out).strip() + "\n"


def _descriptor(code: str, slug: str, summary: str, doc: str, level: str) -> dict:
    description, body = _doc_parts(doc)
    return {
        "id": code,
        # The slug, not ruff's PascalCase: GitHub shows ``name`` in its rule filter, and the
        # slug is what the text and JSON reports print and what rules.get() accepts, so users
        # meet one spelling everywhere.  PascalCase is only a style note of Microsoft's SARIF
        # validator (SARIF2025); CodeQL itself uses names like "js/unused-local-variable".
        "name": slug,
        "shortDescription": {"text": _fit_description(summary or slug)},
        "fullDescription": {"text": _fit_description(description or summary or slug)},
        "help": {"text": body or summary or slug, "markdown": _markdown(body or summary or slug)},
        "defaultConfiguration": {"level": SARIF_LEVELS.get(level, "warning")},
        "properties": {"tags": ["openvino-ir", "internal" if code == INTERNAL_ERROR.CODE
                                else FAMILY.get(code[3:4], "other")],
                       "problem.severity": SEVERITY.get(level, "warning")},
    }


def descriptors() -> list[dict]:
    """IRV000 and then every registered rule, in code order."""
    return [_descriptor(r.CODE, r.SLUG, r.SUMMARY, r.__doc__ or "", r.LEVEL) for r in ALL]


def quoted(name: str) -> str:
    """``urllib.parse.quote(os.fsencode(name), safe="/")``, without importing urllib.parse
    (which brings ipaddress: ~3 ms of a SARIF report's start): the name's own bytes, each
    one but the unreserved and "/" as %XX."""
    return "".join(chr(b) if b in _KEPT else f"%{b:02X}" for b in os.fsencode(name))


def file_uri(path: str) -> str:
    """``PurePath.as_uri()`` of an absolute path, without importing pathlib: on POSIX, file://
    and the path's bytes percent-encoded but for ``/``."""
    if os.name != "posix":  # drive letters and backslashes: pathlib knows them
        from pathlib import Path
        return Path(path).as_uri()
    return "file://" + quoted(path)


def artifact_location(path: str) -> dict:
    """A uri relative to the working directory when the file is inside it, else file://.
    Both percent-encode the name's own bytes, so a name that is not UTF-8 is found again."""
    relative = relative_path(path)
    if relative is None:
        return {"uri": file_uri(os.path.realpath(path))}
    return {"uri": quoted(relative), "uriBaseId": SRCROOT}


@cache
def _sha256() -> Callable[[bytes], Any]:
    """hashlib's sha256 from Python's own module (_sha2, or _sha256 before 3.12): importing
    hashlib loads OpenSSL first (~3 ms of a SARIF report's start); the digest is the same."""
    for name in ("_sha2", "_sha256"):
        try:
            return import_module(name).sha256
        except ImportError:  # a Python built without it: hashlib has one
            continue
    from hashlib import sha256
    return sha256


def _fingerprint(rule_id: str, uri: str, f) -> str:
    """sha256 of rule, uri, layer (type and name, else id), port and the message with every
    digit run replaced by ``0``.  Names survive a re-export while ids and line numbers shift,
    and shapes in the message may change while the problem stays the same one."""
    layer = "" if f.layer is None else f"{f.layer.type}:{f.layer.name or f.layer.id}"
    message = re.sub(r"\d+", "0", f.message)
    key = "\0".join((rule_id, uri, layer, f.port or "", f.scope, message))
    return _sha256()(key.encode("utf-8")).hexdigest()[:32]


def _properties(f) -> dict:
    """What the JSON report has and SARIF has no field for; absent values are left out."""
    props: dict[str, object] = {"lineKnown": bool(f.line and f.line > 0)}
    if f.layer is not None:
        props.update(layerId=f.layer.id, layerName=f.layer.name, layerType=f.layer.type)
    props.update({key: getattr(f, key) for key in ("port", "expected", "declared", "scope")
                  if getattr(f, key)})
    return props


def _fixes(f, location: dict) -> dict:
    """SARIF ``fixes`` for a finding --diff or --fix can repair: one fix, its replacements in
    the file as it is (columns count characters: ``columnKind`` is unicodeCodePoints)."""
    if f.fix is None or not f.fix.edits:
        return {}
    replacements = [{"deletedRegion": {"startLine": e.line, "startColumn": e.column,
                                       "endLine": e.end_line, "endColumn": e.end_column},
                     "insertedContent": {"text": e.new}} for e in f.fix.edits]
    return {"fixes": [{"description": {"text": "write the declarations inference proves"},
                       "artifactChanges": [{"artifactLocation": dict(location),
                                            "replacements": replacements}]}]}


def _related(f, location: dict) -> dict:
    """A consequence's root (irvalidate.engine.linking) as SARIF ``relatedLocations``: where the
    finding it follows from is, and which rule that finding is of."""
    cause = getattr(f, "caused_by", None)
    if cause is None:
        return {}
    line = cause.line if cause.line and cause.line > 0 else 1
    layer = "" if cause.layer is None else f" at {cause.layer.type} {cause.layer.name!r}"
    return {"relatedLocations": [{
        "id": 1,
        "physicalLocation": {"artifactLocation": dict(location),
                             "region": {"startLine": line, "startColumn": 1, "endLine": line}},
        "message": {"text": f"the root finding this one follows from: {cause.code}{layer}"}}]}


def render(results: Sequence, version: str) -> str:
    rules = descriptors()
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    seen: dict[str, int] = {}
    out = []
    for result in results:
        location = artifact_location(result.path)
        for f in result.findings:
            if f.code not in index:  # a code the registry does not know: describe it minimally
                index[f.code] = len(rules)
                rules.append(_descriptor(f.code, f.slug, f.slug, "", f.level))
            line = f.line if f.line and f.line > 0 else 1
            digest = _fingerprint(f.code, location["uri"], f)
            seen[digest] = seen.get(digest, 0) + 1  # ":n" tells identical findings apart
            out.append({
                "ruleId": f.code, "ruleIndex": index[f.code],
                "level": SARIF_LEVELS.get(f.level, "warning"),
                "message": {"text": message_text(f)},
                "locations": [{"physicalLocation": {
                    "artifactLocation": dict(location),
                    "region": {"startLine": line, "startColumn": f.column or 1,
                               "endLine": line}}}],
                "partialFingerprints": {FINGERPRINT: f"{digest}:{seen[digest]}"},
                "properties": _properties(f),
                **_related(f, location),
                **_fixes(f, location),
            })
    # no informationUri (optional): the README installs irvalidate from its repository, which
    # has no public address to give yet; a package index page is not where it comes from
    driver = {"name": "irvalidate", "version": version or "0+unknown", "rules": rules}
    if _SEMVER.match(version or ""):
        driver["semanticVersion"] = version
    run = {"tool": {"driver": driver}, "columnKind": "unicodeCodePoints",
           "originalUriBaseIds": {SRCROOT: {"uri": file_uri(os.path.realpath(os.getcwd()))
                                            .rstrip("/") + "/"}},
           "results": out}
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2) + "\n"
