"""``--format gitlab``: a GitLab Code Quality report (a JSON list of issues).

Each issue: ``description``, ``check_name`` (the rule code), ``fingerprint`` (stable across
unrelated edits and line shifts: see bgcheck/fingerprint.py), ``severity`` and
``location: {path, lines: {begin, end}}``. GitLab matches paths against the repository, so run
bgcheck from the repository's root.
"""

from __future__ import annotations

import json

from bgcheck.report.fingerprint import fingerprints

# GitLab's scale is info, minor, major, critical, blocker.
SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def render(result, options) -> str:
    issues = []
    for diagnostic, fingerprint in zip(result.diagnostics, fingerprints(result.diagnostics, result.sources)):
        loc = diagnostic.location
        issues.append(
            {
                "description": f"{diagnostic.code} {diagnostic.message}",
                "check_name": diagnostic.code,
                "fingerprint": fingerprint,
                "severity": SEVERITY[diagnostic.severity.value],
                "location": {"path": loc.path, "lines": {"begin": loc.line, "end": max(loc.line, loc.end_line)}},
            }
        )
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"
