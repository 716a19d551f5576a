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


LOCKING_MODULES = {
    "conn.py": "import redis\n\nr = redis.Redis()\n",
    # a lock API called through the project's names, receiver types and in every place a call can stand
    "through_import.py": "from conn import r\n\ndef f():\n    with r.lock('a', timeout=5):\n        pass\n",
    "through_attribute.py": (
        "import redis\n\nclass Worker:\n    def __init__(self):\n        self._redis = redis.Redis()\n\n"
        "    def run(self):\n        with self._redis.lock('b', timeout=5):\n            pass\n"
    ),
    "in_lambda.py": "from conn import r\n\ntake = lambda: r.lock('c', timeout=5)\n",
    "in_default.py": "from conn import r\n\ndef f(held=r.lock('d', timeout=5)):\n    return held\n",
    "in_class_body.py": "from conn import r\n\nclass Holder:\n    held = r.lock('e', timeout=5)\n",
    "set_nx.py": "from conn import r\n\ndef claim():\n    return r.set('f', 1, nx=True, ex=60)\n",
    # words of locking, no lock API called
    "words.py": (
        "import threading\n\nblocking = True\nunlock_key = 'lock:x'\n\ndef lock(x):\n    return x\n\n"
        "def f(cache):\n    seen = set()\n    lock('k')\n    threading.Lock()\n    return seen\n"
    ),
}


def test_lock_rules_relevance_test_asks_the_model(tmp_path):
    """BG501/BG502 look only at files that call a lock API, however the call is spelled or resolved;
    a file full of lock words that calls none is not theirs."""
    from bgcheck.load.config import console_scripts, default_config
    from bgcheck.model.build import build_index_isolated
    from bgcheck.rules.locks import LockTtlShorterThanRuntime, LockWithoutTtl
    from bgcheck.run.engine import load_units

    for name, text in LOCKING_MODULES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    config = default_config(tmp_path)
    units = load_units([tmp_path], config)
    index = build_index_isolated(units, config, console_scripts(tmp_path), {})
    relevant = set()
    for unit in units:
        unit.index = index
        for rule in (LockTtlShorterThanRuntime(config), LockWithoutTtl(config)):
            if rule.is_relevant(unit):
                relevant.add((unit.path.name, rule.code))
    takes = set(LOCKING_MODULES) - {"conn.py", "words.py"}
    assert relevant == {(name, code) for name in takes for code in ("BG501", "BG502")}


def test_bg502_ttl_through_arguments_follows_an_edit_of_a_caller_cached_as_cold(tmp_path, monkeypatch):
    """The lock in locks.py never expires only while no call of acquire() passes ``ttl``: a caller in
    tasks.py that starts passing one takes the finding away, and a cached run says so as a cold one does."""
    from conftest import reported_at

    write_project(tmp_path, {
        "app/__init__.py": "",
        "app/locks.py": """
            import redis

            client = redis.Redis()


            def acquire(name, ttl=None):
                return client.lock(name, timeout=ttl)
        """,
        "app/tasks.py": """
            from celery import shared_task

            from app.locks import acquire


            @shared_task
            def sync():
                with acquire("sync"):
                    pass
        """,
    })
    monkeypatch.chdir(tmp_path)
    tasks = tmp_path / "app" / "tasks.py"
    assert reported_at("BG502") == reported_at("BG502", "--no-cache") == ["app/locks.py:8:12"]
    tasks.write_text(tasks.read_text().replace('acquire("sync")', 'acquire("sync", ttl=60)'))
    assert reported_at("BG502") == reported_at("BG502", "--no-cache") == []
    tasks.write_text(tasks.read_text().replace('acquire("sync", ttl=60)', 'acquire("sync", ttl=None)'))
    assert reported_at("BG502") == reported_at("BG502", "--no-cache") == ["app/locks.py:8:12"]
