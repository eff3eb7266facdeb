"""An op's spec names every input whose values its shape inference reads.

``OpSpec.value_inputs`` (axes, an order, a target...) and, among them, ``dim_inputs`` (the
values that become output dims) are the op's declaration; the IRV301 pin search of
``--reshape`` tries the Consts behind ``dim_inputs`` and reads nothing else of the op.  An
input the inference reads but the spec forgets is an input the pin search silently skips, so
the inference is watched while it runs on a model of every op class
(tests/support/everyop_models.py): each call of a node's value readers, and each read of an
input's computed value, names an input the spec must declare.
"""
from __future__ import annotations

import collections
from pathlib import Path

import pytest

from irvalidate.ops.support import memo, node as node_module, registry
from irvalidate.ops.support.spec import OpSpec, Value

#: the inputs the pin search tried by value before the specs declared them (its own table,
#: SHAPE_INPUTS, and Interpolate-4's scales): no spec may drop one
PINNED_BEFORE = {"reshape": (1,), "broadcast": (1,), "tile": (1,), "slice": (1, 2),
                 "stridedslice": (1, 2), "interpolate": (1,), "pad": (1, 2), "range": (0, 1, 2),
                 "convolutionbackpropdata": (2,), "groupconvolutionbackpropdata": (2,),
                 "onehot": (1,), "topk": (1,), "variadicsplit": (2,)}

#: the Node methods that read an input's values, by index
READERS = ("const_ints", "const_floats", "const_first_number", "computed_as_shape",
           "exact_values", "exact_reals", "as_shape", "input_bounds", "const_numbers", "_numeric")


def every_spec():
    for kind in sorted(registry.REGISTRY):
        for spec in registry._specs(kind):
            yield kind, spec


def test_no_spec_drops_an_input_the_pin_search_tried():
    for kind, spec in every_spec():
        wanted = set(PINNED_BEFORE.get(kind, ()))
        if kind == "interpolate" and spec.versions[0] == 4:
            wanted.add(2)  # Interpolate-4's scales (Interpolate-11's input 2 is its axes)
        assert wanted <= set(spec.dim_inputs), f"{spec.name}-{spec.versions[0]}"


def test_dim_inputs_are_value_inputs_and_each_is_written_once():
    made = OpSpec("X", value_inputs=(3,), dim_inputs=(1,))
    assert made.value_inputs == (1, 3) and made.dim_inputs == (1,)
    for _, spec in every_spec():
        assert set(spec.dim_inputs) <= set(spec.value_inputs), spec.name


class Watch:
    """What the inferences read, by (op name, first opset of its class): inputs by index."""

    def __init__(self, monkeypatch) -> None:
        self.read: dict[tuple[str, int], set[int]] = collections.defaultdict(set)
        self.running = []  # (key, the node's inputs) of the inference running now
        for name in READERS:
            monkeypatch.setattr(node_module.Node, name, self._reader(getattr(node_module.Node, name)))
        monkeypatch.setattr(Value, "tensor", property(self._tensor))
        monkeypatch.setattr(registry, "run", self._run(registry.run))
        memo.clear()  # (a layer remembered by an earlier test would not be inferred again)

    def _reader(self, method):
        def reader(node, index, *args, **kwargs):
            if self.running:
                self.read[self.running[-1][0]].add(index)
            return method(node, index, *args, **kwargs)
        return reader

    def _tensor(self, value):
        if self.running:
            key, inputs = self.running[-1]
            self.read[key].update(i for i, v in enumerate(inputs) if v is value)
        return tuple.__getitem__(value, 3)

    def _run(self, run):
        def watched(spec, node):
            if spec.infer is None:
                return run(spec, node)
            key, infer = (spec.name, spec.versions[0]), spec.infer

            def infer_watched(n):
                self.running.append((key, n.inputs))
                try:
                    return infer(n)
                finally:
                    self.running.pop()
            return run(spec._replace(infer=infer_watched), node)
        return watched


def test_every_value_input_inference_reads_is_declared(tmp_path, monkeypatch):
    ov = pytest.importorskip("openvino")
    from irvalidate.engine.validation import validate_file
    from support import everyop_models

    paths = []
    for name, build in everyop_models.GROUPS.items():
        paths.append(Path(tmp_path) / f"{name}.xml")
        ov.save_model(build(), str(paths[-1]), compress_to_fp16=False)
    watch = Watch(monkeypatch)
    for path in paths:
        validate_file(str(path))
    declared = {(s.name, s.versions[0]): set(s.value_inputs) for _, s in every_spec()}
    assert len(watch.read) > 20  # (the watch saw the value-reading ops at work)
    forgotten = {key: sorted(read - declared[key]) for key, read in watch.read.items()
                 if read - declared[key]}
    assert not forgotten, f"inputs inference reads that the spec does not declare: {forgotten}"
