"""Seeded random small CNNs and MLPs (randmodels.py) x random new shapes: irvalidate's
reshape verdict, the node it blames and every Result shape equal the runtime's, with
SmartReshape and without (plain re-inference)."""
from __future__ import annotations

import collections

import pytest

pytest.importorskip("openvino")  # the helpers below build and read models with it
from support.randmodels import random_model
from support.runtime_oracle import describe, disagreement, runtime, save

SEEDS = range(48)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("random_reshape")


def _model(folder, seed):
    model, requests = random_model(seed)
    return save(model, folder, f"random{seed}"), requests


@pytest.mark.parametrize("seed", SEEDS)
def test_random_model(folder, seed):
    path, requests = _model(folder, seed)
    problems = []
    for request in requests:
        for smart in (True, False):
            problem = disagreement(path, request, smart)
            if problem:
                problems.append(problem)
    assert not problems, f"seed {seed} ({path.name}):\n" + "\n".join(problems)


def test_the_random_requests_reach_every_outcome(folder):
    """The generator is worth running: over the seeds the runtime both accepts and refuses,
    and SmartReshape rescues some requests plain re-inference refuses."""
    outcomes = collections.Counter()
    rescued = []
    for seed in SEEDS:
        path, requests = _model(folder, seed)
        for request in requests:
            smart, plain = runtime(path, request, True), runtime(path, request, False)
            outcomes[(smart.works, plain.works)] += 1
            if smart.works and not plain.works:
                rescued.append((seed, describe(request)))
    assert outcomes[(True, True)] >= 40 and outcomes[(False, False)] >= 20, outcomes
    assert len(rescued) >= 10, outcomes
    assert outcomes[(False, True)] == 0, "SmartReshape never breaks a request plain inference accepts here"


def test_same_seed_same_model():
    a, ra = random_model(7)
    b, rb = random_model(7)
    assert ra == rb
    assert [op.get_type_name() for op in a.get_ordered_ops()] == [op.get_type_name() for op in b.get_ordered_ops()]
