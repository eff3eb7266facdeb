"""findings.py's hand-written records behave as the frozen, slotted dataclasses they replace.

Each record is compared with a dataclass built from the fields it had as one (names, order,
defaults): construction by position and keyword, defaults, repr, equality (its own class
only), hashing, frozen fields, pickling (the -j workers send findings back) and copying.
"""
import copy
import dataclasses
import inspect
import pickle

import pytest

from irvalidate.rules import findings

MISSING = dataclasses.MISSING
#: name -> [(field, default)], as the dataclasses declared them
FIELDS = {
    "LayerRef": [("id", MISSING), ("name", MISSING), ("type", MISSING)],
    "TableRow": [("label", MISSING), ("dims", MISSING), ("offset", None), ("source", None)],
    "ShapeTable": [("rows", MISSING), ("marks", ())],
    "SetDims": [("port", MISSING), ("dims", MISSING), ("layer", None)],
    "SetPrecision": [("port", MISSING), ("element_type", MISSING), ("layer", None)],
    "SetAttribute": [("layer", MISSING), ("name", MISSING), ("text", MISSING)],
    "Fix": [("changes", ()), ("choices", ()), ("blocked", None)],
    "Problem": [("message", MISSING), ("line", None), ("layer", None), ("port", None),
                ("expected", None), ("declared", None), ("table", None), ("scope", ""),
                ("at", None), ("axis", None), ("fix", None), ("site", None), ("after", ())],
    "Cause": [("code", MISSING), ("layer", MISSING), ("port", MISSING), ("line", MISSING)],
    "Edit": [("start", MISSING), ("end", MISSING), ("old", MISSING), ("new", MISSING),
             ("line", MISSING), ("column", MISSING), ("end_line", MISSING),
             ("end_column", MISSING), ("rule", ""), ("layer", None)],
    "FixInfo": [("edits", ()), ("blocked", None)],
    "FileFix": [("edits", ()), ("written", False), ("refused", None), ("failed", False),
                ("fixed", 0), ("diff", b""), ("remain", ())],
}


def oracle(name):
    spec = [(field, object) if default is MISSING else (field, object, dataclasses.field(default=default))
            for field, default in FIELDS[name]]
    cls = dataclasses.make_dataclass(name, spec, frozen=True, slots=True)
    cls.__qualname__ = name
    return cls


def values(name, salt=""):
    # distinct, hashable values, as a rule would give
    return [f"{field}{salt}" for field, _ in FIELDS[name]]


@pytest.mark.parametrize("name", sorted(FIELDS))
def test_a_record_has_the_dataclass_fields_and_defaults(name):
    params = list(inspect.signature(getattr(findings, name)).parameters.values())
    assert [(p.name, MISSING if p.default is p.empty else p.default) for p in params] == FIELDS[name]
    assert getattr(findings, name).__slots__ == tuple(f for f, _ in FIELDS[name])
    assert getattr(findings, name).__match_args__ == oracle(name).__match_args__


@pytest.mark.parametrize("name", sorted(FIELDS))
def test_a_record_behaves_as_its_dataclass(name):
    cls, ref = getattr(findings, name), oracle(name)
    args = values(name)
    made, expected = cls(*args), ref(*args)
    assert repr(made) == repr(expected)
    assert cls(**dict(zip(cls.__slots__, args))) == made
    assert hash(made) == hash(expected)
    assert made == cls(*args) and not made != cls(*args)
    assert made != cls(*values(name, "'"))
    assert made != expected and made != tuple(args)  # another class is never equal
    required = [v for v, (_, default) in zip(args, FIELDS[name]) if default is MISSING]
    assert repr(cls(*required)) == repr(ref(*required))
    for field in cls.__slots__:
        with pytest.raises(AttributeError):
            setattr(made, field, None)
        with pytest.raises(AttributeError):
            delattr(made, field)
    for twin in (pickle.loads(pickle.dumps(made)), copy.copy(made), copy.deepcopy(made)):
        assert twin == made and type(twin) is cls
    with pytest.raises(AttributeError):
        made.__dict__  # noqa: B018 - slotted, as before: reading it raises


def test_a_finding_takes_its_fix_and_travels_to_workers():
    # the engine attaches a finding's fix with _replace; -j workers send findings back
    finding = findings.Finding("m.xml", 3, "IRV101", "slug", "error", "message",
                               layer=findings.LayerRef("1", "a", "Add"))
    info = findings.FixInfo(blocked="why")
    fixed = finding._replace(fix=info)
    assert fixed.fix is info and fixed.layer == finding.layer and finding.fix is None
    assert fixed.sort_key() == ("m.xml", 3, "IRV101")
    assert pickle.loads(pickle.dumps(fixed)) == fixed
