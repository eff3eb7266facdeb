"""The runtime's verdict on a reshape request, and irvalidate's, in one place each.

    path = save(model, tmp_path)                       # ov.save_model, no fp16 compression
    runtime_reshape(path, {"x": [4, 3, 32, 32]})       # Model.reshape on a fresh read_model
    runtime_reinfer(path, {"x": [4, 3, 32, 32]})       # set_partial_shape + validate, no rewrites
    irv_reshape(path, {"x": [4, 3, 32, 32]}, smart=True)

A *request* is what ``irvalidate.reshape`` takes: a dict {input name: shape} (the name a
Parameter's layer name or one of its output tensor names) or, for a one-input model, a bare
shape.  A *shape* is a list of ints (-1 dynamic) and (lo, hi) tuples (hi None: no upper
bound; lo None: from 0), or an ovc-style string ``"1,3..5,?"`` (brackets optional).

Every verdict has the same form: ``works`` (the reshape succeeds), ``outputs`` ({Result
friendly name: shape as ``str(ov.PartialShape)`` prints it}, only when it works) and the
node(s) the failure names.  The irvalidate side goes through :func:`irv_reshape` alone, so a
change of the final API is adapted here and nowhere else.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import openvino as ov

from support.opcheck import core, save

#: the rule code of "inputs become incompatible after the reshape" (error)
IRV301 = "IRV301"

Dim = int | tuple[int | None, int | None]
Shape = str | Sequence[Dim]
Request = dict[str, Shape] | Shape


# ---------------------------------------------------------------------------- files
# saved and read as every other test does (tests/support/opcheck.py): one Core for the session


def read(path: Path) -> ov.Model:
    """A fresh read of the file: a reshape changes the model object, even when it fails
    (the SmartReshape rewrites stay in it), so no model object is ever reused."""
    return core().read_model(str(path))


# ---------------------------------------------------------------------------- shapes

def partial_shape(shape: Shape) -> ov.PartialShape:
    if isinstance(shape, ov.PartialShape):
        return shape
    if isinstance(shape, str):
        text = shape.strip()
        return ov.PartialShape(text if text.startswith("[") else f"[{text}]")
    dims = []
    for d in shape:
        if isinstance(d, tuple):
            lo, hi = d
            dims.append(ov.Dimension(0 if lo is None else lo, -1 if hi is None else hi))
        else:
            dims.append(ov.Dimension(d))
    return ov.PartialShape(dims)


def shape_text(shape: Shape) -> str:
    """The shape as OpenVINO prints it: ``[4,1..8,?]``."""
    return str(partial_shape(shape))


def cli_dims(shape: Shape) -> str:
    """The shape in ovc --input syntax, without the brackets: ``4,1..8,?``."""
    return shape_text(shape)[1:-1]


def cli_spec(request: Request) -> str:
    """One --reshape SPEC for a request: ``a[1,2048],b[1,2048]`` or ``[4,3,8,8]``."""
    if isinstance(request, dict):
        return ",".join(f"{name}[{cli_dims(shape)}]" for name, shape in request.items())
    return f"[{cli_dims(request)}]"


def describe(request: Request) -> str:
    return cli_spec(request)


# ---------------------------------------------------------------------------- runtime

@dataclass
class Verdict:
    works: bool
    outputs: dict[str, str] = field(default_factory=dict)
    node: str | None = None  # the node the runtime's message names, when it names one
    message: str = ""
    node_type: str | None = None  # that node's type, when the model still has it


def file_layer_names(path: Path) -> set[str]:
    """Every layer name the XML has (bodies of TensorIterator/Loop/If included).  read_model
    gives some nodes a generated name instead (CTCGreedyDecoder 'decode' reads as
    'CTCGreedyDecoder_200'): such a node cannot be named by irvalidate."""
    import xml.etree.ElementTree as ET
    return {el.get("name") for el in ET.parse(str(path)).iter("layer") if el.get("name") is not None}


_NAMED = re.compile(r"with friendly_name '(.*)':\s*$", re.M)


def named_node(message: str) -> str | None:
    """The node an OpenVINO validation error names ("... with friendly_name 'x':"); the
    innermost (last) one when the message nests several."""
    found = _NAMED.findall(message)
    return found[-1] if found else None


def _parameter(model: ov.Model, name: str) -> ov.Node:
    """The Parameter a request names: a tensor name of its output first (what
    Model.reshape accepts), else its friendly (layer) name."""
    for p in model.get_parameters():
        if name in p.output(0).get_names():
            return p
    for p in model.get_parameters():
        if p.get_friendly_name() == name:
            return p
    raise KeyError(f"no input '{name}' in the model "
                   f"({[p.get_friendly_name() for p in model.get_parameters()]})")


def runtime_request(model: ov.Model, request: Request):
    """The argument for ``model.reshape``: keys are Parameter outputs (a Parameter's layer
    name is not accepted as a string key by Model.reshape, its tensor names are)."""
    if not isinstance(request, dict):
        return partial_shape(request)
    return {_parameter(model, name).output(0): partial_shape(shape)
            for name, shape in request.items()}


def result_shapes(model: ov.Model) -> dict[str, str]:
    return {r.get_friendly_name(): str(r.get_output_partial_shape(0)) for r in model.get_results()}


def _failed(err: Exception, model: ov.Model | None = None) -> Verdict:
    text = str(err)
    node = named_node(text)
    node_type = None
    if node is not None and model is not None:
        for op in _all_ops(model):
            if op.get_friendly_name() == node:
                node_type = op.get_type_name()
                break
    return Verdict(False, {}, node, text, node_type)


def _all_ops(model: ov.Model):
    for op in model.get_ordered_ops():
        yield op
        for body in _bodies(op):
            yield from _all_ops(body)


def _bodies(op) -> list:
    """The sub-graphs of TensorIterator/Loop (get_function()) and If (then, else)."""
    if op.get_type_name() == "If":
        return [b for b in (op.get_then_body(), op.get_else_body()) if b is not None]
    if hasattr(op, "get_function"):
        try:
            body = op.get_function()
        except Exception:  # noqa: BLE001 - an op with no body function: none to walk
            return []
        return [body] if body is not None else []
    return []


def runtime_reshape(path: Path, request: Request) -> Verdict:
    """What ``Model.reshape`` (SmartReshape, then re-inference) does with the request."""
    model = read(path)
    arg = runtime_request(model, request)
    try:
        model.reshape(arg)
    except RuntimeError as err:
        return _failed(err, model)
    return Verdict(True, result_shapes(model))


def runtime_reinfer(path: Path, request: Request) -> Verdict:
    """Plain re-inference: the Parameter shapes set, then validate_nodes_and_infer_types;
    no rewrites, no rollback."""
    model = read(path)
    if isinstance(request, dict):
        wanted = [(_parameter(model, n), partial_shape(s)) for n, s in request.items()]
    else:
        (only,) = model.get_parameters()
        wanted = [(only, partial_shape(request))]
    try:
        for p, s in wanted:
            p.set_partial_shape(s)
        model.validate_nodes_and_infer_types()
    except RuntimeError as err:
        return _failed(err, model)
    return Verdict(True, result_shapes(model))


def runtime(path: Path, request: Request, smart: bool = True) -> Verdict:
    return (runtime_reshape if smart else runtime_reinfer)(path, request)


def runtime_layer_shapes(path: Path, request: Request, smart: bool = True) -> dict[str, list[str]] | None:
    """Friendly name -> output shapes of every node after the reshape (None when it fails)."""
    model = read(path)
    try:
        if smart:
            model.reshape(runtime_request(model, request))
        else:
            arg = runtime_request(model, request)
            if isinstance(arg, dict):
                for out, s in arg.items():
                    out.get_node().set_partial_shape(s)
            else:
                model.get_parameters()[0].set_partial_shape(arg)
            model.validate_nodes_and_infer_types()
    except RuntimeError:
        return None
    return {op.get_friendly_name(): [str(op.get_output_partial_shape(i)) for i in range(op.get_output_size())]
            for op in model.get_ordered_ops()}


# ---------------------------------------------------------------------------- irvalidate

@dataclass
class IrvVerdict:
    works: bool
    outputs: dict[str, str]
    error_layers: set[str]          # layers with an IRV301 finding
    findings: list                  # every finding of the file (pydantic FindingModel)
    rewrites: list = field(default_factory=list)

    @property
    def reshape_errors(self) -> list:
        return [f for f in self.findings if f.rule == IRV301]

    def messages(self) -> list[str]:
        return [f.message for f in self.reshape_errors]


def irv_reshape(path: Path, request: Request, smart: bool = True) -> IrvVerdict:
    """irvalidate's prediction for the request: the one place that knows its API."""
    import irvalidate
    report = irvalidate.reshape(str(path), request, smart_reshape=smart)
    (file,) = report.files
    rs = file.reshape
    outputs = {o.name: o.shape for o in rs.outputs} if rs.works else {}
    errors = {f.layer.name for f in file.findings
              if f.rule == IRV301 and f.layer is not None}
    return IrvVerdict(bool(rs.works), outputs, errors, list(file.findings), list(rs.rewrites or []))


