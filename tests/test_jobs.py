"""The job model, seen through ``bgcheck jobs``.

``fixtures/jobs_inventory`` registers jobs with every framework the job model
knows (``JOB_DECORATORS`` / ``JOB_CALLS`` in ``bgcheck.knowledge``, arq worker
settings, Celery beat schedules, Thread subclasses), by reference, by
"module:func" or dotted string, and by Celery task name, often in another
module than the function. The inventory below is exact: a job that appears,
disappears or changes a field fails the test. Units and defaults are the
frameworks' own (dramatiq limits are in milliseconds; ``crontab(hour=3)`` in Celery, Huey and arq fires every minute
of hour 3, APScheduler's ``CronTrigger(hour=3)`` once).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from conftest import write_project

INVENTORY = Path(__file__).resolve().parent.parent / "fixtures" / "jobs_inventory"

NO_MINUTE = "no minute given: fires every minute of the matching hours"

# (name, function, kind, framework, (schedule kind, seconds, cron) or None, limits in seconds,
#  runs_in_every_process, defined at, registered in)
EXPECTED = [
    # --- APScheduler 3.x (aps3.py): decorator, add_job(f, alias, **fields), "module:func", trigger objects
    ("heartbeat", "inventory.aps3.heartbeat", "scheduled", "APScheduler", ("interval", 300.0, None), {"max_instances": 2, "misfire_grace_time": 30}, True, "inventory/aps3.py:12", "inventory/aps3.py"),
    ("inventory.work.cleanup_sessions", "inventory.work.cleanup_sessions", "scheduled", "APScheduler", ("cron", None, "hour=3 minute=30"), {}, True, "inventory/work.py:4", "inventory/aps3.py"),
    ("inventory.work.rebuild_index", "inventory.work.rebuild_index", "scheduled", "APScheduler", ("interval", 90.0, None), {}, True, "inventory/work.py:8", "inventory/aps3.py"),
    ("inventory.work.refresh_rates", "inventory.work.refresh_rates", "scheduled", "APScheduler", ("interval", 3600.0, None), {}, True, "inventory/work.py:12", "inventory/aps3.py"),
    ("inventory.work.compact_tables", "inventory.work.compact_tables", "scheduled", "APScheduler", ("cron", None, "hour=3"), {}, True, "inventory/work.py:16", "inventory/aps3.py"),
    ("inventory.work.warm_cache", "inventory.work.warm_cache", "scheduled", "APScheduler", ("cron", None, "*/15 * * * *"), {}, True, "inventory/work.py:20", "inventory/aps3.py"),
    ("inventory.work.send_welcome", "inventory.work.send_welcome", "scheduled", "APScheduler", ("once", None, None), {}, True, "inventory/work.py:24", "inventory/aps3.py"),
    # --- APScheduler 4.x (aps4.py)
    ("sync-inventory", "inventory.work.sync_inventory", "scheduled", "APScheduler 4", ("interval", 30.0, None), {}, True, "inventory/work.py:32", "inventory/aps4.py"),
    # --- Flask-APScheduler (flask_app.py): scheduler.task, add_job(id, func, ...)
    ("poll_feeds", "inventory.flask_app.poll_feeds", "scheduled", "Flask-APScheduler", ("interval", 45.0, None), {}, True, "inventory/flask_app.py:12", "inventory/flask_app.py"),
    ("purge", "inventory.work.purge_uploads", "scheduled", "Flask-APScheduler", ("cron", None, "day_of_week=sun hour=2"), {}, True, "inventory/work.py:36", "inventory/flask_app.py"),
    # --- Celery tasks (tasks.py); CELERY_TASK_TIME_LIMIT = 900 in settings.py fills time_limit where unset
    ("inventory.sync_orders", "inventory.tasks.sync_orders", "queued", "Celery", None, {"acks_late": True, "soft_time_limit": 240, "time_limit": 300}, False, "inventory/tasks.py:8", "inventory/tasks.py"),
    ("inventory.tasks.send_digest", "inventory.tasks.send_digest", "queued", "Celery", None, {"time_limit": 900}, False, "inventory/tasks.py:13", "inventory/tasks.py"),
    ("inventory.tasks.expire_carts", "inventory.tasks.expire_carts", "queued", "Celery", None, {"soft_time_limit": 60, "time_limit": 900}, False, "inventory/tasks.py:18", "inventory/tasks.py"),
    ("inventory.reindex", "inventory.tasks.ReindexTask.run", "queued", "Celery", None, {"soft_time_limit": 120, "time_limit": 900}, False, "inventory/tasks.py:26", "inventory/tasks.py"),
    # --- Celery beat: CELERY_BEAT_SCHEDULE (settings.py, by task name); each entry runs under its task's limits
    ("inventory.sync_orders", "inventory.tasks.sync_orders", "scheduled", "Celery beat", ("interval", 300.0, None), {"acks_late": True, "soft_time_limit": 240, "time_limit": 300}, False, "inventory/tasks.py:8", "inventory/settings.py"),
    ("inventory.tasks.expire_carts", "inventory.tasks.expire_carts", "scheduled", "Celery beat", ("cron", None, "hour=3"), {"soft_time_limit": 60, "time_limit": 900}, False, "inventory/tasks.py:18", "inventory/settings.py"),
    ("inventory.tasks.send_digest", "inventory.tasks.send_digest", "scheduled", "Celery beat", ("interval", 3600.0, None), {"time_limit": 900}, False, "inventory/tasks.py:13", "inventory/settings.py"),
    # --- Celery beat: add_periodic_task in on_after_configure (celery_app.py), by signature and by task name
    ("inventory.tasks.send_digest", "inventory.tasks.send_digest", "scheduled", "Celery beat", ("interval", 600.0, None), {"time_limit": 900}, False, "inventory/tasks.py:13", "inventory/celery_app.py"),
    ("inventory.tasks.send_digest", "inventory.tasks.send_digest", "scheduled", "Celery beat", ("cron", None, "minute=0 hour=7 day_of_week=1"), {"time_limit": 900}, False, "inventory/tasks.py:13", "inventory/celery_app.py"),
    ("inventory.reindex", "inventory.tasks.ReindexTask.run", "scheduled", "Celery beat", ("interval", 3600.0, None), {"soft_time_limit": 120, "time_limit": 900}, False, "inventory/tasks.py:26", "inventory/celery_app.py"),
    # --- RQ (rq_jobs.py): @job, enqueue, enqueue_in, rq-scheduler schedule/cron/enqueue_in, rq.cron.register
    ("inventory.rq_jobs.resize_avatar", "inventory.rq_jobs.resize_avatar", "queued", "RQ", None, {"job_timeout": 60}, False, "inventory/rq_jobs.py:17", "inventory/rq_jobs.py"),
    ("inventory.work.send_welcome", "inventory.work.send_welcome", "queued", "RQ", None, {"job_timeout": 120}, False, "inventory/work.py:24", "inventory/rq_jobs.py"),
    ("inventory.work.send_reminders", "inventory.work.send_reminders", "queued", "RQ", None, {}, False, "inventory/work.py:28", "inventory/rq_jobs.py"),
    ("inventory.work.rebuild_index", "inventory.work.rebuild_index", "queued", "RQ", None, {"job_timeout": 600}, False, "inventory/work.py:8", "inventory/rq_jobs.py"),
    ("refresh-rates", "inventory.work.refresh_rates", "scheduled", "rq-scheduler", ("interval", 600.0, None), {"timeout": 120}, False, "inventory/work.py:12", "inventory/rq_jobs.py"),
    ("compact", "inventory.work.compact_tables", "scheduled", "rq-scheduler", ("cron", None, "0 4 * * *"), {"timeout": 1800}, False, "inventory/work.py:16", "inventory/rq_jobs.py"),
    ("inventory.work.warm_cache", "inventory.work.warm_cache", "queued", "rq-scheduler", None, {}, False, "inventory/work.py:20", "inventory/rq_jobs.py"),
    ("inventory.work.cleanup_sessions", "inventory.work.cleanup_sessions", "scheduled", "RQ cron", ("cron", None, "0 * * * *"), {"job_timeout": 300}, False, "inventory/work.py:4", "inventory/rq_jobs.py"),
    ("inventory.work.rebuild_index", "inventory.work.rebuild_index", "scheduled", "RQ cron", ("interval", 900.0, None), {}, False, "inventory/work.py:8", "inventory/rq_jobs.py"),
    # --- Dramatiq (actors.py): time_limit in ms -> seconds; periodiq makes an actor scheduled
    ("inventory.actors.send_receipt", "inventory.actors.send_receipt", "queued", "Dramatiq", None, {"time_limit": 120}, False, "inventory/actors.py:12", "inventory/actors.py"),
    ("inventory.actors.poll_payments", "inventory.actors.poll_payments", "scheduled", "Dramatiq (periodiq)", ("cron", None, "*/5 * * * *"), {"time_limit": 60}, False, "inventory/actors.py:17", "inventory/actors.py"),
    # --- Huey (huey_tasks.py): task, periodic_task, djhuey db_periodic_task and db_task
    ("inventory.huey_tasks.resize_image", "inventory.huey_tasks.resize_image", "queued", "Huey", None, {"timeout": 30}, False, "inventory/huey_tasks.py:9", "inventory/huey_tasks.py"),
    ("inventory.huey_tasks.reindex_catalog", "inventory.huey_tasks.reindex_catalog", "scheduled", "Huey", ("cron", None, "minute=0 hour=*/6"), {"timeout": 600}, True, "inventory/huey_tasks.py:14", "inventory/huey_tasks.py"),
    ("inventory.huey_tasks.purge_old_orders", "inventory.huey_tasks.purge_old_orders", "scheduled", "Huey", ("cron", None, "hour=3"), {}, True, "inventory/huey_tasks.py:19", "inventory/huey_tasks.py"),
    ("inventory.huey_tasks.notify_customer", "inventory.huey_tasks.notify_customer", "queued", "Huey", None, {}, False, "inventory/huey_tasks.py:24", "inventory/huey_tasks.py"),
    # --- arq (arq_worker.py): WorkerSettings.functions (plain, func(..., timeout=)) and cron_jobs
    ("inventory.arq_worker.fetch_prices", "inventory.arq_worker.fetch_prices", "queued", "arq", None, {}, False, "inventory/arq_worker.py:7", "inventory/arq_worker.py"),
    ("inventory.work.rebuild_search", "inventory.work.rebuild_search", "queued", "arq", None, {"timeout": 600}, False, "inventory/work.py:52", "inventory/arq_worker.py"),
    ("inventory.arq_worker.nightly_report", "inventory.arq_worker.nightly_report", "scheduled", "arq cron", ("cron", None, "hour=2 minute=0"), {"timeout": 1200}, False, "inventory/arq_worker.py:11", "inventory/arq_worker.py"),
    ("inventory.work.poll_partner", "inventory.work.poll_partner", "scheduled", "arq cron", ("cron", None, "hour=9"), {}, False, "inventory/work.py:56", "inventory/arq_worker.py"),
    # --- schedule (clock.py): every(...).<unit>.do(f) and @repeat
    ("inventory.work.refresh_rates", "inventory.work.refresh_rates", "scheduled", "schedule", ("interval", 600.0, None), {}, True, "inventory/work.py:12", "inventory/clock.py"),
    ("inventory.work.send_reminders", "inventory.work.send_reminders", "scheduled", "schedule", ("interval", 86400.0, None), {}, True, "inventory/work.py:28", "inventory/clock.py"),
    ("inventory.work.compact_tables", "inventory.work.compact_tables", "scheduled", "schedule", ("interval", 604800.0, None), {}, True, "inventory/work.py:16", "inventory/clock.py"),
    ("inventory.clock.rotate_keys", "inventory.clock.rotate_keys", "scheduled", "schedule", ("interval", 7200.0, None), {}, True, "inventory/clock.py:15", "inventory/clock.py"),
    # --- FastAPI helpers (api.py)
    ("inventory.api.expire_sessions", "inventory.api.expire_sessions", "scheduled", "repeat_every", ("interval", 300.0, None), {}, True, "inventory/api.py:11", "inventory/api.py"),
    ("inventory.api.publish_stats", "inventory.api.publish_stats", "scheduled", "repeat_at", ("cron", None, "*/10 * * * *"), {}, True, "inventory/api.py:17", "inventory/api.py"),
    # --- django-q (djq.py): functions named by dotted string
    ("reminders", "inventory.work.send_reminders", "scheduled", "django-q", ("interval", 3600.0, None), {}, False, "inventory/work.py:28", "inventory/djq.py"),
    ("inventory.work.refresh_rates", "inventory.work.refresh_rates", "scheduled", "django-q", ("interval", 900.0, None), {}, False, "inventory/work.py:12", "inventory/djq.py"),
    ("inventory.work.compact_tables", "inventory.work.compact_tables", "scheduled", "django-q", ("cron", None, "0 5 * * *"), {}, False, "inventory/work.py:16", "inventory/djq.py"),
    ("inventory.work.send_welcome", "inventory.work.send_welcome", "queued", "django-q", None, {}, False, "inventory/work.py:24", "inventory/djq.py"),
    ("inventory.work.purge_uploads", "inventory.work.purge_uploads", "queued", "django-q", None, {}, False, "inventory/work.py:36", "inventory/djq.py"),
    # --- django-extensions (extensions_jobs.py): Job classes, when from the base class or the attribute
    ("inventory.extensions_jobs.RefreshRates", "inventory.extensions_jobs.RefreshRates.execute", "scheduled", "django-extensions", ("interval", 3600.0, None), {}, False, "inventory/extensions_jobs.py:8", "inventory/extensions_jobs.py"),
    ("inventory.extensions_jobs.Compact", "inventory.extensions_jobs.Compact.execute", "scheduled", "django-extensions", ("interval", 86400.0, None), {}, False, "inventory/extensions_jobs.py:15", "inventory/extensions_jobs.py"),
    ("inventory.extensions_jobs.Archive", "inventory.extensions_jobs.Archive.execute", "scheduled", "django-extensions", ("cron", None, "monthly"), {}, False, "inventory/extensions_jobs.py:20", "inventory/extensions_jobs.py"),
    # --- aiocron (crons.py): the decorator, and crontab(spec, func=...)
    ("inventory.crons.refresh_tokens", "inventory.crons.refresh_tokens", "scheduled", "aiocron", ("cron", None, "*/30 * * * *"), {}, True, "inventory/crons.py:8", "inventory/crons.py"),
    ("inventory.work.send_reminders_async", "inventory.work.send_reminders_async", "scheduled", "aiocron", ("cron", None, "0 6 * * *"), {}, True, "inventory/work.py:68", "inventory/crons.py"),
    # --- in-process (background.py): Thread(target=), a Thread subclass, asyncio tasks, executors
    ("tail", "inventory.work.tail_events", "thread", "threading", None, {}, False, "inventory/work.py:40", "inventory/background.py"),
    ("inventory.background.MetricsFlusher", "inventory.background.MetricsFlusher.run", "thread", "threading", None, {}, False, "inventory/background.py:12", "inventory/background.py"),
    ("inventory.work.write_export", "inventory.work.write_export", "in-process task", "concurrent.futures", None, {}, False, "inventory/work.py:44", "inventory/background.py"),
    ("inventory.background.pump", "inventory.background.pump", "in-process task", "asyncio", None, {}, False, "inventory/background.py:26", "inventory/background.py"),
    ("inventory.work.heartbeat_async", "inventory.work.heartbeat_async", "in-process task", "asyncio", None, {}, False, "inventory/work.py:60", "inventory/background.py"),
    ("inventory.work.drain_async", "inventory.work.drain_async", "in-process task", "asyncio", None, {}, False, "inventory/work.py:64", "inventory/background.py"),
    ("inventory.work.blocking_io", "inventory.work.blocking_io", "in-process task", "asyncio", None, {}, False, "inventory/work.py:48", "inventory/background.py"),
    # --- Tornado IOLoop callbacks (ioloop.py): add_timeout (a callback that reschedules itself), call_later,
    # spawn_callback, PeriodicCallback(...).start()
    ("inventory.ioloop.clean_media", "inventory.ioloop.clean_media", "in-process task", "tornado", None, {}, False, "inventory/ioloop.py:7", "inventory/ioloop.py"),
    ("inventory.ioloop.clean_media", "inventory.ioloop.clean_media", "in-process task", "tornado", None, {}, False, "inventory/ioloop.py:7", "inventory/ioloop.py"),
    ("inventory.ioloop.refresh_status", "inventory.ioloop.refresh_status", "in-process task", "tornado", None, {}, False, "inventory/ioloop.py:11", "inventory/ioloop.py"),
    ("inventory.ioloop.refresh_status", "inventory.ioloop.refresh_status", "in-process task", "tornado", None, {}, False, "inventory/ioloop.py:11", "inventory/ioloop.py"),
]


def run_jobs(folder: Path, monkeypatch, *extra: str):
    """``bgcheck jobs . [extra]`` from inside ``folder``: (exit code, stdout)."""
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["jobs", ".", "--no-cache", *extra])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.stderr == ""
    return result.exit_code, result.stdout


def jobs_json(folder: Path, monkeypatch) -> list[dict]:
    exit_code, out = run_jobs(folder, monkeypatch, "--format", "json")
    assert exit_code == 0
    return json.loads(out)["jobs"]


def row(job: dict) -> tuple:
    schedule = job["schedule"]
    return (
        job["name"],
        job["function"],
        job["kind"],
        job["framework"],
        None if schedule is None else (schedule["kind"], schedule["seconds"], schedule["cron"]),
        job["limits"],
        job["runs_in_every_process"],
        f"{job['path']}:{job['line']}",
        job["registered_in"],
    )


@pytest.fixture
def inventory(monkeypatch) -> list[dict]:
    return jobs_json(INVENTORY, monkeypatch)


def test_inventory_is_exact(inventory):
    found = [row(job) for job in inventory]
    assert sorted(found, key=repr) == sorted(EXPECTED, key=repr)
    assert len(found) == len(EXPECTED)


def test_inventory_is_listed_in_file_order(inventory):
    keys = [(job["path"], job["line"]) for job in inventory]
    assert keys == sorted(keys)


def test_every_framework_of_the_job_model_is_in_the_fixture(inventory):
    assert {job["framework"] for job in inventory} == {
        "APScheduler", "APScheduler 4", "Flask-APScheduler", "Celery", "Celery beat", "RQ", "RQ cron", "rq-scheduler",
        "Dramatiq", "Dramatiq (periodiq)", "Huey", "arq", "arq cron", "schedule", "repeat_every", "repeat_at",
        "django-q", "django-extensions", "aiocron", "threading", "asyncio", "concurrent.futures", "tornado",
    }  # fmt: skip


def test_jobs_registered_by_string_keep_the_string_as_target(inventory):
    by_target = {(job["target"], job["framework"]): job["function"] for job in inventory}
    assert by_target[("inventory.work:rebuild_index", "APScheduler")] == "inventory.work.rebuild_index"
    assert by_target[("inventory.work.send_reminders", "django-q")] == "inventory.work.send_reminders"
    assert by_target[("inventory.work.compact_tables", "django-q")] == "inventory.work.compact_tables"
    assert by_target[("inventory.sync_orders", "Celery beat")] == "inventory.tasks.sync_orders"
    assert by_target[("inventory.reindex", "Celery beat")] == "inventory.tasks.ReindexTask.run"


def test_cron_defaults_differ_between_schedulers(inventory):
    """facts §2: celery/huey/arq ``hour=3`` with no minute fire every minute of the hour; APScheduler's once."""
    texts = {(job["function"], job["framework"]): job["schedule"]["text"] for job in inventory if job["schedule"]}
    assert texts[("inventory.tasks.expire_carts", "Celery beat")] == f"cron hour=3 ({NO_MINUTE})"
    assert texts[("inventory.huey_tasks.purge_old_orders", "Huey")] == f"cron hour=3 ({NO_MINUTE})"
    assert texts[("inventory.work.poll_partner", "arq cron")] == f"cron hour=9 ({NO_MINUTE})"
    assert texts[("inventory.work.compact_tables", "APScheduler")] == "cron hour=3"
    assert texts[("inventory.arq_worker.nightly_report", "arq cron")] == "cron hour=2 minute=0"
    assert texts[("inventory.huey_tasks.reindex_catalog", "Huey")] == "cron minute=0 hour=*/6"
    assert texts[("inventory.work.send_reminders", "schedule")] == "every 1 d (at 10:30)"
    assert texts[("inventory.work.send_welcome", "APScheduler")] == "once (no trigger: APScheduler runs it once, now)"


