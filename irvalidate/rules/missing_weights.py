"""IRV204 missing-weights: Const layers need the ``.bin``, and it is missing or unusable.

OpenVINO refuses such a model ("Empty weights data in bin file or bin file cannot be
found!", or "Incorrect weights in bin file!" for a Git LFS pointer), so this is an error.
Missing, a directory, a FIFO, a device, unreadable, or a Git LFS pointer (the usual state of
a CI checkout without LFS): one finding per file, and no constant is read from it.  The
``.bin`` is looked for beside the XML with the same stem; ``--bin`` names another path.
``--ignore IRV204`` checks the XML alone; ``--fix`` never edits a file without its weights
(inference reads the constants to prove the dims it writes).

A ``.bin`` that is a link to a regular file is read, as the runtime reads it (the Hugging
Face cache links ``snapshots/REV/model.bin`` to ``../../blobs/SHA``), unless it leaves the
git work tree the model is in: that one is refused too, though OpenVINO would follow it,
because a pull request must not make CI read files outside the repository.

Passing: ``model.xml`` with ``model.bin`` beside it.

Failing: ``model.xml`` alone, with Const layers in it; a ``model.bin`` that holds
``version https://git-lfs.github.com/spec/v1 ...`` instead of the weights; or, in a git
work tree, a ``model.bin`` that links to a file outside it.
"""
from __future__ import annotations

import os
from collections.abc import Iterator

from ..ir.records import CONST_TYPES
from ._common import Context
from .findings import Problem

CODE = "IRV204"
SLUG = "missing-weights"
LEVEL = "error"
SUMMARY = "Const layers need the .bin, and it is missing, unreadable or a Git LFS pointer."


def check(ctx: Context) -> Iterator[Problem]:
    weights = ctx.analysis.weights
    if not weights.error or not ctx.is_model:
        return
    consts = [layer for graph in ctx.doc.graphs() for layer in graph.layers
              if layer.type.lower() in CONST_TYPES]
    if not consts:
        return
    count = f"{len(consts)} Const layer{'s' if len(consts) != 1 else ''}"
    if weights.lfs_pointer:
        advice = (f"its {count} cannot be read from it (OpenVINO reads the pointer's text as "
                  f"weights, or refuses the model)")
    elif weights.left_tree is not None:
        verb = "is" if len(consts) == 1 else "are"
        advice = (f"its {count} {verb} not read (OpenVINO would follow the link): commit the "
                  f"weights in the repository, or name the file with --bin to read it anyway")
    else:
        name = os.path.basename(weights.path or "") or "the .bin"
        xml = os.path.basename(ctx.doc.path)
        need = "needs" if len(consts) == 1 else "need"
        advice = (f"OpenVINO refuses the model ({count} {need} it): put {name} beside {xml} or "
                  f"pass --bin (--ignore IRV204 checks the XML alone; --fix needs the .bin)")
    yield Problem(f"{weights.error}; {advice}", at=consts[0], layer=consts[0])
