"""A model's interface (issue 28): ``inspect`` summarises it, ``compat`` compares two."""
