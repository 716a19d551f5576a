"""Comments and strings never decide a finding.

Every fixture project, every rule fixture (tests/rules/) and every rule page example is checked three times: as written, with a
comment appended to every line that can take one, and with a string statement appended to every
simple statement. The comment and the string are made of the words rules used to look for in the
text (``timeout=``, ``await task``, ``limit``, ``len(``, ``def nightly():``, ``daemon = True``, ...).
The findings, the jobs ``bgcheck jobs`` lists and the locks must be identical, line for line.
"""

from __future__ import annotations

import dataclasses
import difflib
import io
import shutil
import textwrap
import tokenize
from pathlib import Path

import pytest

from bgcheck.load.config import load_config
from bgcheck.run.engine import RunRequest, run
from conftest import codes, write_project
from test_rule_fixtures import FOLDERS as RULE_FIXTURES
from test_rule_fixtures import copy_project, projects_of
from test_rule_pages import PAGES, parse_page, project_of

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted(p for p in (ROOT / "fixtures").iterdir() if (p / "pyproject.toml").is_file())

# Words the rules once searched the source text for; none of them is code here.
MISLEADING = (
    "TODO: we should await task; await asyncio.gather(task) task.result() t.join() "
    "timeout=5 pool.close() pool.join(5) wait(futures) limit len(tasks) in_flight Semaphore acquire "
    "def nightly(): class Nightly: daemon = True setDaemon(True) self.daemon = True "
    "select_for_update SELECT id FROM jobs FOR UPDATE stop_event.is_set() deadline"
)
COMMENT = "  # " + MISLEADING
STRING = "; " + repr(MISLEADING)


def _tokens(source: str) -> list[tokenize.TokenInfo]:
    return list(tokenize.generate_tokens(io.StringIO(source).readline))


def _insert(source: str, insertions: dict[tuple[int, int], str]) -> str:
    """Insert text at (line, column) positions (1-based lines, as tokenize gives them)."""
    lines = source.splitlines(keepends=True)
    for (row, col), text in sorted(insertions.items(), reverse=True):
        if 1 <= row <= len(lines):
            line = lines[row - 1]
            lines[row - 1] = line[:col] + text + line[col:]
    return "".join(lines)


def with_comments(source: str) -> str:
    """A comment at the end of every line that ends outside a string (lines ending in a
    backslash continuation cannot take one); on a line that has a comment already, the words go
    at its start (a rule fixture's ``# error:`` marker sits on every flagged line), unless it is
    a ``# noqa`` (which does decide)."""
    tokens = _tokens(source)
    comments = {tok.start[0]: tok for tok in tokens if tok.type == tokenize.COMMENT}
    insertions = {}
    for tok in tokens:
        if tok.type in (tokenize.NEWLINE, tokenize.NL) and tok.start[0] not in comments:
            insertions[tok.start] = COMMENT
    for comment in comments.values():
        if "noqa" not in comment.string.lower():
            insertions[comment.start] = COMMENT.lstrip() + " "
    return _insert(source, insertions)


def with_strings(source: str) -> str:
    """``; "<misleading words>"`` after every simple statement (not after a compound statement's
    header, a decorator, or the ``from __future__`` imports that must come first)."""
    insertions = {}
    logical: list[tokenize.TokenInfo] = []
    seen_future = False
    for tok in _tokens(source):
        if tok.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
            continue
        if tok.type != tokenize.NEWLINE:
            logical.append(tok)
            continue
        if logical:
            first, last = logical[0], logical[-1]
            is_future = [t.string for t in logical[:2]] == ["from", "__future__"]
            seen_future = seen_future or is_future
            if first.string != "@" and last.string != ":" and not is_future:
                insertions[last.end] = STRING
        logical = []
    if seen_future:  # nothing may come before ``from __future__``: leave the module's head alone
        head = max(t.start[0] for t in _tokens(source) if t.string == "__future__")
        insertions = {pos: text for pos, text in insertions.items() if pos[0] > head}
    return _insert(source, insertions)


