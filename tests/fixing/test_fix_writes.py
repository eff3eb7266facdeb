"""How --fix writes: a full $TMPDIR fails one file, not the run; the owner, mode, ACLs and
extended attributes are kept; no signal that can be caught leaves a temporary file, and a
later run removes what SIGKILL left; a change made just before the rename is not lost.

The signal tests stop the run at a given step (a hook that sends the signal from inside the
call that creates the temporary file or folder), never on a clock.
"""
import json
import os
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import irvalidate
from irvalidate.cli.main import main
from irvalidate.fixing import run as fixing

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_models" / "broken" / "IRV101-output-shape-mismatch"
NOBODY = 65534
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files and signals")


def model(folder: Path, stem: str = "m", padding: int = 0) -> Path:
    """The IRV101 sample (a stale output dim --fix writes), ``padding`` bytes of comment after
    its root element."""
    folder.mkdir(parents=True, exist_ok=True)
    text = SAMPLE.with_suffix(".xml").read_bytes()
    if padding:
        text += b"<!-- " + b"x" * padding + b" -->\n"
    (folder / f"{stem}.xml").write_bytes(text)
    shutil.copyfile(SAMPLE.with_suffix(".bin"), folder / f"{stem}.bin")
    return folder / f"{stem}.xml"


def run(args, capsys):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def small_tmpdir(tmp_path, monkeypatch):
    """$TMPDIR on a 16 KB tmpfs: a small model's copies fit, a 64 KB one's do not."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.decode(errors='replace')}")
    monkeypatch.setattr(tempfile, "tempdir", str(mount))
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


@pytest.mark.parametrize("diff", [False, True])
def test_a_full_tmpdir_fails_that_file_and_the_report_goes_on(tmp_path, capsys, small_tmpdir,
                                                              diff):
    small, large = model(tmp_path / "m", "a"), model(tmp_path / "m", "b", padding=64 * 1024)
    before = {p: p.read_bytes() for p in (small, large)}
    code, out, err = run(["--format", "json", "--diff" if diff else "--fix", small, large],
                         capsys)
    assert code == 2, err
    assert "internal error" not in err
    assert f"cannot fix {large}: cannot write its private copy in {small_tmpdir}: " \
           f"No space left on device" in err
    files = {Path(f["path"]).name: f for f in json.loads(out)["files"]}
    assert sorted(files) == ["a.xml", "b.xml"]
    assert files["b.xml"]["findings"][0]["rule"] == "IRV101"  # the file is still checked
    assert (small.read_bytes() != before[small]) is not diff
    assert large.read_bytes() == before[large]
    assert os.listdir(small_tmpdir) == []


def test_the_api_raises_fix_error_for_a_full_tmpdir(tmp_path, small_tmpdir):
    large = model(tmp_path, padding=64 * 1024)
    for write in (False, True):
        with pytest.raises(irvalidate.FixError, match="No space left on device"):
            irvalidate.fix(large, write=write)


def _acl(*entries) -> bytes:
    """A POSIX ACL as the system.posix_acl_access attribute holds it (version 2 header, then
    tag, permissions and id per entry)."""
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *e) for e in entries)


ANY = 0xFFFFFFFF
#: rw- for the owner, --- for user nobody, r-- for the group, the mask and others
NOBODY_DENIED = _acl((1, 6, ANY), (2, 0, NOBODY), (4, 4, ANY), (0x10, 4, ANY), (0x20, 4, ANY))


def test_acls_and_extended_attributes_are_kept(tmp_path, capsys):
    path = model(tmp_path)
    path.chmod(0o644)
    try:
        os.setxattr(path, "system.posix_acl_access", NOBODY_DENIED)
        os.setxattr(path, "user.origin", b"exported by hand")
    except OSError as err:
        pytest.skip(f"no ACLs or user attributes here: {err}")
    before = path.read_bytes()
    assert run(["--fix", path], capsys)[0] == 0
    assert path.read_bytes() != before
    assert os.getxattr(path, "system.posix_acl_access") == NOBODY_DENIED
    assert os.getxattr(path, "user.origin") == b"exported by hand"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644


def test_setuid_and_setgid_are_kept_on_another_users_file(tmp_path, capsys):
    if os.geteuid() != 0:
        pytest.skip("giving a file to nobody needs root")
    path = model(tmp_path)
    os.chown(path, NOBODY, NOBODY)
    path.chmod(0o6755)
    before = path.read_bytes()
    assert run(["--fix", path], capsys)[0] == 0
    info = os.stat(path)
    assert path.read_bytes() != before
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (NOBODY, NOBODY, 0o6755)


def test_an_append_just_before_the_rename_is_not_lost(tmp_path, capsys, monkeypatch):
    """The last comparison with what was read is made on the open file, just before the
    rename: text appended after the content check refuses the write."""
    path = model(tmp_path)
    before = path.read_bytes()
    opened = []

    class Appended:
        def __init__(self, handle):
            self.handle = handle

        def read(self, *args):
            data = self.handle.read(*args)
            with open(path, "ab") as other:  # another program appends, after the read
                other.write(b"<!-- appended -->\n")
            return data

        def __getattr__(self, name):
            return getattr(self.handle, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

    def hooked(name, mode="r", *args, **kwargs):
        handle = open(name, mode, *args, **kwargs)
        if os.fspath(name) == str(path) and mode == "rb":
            opened.append(name)
            if len(opened) == 2:  # the check before the rename (the first is the read)
                return Appended(handle)
        return handle
    monkeypatch.setattr(fixing, "open", hooked, raising=False)
    code, _, err = run(["--fix", path], capsys)
    assert code == 2 and "the file changed while it was being fixed" in err, err
    assert path.read_bytes() == before + b"<!-- appended -->\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.bin", "m.xml"]


SIGNALLED = '''
import os, signal, sys
sig, marker = int(os.environ["SIGNAL"]), os.environ["AT"]
real_open, real_mkdir = os.open, os.mkdir


def open_(path, flags, *args, **kwargs):  # the temporary file beside the model, just made
    fd = real_open(path, flags, *args, **kwargs)
    if marker == "beside" and str(path).endswith(".irvalidate"):
        os.kill(os.getpid(), sig)
    return fd


def mkdir(path, *args, **kwargs):  # the private folder in $TMPDIR, just made
    real_mkdir(path, *args, **kwargs)
    if marker == "private" and os.path.basename(str(path)).startswith("irvalidate-fix-"):
        os.kill(os.getpid(), sig)


os.open, os.mkdir = open_, mkdir
from irvalidate.cli.main import main
sys.exit(main())
'''


@pytest.mark.parametrize("at", ["beside", "private"])
@pytest.mark.parametrize("sig,status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@pytest.mark.usefixtures("interruptible")
def test_a_signal_as_a_temporary_file_is_made_leaves_nothing(tmp_path, at, sig, status):
    """SIGTERM or Ctrl-C the moment the temporary file (or private folder) exists: it is
    removed, the original is whole, the run exits as the signal says."""
    path = model(tmp_path / "models")
    private = tmp_path / "TMPDIR"
    private.mkdir()
    before = path.read_bytes()
    env = {**os.environ, "SIGNAL": str(int(sig)), "AT": at, "TMPDIR": str(private),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", SIGNALLED, "--fix", str(path)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in path.parent.iterdir()) == ["m.bin", "m.xml"]
    assert list(private.iterdir()) == []
    assert path.read_bytes() == before


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_later_run_removes_what_a_killed_run_left(tmp_path, capsys, monkeypatch):
    """SIGKILL cannot be caught: its temporary files are named after the host and the
    process, and the next --fix removes those of processes that no longer run (and only
    those: a live process's stay)."""
    path = model(tmp_path / "models")
    private = tmp_path / "TMPDIR"
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    monkeypatch.setattr(fixing, "_stale_private_removed", False)
    monkeypatch.setattr("irvalidate.files.tempfiles._cleaned", set())
    host, dead, live = os.uname().nodename, _dead_pid(), os.getppid()
    stale = [path.parent / f".m.xml.{host}-{dead}-abcdefgh.irvalidate",
             private / f"irvalidate-fix-{host}-{dead}-abcdefgh"]
    kept = [path.parent / f".m.xml.{host}-{live}-abcdefgh.irvalidate",
            path.parent / f".m.xml.otherhost-{dead}-abcdefgh.irvalidate",
            private / f"irvalidate-fix-{host}-{live}-abcdefgh"]
    stale.append(path.parent / f".other.xml.{host}-{dead}-abcdefgh.irvalidate")
    kept.append(path.parent / f".m.xml.{dead}-abcdefgh.irvalidate")  # not a name of ours
    for file in stale[:1] + stale[2:] + kept[:2] + kept[3:]:
        file.write_bytes(b"<net")
    for folder in stale[1:2] + kept[2:3]:
        folder.mkdir()
        (folder / "m.xml").write_bytes(b"<net")
    assert run(["--fix", path], capsys)[0] == 0
    assert [p for p in stale if p.exists()] == []
    assert [p for p in kept if not p.exists()] == []
    stale[0].write_bytes(b"<net")  # a later run with nothing to write removes it too
    monkeypatch.setattr("irvalidate.files.tempfiles._cleaned", set())
    assert run(["--fix", path], capsys)[0] == 0
    assert not stale[0].exists()


def test_a_stale_name_is_told_from_a_live_one():
    from irvalidate.files import tempfiles
    host = os.uname().nodename
    assert tempfiles._stale(f"{host}-{_dead_pid()}-abcdefgh")
    assert not tempfiles._stale(f"{host}-{os.getpid()}-abcdefgh")
    assert not tempfiles._stale(f"{host}-{os.getppid()}-abcdefgh")
    assert not tempfiles._stale(f"elsewhere-{_dead_pid()}-abcdefgh")
    assert not tempfiles._stale("a-name-of-someone-else")


@pytest.mark.usefixtures("interruptible")
def test_a_held_signal_is_acted_on_after_the_block():
    from irvalidate.files import tempfiles
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with tempfiles.held():
            os.kill(os.getpid(), signal.SIGINT)
            steps.append("the block ends")
    assert steps == ["the block ends"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler

