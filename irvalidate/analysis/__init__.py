"""One graph's analysis: its edge index and integrity facts, topological order, and the propagation of shapes and values."""
