"""Parsing a module's text into a libcst tree, without libcst's per-node validation.

libcst validates every node it builds (``CSTNode.__post_init__`` calls ``_validate``: whitespace
patterns, parentheses, operators). That is for trees made by hand; a tree its parser made from
text is valid by construction, and checking its millions of nodes costs about a fifth of the
parse (libcst 1.x says as much beside ``__post_init__``). Phase 2 parses every file a rule reads
(run/check.py; phase 1 reads CPython's ast instead).

The check is switched off only while the parser runs, and only when ``__post_init__`` is the
one that does nothing but validate (any other libcst: the plain parse).
"""

from __future__ import annotations

import threading

import libcst as cst

_SWAP = threading.Lock()
_VALIDATING = cst.CSTNode.__dict__.get("__post_init__")
_ONLY_VALIDATES = _VALIDATING is not None and _VALIDATING.__code__.co_names == ("_validate",)


def _unchecked(self) -> None:
    """A node built by the parser: nothing to validate."""


def parse_module(text: str) -> cst.Module:
    """``libcst.parse_module(text)``: the same tree, or the same exception."""
    if not _ONLY_VALIDATES:
        return cst.parse_module(text)
    with _SWAP:
        cst.CSTNode.__post_init__ = _unchecked
        try:
            return cst.parse_module(text)
        finally:
            cst.CSTNode.__post_init__ = _VALIDATING