def outcome(root: Path, monkeypatch, preview: bool = False) -> dict:
    """Findings (in preview mode too: more rules, more shapes) and the jobs and locks ``bgcheck jobs`` lists."""
    monkeypatch.chdir(root)
    config = dataclasses.replace(load_config(start=root), preview=preview)
    result = run(RunRequest([Path(".")], config, need_index=True))
    diagnostics = [
        f"{d.location.path}:{d.location.line}:{d.location.column}-{d.location.end_line}:{d.location.end_column} "
        f"{d.code} {d.message} " + " | ".join(f"{r.path}:{r.line}:{r.column} {r.message}" for r in d.related)
        for d in result.diagnostics
    ]
    index = result.index
    return {
        "diagnostics": diagnostics,
        "jobs": sorted((repr(sorted(j.to_dict().items())) for j in index.jobs)) if index else [],
        "locks": sorted((repr(sorted(s.to_dict().items())) for s in index.locks)) if index else [],
    }


def assert_same(changed: dict, expected: dict, what: str) -> None:
    for key in expected:
        if changed[key] != expected[key]:
            diff = "\n".join(difflib.unified_diff(expected[key], changed[key], "as written", "changed", lineterm="", n=0))
            pytest.fail(f"{what}: the {key} differ\n{diff}")


TRANSFORMS = {"comments": with_comments, "strings": with_strings}


def _copy_transformed(source_root: Path, target: Path, transform) -> None:
    shutil.copytree(source_root, target)
    for path in target.rglob("*.py"):
        path.write_text(transform(path.read_text(encoding="utf-8")), encoding="utf-8")


@pytest.mark.parametrize("preview", [False, True], ids=["default", "preview"])
@pytest.mark.parametrize("kind", sorted(TRANSFORMS))
@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_fixture_findings_do_not_depend_on_comments_or_strings(fixture, kind, preview, tmp_path, monkeypatch):
    plain, changed = tmp_path / "plain" / fixture.name, tmp_path / kind / fixture.name
    _copy_transformed(fixture, plain, lambda text: text)
    _copy_transformed(fixture, changed, TRANSFORMS[kind])
    expected = outcome(plain, monkeypatch, preview)
    assert expected["diagnostics"] or fixture.name != "demo_service", "the demo service should have findings"
    assert_same(outcome(changed, monkeypatch, preview), expected, f"{fixture.name} with {kind}")


@pytest.mark.parametrize("preview", [False, True], ids=["default", "preview"])
@pytest.mark.parametrize("kind", sorted(TRANSFORMS))
@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_rule_page_findings_do_not_depend_on_comments_or_strings(path, kind, preview, tmp_path, monkeypatch):
    page = parse_page(path.read_text(encoding="utf-8"))
    for heading in ("Example", "Use instead"):
        files, config = project_of(page.section(heading))
        files = {name: textwrap.dedent(text) for name, text in files.items()}
        plain, changed = tmp_path / heading / "plain", tmp_path / heading / kind
        write_project(plain, files, config)
        write_project(changed, {name: TRANSFORMS[kind](text) for name, text in files.items()}, config)
        expected = outcome(plain, monkeypatch, preview)
        assert_same(outcome(changed, monkeypatch, preview), expected, f"{path.name}, ## {heading} with {kind}")


# ---------------------------------------------------------------------------
# the transforms themselves


def test_comments_go_where_a_comment_can_go():
    source = 'x = """a\nb"""\ny = (1,\n     2)\nz = 1 + \\\n    2\nw = 3  # noqa\n'
    result = with_comments(source)
    assert result.splitlines() == [
        'x = """a',
        'b"""' + COMMENT,
        "y = (1," + COMMENT,
        "     2)" + COMMENT,
        "z = 1 + \\",
        "    2" + COMMENT,
        "w = 3  # noqa",
    ]
    compile(result, "<test>", "exec")


def test_strings_go_after_simple_statements_only():
    source = 'from __future__ import annotations\n@dec\ndef f():\n    return 1\nif x: pass\nclass A:\n    y = 2\n'
    result = with_strings(source)
    assert result.splitlines() == [
        "from __future__ import annotations",
        "@dec",
        "def f():",
        "    return 1" + STRING,
        "if x: pass" + STRING,
        "class A:",
        "    y = 2" + STRING,
    ]
    compile(result, "<test>", "exec")


# ---------------------------------------------------------------------------
# The cases issue 14 names, and their neighbours: each with the words in a comment or a string
# (must not change anything) and with the real code (must).

PAY = """
import stripe

def charge(order):
    stripe.PaymentIntent.create(amount=order.total, currency="eur")
"""


def test_bg601_a_comment_about_awaiting_does_not_await(bg):
    found = bg.files(
        {
            "shop/__init__.py": "",
            "shop/pay.py": PAY,
            "shop/jobs.py": """
                import asyncio
                from shop.pay import charge

                async def checkout(order):
                    task = asyncio.create_task(asyncio.to_thread(charge, order))
                    # TODO: we should await task
                    log("await task; task.result()")
                """,
        },
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 6)]


