"""The model behind BG602's sure case: which coroutines let an error of library I/O reach the task
that runs them (ast_flow.awaited_calls per function, ProjectIndex.losing_io over the project)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from conftest import write_project

from bgcheck.load.config import load_config
from bgcheck.model.build import build_index
from bgcheck.run.engine import load_units
from bgcheck.syntax.ast_flow import awaited_calls


def _awaited(source: str) -> list:
    function = ast.parse(textwrap.dedent(source)).body[0]
    found = awaited_calls(function)
    return None if found is None else [(ast.unparse(call), kept) for call, kept in found]


def test_each_suspension_call_with_whether_a_catch_all_keeps_its_error():
    assert _awaited("""
        async def work(self):
            await self.client.post(1)
            try:
                await fetch()
                async with httpx.AsyncClient() as client:
                    await client.get("/")
            except Exception:
                log.exception("failed")
                await report()
            try:
                await check()
            except Exception:
                raise
            try:
                await probe()
            except Exception as error:
                if fatal(error):
                    raise
            with contextlib.suppress(Exception):
                await close()
            async with self.lock:
                await self.future
            async for message in subscribe():
                pass

            async def inner():
                await hidden()
        """) == [
        ("self.client.post(1)", False),
        ("fetch()", True),
        ("httpx.AsyncClient()", True),
        ("client.get('/')", True),
        ("report()", False),  # in the handler: nothing keeps it
        ("check()", False),  # the handler re-raises
        ("probe()", True),  # a raise only under a condition: kept, as far as bgcheck is sure
        ("close()", True),
        ("subscribe()", False),
    ]


def test_plain_functions_and_stubs_have_none():
    assert _awaited("def work():\n    return fetch()\n") is None
    assert _awaited("async def work():\n    raise NotImplementedError\n") is None
    assert _awaited("async def work():\n    return 1\n") == []


def _index(tmp_path, monkeypatch, source: str):
    write_project(tmp_path, {"app/__init__.py": "", "app/work.py": source})
    monkeypatch.chdir(tmp_path)
    config = load_config(start=tmp_path)
    units = load_units([Path(".")], config, jobs=1)
    return build_index([u.summary for u in units if u.summary is not None], config)


SOURCE = """
    import asyncio

    import httpx


    async def deliver(url, body):
        async with httpx.AsyncClient() as client:
            response = await client.post(url, json=body)
        await record(response)


    async def record(response):
        await response.aread()


    async def deliver_quietly(url, body):
        try:
            await deliver(url, body)
        except Exception:
            pass


    async def deliver_through(url, body):
        await deliver(url, body)


    async def one_call(url):
        await httpx.AsyncClient().get(url)


    async def relay(client: httpx.AsyncClient, request):
        # ``send`` is also a project method's name (Outbox.send): on an httpx client it is httpx's
        await client.send(request)
        await client.aclose()


    class Outbox:
        async def send(self, item):
            await self.db.execute(item)


    async def pause_and_put(queue):
        await asyncio.sleep(1)
        await queue.put(1)


    ready = asyncio.Event()
    lock = asyncio.Lock()


    async def wait_until_ready():
        await ready.wait()
        await lock.acquire()


    async def ping(a):
        await pong(a)
        await httpx.AsyncClient().get(a)


    async def pong(a):
        await ping(a)


    class Base:
        async def run(self):
            await self.session.get("/a")
            await self.session.get("/b")

        async def fetch_all(self):
            await self.session.get("/c")
            await self.session.get("/d")


    class Store:
        async def save_rows(self, rows):
            await self.db.execute(rows)
            await self.db.commit()

        async def put(self, item):
            await self.db.execute(item)
            await self.db.commit()


    class Quiet(Base):
        async def run(self):
            try:
                await self.session.get("/a")
            except Exception:
                pass
    """


def test_losing_io_counts_library_awaits_through_project_coroutines(tmp_path, monkeypatch):
    index = _index(tmp_path, monkeypatch, SOURCE)
    losing = index.losing_io
    # deliver: AsyncClient(), post(), and record's aread(): counted up to two
    assert losing["app.work.deliver"] == 2
    assert losing["app.work.record"] == 1
    assert losing["app.work.deliver_through"] == 2  # through the project coroutine it awaits
    assert "app.work.deliver_quietly" not in losing  # its catch-all keeps every error
    assert losing["app.work.one_call"] == 1  # one await, one library call (not enough for BG602)
    assert "app.work.pause_and_put" not in losing  # a pause and a put fail at no service
    assert "app.work.wait_until_ready" not in losing  # nor a wait on asyncio's own event or lock
    assert losing["app.work.relay"] == 2  # a library object's methods are the library's
    # a cycle: ping's own library call escapes, pong awaits ping
    assert losing["app.work.ping"] >= 1 and "app.work.pong" in losing
    assert "app.work.Quiet.run" not in losing


def test_what_a_dropped_task_may_run(tmp_path, monkeypatch):
    """A method a subclass overrides may run the override: every one must lose I/O; a method only
    one project class defines is found through a receiver bgcheck cannot type."""
    index = _index(tmp_path, monkeypatch, SOURCE)
    assert index.task_losing_io("app.work.deliver") == 2
    assert index.task_losing_io("app.work.deliver_quietly") == 0
    assert index.coroutine_candidates("app.work.Base.run") == ("app.work.Base.run", "app.work.Quiet.run")
    assert index.task_losing_io("app.work.Base.run") == 0  # Quiet.run keeps its errors
    assert index.coroutine_candidates("?self.worker.fetch_all") == ("app.work.Base.fetch_all",)
    assert index.task_losing_io("?self.worker.fetch_all") == 2
    # two project functions of that name, a base's and its override's: either may run
    assert index.coroutine_candidates("?self.worker.run") == ("app.work.Base.run", "app.work.Quiet.run")
    assert index.coroutine_candidates("httpx.AsyncClient") == ()
    # what a project object's attribute holds is untyped: the one ``save_rows`` of the project
    assert index.coroutine_candidates("app.work.Base().store.save_rows") == ("app.work.Store.save_rows",)
    # a library object's method is the library's, whatever the project names its own methods
    assert index.coroutine_candidates("asyncio.Queue().put") == ()
    # nor an untyped receiver's method that asyncio's own objects have (a queue handed in)
    assert index.coroutine_candidates("?queue.put") == ()


DELIVERY = """
    import httpx


    async def deliver(url, body):
        async with httpx.AsyncClient() as client:
            response = await client.post(url, json=body)
        response.raise_for_status()
    """
QUIET_DELIVERY = """
    import logging

    import httpx

    log = logging.getLogger(__name__)


    async def deliver(url, body):
        try:
            async with httpx.AsyncClient() as client:
                response = await client.post(url, json=body)
            response.raise_for_status()
        except Exception:
            log.exception("delivery failed")
    """
HOOKS = """
    import asyncio

    from app.delivery import deliver


    def on_paid(order):
        asyncio.create_task(deliver("https://hooks.example/paid", order))
    """


def test_an_edit_in_the_awaited_module_moves_the_finding_cached_as_cold(tmp_path, monkeypatch):
    """Whether the task in hooks.py loses its failure is decided in delivery.py: a catch-all added
    there turns BG602 into BG606 (with --verbose saying why), taken out brings it back; a cached
    run gives what a cold one does after each edit."""
    from conftest import reported_at

    write_project(tmp_path, {"app/__init__.py": "", "app/delivery.py": DELIVERY, "app/hooks.py": HOOKS})
    monkeypatch.chdir(tmp_path)
    delivery = tmp_path / "app" / "delivery.py"
    loud = delivery.read_text()
    assert reported_at("BG602") == reported_at("BG602", "--no-cache") == ["app/hooks.py:8:5"]
    delivery.write_text(textwrap.dedent(QUIET_DELIVERY))
    assert reported_at("BG602") == reported_at("BG602", "--no-cache") == []
    assert reported_at("BG606", "--preview") == reported_at("BG606", "--preview", "--no-cache") == ["app/hooks.py:8:5"]
    from click.testing import CliRunner

    from bgcheck.cli import main

    verbose = CliRunner().invoke(main, ["check", "--verbose", "."])
    assert "app/hooks.py:8:5: BG602 not reported: not sure the task loses anything: `deliver()` lets no error" in verbose.stderr
    delivery.write_text(loud)
    assert reported_at("BG602") == reported_at("BG602", "--no-cache") == ["app/hooks.py:8:5"]


FAMILY = """
    import abc


    class Backend(abc.ABC):
        async def save(self, rows):
            raise NotImplementedError

        async def close(self):
            await self.session.close()


    class HttpBackend(Backend):
        async def save(self, rows):
            await self.session.patch("/rows", json=rows)
            await self.session.post("/index")


    class FileBackend(Backend):
        async def save(self, rows):
            await self.session.patch("/files", data=rows)
            await self.session.post("/files/sync")


    class Uploader:
        async def close(self):
            await self.session.close()
    """


def test_a_base_method_and_its_overrides_are_what_an_untyped_call_may_run(tmp_path, monkeypatch):
    """``backend.save()`` on a value bgcheck cannot type: the backends' save() (the base's
    placeholder, which only raises NotImplementedError, never runs once overridden), so the task
    loses I/O when every backend's does; close(), which a class outside the family defines too,
    may run either: bgcheck cannot tell."""
    index = _index(tmp_path, monkeypatch, FAMILY)
    assert index.coroutine_candidates("?backend.save") == ("app.work.HttpBackend.save", "app.work.FileBackend.save")
    assert index.task_losing_io("?backend.save") == 2
    assert index.coroutine_candidates("app.work.Backend.save") == ("app.work.HttpBackend.save", "app.work.FileBackend.save")
    assert index.coroutine_candidates("?backend.close") == ()


def test_a_class_outside_the_family_defining_the_name_moves_the_finding_cached_as_cold(tmp_path, monkeypatch):
    """``backend.save(rows)`` in hooks.py runs one of the backends' save() until a class outside
    that family defines save() too (in another module): then bgcheck cannot tell which runs, and
    BG602 becomes BG606; a cached run gives what a cold one does after each edit, and after the
    base's placeholder gets a body of its own (it may run, and it loses nothing)."""
    from conftest import reported_at

    hooks = """
        import asyncio


        def on_rows(backend, rows):
            asyncio.create_task(backend.save(rows))
        """
    write_project(tmp_path, {"app/__init__.py": "", "app/backends.py": FAMILY, "app/hooks.py": hooks})
    monkeypatch.chdir(tmp_path)
    assert reported_at("BG602") == reported_at("BG602", "--no-cache") == ["app/hooks.py:6:5"]
    other = tmp_path / "app" / "cache.py"
    other.write_text("class Cache:\n    async def save(self, rows):\n        return rows\n")
    assert reported_at("BG602") == reported_at("BG602", "--no-cache") == []
    other.unlink()
    assert reported_at("BG602") == reported_at("BG602", "--no-cache") == ["app/hooks.py:6:5"]
    backends = tmp_path / "app" / "backends.py"
    backends.write_text(backends.read_text().replace("raise NotImplementedError", "return None"))
    assert reported_at("BG602") == reported_at("BG602", "--no-cache") == []
