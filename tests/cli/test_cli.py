"""The command line through main(argv): exit codes, discovery, formats."""
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from irvalidate.cli.main import main
from support.irbuilder import IR


def valid(tmp_path, stem="good"):
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    return ir.write(tmp_path, stem)


def invalid(tmp_path, stem="bad"):
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("4")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    return ir.write(tmp_path, stem)


def test_clean_run_says_how_many_files_it_checked(tmp_path, capsys):
    """A clean run must not look like a run that checked nothing: one success line."""
    assert main([str(valid(tmp_path))]) == 0
    assert capsys.readouterr().out == "1 file checked, no problems.\n"
    assert main([str(valid(tmp_path)), str(valid(tmp_path, "other"))]) == 0
    assert capsys.readouterr().out == "2 files checked, no problems.\n"
    for quiet in ("-q", "-qq"):
        assert main([quiet, str(valid(tmp_path))]) == 0
        assert capsys.readouterr().out == ""


def test_exit_1_on_error_with_file_line_code(tmp_path, capsys):
    path = invalid(tmp_path)
    assert main([str(path)]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{path}:") and ": IRV102 " in first
    line = int(first[len(str(path)) + 1:].split(":")[0])
    assert "<layer id=\"2\"" in path.read_text().splitlines()[line - 1]


def test_text_output_draws_the_shape_table(tmp_path, capsys):
    main([str(invalid(tmp_path))])
    out = capsys.readouterr().out.splitlines()
    # each operand is labelled with the layer it comes from
    assert out[1].strip() == "A = 'p0' (id 0): (2, 3)" and out[2].strip() == "B = 'p1' (id 1): (   4)"
    assert out[3].strip() == "^" and out[3].index("^") == out[1].index("3")


def test_warnings_only_exit_0(tmp_path):
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, -1]]))
    assert main([str(ir.write(tmp_path))]) == 0


def test_exit_2_on_usage_errors(tmp_path, capsys):
    assert main([]) == 2
    assert main([str(tmp_path / "missing.xml")]) == 2
    assert main(["--format", "yaml", str(valid(tmp_path))]) == 2
    assert "no such file" in capsys.readouterr().err


