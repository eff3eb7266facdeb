"""Eventually periodic size sets and their contract (shapes/sizeset.py), against the sets
listed size by size: intersection and union, one form for equal sets, and the contract
(min, max, multiple_of, offset, values) exact where the set has that form, else a superset."""
from hypothesis import given, settings, strategies as st

from irvalidate.shapes.sizeset import Constraint, SizeSet, summarise


def contract_admits(c: Constraint, size: int) -> bool:
    """The issue's sentence, written out again rather than asking Constraint.admits."""
    return ((c.values is None or size in c.values) and size >= c.min
            and (c.max is None or size <= c.max) and (size - c.offset) % c.multiple_of == 0)


def brute(sizes: SizeSet, upto: int) -> set:
    return {n for n in range(1, upto) if n in sizes}


size_sets = st.builds(
    lambda start, prefix, period, residues: SizeSet(start, prefix, period, residues),
    st.integers(1, 40), st.integers(0, (1 << 40) - 1), st.integers(1, 12),
    st.integers(0, (1 << 12) - 1))


@given(size_sets, size_sets)
@settings(max_examples=300, deadline=None)
def test_intersection_and_union_are_the_sets(a, b):
    upto = 40 + 3 * 12 * 12
    assert brute(a & b, upto) == brute(a, upto) & brute(b, upto)
    assert brute(a | b, upto) == brute(a, upto) | brute(b, upto)
    assert (a & b).is_empty == (not brute(a & b, upto))


@given(size_sets)
@settings(max_examples=300, deadline=None)
def test_equal_sets_have_one_form(a):
    # the same sizes written with a longer period and a later start
    longer = SizeSet(a.start + 7, a.bits_below(a.start + 7), a.period * 3,
                     sum(1 << r for r in range(a.period * 3) if a.residues >> (r % a.period) & 1))
    assert longer == a and hash(longer) == hash(a)


@given(size_sets)
@settings(max_examples=300, deadline=None)
def test_the_contract_is_the_set_when_exact_and_a_superset_otherwise(a):
    c = summarise(a)
    horizon = a.start + 3 * a.period + 3 * c.multiple_of + 50
    for size in list(range(1, horizon)) + [10**6 + k for k in range(30)]:
        if c.exact:
            assert contract_admits(c, size) == (size in a), size
        elif not contract_admits(c, size):
            assert size not in a, size
    if not c.exact:
        assert c.why_inexact and any(contract_admits(c, n) != (n in a) for n in range(1, horizon))
    if c.values is not None:
        assert c.values == sorted(c.values) and len(c.values) <= 16
    assert 0 <= c.offset < c.multiple_of


def test_contract_words():
    assert summarise(SizeSet.progression(32, None, 32)).describe() == "multiple of 32"
    assert summarise(SizeSet.progression(64, None, 32)).describe() == "multiple of 32, min 64"
    assert summarise(SizeSet.progression(7, None)).describe() == "min 7"
    assert summarise(SizeSet.progression(1, 512)).describe() == "max 512"
    assert summarise(SizeSet.of([224])).describe() == "only 224"
    assert summarise(SizeSet.of([1, 64])).describe() == "one of 1, 64"
    assert summarise(SizeSet.everything()).describe() == "any size"
    few = summarise(SizeSet.of([2, 3, 5, 9]))  # no progression, but few: listed, exactly
    assert few.exact and few.values == [2, 3, 5, 9] and few.describe() == "one of 2, 3, 5, 9"
    many = summarise(SizeSet.of(range(2, 60, 3)) | SizeSet.of([4]))  # too many to list
    assert not many.exact and (many.min, many.max, many.values) == (2, 59, None)
    none = summarise(SizeSet.nothing())
    assert none.describe() == "no size" and none.values == [] and none.exact


def test_two_residue_classes_are_not_exact_and_give_the_superset():
    c = summarise(SizeSet(1, 0, 4, 0b1001))  # 3, 4, 7, 8, 11, 12, ...
    assert not c.exact
    assert (c.min, c.max, c.multiple_of, c.offset, c.values) == (3, None, 1, 0, None)
    assert c.why_inexact == "sizes 0, 3 mod 4 all work: not one residue class"
    hole = summarise(SizeSet.of([3]) | SizeSet.progression(7, None))
    assert not hole.exact and hole.min == 3 and "size 4 fails" in hole.why_inexact
