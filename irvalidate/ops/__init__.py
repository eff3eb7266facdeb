"""The operations: for each, its attributes, shape inference, value evaluation and arity, and one registry of them."""
