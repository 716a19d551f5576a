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


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 reads type statements")
def test_syntax_newer_than_the_running_python_is_a_bg000_that_says_so():
    unit = analyse_text(Path("m.py"), "m.py", "type Row = dict[str, int]\n")
    assert unit.summary is None and unit.error.code == "BG000"
    assert unit.error.message == (
        "file not analysed: it uses syntax newer than Python 3.11 (the Python bgcheck runs on) reads: invalid syntax; "
        "run bgcheck on the Python version the project uses"
    )


def test_a_plain_syntax_error_says_what_cpython_says_where_it_says_it():
    unit = analyse_text(Path("m.py"), "m.py", "def f(:\n    pass\n")
    assert (unit.error.message, unit.error.location.line, unit.error.location.column) == (
        "file not analysed: syntax error: invalid syntax",
        1,
        7,
    )
