"""Phase 1's summary builder on CPython's ast: the shapes where ast and libcst trees differ, and
what a file phase 1 cannot read says."""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

import pytest

from bgcheck.load.summary import build_summary
from bgcheck.load.unit import analyse_text


def summarise(source: str):
    text = textwrap.dedent(source)
    return build_summary(ast.parse(text), "m.py", "m", False, text)


def test_a_plain_call_named_like_a_recorded_method_is_not_recorded():
    """``Schedule.objects.create(...)`` is recorded (django-q's schedules); a function of that name is not."""
    summary = summarise(
        """
        from django_q.models import Schedule

        def create(name):
            return name

        def setup():
            create("nightly")
            Schedule.objects.create(func="app.tasks.nightly")
        """
    )
    assert summary.recorded_calls == (
        (("call", "django_q.models.Schedule.objects.create", (), (("func", ("v", "app.tasks.nightly")),)), "m.setup"),
    )


def test_calls_after_an_except_star_handler_are_known_to_run():
    """An ``except*`` handler is a branch like any other, and leaving it ends the branch."""
    summary = summarise(
        """
        def handle(work, log):
            try:
                work()
            except* ValueError:
                log()
            finish()
        """
    )
    handle = summary.functions["m.handle"]
    conditional = {handle.calls[i] for i in handle.conditional_calls}
    assert conditional == {"?log"}


def test_true_false_and_none_are_names_as_in_libcst():
    """``return None`` beside ``return Pool()``: the function returns a Pool (a None placeholder is set
    aside); and a ``None`` handed on is a name handed on, as libcst reads it."""
    summary = summarise(
        """
        from concurrent.futures import ThreadPoolExecutor

        def pool(flag):
            if flag:
                return None
            return ThreadPoolExecutor()
        """
    )
    assert summary.functions["m.pool"].returns == ("call", "concurrent.futures.ThreadPoolExecutor", (), ())


def test_keyword_arguments_written_before_a_star_argument_keep_their_order():
    """ast keeps a call's positional and keyword arguments apart; what is handed on reads them as
    written: ``fn=job`` comes first here, so it is handed on (a ``*rest`` first would hide nothing)."""
    summary = summarise(
        """
        from concurrent.futures import ThreadPoolExecutor

        POOL = ThreadPoolExecutor()

        def job():
            pass

        def start(rest):
            POOL.submit(fn=job, *rest)
        """
    )
    assert summary.recorded_calls == (
        (("call", "m.POOL.submit", (("*",),), (("fn", ("ref", "m.job")),)), "m.start"),
    )
    assert summary.functions["m.start"].ref_handoffs == (("m.POOL.submit", "fn", "m.job"),)


def test_syntax_newer_than_the_running_python_is_summarised():
    # load/newer_syntax.py: libcst reads it (tests/test_newer_syntax.py has every construct)
    unit = analyse_text(Path("m.py"), "m.py", "type Row = dict[str, int]\n")
    assert unit.error is None and unit.summary.constants == {"Row": ("?",)}


def test_a_plain_syntax_error_says_what_cpython_says_where_it_says_it():
    unit = analyse_text(Path("m.py"), "m.py", "def f(:\n    pass\n")
    assert (unit.error.message, unit.error.location.line, unit.error.location.column, unit.error.explanation) == (
        "file not analysed: syntax error: invalid syntax",
        1,
        7,
        f"Neither Python {sys.version_info[0]}.{sys.version_info[1]} (the Python bgcheck runs on) nor libcst (which reads "
        f"the syntax of Python 3.0 to 3.14) parses it. Python {sys.version_info[0]}.{sys.version_info[1]} says: invalid "
        "syntax (line 1, column 7).",
    )


# Phase 1 folds what summaries hold with syntax/ast_ir.py, phase 2's rules what they read with
# syntax/cst_ir.py: the same expression must give the same IR on both sides.
EXPRESSIONS = [
    "42", "-3", "+3", "0x1F", "1_000", "2.5", "'text'", "b'raw'", "'a' 'b'", "True", "False", "None", "...", "3j",
    "TTL", "settings.LOCK_TTL", "x.y.z", "f().attr", "f()[0].attr", "~5", "not x", "a + b", "a * 60", "2 ** 10",
    "a // b", "a % b", "a @ b", "a | b", "(1, 2)", "[1, *rest]", "{1, 2}", "{'k': 1, **extra}", "{}",
    "f'lock:{user_id}'", "f'{a}-{b!r}-{c:>10}'", "timedelta(minutes=5)", "redis.Redis(host='h', port=6379)",
    "f(1, *args, key=2, **kwargs)", "f(a=1, *rest)", "make().lock('k', timeout=10)", "every(10).minutes.do(job)",
    "td.total_seconds()", "x.total_seconds(1)", "lambda: 1", "[i for i in x]", "a if b else c", "x[0]", "a < b",
    "(y := 3)", "None.__class__", "'%s' % name", "'a' + 'b'",
]


