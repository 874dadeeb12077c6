"""The engine's version (also the package version in pyproject.toml)."""

__version__ = "0.1.0"