def test_text_table_has_a_header_and_one_row_per_job(monkeypatch):
    exit_code, out = run_jobs(INVENTORY, monkeypatch)
    assert exit_code == 0
    lines = out.rstrip("\n").split("\n")
    assert lines[0].split() == ["JOB", "KIND", "FRAMEWORK", "SCHEDULE"]
    assert lines[-1] == f"{len(EXPECTED)} jobs."
    rows = [line for line in lines[1:-1] if not line.startswith(" ")]  # details sit indented under their row
    assert len(rows) == len(EXPECTED)
    starts = {column: lines[0].index(column) for column in lines[0].split()}
    cell = lambda row, column: row[starts[column] :].split("  ")[0].strip()  # noqa: E731
    details = {}  # row -> the indented lines under it, joined
    for line in lines[1:-1]:
        if line.startswith(" "):
            details[current] = (details[current] + " " + line.strip()).strip()
        else:
            current = line
            details[current] = ""
    found = sorted((cell(r, "JOB"), cell(r, "KIND"), cell(r, "FRAMEWORK"), details[r].split(" \u00b7 ")[0]) for r in rows)
    assert found == sorted((name, kind, framework, location) for name, _f, kind, framework, *_, location, _r in EXPECTED)
    receipt = next(r for r in rows if r.startswith("inventory.actors.send_receipt "))
    assert cell(receipt, "SCHEDULE") == "-"
    assert details[receipt] == "inventory/actors.py:12 \u00b7 time_limit=120 \u00b7 decorator dramatiq.actor"
    purge = next(r for r in rows if cell(r, "JOB") == "inventory.huey_tasks.purge_old_orders")
    assert cell(purge, "SCHEDULE") == "cron hour=3 (no minut\u2026"  # cut to fit, and given in full below
    assert details[purge].endswith(f"schedule: cron hour=3 ({NO_MINUTE})")


