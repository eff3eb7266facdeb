"""Run the irvalidate CLI on a batch of files and read its JSON report (shared by the
differential tests).  In-process by default; ``IRVALIDATE_DIFF_SUBPROCESS=1`` runs
``python -m irvalidate`` instead."""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest


def _run_subprocess(paths: Sequence[Path]) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "irvalidate", "--format", "json", *map(str, paths)],
        capture_output=True, text=True, timeout=600,
        cwd=str(Path(__file__).resolve().parents[2]))
    return proc.returncode, proc.stdout, proc.stderr


def _run_in_process(paths: Sequence[Path]) -> tuple[int, str, str]:
    from irvalidate.cli.main import main

    out_buf, err_buf = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_buf, encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(err_buf, encoding="utf-8", write_through=True)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["--format", "json", *map(str, paths)])
        except SystemExit as exc:
            code = exc.code
    out.flush()
    err.flush()
    if code is None:
        code = 0
    return int(code), out_buf.getvalue().decode("utf-8"), err_buf.getvalue().decode("utf-8")


def run_validator(paths: Sequence[Path]) -> tuple[int, dict[Path, list[dict]], str]:
    """Run the CLI on ``paths``; return (exit code, findings per resolved path, stderr)."""
    if os.environ.get("IRVALIDATE_DIFF_SUBPROCESS") == "1":
        code, stdout, stderr = _run_subprocess(paths)
    else:
        code, stdout, stderr = _run_in_process(paths)
        try:
            json.loads(stdout)
        except ValueError:       # the CLI wrote somewhere else: fall back to a subprocess
            code, stdout, stderr = _run_subprocess(paths)
    try:
        doc = json.loads(stdout)
    except ValueError:
        pytest.fail(f"validator output is not JSON (exit {code}):\n{stdout[:2000]}\n"
                    f"stderr:\n{stderr[-4000:]}")
    per_file: dict[Path, list[dict]] = {}
    for entry in doc.get("files", []):
        per_file[Path(entry["path"]).resolve()] = list(entry.get("findings", []))
    missing = [p for p in paths if Path(p).resolve() not in per_file]
    assert not missing, f"validator report lacks files: {missing[:5]} (exit {code})\n{stderr}"
    return code, per_file, stderr


def severity(f: dict) -> str:
    return f.get("severity", f.get("level", ""))


def errors(findings: list[dict]) -> list[dict]:
    return [f for f in findings if severity(f) == "error"]


def names_layer(f: dict, layer_id: str) -> bool:
    """Whether a finding names the top-level layer ``layer_id`` (bodies reuse ids)."""
    return (f.get("layer") or {}).get("id") == layer_id and not f.get("scope")
