"""A project that imports a job framework and declares no job of it: the run says so, once, on
stderr, and `bgcheck jobs` says the same (the job rules are silent where no job is known)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from conftest import write_project

CELERY_WARNING = (
    "bgcheck: warning: celery is imported but no Celery job was found: the job rules do not look at jobs "
    "registered through the project's own code; name such decorators in `job-decorators`"
)
RQ_WARNING = CELERY_WARNING.replace("celery is", "rq is").replace("no Celery job", "no RQ job")

# Tasks registered through the project's own decorator on an app built where bgcheck cannot see.
HIDDEN_TASKS = {
    "proj/__init__.py": "",
    "proj/tasks.py": """
        import importlib
        from celery import Celery

        app = importlib.import_module("proj.factory").make()


        def register(func):
            return app.task(func)


        @register
        def send_mail(address):
            return address
        """,
    "proj/queue.py": """
        from rq import Queue

        def queue_for(name):
            return Queue(name)
        """,
}


def run(root: Path, *args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, env={"BGCHECK_CACHE_DIR": None})


@pytest.fixture
def hidden(tmp_path, monkeypatch):
    write_project(tmp_path, HIDDEN_TASKS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_check_says_which_imported_frameworks_have_no_job(hidden):
    result = run(hidden, "check", "--no-cache", ".")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [CELERY_WARNING, RQ_WARNING]
    assert result.stdout == "All checks passed (3 files checked).\n"


def test_jobs_says_the_same(hidden):
    result = run(hidden, "jobs", "--no-cache", ".")
    assert result.exit_code == 0
    assert result.stdout == "No background jobs found.\n"
    assert result.stderr.splitlines() == [CELERY_WARNING, RQ_WARNING]


def test_a_cached_run_says_what_a_cold_run_says(hidden):
    first = run(hidden, "check", ".")
    second = run(hidden, "check", ".")
    (hidden / "proj" / "queue.py").write_text("def queue_for(name):\n    return name\n", encoding="utf-8")
    third = run(hidden, "check", ".")
    assert first.stderr.splitlines() == second.stderr.splitlines() == [CELERY_WARNING, RQ_WARNING]
    assert third.stderr.splitlines() == [CELERY_WARNING] == run(hidden, "check", "--no-cache", ".").stderr.splitlines()


def test_named_files_do_not_repeat_it(hidden):
    """pre-commit and editors name files: the project-wide note belongs to whole-project runs."""
    result = run(hidden, "check", "--no-cache", "proj/tasks.py")
    assert result.stderr == ""


def test_a_framework_with_a_job_is_not_named(tmp_path, monkeypatch):
    write_project(tmp_path, {
        "proj/__init__.py": "",
        "proj/tasks.py": """
            from celery import shared_task

            @shared_task
            def send_mail(address):
                return address
            """,
    })
    monkeypatch.chdir(tmp_path)
    result = run(tmp_path, "check", "--no-cache", ".")
    assert result.stderr == ""


def test_configured_job_decorators_silence_it(hidden):
    (hidden / "pyproject.toml").write_text('[tool.bgcheck]\njob-decorators = ["proj.tasks.register"]\n', encoding="utf-8")
    result = run(hidden, "check", "--no-cache", ".")
    assert result.stderr == ""
    jobs = run(hidden, "jobs", "--no-cache", ".")
    assert "proj.tasks.send_mail" in jobs.stdout and jobs.stderr == ""


def test_the_framework_itself_is_not_named(tmp_path, monkeypatch):
    """celery's own source imports celery: it is the project, not a framework it uses."""
    write_project(tmp_path, {
        "celery/__init__.py": "from celery.app import Celery\n",
        "celery/app.py": "class Celery:\n    pass\n",
    })
    monkeypatch.chdir(tmp_path)
    assert run(tmp_path, "check", "--no-cache", ".").stderr == ""