def test_text_table_fits_100_columns(monkeypatch):
    exit_code, out = run_jobs(INVENTORY, monkeypatch)
    assert exit_code == 0
    too_wide = [line for line in out.splitlines() if len(line) > 100]
    assert not too_wide, too_wide


def test_text_table_cuts_a_long_job_name_from_the_front():
    from bgcheck.report.jobs_table import render_jobs_table

    name = "proj.billing_and_invoicing.monthly.send_the_monthly_invoices"
    row = {"job": name, "kind": "queued", "framework": "Celery", "schedule": "-", "location": "proj/tasks.py:3", "limits": "", "locks": "", "via": "decorator celery.shared_task"}
    header, line, *details, total = render_jobs_table([row]).split("\n")
    assert line.startswith("\u2026") and line.split()[0].endswith(".send_the_monthly_invoices")
    assert len(line.split()[0]) == 38
    assert all(len(detail) <= 100 and detail.startswith("    ") for detail in details)
    assert " ".join(d.strip() for d in details) == f"proj/tasks.py:3 \u00b7 decorator celery.shared_task \u00b7 job: {name}"
    assert total == "1 job."


# ---------------------------------------------------------------------------
# Celery beat schedules set in the other places Celery reads them from


BEAT_TASKS = textwrap.dedent(
    """
    from celery import Celery

    app = Celery("proj")

    @app.task(time_limit=30)
    def ping():
        return "pong"
    """
)


