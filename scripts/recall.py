#!/usr/bin/env python3
"""bgcheck's recall check: bugs that real projects fixed, on the release from before the fix.

    python scripts/recall.py                   # fetch if needed, check every case, write the report
    python scripts/recall.py --project anyio   # one project only (the report is not rewritten)

Each case in scripts/recall/cases.tsv is a bug a project fixed: the PyPI sdist of a version
from before the fix (pinned), the file and the lines of the bug, the rule that should flag it
and where the fix is known from (issue, pull request or fixed version). Every case was
confirmed by reading the pinned sdist: the code is there and it is the failure the rule
describes. The package folders are fetched into scripts/.recall/ (git-ignored) the way
scripts/ecosystem.py fetches its corpus, and bgcheck runs on each with the preview rules on.
A case is found when a finding of the expected code lies within the case's lines in that
file. The report (per case found or missed, recall per rule, default rules and preview rules
apart) is printed and written to scripts/recall/report.md, and its rule table to the README.

An optional eighth column says why bgcheck missed the case when it was written down (what
the model does not see); a case found while it still carries such a note is listed, so the
note is removed once a rule learns the case.

scripts/recall/fixed.tsv holds the other side, in the same columns: the same places in the
release WITH the fix, code a maintainer made right. bgcheck should be silent there; a finding of
the row's code (or a code split from it) on its lines is a false alarm, and the report counts
them, the default run's apart (its eighth column says why bgcheck still flags it). The exit code is 0 whatever the recall: misses
are the measure, not a failure. Like the ecosystem check this is run by hand: CI does not
run it (it needs the network the first time).
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter, defaultdict
import dataclasses
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ecosystem  # noqa: E402  (fetching and running are the ecosystem check's)

WORK = HERE / ".recall"
CASES = HERE / "recall" / "cases.tsv"
FIXED = HERE / "recall" / "fixed.tsv"
REPORT = HERE / "recall" / "report.md"
README_START = "<!-- recall table: written by scripts/recall.py -->"
README_END = "<!-- end of recall table -->"


@dataclass(frozen=True)
class Case:
    pin: str  # name==version of the sdist from before the fix
    folder: str  # the package folder inside the sdist, as in ecosystem.PINNED
    path: str  # the buggy file, relative to the sdist's top folder
    first: int
    last: int
    code: str
    source: str  # what the bug is and where its fix is known from
    note: str = ""  # why bgcheck missed it when the case was written down

    @property
    def project(self) -> str:
        return ecosystem.project_name(self.pin)

    @property
    def label(self) -> str:
        """The folder the sdist is unpacked into: one per project and version."""
        return self.pin.replace("==", "-")

    @property
    def checked_path(self) -> str:
        """The path bgcheck reports: ecosystem.fetch keeps the package folder's last part."""
        inside = self.path[len(self.folder):].lstrip("/")
        return f"{Path(self.folder).name}/{inside}"

    @property
    def where(self) -> str:
        lines = f"{self.first}" if self.first == self.last else f"{self.first}-{self.last}"
        return f"{self.path}:{lines}"


