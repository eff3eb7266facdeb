"""Ctrl-C and a reader that goes away: no traceback, no "internal error", the usual status.

Each case runs irvalidate in a fresh process, since what matters is what the terminal shows.
No test waits on a clock: the interrupted run says when its workers have started (a marker
file), and every wait has a generous limit that only a hang would reach.
"""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from irbuilder import IR

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and pipes")

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 120  # seconds; reached only by a hang


def models(folder: Path, count: int = 4, good: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        ir = IR()
        x, y = ir.parameter("2,3"), ir.parameter("3" if good else "4")
        ir.result(ir.op("Add", [x, y], [[2, 3]]))
        ir.write(folder, f"m{i}")
    return folder


def env(**extra) -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *extra.pop("path", []), os.environ.get("PYTHONPATH", "")]), **extra}


def test_keyboard_interrupt_in_process_exits_130_quietly(tmp_path, capsys, monkeypatch):
    import irvalidate.api
    from irvalidate.cli import main

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(irvalidate.api, "validate_files", interrupted)
    assert main([str(models(tmp_path))]) == 130
    assert capsys.readouterr() == ("", "")


BLOCKER = '''
import os, time

def block(path, bin_path=None, config=None):
    # a worker that says it has started, then works on for ever
    open(os.path.join(os.environ["MARKERS"], str(os.getpid())), "w").close()
    while True:
        time.sleep(1)
'''
RUN = '''
import sys, blocker, irvalidate.api
irvalidate.api.validate_file = blocker.block
from irvalidate.cli import main
sys.exit(main(sys.argv[1:]))
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_without_traceback(tmp_path, jobs):
    """SIGINT to the whole process group, as a terminal sends it, while workers are busy."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "blocker.py").write_text(BLOCKER)
    markers = tmp_path / "markers"
    markers.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-c", RUN, "-j", jobs, str(models(tmp_path / "models"))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env=env(path=[str(tmp_path / "lib")], MARKERS=str(markers)))
    try:
        deadline = time.monotonic() + LIMIT
        while not any(markers.iterdir()):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no worker started"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=LIMIT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert out == ""


def _run_into(stdout_fd: int, args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "irvalidate", *map(str, args)], stdout=stdout_fd,
                          stderr=subprocess.PIPE, text=True, env=env(), timeout=LIMIT, **kwargs)


@pytest.mark.parametrize("args,status", [
    ([], 1),                      # the report: the run's own status
    (["--show-files"], 0),
    (["--format", "json"], 1),
])
def test_a_reader_that_goes_away_is_not_an_error(tmp_path, args, status):
    """``irvalidate models/ | head -1``: the pipe is closed before irvalidate writes."""
    folder = models(tmp_path, count=30)
    read, write = os.pipe()
    os.close(read)
    try:
        done = _run_into(write, [*args, folder])
    finally:
        os.close(write)
    assert done.returncode == status, done.stderr
    assert done.stderr == ""


@pytest.mark.parametrize("command", [["rules"], ["explain", "--all"]])
def test_commands_into_a_closed_pipe(command):
    read, write = os.pipe()
    os.close(read)
    try:
        done = _run_into(write, command)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")


def test_closed_stdout(tmp_path):
    """``irvalidate models/ >&-``: no stdout at all."""
    folder = models(tmp_path)
    done = subprocess.run(["sh", "-c", 'exec "$0" -m irvalidate "$1" >&-', sys.executable,
                           str(folder)], stderr=subprocess.PIPE, text=True, env=env(),
                          timeout=LIMIT)
    assert (done.returncode, done.stderr) == (1, "")