@pytest.mark.parametrize(
    "setting",
    [
        'app.conf.beat_schedule = {"ping-every-minute": {"task": "proj.tasks.ping", "schedule": 60.0}}',
        'app.conf.update(beat_schedule={"ping-every-minute": {"task": "proj.tasks.ping", "schedule": 60.0}})',
        'app.conf.update({"beat_schedule": {"ping-every-minute": {"task": "proj.tasks.ping", "schedule": 60.0}}})',
        'app.conf.CELERYBEAT_SCHEDULE = {"ping-every-minute": {"task": "proj.tasks.ping", "schedule": 60.0}}',
    ],
    ids=["conf-attribute", "conf-update-kwargs", "conf-update-dict", "old-setting-name"],
)
def test_beat_schedule_on_the_app(setting, tmp_path, monkeypatch):
    write_project(tmp_path, {"proj/__init__.py": "", "proj/tasks.py": BEAT_TASKS + "\n" + setting + "\n"})
    beat = [row(job) for job in jobs_json(tmp_path, monkeypatch) if job["framework"] == "Celery beat"]
    assert beat == [
        ("proj.tasks.ping", "proj.tasks.ping", "scheduled", "Celery beat", ("interval", 60.0, None), {"time_limit": 30}, False, "proj/tasks.py:7", "proj/tasks.py")
    ]


