"""Named files are checked against their whole project (pre-commit and editors name files).

A task file checked alone must get exactly the findings a whole-project run gives it, even when
the Celery app, its settings or the functions it calls live in other files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from bgcheck.load.config import load_config
from bgcheck.run.engine import RunRequest, run
from conftest import write_project

REPO = Path(__file__).resolve().parent.parent
FIXTURE_PROJECTS = sorted(p for p in (REPO / "fixtures").iterdir() if (p / "pyproject.toml").is_file())


def findings(diagnostics) -> list[tuple]:
    return [(d.location.path, d.location.line, d.location.column, d.code, d.message) for d in diagnostics]


@pytest.mark.parametrize("project", FIXTURE_PROJECTS, ids=lambda p: p.name)
def test_each_file_alone_gets_its_whole_project_findings(project, monkeypatch):
    monkeypatch.chdir(project)
    config = load_config(start=project)
    whole = run(RunRequest([Path(".")], config)).diagnostics
    files = sorted(p.relative_to(project).as_posix() for p in project.rglob("*.py"))
    assert files
    for name in files:
        alone = run(RunRequest([Path(name)], load_config(start=project / name))).diagnostics
        assert findings(alone) == findings(d for d in whole if d.location.path == name), name


def test_fixture_projects_are_found():
    assert {p.name for p in FIXTURE_PROJECTS} >= {"demo_service", "demo_service_clean", "jobs_inventory"}


TASKS = """\
from billing.app import app
from billing.pay import charge


@app.task
def settle(order_id):
    charge(order_id)
"""

APP = """\
from celery import Celery

app = Celery("billing")
"""

PAY = """\
import stripe


def charge(order_id):
    stripe.PaymentIntent.create(amount=100, currency="eur")
"""


@pytest.fixture
def billing(tmp_path, monkeypatch) -> Path:
    write_project(
        tmp_path,
        {"billing/__init__.py": "", "billing/app.py": APP, "billing/pay.py": PAY, "billing/tasks.py": TASKS},
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*args: str) -> tuple[int, list[tuple[str, int, str]], str]:
    result = CliRunner().invoke(main, ["check", "--no-cache", "--format", "json", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    document = json.loads(result.stdout)
    return result.exit_code, [(d["path"], d["line"], d["code"]) for d in document["diagnostics"]], result.stdout


def test_task_file_alone_sees_app_and_callee_in_other_files(billing):
    # BG603 needs the app (billing/app.py) and the charge (billing/pay.py): neither is named.
    code, found, _ = check("billing/tasks.py")
    assert code == 1
    assert found == [("billing/tasks.py", 6, "BG603")]


def test_only_named_files_are_reported(billing):
    # The task is in another file: nothing to report for the app module itself.
    code, found, _ = check("billing/app.py")
    assert (code, found) == (0, [])


def test_summary_counts_named_files_only(billing):
    result = CliRunner().invoke(main, ["check", "--no-cache", "billing/app.py", "billing/pay.py"])
    assert "2 files" in result.stdout


def test_a_file_outside_any_project_is_its_own_project(tmp_path, monkeypatch):
    lone = tmp_path / "lone"
    lone.mkdir()
    (lone / "tasks.py").write_text(TASKS, encoding="utf-8")
    (lone / "other.py").write_text("import asyncio\nasync def f():\n    try:\n        await g()\n    except asyncio.CancelledError:\n        pass\n", encoding="utf-8")
    monkeypatch.chdir(lone)
    code, found, _ = check("tasks.py")
    assert (code, found) == (0, [])  # other.py is not part of this run
    # ... and, as ruff does, its cache goes to the working folder (no project root to put it at)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    CliRunner().invoke(main, ["check", "../lone/tasks.py"])
    assert not (lone / ".bgcheck_cache").exists()
    assert (elsewhere / ".bgcheck_cache" / "CACHEDIR.TAG").is_file()
    shown = CliRunner().invoke(main, ["check", "--show-settings", "../lone/tasks.py"]).stdout
    assert "Cache: .bgcheck_cache\n" in shown
