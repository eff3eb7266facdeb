"""The command line: options, commands (``rules``, ``explain``, ``shapes``), writing reports safely."""
