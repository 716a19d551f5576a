"""``--verbose`` says where a rule matched and a fact of the model kept it silent (issue 29: "say
in --verbose which fact stopped a rule"): one note per place, on stderr, never a finding (not in
the JSON output, not counted, no noqa needed), the same from the cache as from a cold run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from click.testing import CliRunner

from bgcheck.cli import main
from conftest import write_project

PROJECT = {
    "app/__init__.py": "",
    "app/tasks.py": """
        import asyncio
        from concurrent.futures import ThreadPoolExecutor

        import requests
        from celery import shared_task
        from django.db import transaction

        pool = ThreadPoolExecutor(max_workers=2)


        def guarded():
            try:
                return 1
            except Exception:
                return None


        @shared_task
        def send_receipt(order_id):
            pool.submit(guarded)
            requests.get("https://example.com")


        def place(order):
            with transaction.atomic():
                send_receipt.delay(order)


        async def stop(task):
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
        """,
}

NOTES = [
    "bgcheck: note: app/tasks.py:21:5: BG605 not reported: `guarded()` catches every Exception and never re-raises: the dropped future holds no error",
    "bgcheck: note: app/tasks.py:27:9: BG604 not reported: the transaction writes nothing a rollback would take back",
    "bgcheck: note: app/tasks.py:34:5: BG105 not reported: it awaits a task it has just cancelled itself: that task's cancellation, not this one's",
]


def _run(*args: str):
    return CliRunner().invoke(main, ["check", *args, "."], catch_exceptions=False)


def _notes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if " not reported: " in line]


def test_verbose_names_the_fact_that_kept_each_rule_silent(tmp_path, monkeypatch):
    write_project(tmp_path, PROJECT)
    monkeypatch.chdir(tmp_path)
    cold = _run("--no-cache", "--verbose")
    assert _notes(cold.stderr) == NOTES
    # the one finding is the request with no timeout; the silences are no findings
    assert "BG203" in cold.stdout and "Found 1 problem" in cold.stdout
    # from the cache: the same notes, the same findings
    first, second = _run("--verbose"), _run("--verbose")
    assert _notes(first.stderr) == _notes(second.stderr) == NOTES
    assert first.stdout == second.stdout == cold.stdout


def test_silences_are_never_findings(tmp_path, monkeypatch):
    write_project(tmp_path, PROJECT)
    monkeypatch.chdir(tmp_path)
    quiet = _run("--no-cache")
    assert _notes(quiet.stderr) == []
    data = json.loads(_run("--no-cache", "--verbose", "--format", "json").stdout)
    assert [d["code"] for d in data["diagnostics"]] == ["BG203"]
    assert data["summary"]["total"] == 1
    # a rule that is not selected says nothing about where it would have stayed silent
    assert [n.split(": ")[3].split()[0] for n in _notes(_run("--no-cache", "--verbose", "--select", "BG105").stderr)] == ["BG105"]


@pytest.mark.parametrize(
    "folder, reason",
    [
        ("django_mail_with_email_timeout_set", "`EMAIL_TIMEOUT` is set (shop/settings.py)"),
        ("django_mail_through_another_backend", "`EMAIL_BACKEND` sends them elsewhere (shop/settings.py)"),
        ("django_mail_through_mailers_with_a_timeout", "`MAILERS` sets a timeout (shop/settings.py)"),
        ("django_mail_through_mailers_from_the_environment", "`MAILERS` sends them elsewhere (shop/settings.py)"),
        (
            "django_mail_in_a_reusable_app",
            "no settings module in the project binds `INSTALLED_APPS`: the deployer's settings decide",
        ),
    ],
)
def test_django_mail_in_jobs_silenced_by_the_settings(folder, reason, monkeypatch):
    """BG203's Django mail calls wait for ever only under the SMTP backend with no EMAIL_TIMEOUT, in
    a project whose settings are its own: each fact that rules that out is named, once per call."""
    monkeypatch.chdir(Path(__file__).parent / "rules" / "BG203" / folder)
    notes = _notes(_run("--no-cache", "--verbose", "--select", "BG203").stderr)
    assert [note.split(" not reported: ")[1] for note in notes] == [reason] * 4
    assert [note.split(": ")[2].split(":")[:2] for note in notes] == [["shop/tasks.py", line] for line in ("8", "15", "20", "25")]


def test_mailers_timeout_edited_in_settings_is_followed_by_a_cached_run(tmp_path, monkeypatch):
    """Django 6.1's MAILERS decides BG203's mail calls from the settings module: adding a timeout to
    the default mailer silences them, taking it out brings them back, cached as cold."""
    import shutil

    from conftest import reported_at

    shutil.copytree(Path(__file__).parent / "rules" / "BG203" / "django_mail_through_mailers_without_a_timeout", tmp_path / "app")
    monkeypatch.chdir(tmp_path / "app")
    settings_file = tmp_path / "app" / "shop" / "settings.py"
    flagged = ["shop/tasks.py:15:5", "shop/tasks.py:20:5", "shop/tasks.py:25:5", "shop/tasks.py:8:5"]
    assert reported_at("BG203") == reported_at("BG203", "--no-cache") == flagged
    without = settings_file.read_text()
    settings_file.write_text(without.replace('"port": 587,', '"port": 587, "timeout": 10,'))
    assert reported_at("BG203") == reported_at("BG203", "--no-cache") == []
    settings_file.write_text(without)
    assert reported_at("BG203") == reported_at("BG203", "--no-cache") == flagged