def _resolve(name: str):
    return ("ref", f"m.{name}") if not name.startswith("_") else None


@pytest.mark.parametrize("source", EXPRESSIONS)
def test_ast_and_libcst_expressions_give_the_same_ir(source):
    import libcst as cst

    from bgcheck.syntax import ast_ir, cst_ir

    assert ast_ir.to_ir(ast.parse(source, mode="eval").body, _resolve) == cst_ir.to_ir(cst.parse_expression(source), _resolve)


def test_match_class_keyword_patterns_and_nonlocal_names_are_summarised():
    """ast keeps some names as plain strings in lists (``case Point(x=0)``'s ``kwd_attrs``, ``nonlocal
    a``): the builder walks past them (marimo's run_log.py was a BG000 internal error)."""
    summary = summarise(
        """
        def classify(event, loop):
            count = 0

            def bump():
                nonlocal count
                count += 1

            match event:
                case Point(x=0, y=0):
                    loop.create_task(report(event))
                case _:
                    bump()
        """
    )
    assert summary.functions["m.classify"].calls == ("?loop.create_task", "?report", "m.classify.<locals>.bump")


def test_coroutines_that_never_suspend():
    """A coroutine function with no await, async for or async with (outside functions it defines)
    never suspends; an async generator, an async comprehension or a plain function is no such one."""
    summary = summarise(
        """
        import asyncio

        async def record(self):
            self.sent = True

        async def defines_a_waiter():
            async def waiter():
                await asyncio.sleep(1)
            return waiter

        async def awaits():
            await asyncio.sleep(0)

        async def iterates(source):
            async for item in source:
                print(item)

        async def enters(lock):
            async with lock:
                pass

        async def comprehends(source):
            return [item async for item in source]

        async def generates():
            yield 1

        def plain():
            return 1
        """
    )
    never = {name for name, function in summary.functions.items() if function.suspends_only_at == () and not function.is_generator}
    assert never == {"m.record", "m.defines_a_waiter"}
    at = {name: function.suspends_only_at for name, function in summary.functions.items()}
    assert at == {
        "m.record": (), "m.defines_a_waiter": (), "m.defines_a_waiter.<locals>.waiter": ("asyncio.sleep",),
        "m.awaits": ("asyncio.sleep",), "m.iterates": None, "m.enters": None, "m.comprehends": None,
        "m.generates": (), "m.plain": None,
    }


def test_a_loop_that_drains_a_queue_until_it_is_empty_is_sized():
    """``while True: try: NEW.put_nowait(OLD.get_nowait()) except QueueEmpty: break`` moves what the
    other queue holds: a sized loop. Polling (sleep and go round again when empty) is not one."""
    summary = summarise(
        """
        import asyncio
        import queue
        from queue import Empty

        OLD, NEW = asyncio.Queue(), asyncio.Queue()
        BACKLOG, WORK, POLLED = queue.Queue(), queue.Queue(), asyncio.Queue()

        def move():
            while True:
                try:
                    NEW.put_nowait(OLD.get_nowait())
                except asyncio.QueueEmpty:
                    break

        def drain():
            while True:
                try:
                    item = BACKLOG.get(block=False)
                except Empty:
                    return
                WORK.put(item)

        async def poll():
            while True:
                try:
                    item = OLD.get_nowait()
                except asyncio.QueueEmpty:
                    await asyncio.sleep(1)
                    continue
                POLLED.put_nowait(item)
        """
    )
    loops = {scope: loop for _path, _item, loop, scope in summary.queue_puts}
    assert loops == {"m.move": "while-sized", "m.drain": "while-sized", "m.poll": "while"}


def test_placeholders_of_a_base_class_are_marked():
    """A method whose body only raises NotImplementedError (after a docstring), or an
    ``@abstractmethod`` under any import spelling, is a placeholder; a default that does
    something, or raises NotImplementedError only on one branch, is not."""
    summary = summarise(
        '''
        import abc
        from abc import abstractmethod as abstract


        class Store:
            async def save(self, rows):
                """Write the rows."""
                raise NotImplementedError("subclasses write")

            async def load(self):
                raise NotImplementedError

            @abc.abstractmethod
            async def close(self):
                return None

            @abstract
            def name(self):
                return "store"

            async def flush(self):
                return None

            def check(self, strict):
                if strict:
                    raise NotImplementedError
                return True

            def fail(self):
                raise RuntimeError("no")
        '''
    )
    marked = {name.rsplit(".", 1)[-1] for name, func in summary.functions.items() if func.abstract}
    assert marked == {"save", "load", "close", "name"}
