"""The operations: one module per operation or family, and one registry of them.

An op module holds, per type and opset range, an OpSpec (spec.py): its attributes, shape
inference, value evaluation and arity.  registry.py maps each type to its module and
dispatches a layer once; node.py is what an op sees of a layer and reads its input values
through; attributes.py reads <data> as the runtime does.  To add an op: a module with its
SPECS, and its types in registry.REGISTRY (see ARCHITECTURE.md).
"""
