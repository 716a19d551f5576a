"""Chains shown as notes: a finding whose reason lies in another function points at each call
on the way (``note: jobs.py:12:9: -> sync_orders()``), so that a reader can follow it.

Call positions come from the summaries (bgcheck.syntax.positions); where one is unknown, the
note points at the called function's ``def`` line instead.
"""

from __future__ import annotations

from typing import Callable, Optional

from bgcheck.diagnostics import Location


def _short(qualname: str) -> str:
    return qualname.rsplit(".", 1)[-1]


def _at(where: tuple[str, int, int], message: str) -> Location:
    path, line, column = where
    return Location(path, line, column, line, column, message)


def def_note(index, qualname: str, message: Optional[str] = None) -> Optional[Location]:
    """A note at a project function's ``def`` line."""
    entry = index.functions.get(qualname)
    if entry is None:
        return None
    line = entry[1].line or 1
    return Location(entry[0].path, line, 1, line, 1, message or f"-> {_short(qualname)}()")


def chain_notes(index, chain: list[str], start_at_def: bool = False) -> tuple[Location, ...]:
    """One note per call of ``chain`` (project functions, each calling the next): at the call of
    each function in the one before it. ``start_at_def``: a first note at the first function's
    ``def`` (the finding is not at a call of it)."""
    notes: list[Location] = []
    if start_at_def and chain:
        first = def_note(index, chain[0])
        if first is not None:
            notes.append(first)
    for caller, callee in zip(chain, chain[1:]):
        site = index.call_site(caller, callee)
        note = _at(site, f"-> {_short(callee)}()") if site else def_note(index, callee)
        if note is not None:
            notes.append(note)
    return tuple(notes)


def call_note(index, scope: str, wanted: Callable[[str], bool], message: str) -> Optional[Location]:
    """A note at the first call in ``scope`` whose target passes ``wanted`` (None if its position is unknown)."""
    site = index.target_site(scope, wanted)
    return _at(site, message) if site else None


def notes_from(index, root: Optional[str], qualname: Optional[str]) -> tuple[Location, ...]:
    """Notes from ``root`` (a job's function, a shutdown hook: at its ``def``) through each call
    down to ``qualname``, the function a finding is in; none when the finding is in ``root`` itself."""
    if not root or not qualname or root == qualname:
        return ()
    return chain_notes(index, index.call_path([root], qualname), start_at_def=True)