def test_beat_entry_for_an_unknown_task_is_still_listed(tmp_path, monkeypatch):
    """A task defined in another service: the entry is a job whose function does not resolve."""
    write_project(
        tmp_path,
        {
            "proj/__init__.py": "",
            "proj/celery.py": """
                from celery import Celery
                from celery.schedules import crontab

                app = Celery("proj")
                app.conf.beat_schedule = {"remote": {"task": "billing.close_day", "schedule": crontab(minute=0, hour=0)}}
            """,
        },
    )
    (job,) = jobs_json(tmp_path, monkeypatch)
    assert row(job) == ("billing.close_day", None, "scheduled", "Celery beat", ("cron", None, "minute=0 hour=0"), {}, False, "proj/celery.py:0", "proj/celery.py")


def test_add_periodic_task_on_unannotated_sender(tmp_path, monkeypatch):
    write_project(
        tmp_path,
        {
            "proj/__init__.py": "",
            "proj/tasks.py": BEAT_TASKS
            + textwrap.dedent(
                """
                @app.on_after_configure.connect
                def setup_periodic_tasks(sender, **kwargs):
                    sender.add_periodic_task(10.0, ping.s(), name="ping every 10 s")
                """
            ),
        },
    )
    beat = [row(job) for job in jobs_json(tmp_path, monkeypatch) if job["framework"] == "Celery beat"]
    assert beat == [
        ("proj.tasks.ping", "proj.tasks.ping", "scheduled", "Celery beat", ("interval", 10.0, None), {"time_limit": 30}, False, "proj/tasks.py:7", "proj/tasks.py")
    ]


