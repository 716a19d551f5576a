"""BG501-BG503: the cases a fixture file cannot hold.

The rules' cases are fixture files in ``tests/rules/<CODE>/`` (tests/test_rule_fixtures.py).
What stays here runs one lock API over several calls (parametrized) or runs the CLI
(``--verbose``, ``bgcheck jobs --format json``). Sources start with a newline, so line 1 is
empty and the first line of code is line 2. Runtimes come from ``[tool.bgcheck.runtimes]``.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from conftest import codes, write_project

CELERY_HEAD = """
    import redis
    from celery import Celery

    app = Celery("proj")
    r = redis.Redis()
"""


def runtimes_table(table: dict) -> str:
    return "[tool.bgcheck.runtimes]\n" + "".join(f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in table.items())


# ---------------------------------------------------------------------------
# BG501: each API, its parameter, unit and default


@pytest.mark.parametrize(
    "call",
    [
        'Redlock(key="sweep", masters={r})',
        'AIORedlock(key="sweep", masters={r})',
    ],
)
def test_bg501_pottery_default_is_10_seconds(bg, call):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + f"""
    from pottery import AIORedlock, Redlock

    @app.task
    def sweep():
        lock = {call}
"""
        },
        config=runtimes_table({"jobs.sweep": 30}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12)]
    assert "expires after 10 s (pottery Redlock, default 10 s)" in found[0].explanation


# ---------------------------------------------------------------------------
# BG501: must not flag


def test_bg501_verbose_says_why_a_ttl_was_not_folded(tmp_path, monkeypatch):
    write_project(
        tmp_path,
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task
    def sweep(ttl):
        r.lock("a", timeout=ttl)
"""
        },
        runtimes_table({"jobs.sweep": 600}),
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", ".", "--verbose", "--no-cache"])
    assert result.exit_code == 0
    assert "does not fold" in result.output


# ---------------------------------------------------------------------------
# bgcheck jobs: each job's locks, with TTL and runtime


def _cli(tmp_path, monkeypatch, args, files, config=""):
    write_project(tmp_path, files, config)
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(main, args)


def test_jobs_json_shows_lock_ttl_and_runtime(tmp_path, monkeypatch):
    result = _cli(
        tmp_path,
        monkeypatch,
        ["jobs", ".", "--format", "json", "--runtimes", "ops/runtimes.csv", "--no-cache"],
        {
            "helpers.py": """
    import redis

    r = redis.Redis()

    def locked():
        with r.lock("reports:nightly", timeout=60):
            pass
""",
            "jobs.py": """
    from celery import Celery
    import helpers

    app = Celery("proj")

    @app.task
    def nightly():
        helpers.locked()
""",
            "ops/runtimes.csv": "job,seconds\njobs.nightly,5m\n",
        },
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    (job,) = [j for j in document["jobs"] if j["name"] == "jobs.nightly"]
    (lock,) = job["locks"]
    assert lock["key"] == "reports:nightly"
    assert lock["ttl_seconds"] == 60
    assert lock["never_expires"] is False
    assert lock["function"] == "helpers.locked"
    assert lock["runtime_seconds"] == 300
    assert lock["runtime_source"] == "ops/runtimes.csv line 2"


def test_jobs_json_lists_a_decorator_lock_once(tmp_path, monkeypatch):
    result = _cli(
        tmp_path,
        monkeypatch,
        ["jobs", ".", "--format", "json", "--no-cache"],
        {
            "jobs.py": """
    import redis
    from celery import Celery
    from pottery import synchronize

    app = Celery("proj")
    r = redis.Redis()

    @app.task
    @synchronize(key="nightly", masters={r}, auto_release_time=120)
    def nightly():
        pass
""",
        },
    )
    assert result.exit_code == 0, result.output
    (job,) = json.loads(result.stdout)["jobs"]
    assert [(lock["key"], lock["ttl_seconds"]) for lock in job["locks"]] == [("nightly", 120)]


def test_jobs_json_says_why_a_ttl_is_unknown(tmp_path, monkeypatch):
    result = _cli(
        tmp_path,
        monkeypatch,
        ["jobs", ".", "--format", "json", "--no-cache"],
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task
    def nightly(ttl):
        with r.lock("reports:nightly", timeout=ttl):
            pass
""",
        },
    )
    assert result.exit_code == 0, result.output
    (job,) = json.loads(result.stdout)["jobs"]
    (lock,) = job["locks"]
    assert lock["ttl_seconds"] is None
    assert "does not fold" in lock["ttl_note"]


@pytest.mark.parametrize(
    "text, mentions",
    [
        ("from redis.lock import Lock\n", True),
        ("x = Redlock([])\n", True),
        ("cache.add('k', 1)\n", True),
        ("r.set (key, 1, nx=True)\n", True),
        ("set(items)\n", False),  # a set() lock spells nx=True
        ("seen = set(items)\nr.set(key, 1, nx=True)\n", True),
        ("offset(1, nx=True)\nreset (2)\nsubset_add(3)\n", False),  # set/add inside a longer word
        ("é_add(1)\n", False),
        ("éadd(1)\nx.é add(1)\n", True),
        ("if blocking:\n    clock_gettime(Block)\n", False),  # "lock" inside block and clock
        ("unlock(key)\nx = cache.lock\n", True),
        ("def handle(item):\n    return item\n", False),
    ],
)
def test_lock_rules_relevance_test(text: str, mentions: bool):
    from bgcheck.rules.locks import _mentions_locking

    assert _mentions_locking(text) is mentions
