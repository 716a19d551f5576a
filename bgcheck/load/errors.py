"""Mistakes in what the user gave bgcheck (configuration, data files, folders to check):
each one is a one-line message and exit status 2, never a traceback."""


class ConfigError(Exception):
    """A configuration problem; ``str(error)`` is a one-line message for the user."""
