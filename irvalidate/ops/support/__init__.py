"""What every op shares: the spec, the node an op sees, the registry, attributes, helpers, the memo."""
