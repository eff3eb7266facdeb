"""``inspect`` on every file of the wild corpus: no crash, and its inputs' and outputs' tensor
names, element types and shapes are ``read_model``'s (recorded by
tests/support/interface_record.py, so this runs without openvino; where openvino is
installed, some files are read again and must still give the record).

Outputs' shapes are compared as a port writes them (a dim that is not static is -1, a
dynamic rank no dims): ``inspect`` gives a Result's shape as its port declares it, and a
port cannot write an interval.
"""
from __future__ import annotations

import pytest

from irvalidate.interface.inspect import InspectError, interface_of
from support import cassette, interface_record, places

FILES = places.CORPUS_FILES
pytestmark = pytest.mark.skipif(not FILES, reason=f"no wild corpus at {places.CORPUS}")


@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    return interface_record.load()


def _key(path) -> str:
    return path.relative_to(places.CORPUS).as_posix()


def as_port(shape: str) -> tuple | None:
    """A shape as the runtime prints it, as a port would write it."""
    if shape == "[...]":
        return None
    inner = shape.strip("[]")
    return tuple(int(d) if d.isdigit() else -1 for d in inner.split(",")) if inner else ()


def _port_of(dims) -> tuple | None:
    if dims is None:
        return None
    return tuple(d.lo if d.lo == d.hi else -1 for d in dims)


def differences(found, expected: dict) -> list[str]:
    """Where ``inspect``'s inputs and outputs depart from the runtime's (empty: none)."""
    problems = []
    for side in ("inputs", "outputs"):
        ours, theirs = getattr(found, side), expected[side]
        if len(ours) != len(theirs):
            problems.append(f"{len(ours)} {side}, the runtime {len(theirs)}")
            continue
        for mine, truth in zip(ours, theirs):
            said = {"names": sorted(mine.names), "element_type": mine.element_type,
                    "shape": mine.shape_text if side == "inputs" else _port_of(mine.shape)}
            if side == "outputs":
                truth = {**truth, "shape": as_port(truth["shape"])}
                if truth["shape"] is None and said["shape"] == ():
                    said["shape"] = None  # a port writes a dynamic rank as a scalar
            for key, value in said.items():
                if value != truth[key]:
                    problems.append(f"{side}[{mine.index}] {key}: {value!r}, the runtime "
                                    f"{truth[key]!r}")
    return problems


@pytest.mark.parametrize("path", FILES, ids=_key)
def test_inspect_gives_read_models_inputs_and_outputs(path, records):
    record = records.get(_key(path))
    assert record is not None, "no record: python tests/support/interface_record.py"
    assert record["xml_sha256"] == interface_record.sha256_of(path), \
        "the file changed since it was recorded: python tests/support/interface_record.py"
    try:
        found = interface_of(str(path), reshapeable="never")
    except InspectError:
        assert not record["readable"], "inspect refused a file read_model reads"
        return
    if record["readable"]:
        assert differences(found, record) == []


def test_the_comparison_tells_a_wrong_name_type_and_shape():
    """The harness itself: one departure of each kind is told."""
    records = interface_record.load()
    path = next(p for p in FILES if records[_key(p)]["readable"])
    found = interface_of(str(path), reshapeable="never")
    truth = records[_key(path)]
    assert differences(found, truth) == []
    first = found.inputs[0]
    wrong = found.model_copy(update={"inputs": [first.model_copy(update={
        "names": [*first.names, "extra"], "element_type": "u1", "shape_text": "[7]"})]
        + found.inputs[1:]})
    told = differences(wrong, truth)
    assert [t.split(":")[0] for t in told] == \
        ["inputs[0] names", "inputs[0] element_type", "inputs[0] shape"]


@pytest.mark.skipif(cassette.MODE == "replay", reason="no openvino")
def test_the_record_is_the_runtimes_today(records):
    """A runtime upgrade that answers otherwise shows here (re-record then)."""
    sample = FILES[::10]
    fresh = interface_record.answers(sample)
    for path in sample:
        mine = {k: v for k, v in records[_key(path)].items() if k != "xml_sha256"}
        assert fresh[str(path)] == mine, _key(path)
