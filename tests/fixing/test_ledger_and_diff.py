"""The edit ledger and the unified diff, against brute force and against `git apply`/`patch`.

The ledger keeps edits made over several rounds in the coordinates of the original text;
the reference is to apply the rounds one after the other to the text itself.  The diff is
built from the edits, not by comparing texts; `git apply` and `patch` must accept it and
produce exactly the edited text.
"""
import shutil
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from irvalidate.fixing.editing.diff import unified_diff
from irvalidate.fixing.editing.ledger import Ledger, edits_of, positions

LINES = st.lists(st.sampled_from([b"<dim>1</dim>", b"", b"  <port id=\"0\">", b"x\r", b"\xc3\xa9t\xc3\xa9"]),
                 min_size=1, max_size=30)


@st.composite
def text_and_rounds(draw):
    text = b"\n".join(draw(LINES)) + draw(st.sampled_from([b"", b"\n"]))
    rounds, current = [], text
    for _ in range(draw(st.integers(1, 4))):
        cuts = sorted(draw(st.lists(st.integers(0, len(current)), max_size=8)))
        # pair the cut points into disjoint (start, end) spans
        spans = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2)]
        edits = [(s, e, draw(st.sampled_from([b"", b"7", b"-1", b"\n\t<dim>", b"ab\n"])), ("R", None))
                 for s, e in spans]
        rounds.append(edits)
        current = apply(current, edits)
    return text, rounds, current


def apply(text, edits):
    out, at = [], 0
    for s, e, new, *_ in sorted(edits, key=lambda r: (r[0], r[1])):
        out += [text[at:s], new]
        at = e
    out.append(text[at:])
    return b"".join(out)


@settings(max_examples=400, deadline=None)
@given(text_and_rounds())
def test_the_net_edits_turn_the_original_into_the_final_text(case):
    text, rounds, final = case
    ledger = Ledger(text)
    for edits in rounds:
        ledger.apply(edits)
    assert ledger.current == final
    net = ledger.net()
    assert apply(text, net) == final
    # disjoint and sorted, in the original's coordinates
    assert all(a[1] <= b[0] for a, b in zip(net, net[1:]))
    assert all(0 <= s <= e <= len(text) for s, e, _, _ in net)


def test_overlapping_replacements_in_one_round_are_refused():
    with pytest.raises(ValueError):
        Ledger(b"abcdef").apply([(0, 3, b"x", None), (2, 4, b"y", None)])


def test_positions_are_lines_and_character_columns():
    data = "ab\nété x\n\nz".encode()
    offsets = [0, 3, data.index(b"x"), data.index(b"z"), len(data)]
    assert positions(data, offsets) == [(1, 1), (2, 1), (2, 5), (4, 1), (4, 2)]


def test_edits_carry_old_and_new_text_and_their_cause():
    data = b"<dim>5</dim>\n"
    [edit] = edits_of(data, [(5, 6, b"4", ("IRV101", "7"))])
    assert (edit.line, edit.column, edit.end_line, edit.end_column) == (1, 6, 1, 7)
    assert (edit.old, edit.new, edit.rule, edit.layer) == ("5", "4", "IRV101", "7")


@settings(max_examples=150, deadline=None)
@given(text_and_rounds())
def test_the_diff_applies_with_patch(tmp_path_factory, case):
    if shutil.which("patch") is None:
        pytest.skip("patch is not installed")
    text, rounds, final = case
    ledger = Ledger(text)
    for edits in rounds:
        ledger.apply(edits)
    diff = unified_diff(text, [(s, e, t) for s, e, t, _ in ledger.net()], "m.xml")
    if final == text:
        assert diff == b""
        return
    root = tmp_path_factory.mktemp("p")
    (root / "m.xml").write_bytes(text)
    done = subprocess.run(["patch", "-p1", "--binary", "-s", "-d", str(root)], input=diff,
                          capture_output=True)
    assert done.returncode == 0, (done.stdout, done.stderr, diff)
    assert (root / "m.xml").read_bytes() == final


def test_the_diff_applies_with_git_apply(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    text = b"".join(b"<dim>%d</dim>\r\n" % i for i in range(40)) + b"<last/>"
    edits = [(text.index(b"3</dim>"), text.index(b"3</dim>") + 1, b"-1"),
             (text.index(b"<dim>20<"), text.index(b"<dim>21<"), b""),
             (len(text) - 2, len(text) - 2, b" x=\"1\"")]
    diff = unified_diff(text, edits, "sub/m.xml")
    assert diff.startswith(b"--- a/sub/m.xml\n+++ b/sub/m.xml\n@@ -1,7 +1,7 @@\n")
    assert b"\\ No newline at end of file" in diff
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "m.xml").write_bytes(text)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    done = subprocess.run(["git", "-C", str(tmp_path), "apply", "-"], input=diff, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "sub" / "m.xml").read_bytes() == apply(text, edits)
