"""``--diff`` and ``--fix``: rounds on private copies, the gate, atomic writes, what they print."""
