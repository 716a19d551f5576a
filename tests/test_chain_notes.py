"""Chains as notes, at the calls: a finding whose reason lies in another function points a note
at each call on the way (its line and column), in every output format.

The positions come from the summaries (phase 1 reads them off CPython's ast): they must equal
libcst's own positions (which the rules' findings use), and survive the cache.
"""

from __future__ import annotations

import ast
import json
import textwrap

import libcst as cst
import pytest
from click.testing import CliRunner
from libcst.metadata import MetadataWrapper, PositionProvider

from bgcheck.cli import main
from bgcheck.load.summary import build_summary
from conftest import write_project

# ---------------------------------------------------------------------------
# the positions a summary keeps


def summarise(source: str):
    text = textwrap.dedent(source)
    return build_summary(ast.parse(text), "m.py", "m", False, text)


def sites(function) -> dict:
    return dict(zip(function.calls, function.call_sites))


def test_first_call_of_each_target_is_located_past_comments_strings_and_defs():
    summary = summarise(
        '''
        import os

        def helper(x):
            return x

        def caller(path):
            """Calls helper(path) and os.path.join(a, b), says the docstring."""
            # helper(1) in a comment
            label = "helper(2) in a string"
            value = f"{helper(3)}"
            helper(path)
            return os.path.join(path, helper(4))

        helper(5)
        '''
    )
    caller = sites(summary.functions["m.caller"])
    assert caller["m.helper"] == (11, 16)  # in the f-string's replacement field: code
    assert caller["os.path.join"] == (13, 12)
    assert dict(zip(summary.module_calls, summary.module_call_sites)) == {"m.helper": (15, 1)}


def test_the_nth_call_of_a_name_is_the_nth_written():
    summary = summarise(
        """
        def first():
            send(1); send(2)

        def second():
            send(3)
            self.send(4)
        """
    )
    assert sites(summary.functions["m.second"])["?send"] == (6, 5)
    assert sites(summary.functions["m.second"])["?self.send"] == (7, 5)


def test_a_callee_written_unusually_is_located_where_it_starts():
    summary = summarise(
        """
        import os

        def f(a):
            return os .path. join(a, "x")
        """
    )
    assert sites(summary.functions["m.f"])["os.path.join"] == (5, 12)


def test_a_chained_call_is_located_at_its_own_method_and_columns_count_characters():
    """``q.filter(x).filter(y)``: the outer call is the second ``.filter`` (its method's name), not
    the first one written; and a column after non-ASCII text counts characters, as editors do."""
    summary = summarise(
        """
        def f(q, x, y):
            label = "é"; return q.filter(x).filter(y)
        """
    )
    assert sites(summary.functions["m.f"])["?.filter"] == (3, 37)
    assert sites(summary.functions["m.f"])["?q.filter"] == (3, 25)


SAMPLE = '''
import asyncio, os

class Worker(Base):
    """Runs self.step(x) each time."""

    def __init__(self, pool):
        super().__init__()
        self.pool = pool

    async def run(self, items):
        for item in items:  # self.step(item) for each
            await self.step(item)
            self.pool.submit(self.step, item).result(timeout=5)
        done = [os.path.basename(i) for i in items if os.path.exists(i)]
        return {"n": len(done), "s": str(len(items))}

    @staticmethod
    def helper(*args, **kwargs):
        return dict(zip(args, map(str, args)), **kwargs)

def main():
    loop = asyncio.new_event_loop()
    loop.run_until_complete(Worker(None).run(["a", "b"]))
'''


def test_positions_equal_libcsts():
    """Every position a summary keeps is libcst's start of that call (of the method's name for a
    call on an expression that is not a name)."""
    module = cst.parse_module(SAMPLE)
    summary = build_summary(ast.parse(SAMPLE), "m.py", "m", False, SAMPLE)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    expected_starts = set()
    for node, where in positions.items():
        if isinstance(node, cst.Call):
            func = node.func
            start = positions[func.attr].start if isinstance(func, cst.Attribute) and not isinstance(func.value, (cst.Name, cst.Attribute)) else where.start
            expected_starts.add((start.line, start.column + 1))
    kept = [site for f in summary.functions.values() for site in f.call_sites] + list(summary.module_call_sites)
    assert len(kept) > 15
    assert all(site in expected_starts for site in kept), sorted(set(kept) - expected_starts)
    assert (0, 0) not in kept


# ---------------------------------------------------------------------------
# rules: a multi-module project, notes at the exact calls

STORE = """
from sqlalchemy.orm import Session


def store_row(session: Session, row):
    session.add(row)
    session.commit()
"""

