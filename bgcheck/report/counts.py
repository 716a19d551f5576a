"""Counting findings, shared by the reporters."""

from __future__ import annotations

from collections import Counter


def counts(result) -> dict:
    by_severity = Counter(d.severity.value for d in result.diagnostics)
    by_code = Counter(d.code for d in result.diagnostics)
    return {
        "files_checked": result.files_checked,
        "total": len(result.diagnostics),
        "errors": by_severity.get("error", 0),
        "warnings": by_severity.get("warning", 0),
        "infos": by_severity.get("info", 0),
        "by_code": dict(sorted(by_code.items())),
    }


def plural(n: int, word: str, words: str = "") -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"
