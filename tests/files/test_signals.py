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

from support.irbuilder import IR

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and pipes"),
              pytest.mark.usefixtures("interruptible")]

ROOT = Path(__file__).resolve().parents[2]
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
    from irvalidate.cli.main import main

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
from irvalidate.cli.main import main
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


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting for its reaper has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


#: RUN as the console script runs it: main() reads sys.argv, and the program's signals are its own
PROGRAM = RUN.replace("main(sys.argv[1:])", "main()")


def _blocked_run(tmp_path, args, count: int):
    """irvalidate with every file's check blocked for ever, once ``count`` processes have
    started theirs: the process and the pids of the processes that have (marker files)."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "blocker.py").write_text(BLOCKER)
    markers = tmp_path / "markers"
    markers.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-c", PROGRAM, *args, str(models(tmp_path / "models"))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env=env(path=[str(tmp_path / "lib")], MARKERS=str(markers)))
    deadline = time.monotonic() + LIMIT
    while len(list(markers.iterdir())) < count:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the checks did not start"
        time.sleep(0.05)
    return proc, [int(p.name) for p in markers.iterdir()]


@pytest.mark.parametrize("jobs,sig,status", [
    ("1", signal.SIGTERM, 143),
    ("2", signal.SIGTERM, 143),   # handled as Ctrl-C is: the workers are stopped first
    ("2", signal.SIGKILL, -9),    # nothing is handled: the workers' parent-death signal
])
def test_the_workers_end_with_their_parent(tmp_path, jobs, sig, status):
    """``kill PARENT`` while every process is busy: the parent only, not its group."""
    proc, pids = _blocked_run(tmp_path, ["-j", jobs], int(jobs))
    workers = [pid for pid in pids if pid != proc.pid]
    try:
        os.kill(proc.pid, sig)
        out, err = proc.communicate(timeout=LIMIT)
        deadline = time.monotonic() + LIMIT
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in workers if _alive(pid)], "a worker outlived its parent"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # what is left of the run, if anything
        except ProcessLookupError:
            pass
    assert proc.returncode == status, err
    assert "Traceback" not in err and out == "", err


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


KILLER = '''
import os, signal, sys, time
import irvalidate.api, irvalidate.fixing.run
parent, marker, done = os.getpid(), os.path.join(os.environ["MARKERS"], "killed"), []


def wrapped(real):
    def work(path, *args, **kwargs):
        if os.getpid() == parent:  # the parent waits for the worker's end, then goes on
            deadline = time.monotonic() + 120
            while not os.path.exists(marker) and time.monotonic() < deadline:
                time.sleep(0.02)
            return real(path, *args, **kwargs)
        result = real(path, *args, **kwargs)
        done.append(path)
        if len(done) == 2:  # its second file checked (and written by --fix), not yet sent
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return result
    return work


irvalidate.api.validate_file = wrapped(irvalidate.api.validate_file)
irvalidate.fixing.run.fix_file = wrapped(irvalidate.fixing.run.fix_file)
from irvalidate.cli.main import main
sys.exit(main())
'''


@pytest.mark.parametrize("fix", [False, True])
def test_a_worker_killed_loses_one_file_and_the_report_says_so(tmp_path, fix):
    """``kill -9`` a -j 2 worker: the report still has every file (the one it was on as not
    checked, IRV000), every file --fix wrote is listed, and the run exits 2."""
    import json
    markers = tmp_path / "markers"
    markers.mkdir()
    folder = tmp_path / "models"
    folder.mkdir()
    sample = ROOT / "sample_models" / "broken" / "IRV101-output-shape-mismatch"
    for i in range(6):  # a stale output dim each, which --fix writes
        for suffix in (".xml", ".bin"):
            (folder / f"m{i}{suffix}").write_bytes(sample.with_suffix(suffix).read_bytes())
    before = {p.name: p.read_bytes() for p in folder.glob("*.xml")}
    args = ["-j", "2", "--format", "json", *(["--fix"] if fix else []), folder]
    done = subprocess.run([sys.executable, "-c", KILLER, *map(str, args)], capture_output=True,
                          text=True, env=env(MARKERS=str(markers)), timeout=LIMIT)
    assert done.returncode == 2, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    files = {Path(f["path"]).name: f for f in json.loads(done.stdout)["files"]}
    assert sorted(files) == sorted(before)
    lost = [name for name, f in files.items() if {x["rule"] for x in f["findings"]} == {"IRV000"}]
    assert len(lost) == 1, files
    assert f"a worker process ended with exit code -9 before its files were checked; " \
           f"not checked: {folder / lost[0]}" in done.stderr
    checked = [f for name, f in files.items() if name not in lost]
    written = {name for name, f in files.items() if f.get("fix") and f["fix"]["written"]}
    changed = {p.name for p in folder.glob("*.xml") if p.read_bytes() != before[p.name]}
    if fix:  # each file is fixable: all are written, the lost one included
        assert written == changed == set(before)
        assert f"cannot fix {folder / lost[0]}: not checked" in done.stderr
        assert "Fixed 5 problems in 5 files (10 edits)." in done.stderr
    else:
        assert changed == set() and all(f["findings"][0]["rule"] == "IRV101" for f in checked)


TERMINATED_MID_WRITE = '''
import os, signal, sys
from irvalidate.fixing import run as fixing
real_fsync = os.fsync


def fsync(fd):  # SIGTERM arrives while the temporary file is being written
    os.kill(os.getpid(), signal.SIGTERM)
    real_fsync(fd)


fixing.os.fsync = fsync
from irvalidate.cli.main import main
sys.exit(main())
'''


def test_sigterm_mid_write_leaves_the_original_and_no_temporary_file(tmp_path):
    """SIGTERM unwinds as Ctrl-C does: the half-written temporary file is removed."""
    sample = ROOT / "sample_models" / "broken" / "IRV101-output-shape-mismatch"
    for suffix in (".xml", ".bin"):
        (tmp_path / f"m{suffix}").write_bytes(sample.with_suffix(suffix).read_bytes())
    before = (tmp_path / "m.xml").read_bytes()
    done = subprocess.run([sys.executable, "-c", TERMINATED_MID_WRITE, "--fix",
                           str(tmp_path / "m.xml")], capture_output=True, text=True, env=env(),
                          timeout=LIMIT)
    assert done.returncode == 143 and "Traceback" not in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.bin", "m.xml"]
    assert (tmp_path / "m.xml").read_bytes() == before


SWALLOWED = '''
import gc, os, signal, sys, weakref
import irvalidate.api
real = irvalidate.api.validate_files


def validate_files(*args, **kwargs):
    # SIGTERM handled inside a weakref callback, where Python prints the exception and drops
    # it ("Exception ignored in"), as it happens in the import system's module locks
    class Box:
        pass
    box = Box()

    def callback(ref):
        os.kill(os.getpid(), signal.SIGTERM)
        sum(range(1000))  # the handler runs here, between bytecodes
    ref = weakref.ref(box, callback)
    del box
    gc.collect()
    return real(*args, **kwargs)


irvalidate.api.validate_files = validate_files
from irvalidate.cli.main import main
sys.exit(main())
'''


def test_a_sigterm_python_swallows_still_ends_the_run_143_quietly(tmp_path):
    done = subprocess.run([sys.executable, "-c", SWALLOWED, str(models(tmp_path, good=True))],
                          capture_output=True, text=True, env=env(), timeout=LIMIT)
    assert done.returncode == 143, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
