"""The recorded runtime answers (tests/snapshots/, see tests/support/cassette.py) against the
runtime installed: every file a recorded test gave ``read_model`` is read again, and what
the runtime makes of it now must be what it made of it then.  After a runtime upgrade, a
difference is named per test and read; re-record with ``python tests/support/record.py``."""
import re
from pathlib import Path

import pytest

from support import cassette

#: every tape; reshape_probes/ holds Model.reshape's verdicts (tests/support/reshape_probes.py)
CASSETTES = sorted(p for p in cassette.SNAPSHOTS.rglob("*.json.xz")
                   if p.relative_to(cassette.SNAPSHOTS).parts[0] not in ("reshape_probes",
                                                                         "interface_answers"))


def comparable(answer: list) -> list:
    """A reading without the names the runtime makes up as it reads (``Constant_157218``, a
    Pad's default pad value: a process-wide counter), which no file holds."""
    if answer[0] != "read":
        return answer
    return ["read", [[re.sub(r"^([A-Za-z]+)_\d+$", r"\1_#", name), *rest]
                     for name, *rest in answer[1]]]


def differences(path: Path, folder: Path) -> list[str]:
    """Each recorded reading of a file that the runtime now reads otherwise."""
    recorded = cassette.load(path)
    keep = cassette.Tape("check", blobs=recorded["blobs"])
    found = []
    for test, entry in sorted(recorded["tests"].items()):
        for index, read in enumerate(entry["reads"]):
            xml = folder / "model.xml"
            xml.write_bytes(keep.data(read["xml"]))
            weights = xml.with_suffix(".bin")
            if read["bin"] is None:
                weights.unlink(missing_ok=True)
            else:
                weights.write_bytes(keep.data(read["bin"]))
            now = cassette.read_answer(str(xml))
            if comparable(now) != comparable(read["answer"]):
                found.append(f"{test} read {index}: recorded {read['answer']}, now {now}")
    return found


def test_there_are_cassettes():
    assert CASSETTES, "no recorded runtime answers: python tests/support/record.py"


@pytest.mark.skipif(cassette.MODE != "live", reason="needs the runtime itself")
@pytest.mark.parametrize("path", CASSETTES, ids=lambda p: str(p.relative_to(cassette.SNAPSHOTS)))
def test_the_runtime_still_answers_as_recorded(path, tmp_path):
    found = differences(path, tmp_path)
    assert not found, f"{len(found)} readings differ:\n" + "\n".join(found[:20])


def test_a_replayed_call_gives_the_recorded_answer_and_writes_the_recorded_files(tmp_path):
    keep = cassette.Tape("t")
    xml = keep.blob(b"<net/>")
    keep.events = [["openvino.save_model", "()", "m", {"r": None, "w": [["1", xml]]}],
                   [0, ".get_friendly_name", "m", {"r": {"l": ["a", {"o": 1}]}}],
                   [1, "()", "m", {"x": ["RuntimeError", "refused"]}]]
    target = tmp_path / "model.xml"
    assert cassette._replay(keep, ["openvino.save_model", "()", "m"], (None, str(target)), {}) is None
    assert target.read_bytes() == b"<net/>"
    answer = cassette._replay(keep, [0, ".get_friendly_name", "m"], (), {})
    assert answer[0] == "a" and isinstance(answer[1], cassette.Proxy)
    with pytest.raises(RuntimeError, match="refused"):
        cassette._replay(keep, [1, "()", "m"], (), {})


def test_a_replayed_test_that_asks_otherwise_is_not_answered():
    keep = cassette.Tape("t", [["openvino.Core", "()", "m", {"r": {"o": 0}}]])
    with pytest.raises(cassette.Unreplayable, match="differs"):
        cassette._replay(keep, ["openvino.Core", "()", "other arguments"], (), {})
    with pytest.raises(cassette.Unreplayable, match="more than was recorded"):
        cassette._replay(cassette.Tape("t", []), ["openvino.Core", "()", "m"], (), {})


def test_arguments_are_fingerprinted_without_the_temporary_folder(tmp_path):
    import numpy as np
    a = cassette.fingerprint((str(tmp_path / "m.xml"), [1, 2], np.arange(3)))
    b = cassette.fingerprint(("/elsewhere/m.xml", [1, 2], np.arange(3)))
    assert a == b
    assert a != cassette.fingerprint(("/elsewhere/m.xml", [1, 2], np.arange(4)))


def test_every_recording_names_tests_that_exist():
    """A test file renamed or moved without its cassette would skip all its tests where
    openvino is absent, silently: each cassette sits where its test file's path says, and
    each recorded node id names that file."""
    tests = Path(cassette.__file__).resolve().parents[1]
    for path in CASSETTES:
        module = tests / path.relative_to(cassette.SNAPSHOTS).with_suffix("").with_suffix(".py")
        assert module.is_file(), f"{path.name}: no {module.relative_to(tests.parent)}"
        where = module.relative_to(tests.parent).as_posix()
        strays = [k for k in cassette.load(path)["tests"] if not k.startswith(where + "::")]
        assert not strays, (path.name, strays[:3])
