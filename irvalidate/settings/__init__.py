"""The configuration model, which rules run at which level, ruff-style path patterns."""
