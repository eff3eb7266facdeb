"""``--reshape`` and ``reshapeable``: the SPEC, the what-if run, SmartReshape, the Consts that pin a dim."""