SYNC = '''
import requests

from app.store import store_row


def fetch(session, url):
    """For each row: store_row(session, row)."""
    # store_row(session, row) in a comment
    rows = requests.get(url).json()
    for row in rows:
        store_row(session, row)
'''

JOBS = """
import threading

from app.sync import fetch


def refresh(session):
    fetch(session, "https://example.com/rows")


def start(session):
    threading.Thread(target=refresh, args=(session,), daemon=True).start()
"""

CLI = """
from app.jobs import start

if __name__ == "__main__":
    start(None)
"""

FILES = {"app/__init__.py": "", "app/store.py": STORE, "app/sync.py": SYNC, "app/jobs.py": JOBS, "app/cli.py": CLI}

# Where the calls are (line, column): refresh() calls fetch() at jobs.py 8:5, fetch() calls store_row()
# at sync.py 12:9, store_row() commits at store.py 7:5.
AT_FETCH = ("app/jobs.py", 8, 5, "-> fetch()")
AT_SAVE = ("app/sync.py", 12, 9, "-> store_row()")
AT_COMMIT = ("app/store.py", 7, 5, "writes durably: `Session.commit()`")


def notes(diagnostic) -> list:
    return [(r.path, r.line, r.column, r.message) for r in diagnostic.related]


def only(found, code):
    (diagnostic,) = [d for d in found if d.code == code]
    return diagnostic


def test_bg403_notes_at_each_call_and_at_the_write(bg):
    found = bg.files(FILES, select=["BG403"])
    assert notes(only(found, "BG403")) == [AT_FETCH, AT_SAVE, AT_COMMIT]


def test_bg404_notes_from_the_started_work_to_the_write(bg):
    found = bg.files(FILES, select=["BG404"])
    diagnostic = only(found, "BG404")
    assert diagnostic.location.path == "app/cli.py"
    # the thread's target at its def (a thread start is not a call of it), then the calls
    assert notes(diagnostic) == [("app/jobs.py", 7, 1, "-> refresh()"), AT_FETCH, AT_SAVE, AT_COMMIT]


def test_bg404_notes_follow_the_entry_points_own_calls(bg):
    found = bg.files(
        {
            "tool/__init__.py": "",
            "tool/work.py": """
                import threading

                from sqlalchemy.orm import Session

                def persist(session: Session):
                    session.commit()

                def run(session):
                    threading.Thread(target=print).start()
                    persist(session)
                """,
            "tool/__main__.py": """
                from tool.work import run

                if __name__ == "__main__":
                    run(None)
                """,
        },
        select=["BG404"],
    )
    assert notes(only(found, "BG404")) == [
        ("tool/__main__.py", 5, 5, "-> run()"),
        ("tool/work.py", 11, 5, "-> persist()"),
        ("tool/work.py", 7, 5, "writes durably: `Session.commit()`"),
    ]


def test_bg203_notes_from_the_job_to_the_wait(bg):
    found = bg.files(
        {
            "proj/__init__.py": "",
            "proj/celery.py": """
                from celery import Celery
                app = Celery("proj")
                """,
            "proj/client.py": """
                import requests

                def rates():
                    return requests.get("https://example.com/rates").json()
                """,
            "proj/tasks.py": """
                from proj.celery import app
                from proj import client

                def refresh():
                    return client.rates()

                @app.task
                def sync_rates():
                    refresh()
                """,
        },
        select=["BG203"],
    )
    diagnostic = only(found, "BG203")
    assert (diagnostic.location.path, diagnostic.location.line) == ("proj/client.py", 5)
    assert notes(diagnostic) == [
        ("proj/tasks.py", 9, 1, "-> sync_rates()"),
        ("proj/tasks.py", 10, 5, "-> refresh()"),
        ("proj/tasks.py", 6, 12, "-> rates()"),
    ]


def test_bg201_notes_from_the_job_to_the_loop(bg):
    found = bg.files(
        {
            "proj/__init__.py": "",
            "proj/feed.py": """
                def follow():
                    while True:
                        print("tick")
                """,
            "proj/clock.py": """
                from apscheduler.schedulers.blocking import BlockingScheduler
                from proj import feed

                def nightly():
                    feed.follow()

                scheduler = BlockingScheduler()
                scheduler.add_job(nightly, "cron", hour=3)
                """,
        },
        select=["BG201"],
    )
    assert notes(only(found, "BG201")) == [("proj/clock.py", 5, 1, "-> nightly()"), ("proj/clock.py", 6, 5, "-> follow()")]


def test_bg201_no_notes_when_the_loop_is_in_the_job_itself(bg):
    found = bg.files(
        {
            "proj/__init__.py": "",
            "proj/clock.py": """
                from apscheduler.schedulers.blocking import BlockingScheduler

                def nightly():
                    while True:
                        print("tick")

                scheduler = BlockingScheduler()
                scheduler.add_job(nightly, "cron", hour=3)
                """,
        },
        select=["BG201"],
    )
    assert notes(only(found, "BG201")) == []


