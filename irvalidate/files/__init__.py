"""Finding IR files (exclusions, ``.gitignore``), the settings each file gets, temporary files."""
