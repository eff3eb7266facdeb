"""benchmarks/run.py judges every target of issues 16 and 26 from its figures, and its
in-process comparison counts what it says it counts.  No time is asserted here."""
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import run  # noqa: E402  (benchmarks/ is not a package)


def row(name: str, irv: float, read_model: float, rss: float = 20.0) -> dict:
    tool = lambda wall, rss: {"wall": wall, "cpu": wall, "rss_mb": rss, "rcs": [0]}  # noqa: E731
    return {"file": name, "layers": 12, "xml_mb": 1.0, "irvalidate": tool(irv, rss),
            "read_model": tool(read_model, 600.0), "floor": tool(0.4, 17.0)}


def verdicts(good: bool) -> dict:
    """The targets' lines for figures all on the right side of their targets, or all wrong."""
    x = 1 if good else 3      # ratios of 0.4x against 1.2x, start-ups of 90 against 270 ms
    main = [row("llm-100000.xml", 0.4 * x, 1.0), row("llm-fp16-100000.xml", 0.4 * x, 1.0,
                                                      rss=50.0 * x),
            row("llm-int8-100000.xml", 0.4 * x, 1.0, rss=50.0 * x),
            row("stress-200000.xml", 0.4, 1.0, rss=50.0 * x)]
    formats = {"irvalidate": {f: {"wall": 0.09 * x, "cpu": 0.05, "rcs": [0]}
                              for f in run.FORMATS}}
    nets = {"loaded": 5, "ratio": 0.9 if good else 1.1}
    jobs = {"files": 20, "speedup": 1.8 if good else 1.5}
    lines = run.targets([row("stress-10.xml", 0.09 * x, 0.3)], main,
                        {"irvalidate": 1.0 if good else 1.1}, jobs, formats, nets)
    return {line.rsplit(": ", 1)[0]: line.rsplit(": ", 1)[1] for line in lines}


def test_every_target_of_issue_26_is_judged():
    judged = " ".join(verdicts(True))
    for what in ("on llm-100000.xml", "json/read_model on llm-fp16-100000.xml",
                 "json/read_model on llm-int8-100000.xml", "RSS MB on llm-fp16-100000.xml",
                 "RSS MB on llm-int8-100000.xml", "non-repeating set (5 files)",
                 "--format text", "--format json", "--format sarif", "--format github",
                 "slope", "-j 2"):
        assert what in judged, what


@pytest.mark.parametrize("good", [True, False])
def test_a_target_is_met_only_on_its_side(good):
    found = verdicts(good)
    assert set(found.values()) == {"met" if good else "NOT met"}, found


def test_the_distinct_weights_stacks_are_checked_with_json():
    assert run.extra_for("irvalidate", Path("llm-fp16-100000.xml")) == ("--format", "json")
    assert run.extra_for("baseline", Path("llm-int8-3000.xml")) == ("--format", "json")
    assert run.extra_for("read_model", Path("llm-int8-3000.xml")) == ()
    assert run.extra_for("irvalidate", Path("llm-100000.xml")) == ()


def test_the_in_process_total_counts_the_files_read_model_loads():
    rows = [{"file": "a.xml", "loads": True, "irvalidate_cpu": 3.0, "read_model_cpu": 1.0},
            {"file": "b.xml", "loads": True, "irvalidate_cpu": 1.0, "read_model_cpu": 1.0},
            {"file": "c.xml", "loads": False, "irvalidate_cpu": 9.0,
             "read_model_cpu": math.nan}]
    total = run.in_process_total(rows)
    assert (total["files"], total["loaded"], total["irvalidate"], total["read_model"]) \
        == (3, 2, 4.0, 2.0)
    assert total["ratio"] == 2.0 and total["each"] == (1.0, 2.0, 3.0)