def test_bg405_notes_from_the_hook_to_the_wait(bg):
    found = bg.files(
        {
            "svc/__init__.py": "",
            "svc/pool.py": """
                import threading

                WORKER = threading.Thread(target=print, daemon=True)  # atexit hooks wait for daemon threads only

                def drain():
                    WORKER.join()
                """,
            "svc/main.py": """
                import atexit

                from svc import pool

                def on_exit():
                    pool.drain()

                atexit.register(on_exit)
                """,
        },
        select=["BG405"],
    )
    assert notes(only(found, "BG405")) == [("svc/main.py", 6, 1, "-> on_exit()"), ("svc/main.py", 7, 5, "-> drain()")]


# ---------------------------------------------------------------------------
# every output format shows them, cached or not


@pytest.fixture
def project(tmp_path, monkeypatch):
    write_project(tmp_path, FILES, 'select = ["BG403"]\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*options: str) -> str:
    result = CliRunner().invoke(main, ["check", *options, "."])
    assert result.exit_code == 1, result.output
    return result.output


def test_text_shows_the_notes(project):
    output = check("--no-cache")
    for path, line, column, message in (AT_FETCH, AT_SAVE, AT_COMMIT):
        assert f"note: {path}:{line}:{column}: {message}" in output


def test_json_sarif_and_lsp_carry_the_call_positions(project):
    (item,) = json.loads(check("--no-cache", "--format", "json"))["diagnostics"]
    assert [(r["path"], r["line"], r["column"], r["message"]) for r in item["related"]] == [AT_FETCH, AT_SAVE, AT_COMMIT]

    (result,) = json.loads(check("--no-cache", "--format", "sarif"))["runs"][0]["results"]
    regions = [
        (r["physicalLocation"]["artifactLocation"]["uri"], r["physicalLocation"]["region"]["startLine"], r["physicalLocation"]["region"]["startColumn"])
        for r in result["relatedLocations"]
    ]
    assert regions == [(path, line, column) for path, line, column, _message in (AT_FETCH, AT_SAVE, AT_COMMIT)]

    lsp = json.loads(check("--no-cache", "--format", "lsp"))
    (diagnostic,) = [d for published in lsp for d in published["diagnostics"]]
    starts = [(info["location"]["range"]["start"]["line"], info["location"]["range"]["start"]["character"]) for info in diagnostic["relatedInformation"]]
    assert starts == [(line - 1, column - 1) for _path, line, column, _message in (AT_FETCH, AT_SAVE, AT_COMMIT)]


def test_cached_runs_keep_the_call_positions(project):
    first = check()
    second = check()  # from the cache
    assert first == second
    assert f"note: {AT_SAVE[0]}:{AT_SAVE[1]}:{AT_SAVE[2]}: {AT_SAVE[3]}" in second


# ---------------------------------------------------------------------------
# positions computed over a method alone equal the whole module's


def test_positions_over_a_method_alone_equal_the_whole_modules(tmp_path, monkeypatch):
    """A finding in a method is located over the method alone (rules/checker.py), checked against
    the text; every finding, note and fix of every rule fixture and demo project is where the
    whole module's positions put it."""
    import dataclasses
    from pathlib import Path

    from bgcheck.load.config import load_config
    from bgcheck.rules.checker import FileContext
    from bgcheck.run.engine import RunRequest, run
    from test_rule_fixtures import FOLDERS, copy_project, projects_of

    root = Path(__file__).resolve().parent.parent
    projects = [(folder, project) for folder in FOLDERS for project in projects_of(folder)]
    copies = [copy_project(folder, project, tmp_path / "rules") for folder, project in projects]
    copies += [root / "fixtures" / name for name in ("demo_service", "jobs_inventory")]

    def findings(copy: Path) -> list:
        monkeypatch.chdir(copy)
        result = run(RunRequest([Path(".")], dataclasses.replace(load_config(start=copy), preview=True)))
        return [(d.path, d.location, d.related, d.fix) for d in result.diagnostics]

    located = []
    method_position = FileContext._method_position
    monkeypatch.setattr(FileContext, "_method_position", lambda self, *a: located.append(method_position(self, *a)) or located[-1])
    fast = [findings(copy) for copy in copies]
    assert sum(found is not None for found in located) > 20  # the method's own positions were used
    monkeypatch.setattr(FileContext, "_MAX_STATEMENT_POSITIONS", 0)  # the whole module's positions, always
    whole = [findings(copy) for copy in copies]
    assert sum(map(len, fast)) > 100
    assert fast == whole
