"""Building blocks for the shape-op tests: shapes with intervals, Consts, and values computed
by a shape subgraph (ShapeOf -> Gather -> Concat of a Parameter with interval dims), as the
runtime bound-evaluates them.

A shape spec is a list of dims (``5``, ``-1`` for ``?``, ``(lo, hi)`` for an interval, ``hi``
-1 for no upper bound) or None for a dynamic rank.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import openvino as ov
from openvino import opset1, opset8

from support import cassette

_NAMES = itertools.count()


def _restart_names() -> None:
    global _NAMES
    _NAMES = itertools.count()


cassette.per_test(_restart_names)  # a test's names must not depend on the tests before it


def dim(d):
    if isinstance(d, tuple):
        return ov.Dimension(d[0], d[1])
    return ov.Dimension(d)


def shape(spec):
    return ov.PartialShape.dynamic() if spec is None else ov.PartialShape([dim(d) for d in spec])


def param(spec, et=np.float32, name=None):
    return opset1.parameter(shape(spec), et, name=name or f"p{next(_NAMES)}")


def const(values, et=np.int64, name=None):
    array = np.array(values, dtype=et)
    if array.size == 0:  # the opset builder refuses an empty Constant
        node = ov.op.Constant(array)
        node.set_friendly_name(name or f"c{next(_NAMES)}")
        return node
    return opset1.constant(array, name=name or f"c{next(_NAMES)}")


def computed(items, et=np.int64, params=None):
    """A 1-D value whose elements are ``items``: an int >= 0 or an interval comes from a dim
    of a Parameter through ShapeOf and Gather, a negative int from a Const; all concatenated.
    The Parameter is appended to ``params`` when given."""
    dims = [d for d in items if isinstance(d, tuple) or d >= 0]
    x = param(dims)
    if params is not None:
        params.append(x)
    s = opset1.shape_of(x) if et == np.int64 else opset8.convert(opset1.shape_of(x), et)
    parts, k = [], 0
    for d in items:
        if isinstance(d, tuple) or d >= 0:
            parts.append(opset8.gather(s, const([k]), const(0)))
            k += 1
        else:
            parts.append(const([d], et))
    return opset1.concat(parts, 0) if len(parts) > 1 else parts[0]


def computed_scalar(item, et=np.int64, params=None):
    """A scalar value computed from a dim (an int or an interval) of a Parameter."""
    x = param([item])
    if params is not None:
        params.append(x)
    s = opset1.shape_of(x) if et == np.int64 else opset8.convert(opset1.shape_of(x), et)
    return opset8.gather(s, const(0), const(0))


def scalar_input(v, params, et=np.int64):
    """A scalar input: ``"unknown"`` a Parameter, ``("c", dim)`` computed as
    Squeeze(Gather(ShapeOf(x[dim]), [0])), a number a Const."""
    if v == "unknown":
        params.append(param([], np.int64))
        return params[-1]
    if isinstance(v, tuple):
        x = param([v[1]])
        params.append(x)
        return opset1.squeeze(opset1.gather(opset1.shape_of(x), const([0]), const(0)), const([0]))
    return const(v, et)


def value(spec, params, et=np.int64):
    """A value input: a list, number or array is a Const (``et``); ("i32", values) an i32
    Const; ("p", shape) an unknown Parameter; ("c", items) computed by :func:`computed`;
    ("so", dims) ShapeOf of a Parameter.  Parameters are appended to ``params``."""
    if isinstance(spec, tuple) and spec[0] == "p":
        params.append(param(spec[1], et))
        return params[-1]
    if isinstance(spec, tuple) and spec[0] == "c":
        return computed(spec[1], params=params)
    if isinstance(spec, tuple) and spec[0] == "so":
        params.append(param(spec[1]))
        return opset1.shape_of(params[-1])
    if isinstance(spec, tuple) and spec[0] == "i32":
        return const(spec[1], np.int32)
    return const(spec, et)


def model(outputs, params):
    """A model of every output of ``outputs`` (a node or a list of nodes)."""
    nodes = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    return ov.Model([o for n in nodes for o in n.outputs()], params)


def differential(build, folder, types, stem, element_types=False):
    """Compare one random configuration with the runtime (``element_types``: the output
    element types too); False when openvino refuses to build it (random configurations may
    be illegal; refusals are tested on their own)."""
    from support import opcheck
    try:
        built = build()
    except RuntimeError:
        return False
    path = opcheck.compare(built, folder, types, stem=stem)
    if element_types:
        opcheck.compare_types(path, types)
    return True


def random_dim(rng, static=(1, 2, 3, 4, 6), odd=((1, 8), (2, 6), (0, 5), (3, -1), -1)):
    return rng.choice(static) if rng.random() < 0.6 else rng.choice(odd)


#: the findings that say the runtime refuses a layer: incompatible inputs, an invalid
#: attribute, a wrong input count, an element type it refuses
REFUSALS = ("IRV102", "IRV104", "IRV105", "IRV106")


def refusal(tmp_path, build_ir, layer_type, words=None):
    """A hand-written IR (irbuilder) must give an error finding on its ``layer_type`` layer,
    its message containing ``words``; returns the message."""
    from irvalidate.engine.validation import validate_file
    Path(tmp_path).mkdir(parents=True, exist_ok=True)
    path = build_ir().write(tmp_path)
    try:
        ov.Core().read_model(str(path))
    except (RuntimeError, ValueError):
        pass
    else:
        raise AssertionError("read_model loads the IR that should be refused")
    # a refusal, not a contradicted declaration (the hand-written outputs are placeholders)
    found = [f for f in validate_file(str(path)).findings
             if f.level == "error" and f.layer is not None and f.layer.type == layer_type
             and f.code in REFUSALS]
    assert found, f"no error finding on the {layer_type}: " \
                  f"{[f.code + ' ' + f.message for f in validate_file(str(path)).findings]}"
    if words is not None:
        assert any(words in f.message for f in found), [f.message for f in found]
    return found[0].message


def shape_text(spec):
    """A shape spec as a Parameter's ``shape`` attribute: ``2,1..8,?,3..``."""
    if spec is None:
        return "..."

    def one(d):
        if isinstance(d, tuple):
            return f"{d[0]}.." + ("" if d[1] == -1 else str(d[1]))
        return "?" if d == -1 else str(d)
    return ",".join(one(d) for d in spec)


