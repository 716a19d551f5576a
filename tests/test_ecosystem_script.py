"""scripts/ecosystem.py, offline: two blind verdicts make one, the fixed split, the report."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
spec = importlib.util.spec_from_file_location("ecosystem_script", SCRIPTS / "ecosystem.py")
ecosystem = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = ecosystem  # dataclasses look their module up
spec.loader.exec_module(ecosystem)

Finding, Verdict = ecosystem.Finding, ecosystem.Verdict
HEADER = "project\tpath\tline\tcode\tjudge\tverdict\treason\n"


def verdict(judge: str, word: str, line: int = 3, project: str = "app") -> Verdict:
    return Verdict(project, "app/a.py", line, "BG602", word, f"{judge} read it", judge)


def test_two_judges_who_agree_give_their_verdict():
    assert ecosystem.combined([verdict("j1", "real"), verdict("j2", "real")]) == "real"
    assert ecosystem.combined([verdict("j1", "false"), verdict("j2", "false")]) == "false"


def test_two_judges_who_differ_make_it_debatable():
    assert ecosystem.combined([verdict("j1", "real"), verdict("j2", "false")]) == "debatable"


def test_one_judge_is_not_a_verdict_and_a_judge_counts_once():
    assert ecosystem.combined([verdict("j1", "real")]) is None
    assert ecosystem.combined([verdict("j1", "real"), verdict("j1", "real")]) is None
    assert ecosystem.combined([]) is None


def test_later_verdicts_never_change_the_first_two():
    rows = [verdict("j1", "real"), verdict("j2", "real"), verdict("j3", "false")]
    assert ecosystem.combined(rows) == "real"


def test_verdict_rows_are_read_by_finding(tmp_path):
    path = tmp_path / "verdicts.tsv"
    path.write_text(HEADER + "app\tapp/a.py\t3\tBG602\tj1\treal\tdropped task\n"
                    "app\tapp/a.py\t3\tBG602\tj2\tdebatable\tshort-lived\n", encoding="utf-8")
    read = ecosystem.read_verdicts(path)
    assert [(v.judge, v.verdict) for v in read[("app", "app/a.py", 3, "BG602")]] == [("j1", "real"), ("j2", "debatable")]


def test_a_split_rules_verdicts_answer_for_the_same_place_under_its_new_code(tmp_path):
    # BG206 split from BG203: a wait judged as BG203 keeps its verdict when reported as BG206,
    # and a finding that only moved code is not listed as gone.
    path = tmp_path / "verdicts.tsv"
    path.write_text(HEADER + "app\tapp/a.py\t7\tBG203\tj1\tfalse\tlocal tool\n"
                    "app\tapp/a.py\t7\tBG203\tj2\tfalse\tlocal tool\n", encoding="utf-8")
    read = ecosystem.read_verdicts(path)
    assert ecosystem.verdict_of(read, ("app", "app/a.py", 7, "BG206")) == "false"
    assert ecosystem.verdict_of(read, ("app", "app/a.py", 7, "BG203")) == "false"
    assert ecosystem.verdict_of(read, ("app", "app/a.py", 8, "BG206")) == "unjudged"
    moved = {("app", "app/a.py", 7, "BG206")}
    assert ecosystem._same_finding_reported(("app", "app/a.py", 7, "BG203"), moved)
    assert not ecosystem._same_finding_reported(("app", "app/a.py", 7, "BG203"), set())
    assert ecosystem._same_finding_reported(("app", "app/a.py", 7, "BG206"), {("app", "app/a.py", 7, "BG203")})


def test_the_splits_are_bgchecks_own():
    from bgcheck.rules.catalog import SPLIT_FROM

    assert ecosystem.SPLIT_FROM == SPLIT_FROM


@pytest.mark.parametrize("row", [
    "app\tapp/a.py\t3\tBG602\tj1\tmaybe\tnot a verdict word",
    "app\tapp/a.py\t3\tBG602\t\treal\tno judge",
    "app\tapp/a.py\t3\tBG602\tj1\treal\t ",
])
def test_a_malformed_verdict_row_stops_the_script(tmp_path, row):
    path = tmp_path / "verdicts.tsv"
    path.write_text(HEADER + row + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="verdicts.tsv:2"):
        ecosystem.read_verdicts(path)


def test_the_split_is_fixed_balanced_within_each_kind_and_mostly_applications():
    half = ecosystem.halves(ecosystem.PROJECTS)
    assert half == ecosystem.halves(list(reversed(ecosystem.PROJECTS)))  # order of the table does not matter
    # each batch is split on its own (an odd batch gives its extra project to the tuning half), so
    # each batch is balanced within one, and the whole within one per odd batch
    for kind in (ecosystem.APPLICATION, ecosystem.LIBRARY):
        batches = {p.batch for p in ecosystem.PROJECTS if p.kind == kind}
        odd = 0
        for batch in batches:
            counts = Counter(half[p.name] for p in ecosystem.PROJECTS if p.kind == kind and p.batch == batch)
            assert 0 <= counts[ecosystem.TUNING] - counts[ecosystem.HELD_OUT] <= 1
            odd += counts[ecosystem.TUNING] - counts[ecosystem.HELD_OUT]
        counts = Counter(half[p.name] for p in ecosystem.PROJECTS if p.kind == kind)
        assert 0 <= counts[ecosystem.TUNING] - counts[ecosystem.HELD_OUT] <= odd
    apps = [p for p in ecosystem.PROJECTS if p.kind == ecosystem.APPLICATION]
    assert len(apps) >= 30 and len(apps) > len(ecosystem.PROJECTS) - len(apps)
    assert len({p.name for p in ecosystem.PROJECTS}) == len(ecosystem.PROJECTS)


def test_the_report_decides_on_the_held_out_half_and_names_only_tuning_findings():
    projects = [
        (ecosystem.Project("tuned==1.0", ("tuned",), ecosystem.APPLICATION), 100, Counter({"Celery": 2})),
        (ecosystem.Project("kept==2.0", ("kept",), ecosystem.LIBRARY), 50, Counter()),
    ]
    half = {"tuned": ecosystem.TUNING, "kept": ecosystem.HELD_OUT}
    findings = [
        Finding("tuned", "tuned/a.py", 3, "BG602", "m"),
        Finding("tuned", "tuned/b.py", 4, "BG101", "m"),
        Finding("kept", "kept/c.py", 5, "BG602", "m"),
        Finding("kept", "kept/d.py", 6, "BG602", "m"),
        Finding("kept", "kept/e.py", 1, "BG000", "not analysed"),
    ]
    rows = [
        Verdict("tuned", "tuned/a.py", 3, "BG602", "real", "dropped", "j1"),
        Verdict("tuned", "tuned/a.py", 3, "BG602", "false", "kept in a set", "j2"),
        Verdict("tuned", "tuned/b.py", 4, "BG101", "real", "swallowed", "j1"),
        Verdict("tuned", "tuned/b.py", 4, "BG101", "real", "swallowed", "j2"),
        Verdict("kept", "kept/c.py", 5, "BG602", "real", "dropped", "j3"),
        Verdict("kept", "kept/c.py", 5, "BG602", "real", "dropped", "j4"),
        Verdict("kept", "kept/gone.py", 9, "BG602", "false", "held-out reason", "j3"),
        Verdict("kept", "kept/gone.py", 9, "BG602", "false", "held-out reason", "j4"),
    ]
    verdicts: dict = {}
    for v in rows:
        verdicts.setdefault(v.key, []).append(v)
    report, unjudged = ecosystem.build_report(
        findings, verdicts, projects, half, {"BG101"}, frozenset({"BG101", "BG204", "BG602"}))
    assert [f.key for f in unjudged] == [("kept", "kept/d.py", 6, "BG602")]
    tables = [block for block in report.split("\n\n") if block.startswith("|")]
    assert tables[0].splitlines()[2:] == [
        "| **held-out: default rules** | 2 | 1 | 0 | 0 | 1 | 100% (too few to measure) |",
        "| **held-out: preview rules** | 0 | 0 | 0 | 0 | 0 | n/a |",
        "| held-out: default rules on applications | 0 | 0 | 0 | 0 | 0 | n/a |",
        "| **tuning: default rules** | 1 | 0 | 0 | 1 | 0 | n/a |",
        "| **tuning: preview rules** | 1 | 1 | 0 | 0 | 0 | 100% (too few to measure) |",
        "| tuning: default rules on applications | 1 | 0 | 0 | 1 | 0 | n/a |",
    ]
    assert tables[1].splitlines()[2:] == [
        "| BG101 (preview) | 0 | 0 | 0 | 0 | 0 | n/a | 1 | 1 | 0 | 0 | 0 | 100% (too few to measure) | too few |",
        "| BG602 | 2 | 1 | 0 | 0 | 1 | 100% (too few to measure) | 1 | 0 | 0 | 1 | 0 | n/a | too few |",
    ]
    assert tables[2].splitlines()[2:] == [
        "| tuned | application | tuning | 1.0 | 100 | Celery 2 | 0/0/1/0 | 1/0/0/0 | 0 |",
        "| kept | library | held-out | 2.0 | 50 | none | 1/0/0/1 | 0/0/0/0 | 1 |",
    ]
    assert "cover them): BG204; preview: none." in report
    # The held-out finding that is gone is counted, never named; the tuning disagreement is named.
    assert "Held-out half: 1 false." in report
    assert "held-out reason" not in report
    assert "- tuned tuned/a.py:3 BG602: real: dropped; false: kept in a set" in report
    assert "- kept kept/d.py:6 BG602 (0 of 2 verdicts)" in report


def test_packets_show_the_finding_as_reported_and_nothing_else(tmp_path):
    finding = Finding("app", "app/a.py", 3, "BG602", "task dropped",
                      {"column": 5, "name": "task-dropped", "explanation": "the loop keeps no reference",
                       "notes": [{"path": "app/b.py", "line": 7, "message": "-> run()"}]})
    judged = Finding("app", "app/z.py", 1, "BG602", "judged")
    verdicts = {judged.key: [Verdict("app", "app/z.py", 1, "BG602", "real", "r", "j1"),
                             Verdict("app", "app/z.py", 1, "BG602", "real", "r", "j2")]}
    assert ecosystem.write_packets([finding, judged], verdicts, tmp_path) == 1
    assert (tmp_path / "app.md").read_text(encoding="utf-8").splitlines() == [
        "# Findings to judge: app (app)",
        "",
        "Source: scripts/.ecosystem/src/app/ (paths below are relative to it). Rule pages: rules/<CODE>.md.",
        "",
        "## app/a.py:3:5 BG602 (task-dropped)",
        "",
        "Message: task dropped",
        "Explanation: the loop keeps no reference",
        "Note: app/b.py:7: -> run()",
    ]


@pytest.mark.parametrize("held_out, tuning, expected", [
    (Counter(real=9, false=1), Counter(false=30), "default"),  # measured on the held-out half: 90%
    (Counter(real=8, false=2), Counter(real=30), "preview"),  # 80% there, whatever the tuning half says
    (Counter(real=1, false=2, debatable=40), Counter(), "preview"),  # too few, but two false and below the bar
    (Counter(real=3), Counter(false=2), "preview"),  # both halves together: 3 of 5
    (Counter(real=2, false=1), Counter(real=7), "too few"),  # both halves: 9 of 10, the bar
    (Counter(false=1), Counter(), "too few"),
    (Counter(debatable=14), Counter(), "too few"),
])
def test_the_place_a_rule_gets(held_out, tuning, expected):
    assert ecosystem.place(held_out, tuning) == expected


def test_every_finding_is_written_with_its_half_and_verdict(tmp_path):
    verdicts = ecosystem.read_verdicts(tmp_path / "none.tsv")
    verdicts[("app", "app/a.py", 3, "BG602")] = [verdict("j1", "real"), verdict("j2", "real")]
    findings = [Finding("app", "app/b.py", 9, "BG203", "A `requests` call waits with no timeout"),
                Finding("app", "app/a.py", 3, "BG602", "The task is thrown away")]
    out = tmp_path / "findings.tsv"
    ecosystem.write_findings(findings, verdicts, {"app": ecosystem.HELD_OUT}, out)
    assert out.read_text(encoding="utf-8").splitlines() == [
        "project\thalf\tpath\tline\tcode\tverdict\tmessage",
        "app\theld-out\tapp/a.py\t3\tBG602\treal\tThe task is thrown away",
        "app\theld-out\tapp/b.py\t9\tBG203\tunjudged\tA `requests` call waits with no timeout",
    ]


def test_sdists_are_found_by_their_normalized_name(tmp_path):
    # PEP 625: an sdist's file name spells runs of "-", "_" and "." as one "_"
    for name in ("docassemble_webapp-1.10.14.tar.gz", "postfix_mta_sts_resolver-1.5.1.tar.gz", "GeoNode-2.10.tar.gz"):
        (tmp_path / name).write_bytes(b"")
    assert ecosystem._find_sdist(tmp_path, "docassemble.webapp", "1.10.14").name == "docassemble_webapp-1.10.14.tar.gz"
    assert ecosystem._find_sdist(tmp_path, "postfix-mta-sts-resolver", "1.5.1").name == "postfix_mta_sts_resolver-1.5.1.tar.gz"
    assert ecosystem._find_sdist(tmp_path, "geonode", "2.10").name == "GeoNode-2.10.tar.gz"
    assert ecosystem._find_sdist(tmp_path, "geonode", "2.1") is None


def test_a_kept_run_gives_back_its_findings_and_projects(tmp_path):
    app, lib = ecosystem.Project("app==1.0", ("app",), ecosystem.APPLICATION), ecosystem.Project("lib==2.0", ("lib",), ecosystem.LIBRARY)
    findings = [Finding("app", "app/a.py", 3, "BG602", "The task is thrown away", {"column": 5, "notes": []}),
                Finding("lib", "lib/b.py", 9, "BG203", "A `requests` call waits with no timeout")]
    projects = [(app, 120, Counter({"asyncio": 2})), (lib, 40, Counter())]
    kept = tmp_path / "run.json"
    ecosystem.save_run(kept, findings, projects)
    assert ecosystem.load_run(kept, [app, lib]) == (findings, projects)
    assert ecosystem.load_run(kept, [lib]) == (findings[1:], projects[1:])
    assert [f.detail for f in ecosystem.load_run(kept, [app])[0]] == [{"column": 5, "notes": []}]


def test_a_kept_run_of_another_version_is_refused(tmp_path):
    kept = tmp_path / "run.json"
    ecosystem.save_run(kept, [], [(ecosystem.Project("app==1.0", ("app",), ecosystem.APPLICATION), 10, Counter())])
    with pytest.raises(SystemExit, match="has no run of app"):
        ecosystem.load_run(kept, [ecosystem.Project("app==1.1", ("app",), ecosystem.APPLICATION)])
