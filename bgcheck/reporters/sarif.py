"""``--format sarif``: SARIF 2.1.0, as GitHub code scanning accepts it."""

from __future__ import annotations

import json

from bgcheck import PROJECT_URL, __version__
from bgcheck.fingerprint import fingerprints
from bgcheck.pages import read_page
from bgcheck.rules import all_rules

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def help_uri(code: str) -> str:
    return f"{PROJECT_URL}/blob/main/rules/{code}.md"


def _full_description(code: str, summary: str) -> str:
    """The "What it does" paragraph of the rule's page, or the summary."""
    page = read_page(code) or ""
    if "## What it does" in page:
        body = page.split("## What it does", 1)[1].split("\n## ", 1)[0].strip()
        if body:
            return " ".join(body.split())
    return summary


def _region(loc) -> dict:
    return {"startLine": loc.line, "startColumn": loc.column, "endLine": loc.end_line, "endColumn": max(loc.end_column, 1)}


def _physical(loc) -> dict:
    return {"artifactLocation": {"uri": loc.path, "uriBaseId": "%SRCROOT%"}, "region": _region(loc)}


def rule_descriptors() -> list[dict]:
    from bgcheck.cli import rule_table

    return [
        {
            "id": row["code"],
            "name": "".join(part.capitalize() for part in row["name"].split("-")),
            "shortDescription": {"text": row["summary"]},
            "fullDescription": {"text": _full_description(row["code"], row["summary"])},
            "helpUri": help_uri(row["code"]),
            "defaultConfiguration": {"level": _LEVEL[row["severity"]]},
            "properties": {"tags": [row["name"]]},
        }
        for row in rule_table()
    ]


def render(result, options) -> str:
    rules = rule_descriptors()
    index_of = {rule["id"]: i for i, rule in enumerate(rules)}
    prints = fingerprints(result.diagnostics, result.sources)
    results = []
    for diagnostic, fingerprint in zip(result.diagnostics, prints):
        entry = {
            "ruleId": diagnostic.code,
            "ruleIndex": index_of.get(diagnostic.code, 0),
            "level": _LEVEL[diagnostic.severity.value],
            "message": {"text": diagnostic.message},
            "locations": [{"physicalLocation": _physical(diagnostic.location)}],
            "partialFingerprints": {"bgcheck/v1": fingerprint},
        }
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
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