def test_later_conf_update_replaces_beat_schedule(tmp_path, monkeypatch):
    source = (
        BEAT_TASKS
        + '\napp.conf.beat_schedule = {"old": {"task": "proj.tasks.ping", "schedule": 60.0}}\n'
        + 'app.conf.update(beat_schedule={"new": {"task": "proj.tasks.ping", "schedule": 120.0}})\n'
    )
    write_project(tmp_path, {"proj/__init__.py": "", "proj/tasks.py": source})
    beat = [job["schedule"]["seconds"] for job in jobs_json(tmp_path, monkeypatch) if job["framework"] == "Celery beat"]
    assert beat == [120.0]


def beat_seconds(tmp_path, monkeypatch, files: dict) -> list:
    write_project(tmp_path, {"proj/__init__.py": "", **files})
    return [job["schedule"]["seconds"] for job in jobs_json(tmp_path, monkeypatch) if job["framework"] == "Celery beat"]


OLD_SCHEDULE = '{"old": {"task": "proj.tasks.ping", "schedule": 60.0}}'
NEW_SCHEDULE = '{"new": {"task": "proj.tasks.ping", "schedule": 120.0}}'


def test_later_conf_assignment_replaces_an_earlier_update(tmp_path, monkeypatch):
    source = BEAT_TASKS + f"\napp.conf.update(beat_schedule={OLD_SCHEDULE})\napp.conf.beat_schedule = {NEW_SCHEDULE}\n"
    assert beat_seconds(tmp_path, monkeypatch, {"proj/tasks.py": source}) == [120.0]


