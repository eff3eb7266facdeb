"""The stream's analysis (``irvalidate/analysis/stream.py``) on its own: what it hands the
propagation for each layer it infers is what the propagation would find itself."""
from __future__ import annotations

import pytest

from irvalidate.analysis import stream
from irvalidate.analysis.propagation import Propagation
from irvalidate.engine import streaming
from irvalidate.engine.validation import weights_of
from irvalidate.rules import RULES
from support.places import GENUINE, ROOT, SAMPLES


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_values_found_on_reading_are_those_the_edges_give(path, monkeypatch):
    # StreamAnalysis.add finds what reaches a layer as it reads its edges, and hands it to
    # the propagation, which would otherwise look each edge up again (Propagation.input_values)
    compared = []
    given = stream._Propagation.input_values

    def checked(self, layer):
        found = given(self, layer)
        expected = Propagation.input_values(self, layer)
        assert len(found) == len(expected) and all(a is b for a, b in zip(found, expected)), \
            layer.describe()
        compared.append(layer)
        return found
    monkeypatch.setattr(stream._Propagation, "input_values", checked)
    monkeypatch.setattr(streaming, "BATCH", 3)
    streaming.check(str(path), weights_of(str(path), None), [(r, r.LEVEL) for r in RULES])
    if path == GENUINE:
        assert compared  # (a file the stream reads: its inferred layers were compared)