def test_in_process_times_both_in_one_child():
    pytest.importorskip("openvino")
    valid = ROOT / "sample_models" / "valid" / "incompatible-inputs.xml"
    refused = ROOT / "sample_models" / "broken" / "IRV001-unreadable-xml.xml"
    rows = run.in_process([valid, refused], "irvalidate", 2)
    assert [(Path(r["file"]).name, r["loads"]) for r in rows] \
        == [(valid.name, True), (refused.name, False)]
    assert rows[0]["irvalidate_cpu"] > 0 and rows[0]["read_model_cpu"] > 0
    assert rows[1]["irvalidate_cpu"] > 0 and math.isnan(rows[1]["read_model_cpu"])


def test_the_nets_are_named_as_make_models_writes_them():
    pytest.importorskip("openvino")
    from nets import NETS
    assert run.NETS == tuple(NETS)


@pytest.mark.parametrize("cpu_ratio, verdict", [(0.9, "met"), (1.2, "NOT met")])
def test_inspect_is_judged_against_the_checks_cpu(cpu_ratio, verdict):
    """Issue 28: inspect takes no more CPU than a check of the same file."""
    ratios = lambda cpu: {"wall_ratio": 1.0, "cpu_ratio": cpu, "rss_mb_ratio": 1.0}  # noqa: E731
    reshape = {"file": "llm-100000.xml", "reshapeable": ratios(1.0), "reshape": ratios(1.0),
               "inspect": ratios(cpu_ratio)}
    lines = run.targets([], [], {}, {}, reshapes=[reshape])
    judged = [line for line in lines if line.startswith("- inspect/check CPU on llm-100000.xml")]
    assert len(judged) == 1 and judged[0].endswith(": " + verdict), lines
    assert run.command("irvalidate", Path("m.xml"), run.RESHAPING["inspect"])[-4:] == \
        ["inspect", "m.xml", "--format", "json"]


def test_compat_runs_name_both_files_after_the_subcommand():
    line = run.command("irvalidate", Path("old.xml"), ("compat", "new.xml", "--format", "json"))
    assert line[-5:] == ["compat", "old.xml", "new.xml", "--format", "json"]
    line = run.command("irvalidate", Path("old.xml"), ("--format", "json"))
    assert line[-3:] == ["old.xml", "--format", "json"]


def test_compat_lines_give_each_run_against_the_check():
    tool = lambda cpu, rss: {"wall": cpu, "cpu": cpu, "rss_mb": rss, "rcs": [0]}  # noqa: E731
    found = {"file": "llm-100000.xml", "rounds": 3, "kinds": ["check", "compat-self"],
             "check": tool(2.0, 28.0), "compat-self": tool(3.0, 140.0) | {
                 "cpu_ratio": 1.5, "wall_ratio": 1.5, "rss_mb_ratio": 5.0}}
    lines = run.compat_lines(found)
    assert lines[2] == "- compat-self: wall 3.00 s, CPU 3.00 s, peak RSS 140 MB (exit [0]); " \
                       "1.50x the check's CPU, 5.0x its RSS"
    assert run.compat_lines({}) == []


def test_runs_against_the_check_rotate_and_give_ratios_to_the_check(monkeypatch):
    """against_check (reshaping's and compat's runs): every run in every round, the order
    rotating, each run's medians and its ratios to the first, the check."""
    order = []
    times = {"check": 2.0, "slow": 3.0, "fast": 1.0}

    def measured(tool, xml, extra):
        order.append(extra[0])
        return {"wall": times[extra[0]], "cpu": times[extra[0]], "rss_mb": 10 * times[extra[0]],
                "rc": 0}
    monkeypatch.setattr(run, "measure", measured)
    found = run.against_check(Path("m.xml"), {k: (k,) for k in times}, 3)
    assert order == ["check", "slow", "fast", "slow", "fast", "check", "fast", "check", "slow"]
    assert found["kinds"] == list(times) and found["slow"]["wall_ratio"] == 1.5
    assert found["fast"]["rss_mb_ratio"] == 0.5 and "wall_ratio" not in found["check"]
