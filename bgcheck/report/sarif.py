"""``--format sarif``: SARIF 2.1.0, as GitHub code scanning accepts it."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from bgcheck import PROJECT_URL, __version__
from bgcheck.report.fingerprint import fingerprints
from bgcheck.rules.pages import read_page

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SRCROOT = "%SRCROOT%"
# GitHub code scanning rejects rule descriptions longer than this.
MAX_DESCRIPTION = 1024


def help_uri(code: str) -> str:
    return f"{PROJECT_URL}/blob/main/rules/{code}.md"


def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """``text`` cut to ``limit`` characters at a sentence (else a word) boundary, marked with an ellipsis."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    cut = head.rfind(". ")
    if cut >= limit // 2:
        return head[: cut + 1] + " \u2026"
    cut = head.rfind(" ")
    return (head[:cut] if cut >= limit // 2 else head).rstrip() + "\u2026"


def _full_description(code: str, summary: str) -> str:
    """The "What it does" section of the rule's page (at most 1024 characters), or the summary."""
    page = read_page(code) or ""
    if "## What it does" in page:
        body = page.split("## What it does", 1)[1].split("\n## ", 1)[0].strip()
        if body:
            return _clip(" ".join(body.split()))
    return _clip(summary)


def _region(loc) -> dict:
    return {"startLine": loc.line, "startColumn": loc.column, "endLine": loc.end_line, "endColumn": max(loc.end_column, 1)}


def artifact_location(path: str) -> dict:
    """A reported path as a SARIF artifactLocation.

    Paths below the working directory are reported relative to it: a relative URI reference
    (percent-encoded, so a space, ``%``, ``#`` or a ``:`` in the first segment stays part of the
    path) against ``%SRCROOT%``. A file outside it gets an absolute ``file:`` URI."""
    if Path(path).is_absolute():
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(PurePosixPath(path).as_posix(), safe="/"), "uriBaseId": SRCROOT}


def _physical(loc) -> dict:
    return {"artifactLocation": artifact_location(loc.path), "region": _region(loc)}


def rule_descriptors() -> list[dict]:
    from bgcheck.rules import rule_table

    descriptors = []
    for row in rule_table():
        full = _full_description(row["code"], row["summary"])
        uri = help_uri(row["code"])
        descriptors.append(
            {
                "id": row["code"],
                "name": "".join(part.capitalize() for part in row["name"].split("-")),
                "shortDescription": {"text": _clip(row["summary"])},
                "fullDescription": {"text": full},
                "help": {
                    "text": f"{full}\n\nRule page: {uri}",
                    "markdown": f"{full}\n\n[{row['code']} {row['name']}]({uri})",
                },
                "helpUri": uri,
                "defaultConfiguration": {"level": _LEVEL[row["severity"]]},
                "properties": {"tags": [row["name"]]},
            }
        )
    return descriptors


def render(result, options) -> str:
    rules = rule_descriptors()
    index_of = {rule["id"]: i for i, rule in enumerate(rules)}
    prints = fingerprints(result.diagnostics, result.sources)
    results = []
    for diagnostic, fingerprint in zip(result.diagnostics, prints):
        entry = {"ruleId": diagnostic.code}
        if diagnostic.code in index_of:  # never an index that points at another rule
            entry["ruleIndex"] = index_of[diagnostic.code]
        entry.update(
            {
                "level": _LEVEL[diagnostic.severity.value],
                "message": {"text": diagnostic.message},
                "locations": [{"physicalLocation": _physical(diagnostic.location)}],
                "partialFingerprints": {"bgcheck/v1": fingerprint},
            }
        )
        if diagnostic.explanation:  # the message stays short; the rule's fullDescription says more
            entry["properties"] = {"explanation": diagnostic.explanation}
        if diagnostic.related:
            entry["relatedLocations"] = [
                {"id": i, "physicalLocation": _physical(r), "message": {"text": r.message or "related"}}
                for i, r in enumerate(diagnostic.related)
            ]
        results.append(entry)
    document = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "bgcheck",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": PROJECT_URL,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
