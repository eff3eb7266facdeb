"""engine/collector.py: the cyclic collector paused while a file is worked on, and the
garbage a file left collected before the next."""
from __future__ import annotations


def test_the_garbage_is_collected_only_past_the_threshold(monkeypatch):
    """collect_if_large (before each next file: api, reshapeable): a collection only once
    more objects than the threshold were made since the last."""
    import gc

    from irvalidate.engine import collector
    made = []
    monkeypatch.setattr(gc, "collect", lambda *args: made.append(args) or 0)
    collector.collect_if_large(10 ** 12)
    assert made == []
    collector.collect_if_large(-1)
    assert len(made) == 1
