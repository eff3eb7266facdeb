import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from irvalidate.engine.validation import validate_file  # noqa: E402
# without openvino, the runtime's recorded answers (tests/support/cassette.py)
from support.cassette import (pytest_runtest_call, pytest_runtest_setup,  # noqa: E402,F401
                              pytest_sessionfinish)


@pytest.fixture
def run(tmp_path):
    """Write an IR (tests/irbuilder.IR) and validate it; returns the findings."""
    def _run(ir, **kwargs):
        return validate_file(str(ir.write(tmp_path, **kwargs))).findings
    return _run


def codes(findings):
    return sorted({f.code for f in findings})