def test_later_assignment_of_a_setting_replaces_an_earlier_one(tmp_path, monkeypatch):
    source = BEAT_TASKS + f"\napp.conf.beat_schedule = {OLD_SCHEDULE}\napp.conf.beat_schedule = {NEW_SCHEDULE}\n"
    assert beat_seconds(tmp_path, monkeypatch, {"proj/tasks.py": source}) == [120.0]


def test_conf_update_keywords_apply_after_its_dict(tmp_path, monkeypatch):
    # dict.update(mapping, **kwargs): the keywords are applied last
    source = BEAT_TASKS + f'\napp.conf.update({{"beat_schedule": {OLD_SCHEDULE}}}, beat_schedule={NEW_SCHEDULE})\n'
    assert beat_seconds(tmp_path, monkeypatch, {"proj/tasks.py": source}) == [120.0]


def test_app_settings_apply_over_the_loaded_config_object_whatever_their_order(tmp_path, monkeypatch):
    # Celery loads the config_from_object module when the app is first configured, then applies
    # the settings made on app.conf over it: the object gives only what the app does not set.
    source = BEAT_TASKS + f'\napp.conf.beat_schedule = {NEW_SCHEDULE}\napp.config_from_object("proj.celeryconfig")\n'
    config = f"beat_schedule = {OLD_SCHEDULE}\n"
    assert beat_seconds(tmp_path, monkeypatch, {"proj/tasks.py": source, "proj/celeryconfig.py": config}) == [120.0]


