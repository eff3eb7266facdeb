"""cli.main pauses the cycle collector only when it runs as the program (``argv`` None: the
console script, ``python -m irvalidate``), and leaves it enabled as it found it."""
import gc
import sys

import pytest

from irvalidate.cli.main import main
from support.irbuilder import IR


@pytest.fixture
def model(tmp_path):
    ir = IR()
    ir.result(ir.op("Relu", [ir.parameter("2,3")], [[2, 3]]))
    return str(ir.write(tmp_path))


def test_a_caller_in_process_keeps_its_collector(model, capsys):
    frozen = gc.get_freeze_count()
    assert main([model]) == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_the_program_gives_the_collector_back(model, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["irvalidate", model])
    try:
        assert main() == 0
        assert gc.isenabled()
        assert "1 file checked, no problems." in capsys.readouterr().out
    finally:
        gc.unfreeze()  # what the run froze for the exit goes back to this test process


def test_the_files_are_validated_with_the_collector_running(model, monkeypatch, capsys):
    # the pause covers loading modules only: a walk's garbage is collected, -j workers fork
    # with the collector on
    import irvalidate.api
    seen = []
    real = irvalidate.api.validate_files

    def validate_files(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)
    monkeypatch.setattr(irvalidate.api, "validate_files", validate_files)
    monkeypatch.setattr(sys, "argv", ["irvalidate", model])
    try:
        assert main() == 0
    finally:
        gc.unfreeze()
    assert seen == [True]
