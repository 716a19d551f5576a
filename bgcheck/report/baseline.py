"""Baselines: adopt bgcheck on a large codebase by recording today's findings.

``--write-baseline FILE`` records each finding's code, path and fingerprint
(see ``bgcheck.report.fingerprint``: it survives unrelated edits and line shifts);
``--baseline FILE`` reports only findings that are not in it, and counts the
entries that no longer occur (fixed, or the code moved away).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

from bgcheck.load.config import ConfigError, parse_json_data, read_data_file
from bgcheck.rules.catalog import former_codes
from bgcheck.report.fingerprint import fingerprints

FORMAT_VERSION = 1


def _keys(result, splits_undone: int = 0) -> list[tuple[str, str, str]]:
    """Each finding's baseline key; with ``splits_undone``, the key it had that many rule splits
    ago (a BG605 finding as the BG602 it was), as an older bgcheck would have written it."""
    diagnostics = result.diagnostics
    if splits_undone:
        diagnostics = [replace(d, code=_as_before(d.code, splits_undone)) for d in diagnostics]
    prints = fingerprints(diagnostics, result.sources)
    return [(d.code, d.path, fp) for d, fp in zip(diagnostics, prints)]


def _as_before(code: str, splits_undone: int) -> str:
    chain = (code, *former_codes(code))
    return chain[min(splits_undone, len(chain) - 1)]


def write_baseline(path: Path, result) -> int:
    entries = [{"code": c, "path": p, "fingerprint": f} for c, p, f in _keys(result)]
    document = {"tool": "bgcheck", "version": FORMAT_VERSION, "entries": entries}
    if Path(path).exists() and not Path(path).is_file():  # renaming over /dev/null would replace the device
        raise ConfigError(f"{path}: cannot write the baseline: not a regular file")
    tmp = Path(str(path) + ".tmp")
    try:
        tmp.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise ConfigError(f"{path}: cannot write the baseline: {exc.strerror or exc}") from None
    return len(entries)


def read_baseline(path: Path) -> Counter:
    text = read_data_file(Path(path), str(path), "baseline")  # limited: a device or a huge file is refused
    try:
        document = parse_json_data(text, str(path), "baseline")
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: the baseline is not valid JSON ({exc})") from None
    entries = document.get("entries") if isinstance(document, dict) else None
    if not isinstance(document, dict) or document.get("tool") != "bgcheck" or not isinstance(entries, list):
        raise ConfigError(f"{path}: not a bgcheck baseline (expected {{\"tool\": \"bgcheck\", \"entries\": [...]}})")
    version = document.get("version", FORMAT_VERSION)
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise ConfigError(f"{path}: baseline format version {version!r} is not supported (this bgcheck reads version {FORMAT_VERSION}); write it again with --write-baseline")
    keys: Counter = Counter()
    for number, entry in enumerate(entries):
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("code", "path", "fingerprint")):
            raise ConfigError(f"{path}: entry {number}: expected code, path and fingerprint strings")
        keys[(entry["code"], entry["path"], entry["fingerprint"])] += 1
    return keys


def apply_baseline(result, baseline: Counter) -> int:
    """Drop the findings the baseline knows; return how many baseline entries no longer occur."""
    remaining = Counter(baseline)
    # An entry written before a rule split off (BG602 for what is now BG605) still matches.
    splits = max((len(former_codes(d.code)) for d in result.diagnostics), default=0)
    keyings = [_keys(result, undone) for undone in range(splits + 1)]
    kept = []
    for index, diagnostic in enumerate(result.diagnostics):
        key = next((keys[index] for keys in keyings if remaining[keys[index]] > 0), None)
        if key is not None:
            remaining[key] -= 1
        else:
            kept.append(diagnostic)
    result.diagnostics = kept
    # Entries for files this run did not look at (pre-commit passes only the
    # changed files) or codes it did not select are not "gone"; a deleted file's are.
    return sum(
        count
        for (code, path, _fingerprint), count in remaining.items()
        if code in result.codes and (path in result.checked_paths or not Path(path).exists())
    )