def test_bg601_a_real_await_of_the_task_does(bg):
    found = bg.files(
        {
            "shop/__init__.py": "",
            "shop/pay.py": PAY,
            "shop/jobs.py": """
                import asyncio
                from shop.pay import charge

                async def checkout(order):
                    task = asyncio.create_task(asyncio.to_thread(charge, order))
                    await task

                async def checkout_gathered(order):
                    task = asyncio.create_task(asyncio.to_thread(charge, order))
                    await asyncio.gather(task, return_exceptions=True)
                """,
        },
        select=["BG601"],
    )
    assert codes(found) == []


def test_bg601_executor_map_results_iterated_in_code_only(bg):
    found = bg.files(
        {
            "shop/__init__.py": "",
            "shop/pay.py": PAY,
            "shop/jobs.py": """
                from concurrent.futures import ThreadPoolExecutor

                EXECUTOR = ThreadPoolExecutor(4)

                def charge_all(orders):
                    results = EXECUTOR.map(charge, orders)
                    # for r in results: list(results)

                def charge_all_and_wait(orders):
                    results = EXECUTOR.map(charge, orders)
                    return list(results)

                from shop.pay import charge
                """,
        },
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 7)]


SHUTDOWN = """
import requests
from concurrent.futures import ThreadPoolExecutor, wait

EXECUTOR = ThreadPoolExecutor(max_workers=4)

def stop(futures):
    EXECUTOR.shutdown(wait=False)
    {after}
"""


@pytest.mark.parametrize(
    "after",
    [
        "requests.post('https://hooks.example/stopped', timeout=5)",
        "# timeout=5, then wait(futures) and worker.join(5)",
        "print('wait(futures, timeout=5)')",
        "timeout = 5",
    ],
)
def test_bg402_an_unrelated_timeout_after_shutdown_waits_for_nothing(bg, after):
    found = bg.code(SHUTDOWN.format(after=after), select=["BG402"])
    assert codes(found) == [("BG402", 8)]


@pytest.mark.parametrize("after", ["wait(futures, timeout=10)", "futures[0].result(5)", "EXECUTOR._worker.join(timeout=5)"])
def test_bg402_a_wait_after_shutdown_waits(bg, after):
    assert codes(bg.code(SHUTDOWN.format(after=after), select=["BG402"])) == []


def test_bg402_terminate_after_close_and_join_in_comments_only(bg):
    found = bg.code(
        """
        import multiprocessing

        POOL = multiprocessing.Pool(4)

        def stop():
            # POOL.close(); POOL.join()
            print("POOL.close() POOL.join()")
            POOL.terminate()
        """,
        select=["BG402"],
    )
    assert codes(found) == [("BG402", 9)]


def test_bg402_cancel_with_an_await_in_a_comment_only(bg):
    found = bg.code(
        """
        import asyncio
        from fastapi import FastAPI

        app = FastAPI()
        TASKS = set()

        @app.on_event("shutdown")
        async def stop():
            for task in TASKS:
                task.cancel()  # then: await task / asyncio.gather(*TASKS)
            log = "await asyncio.wait(TASKS, timeout=5)"
        """,
        select=["BG402"],
    )
    assert codes(found) == [("BG402", 11)]


FANOUT = """
import asyncio

async def handle(message):
    return message

async def consume(stream{params}):
    async for message in stream:
        {line}
        asyncio.create_task(handle(message))
"""


@pytest.mark.parametrize(
    "line",
    [
        "# limit the tasks: len(pending) < max_concurrency, with a Semaphore",
        "print('limit len( Semaphore acquire qsize FIRST_COMPLETED in_flight')",
    ],
)
def test_bg303_words_about_a_bound_in_comments_and_strings_do_not_bound(bg, line):
    found = bg.code(FANOUT.format(params="", line=line), select=["BG303"])
    assert codes(found) == [("BG303", 10)]


@pytest.mark.parametrize(
    "params, line",
    [
        (", limit=10", "if len(asyncio.all_tasks()) > limit: await asyncio.sleep(0.1)"),
        (", sem=None", "await sem.acquire()"),
    ],
)
def test_bg303_a_bound_in_code_bounds(bg, params, line):
    assert codes(bg.code(FANOUT.format(params=params, line=line), select=["BG303"])) == []


def test_job_line_is_the_def_not_a_docstring_that_shows_one(bg, tmp_path, monkeypatch):
    from conftest import write_project

    root = tmp_path / "jobs"
    write_project(
        root,
        {
            "app.py": '''
                """Jobs. Example:

                def nightly():
                    ...
                class Nightly:
                """
                from apscheduler.schedulers.blocking import BlockingScheduler

                scheduler = BlockingScheduler()

                @scheduler.scheduled_job("interval", minutes=5)
                def nightly():
                    """Runs every night; see also
                def nightly():
                    """
                    x = f"""
                def nightly(): {1}
                """
                '''
        },
    )
    monkeypatch.chdir(root)
    index = run(RunRequest([Path(".")], load_config(start=root), need_index=True)).index
    assert [(job.name, job.line) for job in index.jobs] == [("app.nightly", 13)]
    assert index.function("app.nightly").line == 13


def test_bg204_sql_in_a_docstring_is_not_a_query(bg):
    found = bg.code(
        """
        from apscheduler.schedulers.blocking import BlockingScheduler

        scheduler = BlockingScheduler()

        @scheduler.scheduled_job("interval", minutes=5)
        def sync(connection):
            '''Never SELECT ... LIMIT 10 FOR UPDATE here: we take rows one by one.'''
            "SELECT id FROM jobs LIMIT 10 FOR UPDATE"
            connection.execute("SELECT id FROM jobs WHERE done = false")

        @scheduler.scheduled_job("interval", minutes=5)
        def sync_locked(connection):
            connection.execute("SELECT id FROM jobs LIMIT 10 FOR UPDATE")
        """,
        select=["BG204"],
    )
    assert codes(found) == [("BG204", 14)]


def test_bg202_and_bg403_daemon_in_a_comment_is_no_daemon(bg):
    found = bg.code(
        """
        import threading

        def pump():
            while True:
                pass

        def save(session):
            session.commit()

        class Pump(threading.Thread):
            '''Runs for ever; not a daemon (self.daemon = True would be wrong).'''

            def run(self):
                # self.daemon = True; super().__init__(daemon=True)
                while True:
                    pass

        def start(session):
            t = threading.Thread(target=save, args=(session,))
            # t.daemon = True
            t.start()
            keeper = threading.Thread(target=pump)
            keeper.start()  # keeper.daemon = True
        """,
        select=["BG202", "BG403"],
    )
    assert codes(found) == [("BG202", 11), ("BG202", 23)]


def test_bg403_a_daemon_set_in_code_is_a_daemon(bg):
    found = bg.code(
        """
        import threading

        def save(session):
            session.commit()

        def start(session):
            t = threading.Thread(target=save, args=(session,))
            t.daemon = True
            t.start()
        """,
        select=["BG403"],
    )
    assert codes(found) == [("BG403", 8)]


def test_bg604_a_row_lock_in_a_comment_is_no_relay(bg):
    found = bg.files(
        {
            "shop/__init__.py": "",
            "shop/models.py": "class Outbox:\n    objects = None\n",
            "shop/relay.py": """
                from django.db import transaction
                from kafka import KafkaProducer

                from shop.models import Outbox

                producer = KafkaProducer()

                def relay():
                    with transaction.atomic():
                        rows = Outbox.objects.filter(sent=False)  # .select_for_update(skip_locked=True)
                        for row in rows:
                            producer.send(row.topic, row.payload)
                            row.delete()
                """,
        },
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 13)]


@pytest.mark.parametrize("kind", sorted(TRANSFORMS))
# BG000's fixture files do not tokenize: there is nothing to comment.
@pytest.mark.parametrize("folder", [f for f in RULE_FIXTURES if f.name != "BG000"], ids=lambda p: p.name)
def test_rule_fixture_findings_do_not_depend_on_comments_or_strings(folder, kind, tmp_path, monkeypatch):
    """The rule fixtures run in preview mode (tests/test_rule_fixtures.py); each project apart."""
    for project in projects_of(folder):
        plain = copy_project(folder, project, tmp_path / "plain")
        changed = copy_project(folder, project, tmp_path / kind, TRANSFORMS[kind])
        expected = outcome(plain, monkeypatch, preview=True)
        shown = project.relative_to(folder.parent).as_posix()
        assert_same(outcome(changed, monkeypatch, preview=True), expected, f"tests/rules/{shown} with {kind}")