def read_cases(path: Path = CASES) -> list[Case]:
    cases: list[Case] = []
    with open(path, encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t"), start=1):
            if not row or row[0].startswith("#") or row[0] == "pin":
                continue
            if len(row) not in (7, 8) or "==" not in row[0] or not row[6].strip():
                sys.exit(f"recall: {path.name}:{number}: want pin (name==version), folder, path, first line, "
                         f"last line, code, source[, why missed]; got {row!r}")
            case = Case(row[0], row[1].strip("/"), row[2], int(row[3]), int(row[4]), row[5], row[6].strip(),
                        row[7].strip() if len(row) == 8 else "")
            if case.first > case.last or not (case.path + "/").startswith(case.folder + "/"):
                sys.exit(f"recall: {path.name}:{number}: the lines must be in order and the path inside the folder")
            cases.append(case)
    return cases


def is_found(case: Case, findings: list[ecosystem.Finding]) -> bool:
    """A finding of the case's code in the case's file, on one of its lines, or one of that code
    whose note is there: BG604 reports a call, made inside a transaction, of a function that
    publishes, at the call, with the publish as a note (``found_at_a_note`` tells these apart).
    A code split from the case's code counts as it (BG105 from BG101): the same finding, reported
    under the code the split gave it (``found_as`` says which)."""
    return _on_its_lines(case, findings) or found_at_a_note(case, findings)


def codes_for(case: Case) -> set[str]:
    """The case's code and the codes split from it (ecosystem.codes_split_from)."""
    return {case.code} | ecosystem.codes_split_from(case.code)


def _codes_on_its_lines(case: Case, findings: list[ecosystem.Finding]) -> set[str]:
    """The case's codes (codes_for) reported in the case's file on one of its lines."""
    codes = codes_for(case)
    return {f.code for f in findings if f.code in codes and f.path == case.checked_path and case.first <= f.line <= case.last}


def _codes_at_a_note(case: Case, findings: list[ecosystem.Finding]) -> set[str]:
    """The case's codes reported elsewhere with a note pointing at the case's lines."""
    codes = codes_for(case)
    return {
        f.code for f in findings
        if f.code in codes and any(
            n.get("path") == case.checked_path and case.first <= (n.get("line") or 0) <= case.last
            for n in f.detail.get("notes") or ()
        )
    }


def found_as(case: Case, findings: list[ecosystem.Finding]) -> str:
    """The code the case was found under: its own when reported so, else a code split from it."""
    hits = flagged_codes(case, findings)
    return case.code if case.code in hits or not hits else sorted(hits)[0]


def found_at_a_note(case: Case, findings: list[ecosystem.Finding]) -> bool:
    """A finding of the case's code elsewhere whose note points at the case's lines."""
    return bool(_codes_at_a_note(case, findings))


def _on_its_lines(case: Case, findings: list[ecosystem.Finding]) -> bool:
    return bool(_codes_on_its_lines(case, findings))


def others_in_range(case: Case, findings: list[ecosystem.Finding]) -> list[str]:
    """Other codes reported on the case's lines (a neighbouring rule may have it)."""
    return sorted({
        f.code for f in findings
        if f.code not in codes_for(case) and f.path == case.checked_path and case.first <= f.line <= case.last
    })


def recall(found: int, total: int) -> str:
    return f"{100 * found / total:.0f}%" if total else "n/a"


def rule_table(results: list[tuple[Case, bool]], preview_codes: set[str]) -> list[str]:
    """Recall per rule, then the default rules and the preview rules apart, then all."""
    lines = ["| rule | cases | found | missed | recall |", "|---|---:|---:|---:|---:|"]
    by_rule: dict[str, Counter] = defaultdict(Counter)
    for case, found in results:
        by_rule[case.code]["found" if found else "missed"] += 1

    def row(label: str, c: Counter) -> str:
        n = c["found"] + c["missed"]
        return f"| {label} | {n} | {c['found']} | {c['missed']} | {recall(c['found'], n)} |"

    for code in sorted(by_rule):
        lines.append(row(f"{code} (preview)" if code in preview_codes else code, by_rule[code]))
    for title, preview in (("default rules", False), ("preview rules", True)):
        total = Counter()
        for code, c in by_rule.items():
            if (code in preview_codes) == preview:
                total.update(c)
        lines.append(row(f"**{title}**", total))
    everything = Counter()
    for c in by_rule.values():
        everything.update(c)
    lines.append(row("**all**", everything))
    return lines


def found_by_a_default_run(case: Case, findings: list[ecosystem.Finding], preview_codes: set[str]) -> bool:
    """Found under a code a default run reports (the case's own or a split code not in preview)."""
    return is_found(case, findings) and found_as(case, findings) not in preview_codes


def flagged_codes(row: Case, findings: list[ecosystem.Finding]) -> set[str]:
    """The codes (the row's and its splits) reported on a case's or fixed row's lines, or at a note there."""
    return _codes_on_its_lines(row, findings) | _codes_at_a_note(row, findings)


def fixed_section(fixed: list[Case], findings: dict[str, list[ecosystem.Finding]], preview_codes: set[str]) -> list[str]:
    """The fixed releases: silent or flagged, false alarms counted for all rules and a default run."""
    flagged = {row: flagged_codes(row, findings[row.label]) for row in fixed}
    alarms = sum(1 for codes in flagged.values() if codes)
    default_alarms = sum(1 for codes in flagged.values() if codes - preview_codes)
    lines = [
        "## The fixed releases",
        "",
        "The same places in the release with the fix (`scripts/recall/fixed.tsv`): code a maintainer",
        "made right, where bgcheck should be silent.",
        "",
        f"False alarms: {alarms} of {len(fixed)} with the preview rules on; "
        f"{default_alarms} of {len(fixed)} in a default run.",
        "",
        "| | rule | project | where | fix |",
        "|---|---|---|---|---|",
    ]
    for row in fixed:
        codes = flagged[row]
        mark = f"**flagged** ({', '.join(sorted(codes))})" if codes else "silent"
        lines.append(f"| {mark} | {row.code} | {row.pin} | `{row.where}` | {row.source} |")
    lines.append("")
    for row in fixed:
        if flagged[row]:
            why = row.note or "no reason written down yet: read the code and add one to fixed.tsv"
            lines.append(f"- flagged: {row.code} {row.pin} `{row.where}`: {why}")
    return lines


def build_report(
    cases: list[Case], findings: dict[str, list[ecosystem.Finding]], preview_codes: set[str],
    fixed: list[Case] = (),
) -> str:
    results = [(case, is_found(case, findings[case.label])) for case in cases]
    by_default = sum(1 for case in cases if found_by_a_default_run(case, findings[case.label], preview_codes))
    # Counted under the code that found it: a case found only under a split code counts for that
    # code (its place, default or preview, is that code's).
    counted = [(dataclasses.replace(case, code=found_as(case, findings[case.label])) if found else case, found) for case, found in results]
    lines = [
        "# Recall check",
        "",
        "Bugs that real projects fixed, checked on the PyPI sdist from before the fix",
        "(`scripts/recall/cases.tsv`). A case is found when bgcheck reports the expected code on the",
        "case's lines, or reports it elsewhere with a note on them (\"found at a note\": BG604 at the",
        "call made inside a transaction, the publish below it as a note), with the preview rules on.",
        "Produced by `python scripts/recall.py`.",
        "",
        f"A default run (no preview rules) finds {by_default} of {len(cases)} cases ({recall(by_default, len(cases))}).",
        "",
        *rule_table(counted, preview_codes),
        "",
        "| | rule | project | where | bug, and where the fix is known from |",
        "|---|---|---|---|---|",
    ]
    for case, found in results:
        mark = ("found at a note" if found_at_a_note(case, findings[case.label]) and not _on_its_lines(case, findings[case.label])
                else "found") if found else "**missed**"
        code = found_as(case, findings[case.label]) if found else case.code
        mark += f" as {code}" if code != case.code else ""
        lines.append(f"| {mark} | {case.code} | {case.pin} | `{case.where}` | {case.source} |")
    lines.append("")
    missed = [case for case, found in results if not found]
    if missed:
        lines += [f"## Missed ({len(missed)})", ""]
        for case in missed:
            others = others_in_range(case, findings[case.label])
            also = f" (reported there instead: {', '.join(others)})" if others else ""
            why = case.note or "no reason written down yet: read the code and add one to cases.tsv"
            lines.append(f"- {case.code} {case.pin} `{case.where}`{also}: {why}")
        lines.append("")
    stale = [case for case, found in results if found and case.note]
    if stale:
        lines += [f"## Found, but cases.tsv still says why they were missed ({len(stale)})", ""]
        lines += [f"- {case.code} {case.pin} `{case.where}`: remove the note ({case.note})" for case in stale]
        lines.append("")
    if fixed:
        lines += fixed_section(list(fixed), findings, preview_codes)
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", action="append", help="only this project (repeatable)")
    args = parser.parse_args()

    cases = [c for c in read_cases() if not args.project or c.project in args.project]
    fixed = [c for c in read_cases(FIXED) if not args.project or c.project in args.project] if FIXED.exists() else []
    if not cases and not fixed:
        sys.exit("recall: no such project in cases.tsv")
    findings: dict[str, list[ecosystem.Finding]] = {}
    for case in [*cases, *fixed]:
        if case.label in findings:
            continue
        root = ecosystem.fetch(case.pin, case.folder, work=WORK, label=case.label)
        findings[case.label] = ecosystem.check(case.project, root)
        print(f"{case.pin}: {len(findings[case.label])} findings", file=sys.stderr)

    report = build_report(cases, findings, ecosystem.preview_rules(), fixed)
    print(report)
    if not args.project:
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        REPORT.write_text(report + "\n", encoding="utf-8")
        ecosystem.write_readme_table(report, README_START, README_END, tables=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
