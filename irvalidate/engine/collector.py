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
