import pytest

from irvalidate.engine.validation import validate_file

# without openvino, the runtime's recorded answers (tests/support/cassette.py)
from support.cassette import (  # noqa: F401  (pytest's hooks, found by name in a conftest)
    pytest_runtest_call,
    pytest_runtest_setup,
    pytest_sessionfinish,
)


@pytest.fixture
def run(tmp_path):
    """Write an IR (tests/irbuilder.IR) and validate it; returns the findings."""
    def _run(ir, **kwargs):
        return validate_file(str(ir.write(tmp_path, **kwargs))).findings
    return _run


def codes(findings):
    return sorted({f.code for f in findings})


@pytest.fixture
def interruptible():
    """Ctrl-C acted on, as in a terminal, in this process and the programs it starts: a shell
    that runs the tests as a background job starts them with SIGINT ignored, and an ignored
    signal stays ignored across exec (a caught one is reset to the default)."""
    import signal
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)