def test_config_object_gives_the_settings_the_app_does_not_make(tmp_path, monkeypatch):
    source = BEAT_TASKS + '\napp.conf.timezone = "UTC"\napp.config_from_object("proj.celeryconfig")\n'
    config = f"beat_schedule = {OLD_SCHEDULE}\n"
    assert beat_seconds(tmp_path, monkeypatch, {"proj/tasks.py": source, "proj/celeryconfig.py": config}) == [60.0]


def test_periodiq_schedule_is_read_only_from_periodiq_cron(tmp_path, monkeypatch):
    # periodic= makes the actor scheduled; its cron string is read only from periodiq's cron(),
    # not from another function that happens to be called cron
    source = textwrap.dedent(
        """
        import dramatiq
        from periodiq import cron

        def every(spec):
            return cron(spec)

        @dramatiq.actor(periodic=cron("*/5 * * * *"))
        def poll():
            pass

        @dramatiq.actor(periodic=every("0 * * * *"))
        def hourly():
            pass
        """
    )
    write_project(tmp_path, {"proj/__init__.py": "", "proj/actors.py": source})
    schedules = sorted((job["name"], job["framework"], job["schedule"]["kind"], job["schedule"]["cron"]) for job in jobs_json(tmp_path, monkeypatch))
    assert schedules == [
        ("proj.actors.hourly", "Dramatiq (periodiq)", "unknown", None),
        ("proj.actors.poll", "Dramatiq (periodiq)", "cron", "*/5 * * * *"),
    ]


def test_keyword_arguments_for_the_function_do_not_name_the_job(tmp_path, monkeypatch):
    """RQ, `schedule` and executors pass unknown keywords on to the function: ``name=`` there is not the job's name."""
    write_project(
        tmp_path,
        {
            "proj/__init__.py": "",
            "proj/jobs.py": """
                from concurrent.futures import ThreadPoolExecutor

                import schedule
                from apscheduler.schedulers.background import BackgroundScheduler
                from redis import Redis
                from rq import Queue

                queue = Queue(connection=Redis())
                pool = ThreadPoolExecutor(max_workers=2)
                scheduler = BackgroundScheduler()

                def greet(name):
                    return f"hello {name}"

                def main():
                    queue.enqueue(greet, name="Alice")
                    schedule.every(1).hours.do(greet, name="Bob")
                    pool.submit(greet, name="Carol")
                    scheduler.add_job(greet, "interval", hours=1, id="greeter", kwargs={"name": "Dan"})
            """,
        },
    )
    names = sorted((job["framework"], job["name"]) for job in jobs_json(tmp_path, monkeypatch))
    assert names == [
        ("APScheduler", "greeter"),
        ("RQ", "proj.jobs.greet"),
        ("concurrent.futures", "proj.jobs.greet"),
        ("schedule", "proj.jobs.greet"),
    ]


def test_a_task_runs_the_coroutine_function_it_was_handed(tmp_path, monkeypatch):
    """``create_task(worker())`` runs ``worker``; a plain function called there only returned an
    awaitable, and a name (a parameter annotated ``Awaitable``) or an instance of a class is an
    object made elsewhere: the task's function is unknown, not the plain function or the class.
    A thread's target annotated ``Callable`` is unknown too, not ``collections.abc.Callable``."""
    write_project(
        tmp_path,
        {
            "proj/__init__.py": "",
            "proj/run.py": """
                import asyncio
                import threading
                from collections.abc import Awaitable, Callable


                class Reader:
                    def get(self):
                        return asyncio.get_running_loop().create_future()

                    def __await__(self):
                        yield


                async def worker():
                    await asyncio.sleep(1)


                def start(awaitable: Awaitable, reader: Reader, fn: Callable[[], None]):
                    threading.Thread(target=fn).start()
                    asyncio.create_task(worker())
                    asyncio.ensure_future(asyncio.sleep(5))
                    asyncio.ensure_future(reader.get())
                    asyncio.ensure_future(awaitable)
                    asyncio.ensure_future(Reader())
            """,
        },
    )
    found = [(job["framework"], job["name"], job["function"]) for job in jobs_json(tmp_path, monkeypatch)]
    assert sorted(found) == [
        ("asyncio", "?", None),
        ("asyncio", "?", None),
        ("asyncio", "?", None),
        ("asyncio", "asyncio.sleep", None),
        ("asyncio", "proj.run.worker", "proj.run.worker"),
        ("threading", "?", None),
    ]
