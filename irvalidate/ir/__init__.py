"""Reading IR files, with no inference: records, the streaming parser, the structural schema check, the .bin, element types, opset tables, exact lines."""