def test_directory_scan_finds_ir_and_skips_other_xml(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    invalid(tmp_path / "sub")
    valid(tmp_path)
    (tmp_path / "pom.xml").write_text("<project/>")
    (tmp_path / "notes.txt").write_text("<net/>")
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "bad.xml" in out and "pom.xml" not in out and "notes.txt" not in out


def test_bin_option(tmp_path):
    ir = IR()
    x = ir.parameter("3")
    ir.result(ir.op("Broadcast", [x, ir.const([2, 3])], [[2, 4]], {"mode": "numpy"}, version="opset3"))
    path = ir.write(tmp_path, "m")
    other = tmp_path / "weights.data"
    path.with_suffix(".bin").rename(other)
    assert main([str(path)]) == 1  # no .bin: the runtime refuses the model
    assert main(["--bin", str(other), str(path)]) == 1  # with it: [2,3] is not [2,4]
    assert main(["--bin", str(other), str(path), str(valid(tmp_path))]) == 2  # two IRs
    assert main(["--bin", str(other), str(path), str(path)]) == 1  # one IR, given twice


def test_python_dash_m_and_version():
    out = subprocess.run([sys.executable, "-m", "irvalidate", "--version"], capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith("irvalidate ")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_input_files_are_not_modified(tmp_path, fmt):
    path = invalid(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    main(["--format", fmt, str(path)])
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_format_names_match_the_formatter_registry():
    from irvalidate.cli.main import FORMAT_NAMES
    from irvalidate.reporting import FORMATTERS
    assert set(FORMAT_NAMES) == set(FORMATTERS) | {"auto"}


def test_skip_non_ir_quietly_skips_named_xml(tmp_path, capsys):
    pom = tmp_path / "pom.xml"
    pom.write_text("<project/>")
    assert main([str(pom)]) == 1 and "IRV002" in capsys.readouterr().out
    assert main(["--skip-non-ir", str(pom), str(valid(tmp_path))]) == 0
    assert capsys.readouterr().out == "1 file checked, no problems.\n"


def test_output_file_quiet_statistics_and_color(tmp_path, capsys, monkeypatch):
    bad = invalid(tmp_path)
    out = tmp_path / "report.txt"
    assert main(["--output", str(out), str(bad)]) == 1
    assert capsys.readouterr().out == "" and "IRV102" in out.read_text()
    assert "\033[" not in out.read_text()  # no colour into a file
    assert main(["-q", str(bad), str(valid(tmp_path))]) == 1
    assert capsys.readouterr().out == f"{bad}\n"
    assert main(["-qq", str(bad)]) == 1 and capsys.readouterr().out == ""
    main(["--statistics", str(bad)])
    assert "1     IRV102 incompatible-inputs" in capsys.readouterr().out
    main(["--color", "always", str(bad)])
    assert "\033[31mIRV102" in capsys.readouterr().out
    monkeypatch.setenv("NO_COLOR", "1")
    main(["--color", "auto", str(bad)])
    assert "\033[" not in capsys.readouterr().out


def test_rules_and_explain(capsys):
    from irvalidate.rules import RULES
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out
    assert all(f"{r.CODE:<7} {r.SLUG}" in listing for r in RULES)
    assert main(["explain", "IRV102"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("IRV102 incompatible-inputs") and "Passing" in text and "Failing" in text
    assert main(["explain", "broadcast-output-mismatch"]) == 0 and "IRV101" in capsys.readouterr().out
    assert main(["explain", "IRV999"]) == 2


@pytest.mark.parametrize("layout", ["empty", "no-ir", "all-skipped"])
def test_a_run_that_finds_no_ir_fails(tmp_path, capsys, layout):
    """A mistyped or empty models folder must not turn CI green (ruff: "No files found")."""
    folder = tmp_path / "models"
    folder.mkdir()
    if layout != "empty":
        (folder / "pom.xml").write_text("<project/>")
        (folder / "notes.txt").write_text("<net/>")
    other = tmp_path / "more"
    other.mkdir()
    args = ([str(folder), str(other)] if layout != "all-skipped"
            else ["--skip-non-ir", str(folder / "pom.xml")])
    code = main(args)
    out, err = capsys.readouterr()
    if layout == "all-skipped":  # the hook's mode: a commit without IRs is normal
        assert (code, out, err) == (0, "", "")
    else:
        assert (code, out) == (2, "")
        assert err == f"irvalidate: no IR files found under {folder}, {other}\n"


def test_no_ir_under_skip_non_ir_still_prints_one_document_for_programs(tmp_path, capsys):
    import json
    assert main(["--skip-non-ir", "--format", "json", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["files"] == []


@pytest.mark.parametrize("what", ["missing", "directory"])
def test_bin_option_naming_no_file_is_a_usage_error(tmp_path, capsys, monkeypatch, what):
    import irvalidate.api
    path = valid(tmp_path)
    weights = tmp_path / "weights"
    if what == "directory":
        weights.mkdir()
    monkeypatch.setattr(irvalidate.api, "validate_files", lambda *a, **k: pytest.fail("validated"))
    assert main(["--bin", str(weights), str(path)]) == 2
    out, err = capsys.readouterr()
    reason = "no such file" if what == "missing" else "is a directory, not a file"
    assert out == "" and err == f"irvalidate: error: --bin {weights}: {reason}\n"


@pytest.mark.parametrize("code,summary", [
    ("IRV107", "The model depends on a point where the specification and OpenVINO 2026.4 disagree."),
    ("IRV203", "A Const's offset, size, element type and shape disagree with each other or with "
               "the .bin."),
    ("IRV216", "A TensorIterator/Loop/If port map or back edge names a missing layer or port."),
])
def test_explain_shows_the_whole_summary_as_plain_text(capsys, code, summary):
    assert main(["explain", code]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{code} ") and lines[1] == "" and lines[2] == summary


def test_explain_renders_rest_markup_as_plain_text(capsys):
    from irvalidate.rules import RULES
    for rule in RULES:
        assert main(["explain", rule.CODE]) == 0
        text = capsys.readouterr().out
        assert "``" not in text and not any(line.rstrip().endswith("::")
                                            for line in text.splitlines()), rule.CODE
    main(["explain", "IRV107"])
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("Passing (the axis is explicit, both readings agree):")
    assert lines[at + 1] == "" and lines[at + 2].startswith("    <data auto_broadcast=\"pdpd\"")
    assert any("such as 1..8 against 10," in line for line in lines)


def test_explain_several_all_and_internal_error(capsys):
    from irvalidate.rules import RULES
    assert main(["explain", "IRV101", "incompatible-broadcast"]) == 0
    headers = [l for l in capsys.readouterr().out.splitlines() if l.startswith("IRV")]
    assert headers == ["IRV101 output-shape-mismatch (default level: error)",
                       "IRV102 incompatible-inputs (default level: error)"]
    assert main(["explain", "IRV000"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("IRV000 internal-error (default level: error)\n\n"
                           "irvalidate itself failed on the file.\n") and "report" in text
    assert main(["explain", "--all"]) == 0
    text = capsys.readouterr().out
    for code in ["IRV000", *(r.CODE for r in RULES)]:
        assert f"\n{code} " in "\n" + text
    assert main(["explain", "IRV999"]) == 2
    assert capsys.readouterr().err == "irvalidate: error: no such rule: IRV999; did you mean 'IRV409'?\n"
    assert main(["explain"]) == 2


@pytest.mark.parametrize("argv", [["rules", "--help"], ["explain", "--help"], ["--help"]])
def test_subcommand_help(capsys, argv):
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: irvalidate {argv[0] if argv[0] != '--help' else ''}".rstrip())


def test_short_version_option():
    out = subprocess.run([sys.executable, "-m", "irvalidate", "-V"], capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith("irvalidate ")


def _not_validated(monkeypatch):
    import irvalidate.api
    monkeypatch.setattr(irvalidate.api, "validate_files", lambda *a, **k: pytest.fail("validated"))


@pytest.mark.parametrize("where,reason", [
    ("missing/report.txt", "folder {tmp}/missing does not exist"),
    ("file.txt/report.txt", "{tmp}/file.txt is not a folder"),
    ("folder", "is a folder"),
])
def test_output_problems_are_found_before_validating(tmp_path, capsys, monkeypatch, where, reason):
    (tmp_path / "file.txt").write_text("")
    (tmp_path / "folder").mkdir()
    _not_validated(monkeypatch)
    target = tmp_path / where
    assert main(["-o", str(target), str(invalid(tmp_path))]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"irvalidate: error: --output {target}: {reason.format(tmp=tmp_path)}\n"


def test_output_that_cannot_be_written_says_so_before_validating(tmp_path, capsys, monkeypatch):
    import os as os_module
    _not_validated(monkeypatch)
    monkeypatch.setattr(os_module, "access", lambda *a, **k: False)  # root may write anywhere
    assert main(["-o", str(tmp_path / "r.txt"), str(invalid(tmp_path))]) == 2
    assert capsys.readouterr().err == (f"irvalidate: error: --output {tmp_path / 'r.txt'}: "
                                       f"permission denied\n")


def test_output_dash_is_stdout(tmp_path, capsys):
    assert main(["-o", "-", str(invalid(tmp_path))]) == 1
    assert "IRV102" in capsys.readouterr().out and not (tmp_path / "-").exists()


def test_a_failed_write_leaves_the_previous_report_whole(tmp_path, capsys, monkeypatch):
    """A disk that fills up as the report is written: the previous report stays as it was
    (it is replaced by a rename, once the new one is whole), and nothing else is left."""
    from irvalidate.cli import output

    def full(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(output.os, "fsync", full)
    folder = tmp_path / "reports"
    folder.mkdir()
    target = folder / "report.json"
    target.write_text("the previous report\n")
    assert main(["--format", "json", "-o", str(target), str(invalid(tmp_path))]) == 2
    assert target.read_text() == "the previous report\n"
    assert [p.name for p in folder.iterdir()] == ["report.json"]
    assert capsys.readouterr().err == (f"irvalidate: error: --output {target}: cannot write it: "
                                       f"No space left on device\n")


TERMINATED_MID_REPORT = '''
import builtins, io, os, signal, sys
real_open = io.open


class Halved:
    """A report file whose write stops halfway, with SIGTERM."""
    def __init__(self, handle):
        self.handle = handle

    def write(self, data):
        self.handle.write(data[:len(data) // 2])
        self.handle.flush()
        os.kill(os.getpid(), signal.SIGTERM)
        return self.handle.write(data[len(data) // 2:])

    def __getattr__(self, name):
        return getattr(self.handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.close()


def opened(file, mode="r", *args, **kwargs):
    handle = real_open(file, mode, *args, **kwargs)
    # the report (by name, or by the descriptor of its temporary file)
    if "w" in mode and (isinstance(file, int) or str(file).endswith("report.json")):
        return Halved(handle)
    return handle


builtins.open = io.open = opened
from irvalidate.cli.main import main
sys.exit(main())
'''


def test_sigterm_mid_report_leaves_the_previous_report_whole(tmp_path):
    folder = tmp_path / "reports"
    folder.mkdir()
    target = folder / "report.json"
    target.write_text("the previous report\n")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root),
                                                        os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", TERMINATED_MID_REPORT, "--format", "json", "-o",
                           str(target), str(invalid(tmp_path))], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 143, done.stderr
    assert "Traceback" not in done.stderr
    assert target.read_text() == "the previous report\n"
    assert [p.name for p in folder.iterdir()] == ["report.json"]


def test_the_report_keeps_its_mode_and_a_link_stays_a_link(tmp_path, capsys):
    folder = tmp_path / "reports"
    folder.mkdir()
    real = folder / "real.txt"
    real.write_text("the previous report\n")
    real.chmod(0o640)
    link = folder / "report.txt"
    link.symlink_to("real.txt")
    assert main(["-o", str(link), str(invalid(tmp_path))]) == 1
    assert link.is_symlink() and "IRV102" in real.read_text()
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in folder.iterdir()) == ["real.txt", "report.txt"]


def test_output_to_a_full_device(tmp_path, capsys):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    assert main(["-o", "/dev/full", str(invalid(tmp_path))]) == 2
    assert capsys.readouterr().err == ("irvalidate: error: --output /dev/full: cannot write it: "
                                       "No space left on device\n")
    assert os.path.exists("/dev/full")


def test_parallel_run_leaves_the_collector_as_it_found_it(tmp_path):
    """Workers pause the cyclic collector and the parent freezes its objects while it forks
    them: after the run the caller's collector is enabled and nothing stays frozen."""
    import gc

    from irvalidate.api import validate_files
    from irvalidate.settings.config import Defaults
    paths = [str(valid(tmp_path, f"m{i}")) for i in range(3)] + [str(invalid(tmp_path))]
    serial = validate_files(paths, Defaults(), jobs=1)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    parallel = validate_files(paths, Defaults(), jobs=2)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert parallel == serial and serial[-1].findings


class _Counter:
    """What drain needs of multiprocessing.Value, in one process."""

    def __init__(self, value=0):
        import threading
        self.value, self._lock = value, threading.Lock()

    def get_lock(self):
        return self._lock


def test_a_worker_collects_once_past_its_garbage_budget(monkeypatch):
    import gc

    from irvalidate.engine import workers
    collected = []
    monkeypatch.setattr(gc, "collect", lambda *args: collected.append(args) or 0)
    work = lambda path, bin_path, config: (path, bin_path, config)  # noqa: E731
    monkeypatch.setattr(workers, "GARBAGE", 10 ** 12)
    monkeypatch.setattr(workers, "_counter", _Counter())
    assert workers.drain(work, ["a.xml", "b.xml"], None, ["c", "d"]) == [
        (0, ("a.xml", None, "c")), (1, ("b.xml", None, "d"))]
    assert collected == []
    monkeypatch.setattr(workers, "GARBAGE", -1)
    monkeypatch.setattr(workers, "_counter", _Counter())
    assert workers.drain(work, ["m.xml"], "m.bin", ["c"]) == [(0, ("m.xml", "m.bin", "c"))]
    assert collected == [()]
    # the parent drains with its own counter, and leaves collections to its caller
    assert workers.drain(work, ["m.xml"], None, ["c"], _Counter()) == [(0, ("m.xml", None, "c"))]
    assert collected == [()] and gc.isenabled()


def test_processes_share_the_files_one_at_a_time(monkeypatch):
    """drain takes each index once, however many processes (here threads) share the counter,
    and stops at the end of the list."""
    import threading

    from irvalidate.engine import workers
    counter, seen, paths = _Counter(), [], [f"m{i}.xml" for i in range(200)]

    def work(path, bin_path, config):
        seen.append(path)
        return path.upper()
    found = []
    threads = [threading.Thread(target=lambda: found.extend(
        workers.drain(work, paths, None, [None] * len(paths), counter))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(found) == sorted((i, p.upper()) for i, p in enumerate(paths))
    assert sorted(seen) == sorted(paths) and counter.value >= len(paths)


def test_the_parent_checks_files_too(tmp_path):
    """-j 2 is the parent and one worker: both check files (a worker alone used to, while
    the parent waited), and the results come back in the order given."""
    from irvalidate.api import validate_files
    from irvalidate.settings.config import Defaults
    paths = [str(valid(tmp_path, f"m{i}")) for i in range(12)]
    pids = validate_files(paths, Defaults(), jobs=2, work=_pid_of)
    assert [path for path, _ in pids] == paths
    assert len({pid for _, pid in pids}) == 2 and os.getpid() in {pid for _, pid in pids}


def _pid_of(path, bin_path, config):
    import time
    time.sleep(0.05)  # long enough that the worker, once started, takes some files
    return path, os.getpid()


def test_a_worker_that_fails_fails_the_run(tmp_path):
    from irvalidate.api import validate_files
    from irvalidate.settings.config import Defaults
    paths = [str(valid(tmp_path, f"m{i}")) for i in range(8)]
    with pytest.raises(ZeroDivisionError):
        validate_files(paths, Defaults(), jobs=2, work=_fails_in_a_worker)


def _fails_in_a_worker(path, bin_path, config):
    import time
    time.sleep(0.05)
    if os.getpid() != PARENT:
        raise ZeroDivisionError(path)
    return path


PARENT = os.getpid()


def test_a_worker_that_dies_fails_the_run_with_a_message(tmp_path):
    from irvalidate.api import validate_files
    from irvalidate.settings.config import Defaults
    paths = [str(valid(tmp_path, f"m{i}")) for i in range(8)]
    with pytest.raises(RuntimeError, match="a worker process ended with exit code 3 before"):
        validate_files(paths, Defaults(), jobs=2, work=_dies_in_a_worker)


def _dies_in_a_worker(path, bin_path, config):
    import time
    time.sleep(0.05)
    if os.getpid() != PARENT:
        os._exit(3)
    return path


def test_an_exception_that_cannot_travel_still_fails_the_run(tmp_path):
    from irvalidate.api import validate_files
    from irvalidate.settings.config import Defaults
    paths = [str(valid(tmp_path, f"m{i}")) for i in range(8)]
    with pytest.raises(RuntimeError, match="in a worker: Unpicklable: held"):
        validate_files(paths, Defaults(), jobs=2, work=_fails_unpicklably)


class Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("not to be pickled")


def _fails_unpicklably(path, bin_path, config):
    import time
    time.sleep(0.05)
    if os.getpid() != PARENT:
        raise Unpicklable("held")
    return path


class _Unreadable:
    """Pickles, but does not unpickle."""

    def __reduce__(self):
        return (_refuse, ())


def _refuse():
    raise ValueError("cannot be read back")


def test_a_result_that_cannot_be_read_back_fails_the_run(tmp_path):
    """The parent's thread receiving the results fails the run as a worker's exception does
    (a worker is not left blocked on a pipe nobody reads)."""
    import time

    from irvalidate.api import validate_files
    from irvalidate.settings.config import Defaults
    marker = tmp_path / "sent"
    paths = [str(valid(tmp_path, f"m{i}")) for i in range(4)]

    def work(path, bin_path, config):
        if os.getpid() == PARENT:  # the parent waits for the worker's first result
            deadline = time.monotonic() + 120
            while not marker.exists() and time.monotonic() < deadline:
                time.sleep(0.02)
            return path
        marker.touch()
        return _Unreadable()
    with pytest.raises(ValueError, match="cannot be read back"):
        validate_files(paths, Defaults(), jobs=2, work=work)


def test_the_largest_files_are_checked_first(tmp_path, monkeypatch):
    """The order files are taken in: largest first, so the last ones still being checked
    when the other processes are done are small; results still come in the order given."""
    from irvalidate.engine import workers
    sizes = {"a.xml": 10, "b.xml": 300, "c.xml": 20, "missing.xml": None, "d.xml": 300}
    for name, size in sizes.items():
        if size is not None:
            (tmp_path / name).write_bytes(b" " * size)
    paths = [str(tmp_path / name) for name in sizes]
    taken = []

    def drain(work, ordered, bin_path, configs, counter=None):
        taken.extend(os.path.basename(p) for p in ordered)
        return [(i, (p, c)) for i, (p, c) in enumerate(zip(ordered, configs))]
    monkeypatch.setattr(workers, "drain", drain)
    monkeypatch.setattr(workers, "_worker", lambda sender, *rest: sender.send(("done", [])))
    results = workers.run(paths, None, list("ABCDE"), None, 2)
    assert taken == ["b.xml", "d.xml", "c.xml", "a.xml", "missing.xml"]
    assert results == [(p, c) for p, c in zip(paths, "ABCDE")]


def test_workers_started_by_spawn_check_as_forked_ones_do(tmp_path):
    """macOS and Windows start workers by spawning a fresh interpreter (and Python 3.14 on
    Linux by a fork server), which gets everything through pickling: the same results as
    -j 1, in the order given."""
    import subprocess
    import sys
    paths = [str(valid(tmp_path, f"m{i}")) for i in range(3)] + [str(invalid(tmp_path))]
    code = ("import multiprocessing, sys\n"
            "multiprocessing.set_start_method('spawn')\n"
            "from irvalidate.api import validate_files\n"
            "from irvalidate.settings.config import Defaults\n"
            f"paths = {paths!r}\n"
            "serial = validate_files(paths, Defaults(), jobs=1)\n"
            "spawned = validate_files(paths, Defaults(), jobs=2)\n"
            "print(spawned == serial, [len(r.findings) for r in spawned])\n"
            # slow work, so that the spawned worker (~0.3 s to start) takes files too
            f"sys.path.insert(0, {str(tmp_path)!r})\n"
            "import os, slow\n"
            "pids = validate_files(paths * 4, Defaults(), jobs=2, work=slow.work)\n"
            "print([p for p, _ in pids] == paths * 4, len({pid for _, pid in pids}))\n")
    (tmp_path / "slow.py").write_text("import os, time\n\n\ndef work(path, bin_path, config):\n"
                                      "    time.sleep(0.15)\n    return path, os.getpid()\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[:2] == ["True [0, 0, 0, 1]", "True 2"]


def test_op_modules_imported_before_the_workers_fork(tmp_path):
    """-j N imports the op modules the first file's layer types name before it forks (each
    process would import its own); a type no op has, or a file that cannot be read, is
    passed over."""
    import subprocess
    import sys
    path = tmp_path / "m.xml"
    path.write_text('<net version="11"><layers><layer id="0" name="a" type="Gather" '
                    'version="opset8"/><layer id="1" name="b" type="NoSuchOp" version="x"/>'
                    '</layers></net>')
    code = ("import sys; from irvalidate.engine import workers; "
            "before = 'irvalidate.ops.gather' in sys.modules; "
            "workers._preload(sys.argv[1]); workers._preload(sys.argv[1] + '.missing'); "
            "print(before, 'irvalidate.ops.gather' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == ["False", "True"], done.stderr


def test_a_bug_in_a_command_is_one_line_and_exit_2(monkeypatch, capsys):
    """A failure of irvalidate itself gives no traceback: one line naming it, exit 2."""
    import irvalidate.cli.inspect as command

    def broken(argv):
        raise KeyError("no such field")
    monkeypatch.setattr(command, "run", broken)
    from irvalidate.cli.main import main as run_main
    assert run_main(["inspect", "x.xml"]) == 2
    err = capsys.readouterr().err
    assert "internal error: KeyError" in err and "Traceback" not in err, err
