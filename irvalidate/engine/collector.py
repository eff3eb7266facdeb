"""The cyclic garbage collector paused while a file is worked on: the records of a large IR
hold no reference cycles, and the collections their allocation sets off cost 20-40% of a
check's time on 100k-layer files (a third of reshapeable's; reference counting still frees
everything)."""
from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")


def paused(work: Callable[[], _T]) -> _T:
    """``work()`` with the cyclic collector paused (as it was: a caller's own pause holds)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return work()
    finally:
        if was_enabled:
            gc.enable()


#: objects allocated since the last collection past which the garbage a file left is
#: collected before the next file (api, reshapeable)
GARBAGE_OBJECTS = 100_000


def collect_if_large(threshold: int = GARBAGE_OBJECTS) -> None:
    """Collect the garbage the last file left, when it made many objects: an analysis of
    dangling edges leaves two cycles an edge, and with the collector paused two files of
    10^6 held both (0.87 GB; 0.45 GB one).  Cheap: only after files that made many."""
    if gc.get_count()[0] > threshold:
        gc.collect()
