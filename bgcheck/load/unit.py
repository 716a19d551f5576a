"""Phase 1 for one file: its bytes -> a FileUnit holding its text, its summary (plain data,
picklable, cached) or the BG000 that says why it is not analysed, and its CST while one is kept.

Whatever goes wrong with one file is that file's BG000, never the run's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from bgcheck.diagnostics import Diagnostic
from bgcheck.load import serial
from bgcheck.load.bg000 import bg000, cpython_limit, internal_error, newer_syntax_error, python_syntax_error, short_reason, too_deep
from bgcheck.load.cache import digest
from bgcheck.load.cache_keys import content_key
from bgcheck.load.guards import parse_hazard
from bgcheck.load.source import decode_source, module_name, normalize_newlines, read_source

if TYPE_CHECKING:  # libcst is imported where a rule reads a file: a warm run may parse none
    import libcst as cst

    from bgcheck.load.summary import ModuleSummary


@dataclass
class FileUnit:
    """One file as the engine sees it."""

    path: Path
    display: str  # the path as reported: relative to the working directory when below it
    text: str = ""
    summary: Optional[ModuleSummary] = None
    module: Optional[cst.Module] = None  # kept only while needed
    index: Any = None  # the project index (model/project.py), set for phase 2
    error: Optional[Diagnostic] = None
    content_key: str = ""  # cache key of the file's bytes (with the cache on)
    digest_known: str = ""  # see summary_digest
    pending: bool = False  # the summary is in the cache but not read yet (see ensure_summary)
    text_unread: bool = False  # the file's state matched (file_states.py): text read on demand (ensure_text)

    @property
    def summary_digest(self) -> str:
        """The digest of the summary: the project digest is made of these. Encoded only when first
        asked for (a run without a cache never asks: encoding every summary cost 4% of a cold
        run on Django)."""
        if not self.digest_known and self.summary is not None:
            self.digest_known = summary_digest(self.summary)
        return self.digest_known

    @summary_digest.setter
    def summary_digest(self, value: str) -> None:
        self.digest_known = value

    @property
    def has_async(self) -> bool:
        return "async" in self.text and any(f.is_async for f in self.summary.functions.values())

    @property
    def has_job_code(self) -> bool:
        job_code = self.index.job_code
        return any(name in job_code for name in self.summary.functions)


class FileChanged(Exception):
    """A file whose text was read on demand no longer has the bytes its state recorded: it
    changed during the run (the run starts again, reading every file)."""


def load_unit(path: Path, display: str, cache=None, prepared: Optional[tuple] = None, states=None) -> FileUnit:
    """Phase 1 for one file on disk (from the cache when its bytes are unchanged).
    ``prepared``: the (bytes, cache key) a caller already read and computed. ``states``: the
    run's FileStates (load/file_states.py): an unchanged file is not even read.
    Whatever goes wrong is this file's BG000, never the run's."""
    unit = FileUnit(path=path, display=display)
    try:
        if states is not None and prepared is None and _from_state(unit, states):
            return unit
        _load_unit(unit, cache, prepared)
        if states is not None and unit.content_key:
            states.remember(path, display, unit.content_key, unit.summary_digest, unit.error)
        return unit
    except Exception as exc:
        return failed(unit, "loading", exc)
    except MemoryError:
        return failed(unit, "loading", MemoryError("out of memory"))


def _from_state(unit: FileUnit, states) -> bool:
    """Take the content key, summary digest and BG000 from the file's recorded state if its stat
    is unchanged; otherwise take its stat now, before it is read."""
    state = states.lookup(unit.path, unit.display)
    if state is None:
        return False
    unit.content_key, unit.summary_digest, unit.error = state.content_key, state.summary_digest, state.error
    unit.pending = unit.error is None
    unit.text_unread = True
    return True


def ensure_text(unit: FileUnit) -> FileUnit:
    """Read the text of a unit loaded from its state, checking that the bytes are still those
    of its content key (else FileChanged)."""
    if not unit.text_unread:
        return unit
    data, error = read_source(unit.path, unit.display)
    if error is not None or content_key(unit.path, unit.display, data) != unit.content_key:
        raise FileChanged(unit.display)
    unit.text_unread = False
    try:
        unit.text = decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        unit.text = ""  # the recorded BG000 says why
    return unit


def _load_unit(unit: FileUnit, cache, prepared: Optional[tuple]) -> FileUnit:
    path, display = unit.path, unit.display
    if prepared is not None:
        data, key = prepared
    else:
        data, unit.error = read_source(path, display)
        if unit.error is not None:
            return unit
        key = None
    if cache is not None:
        if key is None:
            key = content_key(path, display, data)
        unit.content_key = key
        known = cache.get("digests", key)
        valid = isinstance(known, tuple) and len(known) == 2 and isinstance(known[0], str) and (known[1] is None or isinstance(known[1], Diagnostic))
        if known is not None and not valid:
            cache.discard()  # rewritten below
        if valid:
            # The summary itself is read only if this run needs the project index
            # (a bundle of results for the whole unchanged project makes it unnecessary).
            unit.summary_digest, unit.error = known
            unit.pending = unit.error is None
            try:
                unit.text = decode_source(data)
            except (SyntaxError, UnicodeDecodeError, LookupError):
                unit.text = ""
            return unit
        cached = cache.get("summaries", key)
        if cached is not None and not _valid_summary_entry(cached):
            cache.discard()  # the right key over a value of another shape: analysed again and rewritten
            cached = None
        if cached is not None:
            unit.summary, unit.error, unit.summary_digest = cached
            try:
                unit.text = decode_source(data)
            except (SyntaxError, UnicodeDecodeError, LookupError):
                unit.text = ""  # the cached BG000 says why
            return unit
    try:
        text = decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        unit.error = bg000(display, f"file not analysed: cannot decode it ({short_reason(exc)})")
    else:
        analyse_text(path, display, text, unit)
    unit.summary_digest = ""  # of this summary, when asked for
    if cache is not None:
        cache.put("summaries", key, (unit.summary, unit.error, unit.summary_digest))
        cache.put("digests", key, (unit.summary_digest, unit.error))
    return unit


def ensure_summary(unit: FileUnit, cache) -> FileUnit:
    """Read a pending summary from the cache (or, if it is gone, analyse the file again)."""
    if not unit.pending:
        return unit
    unit.pending = False
    cached = cache.get("summaries", unit.content_key) if cache is not None else None
    if cached is not None and _valid_summary_entry(cached) and cached[2] == unit.summary_digest:
        unit.summary, unit.error, unit.summary_digest = cached
        return unit
    ensure_text(unit)
    analyse_text(unit.path, unit.display, unit.text, unit)
    if unit.summary is not None:
        unit.summary_digest = ""  # of this summary, when asked for
        if cache is not None:
            cache.put("summaries", unit.content_key, (unit.summary, unit.error, unit.summary_digest))
    return unit


def summary_digest(summary: ModuleSummary) -> str:
    """The digest of a summary's canonical encoding (the one the cache stores) but for the
    functions' local bindings: the same for equal summaries, whichever objects hold them (built
    here, or read back from the cache). Local bindings resolve names only in the file's own
    summary and check (load/summary.py, rules/checker.py), whose results the file's content key
    already covers; no other file and no project model reads them. So an edit that only binds a
    local differently (``retries = 3`` -> ``retries = 4``) leaves the digest, and everything
    built from the digests (the project models, model/persist.py), as it was."""
    try:
        return digest(serial.summary_bytes(summary, with_locals=False))
    except serial.DataError:  # cannot be stored either: a digest no later run will match
        return digest(os.urandom(16))


def cached_summary(cache, key: str) -> Optional[ModuleSummary]:
    """The summary the cache holds under a content key (an earlier version of a file), or None."""
    entry = cache.get("summaries", key, counted=False) if key else None
    return entry[0] if entry is not None and _valid_summary_entry(entry) else None


def shape_digest(summary: ModuleSummary) -> str:
    """``summary_digest`` with each position replaced by its rank among the summary's positions:
    the same for a file whose lines only moved (lines added or removed, nothing else changed), and
    different when anything else changed, the order of its positions included. Two summaries of one
    shape pair their positions one to one (model/persist.py relocates stored models so)."""
    from bgcheck.load.summary import summary_positions, with_positions  # (the summary builder: not on the warm path)

    ranks = {spot: rank for rank, spot in enumerate(sorted({spot for spot in summary_positions(summary) if spot[0]}), 1)}
    return summary_digest(with_positions(summary, lambda spot: (ranks.get(spot, 0), 0)))


def _valid_summary_entry(value) -> bool:
    from bgcheck.load.summary import ModuleSummary

    if not (isinstance(value, tuple) and len(value) == 3):
        return False
    summary, error, summary_digest = value
    return (
        isinstance(summary_digest, str)
        and (summary is None) != (error is None)
        and (summary is None or (isinstance(summary, ModuleSummary) and bool(summary_digest)))
        and (error is None or isinstance(error, Diagnostic))
    )


def analyse_text(
    path: Path,
    display: str,
    text: str,
    unit: Optional[FileUnit] = None,
    parse: Optional[Callable[[str], cst.Module]] = None,
) -> FileUnit:
    """Phase 1 for one file's text: parse it and summarise it (or a BG000). The LSP server calls
    this with the editor's unsaved text and its own libcst ``parse`` (a splice of the edited
    statement into the previous module: load/reparse.py), whose module the unit keeps for phase 2.
    Whatever goes wrong is this file's BG000, never the run's."""
    unit = unit or FileUnit(path=path, display=display)
    try:
        return _analyse_text(path, display, text, unit, parse)
    except Exception as exc:
        return failed(unit, "analysing", exc)
    except MemoryError:
        return failed(unit, "analysing", MemoryError("out of memory"))


def failed(unit: FileUnit, doing: str, exc: BaseException) -> FileUnit:
    """``unit`` as a BG000 after an unexpected exception: the rest of the run goes on."""
    unit.summary = None
    unit.module = None
    unit.pending = False
    unit.error = internal_error(unit.display, doing, exc)
    return unit


def _analyse_text(path: Path, display: str, text: str, unit: FileUnit, parse: Optional[Callable[[str], cst.Module]] = None) -> FileUnit:
    from bgcheck.load.summary import build_summary

    text = normalize_newlines(text)
    unit.text = text
    if "\x00" in text:
        unit.error = bg000(display, "file not analysed: it contains a NUL byte")
        return unit
    try:
        tree = _parse_quietly(text)
    except SyntaxError as exc:
        tree, unit.error = read_newer_syntax(display, text, exc)
        if tree is None:
            return unit
    except (RecursionError, MemoryError):
        unit.error = too_deep(display, text, "parse")
        return unit
    except Exception as exc:
        unit.error = bg000(display, f"file not analysed: {type(exc).__name__}: {short_reason(exc)}")
        return unit
    name, is_package = module_name(path)
    try:
        unit.summary = build_summary(tree, display, name, is_package, text)
    except RecursionError:
        unit.error = too_deep(display, text, "analyse")
        return unit
    if parse is not None and parse_hazard(text) is None:
        try:
            unit.module = parse(text)
        except Exception:  # noqa: BLE001 - phase 2 parses it again and says why
            unit.module = None
    return unit


def python_ast(text: str) -> "ast.Module":
    """CPython's tree of a file phase 1 has read already, as phase 1 read it: a file of syntax newer
    than this Python through load/newer_syntax.py (a rule that walks the ast itself: call guards)."""
    try:
        return _parse_quietly(text)
    except SyntaxError:
        from bgcheck.load.newer_syntax import parse_newer

        return parse_newer(text)


def _parse_quietly(text: str) -> "ast.Module":
    import ast
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ``"\d"`` and the like: the code's own business, not a finding
        return ast.parse(text)


def read_newer_syntax(display: str, text: str, exc: SyntaxError):
    """(ast, None) for a file this Python cannot parse but libcst reads (syntax of a newer Python,
    rewritten for this one: load/newer_syntax.py), else (None, its BG000). Only on this failure
    path, and never a shape that would take libcst minutes (load/guards.py)."""
    if cpython_limit(exc) or parse_hazard(text) is not None:
        return None, python_syntax_error(display, text, exc)
    from libcst import ParserSyntaxError

    from bgcheck.load.newer_syntax import CannotRewrite, parse_newer

    try:
        return parse_newer(text), None
    except CannotRewrite as why:
        return None, newer_syntax_error(display, exc, str(why))
    except (RecursionError, MemoryError):
        return None, too_deep(display, text, "parse")
    except SyntaxError as rewritten:  # a rewrite this Python still cannot parse: bgcheck's limit, said so
        return None, newer_syntax_error(display, exc, f"the rewrite does not parse: {rewritten.msg}")
    except ParserSyntaxError:  # libcst cannot read it either: a plain syntax error
        return None, python_syntax_error(display, text, exc)