def both_ways(build, build_ir, folder, types, stem):
    """A random configuration checked whichever way the runtime goes: built with openvino
    and compared when it builds; else written by hand (``build_ir`` -> irbuilder.IR) and then
    irvalidate must refuse it too.  Returns 1 for a compared model, 0 for a refused one."""
    from support import opcheck
    try:
        built = build()
    except (RuntimeError, ValueError):  # (a C++ length_error reaches Python as ValueError)
        refusal(Path(folder) / stem, build_ir, types[0])
        return 0
    opcheck.compare(built, folder, types, stem=stem)
    return 1


def near_dim(rng, fixed, same=0.75, close=0.93):
    """``fixed`` most often, else ``?`` or an interval around it, else another dim: random
    shapes that mostly fit together, and sometimes do not."""
    draw = rng.random()
    if draw < same:
        return fixed
    if draw < close:
        return rng.choice([-1, (max(fixed - 2, 0), fixed + 3), (fixed, -1), (0, fixed)])
    return rng.choice([2, 5, 7, (1, 4), (0, 3), (4, -1)])


def near_shape(rng, dims, dynamic=0.1, extra_axis=0.03, same=0.75, close=0.93):
    """``dims``, each one drawn by :func:`near_dim`; sometimes a dynamic rank instead,
    sometimes with one axis too many."""
    if rng.random() < dynamic:
        return None
    return [near_dim(rng, d, same, close) for d in dims] + ([1] if rng.random() < extra_axis else [])
