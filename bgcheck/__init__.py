"""bgcheck: a static analyzer for Python background-job code."""

__version__ = "0.1.0"
