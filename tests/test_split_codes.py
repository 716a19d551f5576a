"""A rule split off another (BG605 from BG602, BG206 from BG203, BG105 from BG101): what a user wrote for the old
code before upgrading still covers the new one (``# noqa``, ``select``/``ignore``, per-file
ignores, baseline entries), and never the other way round.

Each test works on a small project in ``tmp_path`` with one dropped task (BG602: its coroutine's
calls to another service fail unseen) and one dropped
executor future (BG605, which was reported as BG602 before the split), run with ``--no-cache``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from bgcheck.rules import all_rules, catalog

APP = """\
import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

POOL = ThreadPoolExecutor(max_workers=2)


def write_audit(path, entry):
    with open(path, "a") as out:
        out.write(json.dumps(entry) + "\\n")


async def push(client, entry):
    await client.send(await client.encode(entry))


async def handle(client, entry):
    asyncio.create_task(push(client, entry)){task_comment}
    POOL.submit(write_audit, "audit.log", entry){future_comment}
"""
TASK_LINE, FUTURE_LINE = 18, 19


def project(tmp_path: Path, task_comment: str = "", future_comment: str = "", config: str = "") -> Path:
    (tmp_path / "app.py").write_text(APP.format(task_comment=task_comment, future_comment=future_comment), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(f"[tool.bgcheck]\npreview = true\n{config}", encoding="utf-8")
    return tmp_path


def run(folder: Path, *args: str) -> tuple[int, list[tuple[str, int]], str]:
    """``bgcheck check --format json ARGS`` in ``folder``: exit code, (code, line) of each finding, stderr."""
    previous = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(main, ["check", "-j", "1", "--no-cache", "--format", "json", *args])
    finally:
        os.chdir(previous)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    found = [(d["code"], d["line"]) for d in json.loads(result.stdout)["diagnostics"]] if result.stdout else []
    return result.exit_code, found, result.stderr


BOTH = [("BG602", TASK_LINE), ("BG605", FUTURE_LINE)]


def test_the_table_is_the_rules_own_and_names_known_codes():
    assert catalog.SPLIT_FROM == {rule.code: rule.split_from for rule in all_rules() if rule.split_from}
    assert catalog.SPLIT_FROM == {"BG105": "BG101", "BG106": "BG104", "BG206": "BG203", "BG605": "BG602", "BG606": "BG602"}
    known = {row[0] for row in catalog.RULES}
    assert set(catalog.SPLIT_FROM) <= known and set(catalog.SPLIT_FROM.values()) <= known
    assert catalog.former_codes("BG605") == ("BG602",)
    assert catalog.former_codes("BG602") == ()
    assert catalog.former_codes("BG101") == ()


def test_both_findings_without_anything_written(tmp_path):
    assert run(project(tmp_path))[:2] == (1, BOTH)


# ---------------------------------------------------------------------------
# noqa


def test_noqa_of_the_old_code_covers_the_new(tmp_path):
    assert run(project(tmp_path, future_comment="  # noqa: BG602"))[:2] == (1, [("BG602", TASK_LINE)])


def test_noqa_of_the_new_code_does_not_cover_the_old(tmp_path):
    assert run(project(tmp_path, task_comment="  # noqa: BG605"))[:2] == (1, BOTH)


def test_an_old_code_that_suppressed_a_split_finding_is_not_unused(tmp_path):
    folder = project(tmp_path, future_comment="  # noqa: BG602")
    assert run(folder, "--extend-select", "BG001")[:2] == (1, [("BG602", TASK_LINE)])


def test_an_old_code_on_a_line_with_no_finding_is_still_unused(tmp_path):
    folder = project(tmp_path, task_comment="  # noqa: BG602", future_comment="  # noqa: BG602, BG605")
    assert run(folder, "--extend-select", "BG001")[:2] == (1, [("BG001", FUTURE_LINE)])


# ---------------------------------------------------------------------------
# select, ignore, per-file ignores


@pytest.mark.parametrize(
    "config, args, expected",
    [
        ('ignore = ["BG602"]\n', (), []),
        ("", ("--ignore", "BG602"), []),
        ("", ("--ignore", "BG605"), [("BG602", TASK_LINE)]),
        ('ignore = ["BG605"]\n', (), [("BG602", TASK_LINE)]),
        ('select = ["BG602"]\n', (), BOTH),
        ("", ("--select", "BG602"), BOTH),
        ("", ("--select", "BG605"), [("BG605", FUTURE_LINE)]),
        ('[tool.bgcheck.per-file-ignores]\n"app.py" = ["BG602"]\n', (), []),
        ('[tool.bgcheck.per-file-ignores]\n"app.py" = ["BG605"]\n', (), [("BG602", TASK_LINE)]),
    ],
)
def test_select_and_ignore_of_the_old_code_cover_the_new(tmp_path, config, args, expected):
    assert run(project(tmp_path, config=config), *args)[:2] == (1 if expected else 0, expected)


def test_selecting_the_old_code_does_not_turn_preview_on(tmp_path):
    # BG602 is a default rule, BG605 (split from it) a preview one: selecting BG602 without
    # preview runs BG602 alone, not the preview rule split from it (as in ruff).
    folder = project(tmp_path)
    (folder / "pyproject.toml").write_text('[tool.bgcheck]\nselect = ["BG602"]\n', encoding="utf-8")
    assert run(folder)[:2] == (1, [("BG602", TASK_LINE)])


# ---------------------------------------------------------------------------
# baselines


def old_fingerprint(code: str, path: str, flagged_line: str, occurrence: int = 1) -> str:
    """A fingerprint as every bgcheck writes it (code, path, the flagged line with white space
    folded, the occurrence among identical ones): here under the code an older bgcheck used."""
    text = " ".join(flagged_line.split())
    return hashlib.sha256(f"{code}\0{path}\0{text}\0{occurrence}".encode("utf-8")).hexdigest()[:32]


def test_a_baseline_written_before_the_split_still_matches(tmp_path):
    folder = project(tmp_path)
    assert run(folder, "--write-baseline", "baseline.json")[0] == 0
    document = json.loads((folder / "baseline.json").read_text(encoding="utf-8"))
    entries = {entry["code"]: entry for entry in document["entries"]}
    assert set(entries) == {"BG602", "BG605"}
    line = APP.splitlines()[FUTURE_LINE - 1].format(future_comment="")
    path = entries["BG605"]["path"]
    # Today's fingerprint follows the documented recipe, so the old one below is what bgcheck
    # wrote when this finding was BG602.
    assert entries["BG605"]["fingerprint"] == old_fingerprint("BG605", path, line)
    entries["BG605"] = {"code": "BG602", "path": path, "fingerprint": old_fingerprint("BG602", path, line)}
    document["entries"] = list(entries.values())
    (folder / "baseline.json").write_text(json.dumps(document), encoding="utf-8")
    code, found, err = run(folder, "--baseline", "baseline.json")
    assert (code, found) == (0, [])
    assert "no longer occur" not in err


def test_a_baseline_entry_of_the_new_code_does_not_cover_the_old(tmp_path):
    folder = project(tmp_path)
    assert run(folder, "--write-baseline", "baseline.json")[0] == 0
    document = json.loads((folder / "baseline.json").read_text(encoding="utf-8"))
    task = next(entry for entry in document["entries"] if entry["code"] == "BG602")
    line = APP.splitlines()[TASK_LINE - 1].format(task_comment="")
    document["entries"] = [{"code": "BG605", "path": task["path"], "fingerprint": old_fingerprint("BG605", task["path"], line)}]
    (folder / "baseline.json").write_text(json.dumps(document), encoding="utf-8")
    code, found, err = run(folder, "--baseline", "baseline.json")
    assert (code, found) == (1, BOTH)
    assert "1 baseline entry no longer occurs" in err
