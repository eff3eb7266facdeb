"""IRV303 reshape-not-applicable: a ``--reshape`` request does not fit this file (it names
no input of it, or a rank or a bare ``[dims]`` it cannot take), so the file is not reshaped
for that request; the other files of the run, and the other requests, are tried as usual.

Over a repository of different models (``irvalidate --reshape 'x[1,3,8,8]' models/``),
the models without an input ``x`` are told, not failed.  A request naming several inputs
(``ids[1,64],mask[1,64]``) is tried only whole: a file with ``ids`` and no ``mask`` is not
reshaped, and the finding names the input it lacks.  A request that fits no file of the
run at all is a usage error (exit 2): a name mistyped must not pass CI (with
``--skip-non-ir``, the hook's mode, a commit without such a model is normal: no error).

Passing (``--reshape 'x[1,3,8,8]'``: the model has the input ``x``)::

    <layer id="0" name="x" type="Parameter" version="opset1">
      <data shape="1,3,4,4" element_type="f32"/>
      <output><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>4</dim><dim>4</dim></port></output>
    </layer>

Failing, that is reported (the same request on a model whose only input is ``ids``)::

    <layer id="0" name="ids" type="Parameter" version="opset1">
      <data shape="1,16" element_type="i64"/>
      <output><port id="0" precision="I64"><dim>1</dim><dim>16</dim></port></output>
    </layer>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context
from .findings import Problem

CODE = "IRV303"
SLUG = "reshape-not-applicable"
LEVEL = "info"
SUMMARY = "A --reshape request does not fit this file's inputs; the file is not reshaped for it."


def check(ctx: Context) -> Iterator[Problem]:
    if not ctx.is_model:
        return
    for unfit in ctx.not_applicable:
        yield Problem(f"--reshape {unfit.request} does not apply to this file: {unfit.reason}; "
                      f"it is not reshaped for this request")
