"""Record the runtime's answers for the tests (tests/support/cassette.py), with openvino.

    python tests/support/record.py                     # every test
    python tests/support/record.py tests/ops/test_concat.py tests/fixing

Runs pytest with ``IRVALIDATE_RECORD=1``: each test that passes and talks to openvino keeps
its tape in ``tests/snapshots/`` (one xz JSON per test module), which the tests replay
where openvino is not installed.  Re-record after changing a test that uses openvino or
after upgrading the runtime (``tests/test_snapshots.py`` then shows what changed).
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def main(argv: list) -> int:
    if importlib.util.find_spec("openvino") is None:
        print("recording needs openvino installed", file=sys.stderr)
        return 2
    targets = argv or [str(TESTS)]
    env = dict(os.environ, IRVALIDATE_RECORD="1")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *targets]
    return subprocess.call(command, env=env, cwd=TESTS.parent)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
