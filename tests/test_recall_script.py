"""scripts/recall.py, offline: reading cases, matching findings to a case, the report."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
spec = importlib.util.spec_from_file_location("recall_script", SCRIPTS / "recall.py")
recall = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = recall  # dataclasses look their module up
spec.loader.exec_module(recall)
Finding = recall.ecosystem.Finding

HEADER = "pin\tfolder\tpath\tfirst\tlast\tcode\tsource\twhy missed\n"


def write_cases(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "cases.tsv"
    path.write_text(HEADER + "".join(row + "\n" for row in rows), encoding="utf-8")
    return path


def test_a_case_is_found_by_its_code_on_its_lines_in_its_file(tmp_path):
    (case,) = recall.read_cases(write_cases(
        tmp_path, "demo==1.0\tsrc/demo\tsrc/demo/jobs.py\t10\t12\tBG101\tloop swallows cancel; PR #1"))
    assert case.checked_path == "demo/jobs.py"  # the folder's last part, as ecosystem.fetch copies it
    assert case.label == "demo-1.0"

    def at(line: int, code: str = "BG101", path: str = "demo/jobs.py") -> list:
        return [Finding("demo", path, line, code, "message")]

    assert recall.is_found(case, at(10)) and recall.is_found(case, at(12))
    assert not recall.is_found(case, at(9)) and not recall.is_found(case, at(13))
    assert not recall.is_found(case, at(11, code="BG102"))
    assert not recall.is_found(case, at(11, path="demo/other.py"))
    assert recall.others_in_range(case, at(11, code="BG102")) == ["BG102"]


def test_a_case_is_found_at_a_note_of_its_code(tmp_path):
    """BG604 reports a call made inside a transaction at the call, with the publish (the case's
    lines) as a note: found, and told apart in the report."""
    (case,) = recall.read_cases(write_cases(
        tmp_path, "demo==1.0\tsrc/demo\tsrc/demo/models.py\t40\t42\tBG604\tpublish under a caller's atomic; PR #2"))

    def with_note(code: str, line: int) -> list:
        return [Finding("demo", "demo/models.py", 7, code, "message", {"notes": [{"path": "demo/models.py", "line": line, "message": "-> publishes"}]})]

    assert recall.is_found(case, with_note("BG604", 41)) and recall.found_at_a_note(case, with_note("BG604", 41))
    assert not recall.is_found(case, with_note("BG604", 43))
    assert not recall.is_found(case, with_note("BG602", 41))
    report = recall.build_report([case], {case.label: with_note("BG604", 41)}, {"BG604"})
    assert "| found at a note | BG604 | demo==1.0 |" in report


def test_malformed_rows_are_refused(tmp_path):
    with pytest.raises(SystemExit):
        recall.read_cases(write_cases(tmp_path, "demo-1.0\tdemo\tdemo/a.py\t1\t2\tBG101\tno pin"))
    with pytest.raises(SystemExit):
        recall.read_cases(write_cases(tmp_path, "demo==1.0\tdemo\tother/a.py\t1\t2\tBG101\tpath outside folder"))
    with pytest.raises(SystemExit):
        recall.read_cases(write_cases(tmp_path, "demo==1.0\tdemo\tdemo/a.py\t5\t2\tBG101\tlines reversed"))


def test_report_counts_default_and_preview_rules_apart(tmp_path):
    cases = recall.read_cases(write_cases(
        tmp_path,
        "demo==1.0\tdemo\tdemo/a.py\t3\t3\tBG101\tswallowed cancel\t",
        "demo==1.0\tdemo\tdemo/a.py\t8\t8\tBG602\tdropped task\tthe helper's return is not followed",
        "demo==1.0\tdemo\tdemo/b.py\t1\t1\tBG602\tdropped task, found\tstale note",
    ))
    findings = {"demo-1.0": [Finding("demo", "demo/a.py", 3, "BG101", "m"), Finding("demo", "demo/b.py", 1, "BG602", "m")]}
    report = recall.build_report(cases, findings, preview_codes={"BG101"})
    assert "| BG101 (preview) | 1 | 1 | 0 | 100% |" in report
    assert "| BG602 | 2 | 1 | 1 | 50% |" in report
    assert "| **default rules** | 2 | 1 | 1 | 50% |" in report
    assert "| **preview rules** | 1 | 1 | 0 | 100% |" in report
    assert "- BG602 demo==1.0 `demo/a.py:8`: the helper's return is not followed" in report
    assert "remove the note (stale note)" in report


def test_a_case_found_under_a_code_split_from_its_code_counts_for_that_code(tmp_path):
    """BG105 split from BG101: a BG101 case reported as BG105 is found (the same finding, under the
    code the split gave it), marked so, and counted for BG105, whose place (preview) it takes; a
    case of the new code is not found by the old one."""
    cases = recall.read_cases(write_cases(
        tmp_path,
        "demo==1.0\tdemo\tdemo/a.py\t3\t3\tBG101\treader breaks out on cancel\t",
        "demo==1.0\tdemo\tdemo/a.py\t9\t9\tBG105\tswallowed on return\t",
    ))
    findings = {"demo-1.0": [Finding("demo", "demo/a.py", 3, "BG105", "m"), Finding("demo", "demo/a.py", 9, "BG101", "m")]}
    assert recall.is_found(cases[0], findings["demo-1.0"]) and recall.found_as(cases[0], findings["demo-1.0"]) == "BG105"
    assert not recall.is_found(cases[1], findings["demo-1.0"])
    report = recall.build_report(cases, findings, preview_codes={"BG101", "BG105"})
    assert "| found as BG105 | BG101 | demo==1.0 | `demo/a.py:3` |" in report
    assert "| BG105 (preview) | 2 | 1 | 1 | 50% |" in report
    assert "BG101 (preview)" not in report


def test_a_default_run_counts_only_cases_found_under_a_default_code(tmp_path):
    """The hidden measure's question: what does a run with no preview rules find? A BG101 case
    found as BG105 (preview) is found, but not by a default run."""
    cases = recall.read_cases(write_cases(
        tmp_path,
        "demo==1.0\tdemo\tdemo/a.py\t3\t3\tBG101\treader breaks out on cancel\t",
        "demo==1.0\tdemo\tdemo/a.py\t9\t9\tBG203\tno timeout\t",
        "demo==1.0\tdemo\tdemo/a.py\t20\t20\tBG203\tno timeout, missed\t",
    ))
    findings = {"demo-1.0": [Finding("demo", "demo/a.py", 3, "BG105", "m"), Finding("demo", "demo/a.py", 9, "BG203", "m")]}
    assert not recall.found_by_a_default_run(cases[0], findings["demo-1.0"], {"BG105"})
    assert recall.found_by_a_default_run(cases[1], findings["demo-1.0"], {"BG105"})
    report = recall.build_report(cases, findings, preview_codes={"BG105"})
    assert "A default run (no preview rules) finds 1 of 3 cases (33%)." in report


def test_fixed_releases_count_false_alarms_all_rules_and_default_apart(tmp_path):
    """fixed.tsv: the same places after the fix. A finding of the row's code (or a split of it)
    on its lines is a false alarm; one of a preview code counts only with the preview rules on;
    another rule's finding there is not this row's alarm."""
    fixed = recall.read_cases(write_cases(
        tmp_path,
        "demo==1.1\tdemo\tdemo/a.py\t3\t4\tBG101\tre-raises now; PR #1\t",
        "demo==1.1\tdemo\tdemo/a.py\t9\t9\tBG203\ttimeout added; PR #2\tthe timeout is a settings value",
        "demo==1.1\tdemo\tdemo/a.py\t20\t20\tBG602\ttask kept; PR #3\t",
        "demo==1.1\tdemo\tdemo/a.py\t30\t30\tBG604\ton_commit; PR #4\t",
    ))
    findings = {"demo-1.1": [
        Finding("demo", "demo/a.py", 4, "BG105", "m"),  # split from BG101, preview
        Finding("demo", "demo/a.py", 9, "BG203", "m"),  # default
        Finding("demo", "demo/a.py", 30, "BG602", "m"),  # another rule on BG604's row
    ]}
    assert recall.flagged_codes(fixed[0], findings["demo-1.1"]) == {"BG105"}
    assert recall.flagged_codes(fixed[3], findings["demo-1.1"]) == set()
    report = recall.build_report([], findings, preview_codes={"BG105", "BG602"}, fixed=fixed)
    assert "False alarms: 2 of 4 with the preview rules on; 1 of 4 in a default run." in report
    assert "| **flagged** (BG105) | BG101 | demo==1.1 | `demo/a.py:3-4` |" in report
    assert "| silent | BG602 | demo==1.1 | `demo/a.py:20` |" in report
    assert "- flagged: BG203 demo==1.1 `demo/a.py:9`: the timeout is a settings value" in report