def _irvalidate_root() -> str:
    """The folder the ``irvalidate`` this process imports comes from: the subprocess runs the
    same code as :func:`irv_reshape` whatever the working directory."""
    import irvalidate
    return str(Path(irvalidate.__file__).resolve().parents[1])


def irv_cli(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m irvalidate ARGS`` in a subprocess (no colour, text captured), run from
    ``cwd`` (default: the folder of the last path argument, away from any project config)."""
    root = _irvalidate_root()
    env = dict(os.environ, NO_COLOR="1",
               PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    if cwd is None:
        last = Path(args[-1]) if args else None
        cwd = last.parent if last is not None and last.exists() else None
    return subprocess.run([sys.executable, "-m", "irvalidate", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=timeout)


def irv_cli_reshape(path: Path, request: Request, smart: bool = True, *extra: str) -> subprocess.CompletedProcess:
    args = ["--reshape", cli_spec(request)] + ([] if smart else ["--no-smart-reshape"])
    return irv_cli(*args, *extra, str(path))


# ---------------------------------------------------------------------------- comparing

def disagreement(path: Path, request: Request, smart: bool = True,
                 ours: IrvVerdict | None = None, theirs: Verdict | None = None) -> str | None:
    """None when irvalidate's prediction agrees with the runtime on the request, else why
    not: the verdict, the node the runtime names (some IRV301 finding must be on it), the
    Result shapes (every one, exactly), and no IRV301 finding when the reshape works."""
    theirs = theirs or runtime(path, request, smart)
    ours = ours or irv_reshape(path, request, smart)
    label = f"{describe(request)} ({'Model.reshape' if smart else 'plain re-inference'})"
    if ours.works != theirs.works:
        return (f"{label}: irvalidate says {'works' if ours.works else 'fails'}, the runtime "
                f"{'accepts' if theirs.works else 'refuses: ' + _first(theirs.message)}"
                f"; irvalidate's IRV301: {sorted(ours.error_layers)}")
    if theirs.works:
        if ours.outputs != theirs.outputs:
            return f"{label}: Result shapes {ours.outputs}, the runtime's {theirs.outputs}"
        if ours.reshape_errors:
            return f"{label}: works, yet IRV301 findings on {sorted(ours.error_layers)}"
        return None
    if not ours.reshape_errors:
        return f"{label}: fails, but no {IRV301} finding"
    if theirs.node is None:
        return None
    if theirs.node in file_layer_names(path):
        if theirs.node not in ours.error_layers:
            return (f"{label}: the runtime names '{theirs.node}', irvalidate's {IRV301} findings are on "
                    f"{sorted(ours.error_layers)}")
    elif theirs.node_type is not None:  # a name read_model made up: the layer's type must match
        types = {f.layer.type for f in ours.reshape_errors if f.layer is not None}
        if theirs.node_type not in types:
            return (f"{label}: the runtime names {theirs.node_type} '{theirs.node}' (a name not in the "
                    f"file), irvalidate's {IRV301} findings are on {sorted(ours.error_layers)}")
    return None


def _first(message: str) -> str:
    lines = [l.strip() for l in message.strip().splitlines() if l.strip()]
    return " / ".join(lines[-2:])[:300]


def case_files(folder: Path, builders: dict[str, Callable[[], ov.Model]]) -> Callable[[str], Path]:
    """A case's model saved once in ``folder``, by name (the test modules' ``files``)."""
    cache: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in cache:
            cache[name] = save(builders[name](), folder, name)
        return cache[name]
    return get
