"""Whether no exception leaves a function (FunctionSummary.keeps_its_errors): BG605 stays silent
on a dropped executor future of one, and a cached run follows the callee's edits."""

from __future__ import annotations

import ast
import textwrap

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from bgcheck.load.summary import build_summary
from conftest import write_project


def keeps(source: str) -> bool:
    text = textwrap.dedent(source)
    summary = build_summary(ast.parse(text), "m.py", "m", False, text)
    return summary.functions["m.f"].keeps_its_errors


@pytest.mark.parametrize("source", [
    "def f():\n    try:\n        g()\n    except Exception:\n        log()\n",
    "def f():\n    '''Doc.'''\n    try:\n        g()\n    except BaseException as e:\n        h(e)\n",
    "def f():\n    try:\n        g()\n    except:\n        pass\n",
    "def f():\n    try:\n        g()\n    except (ValueError, Exception):\n        log()\n    finally:\n        done()\n",
    "def f():\n    try:\n        return g()\n    except Exception:\n        return None\n",
    "async def f():\n    try:\n        await g()\n    except Exception:\n        log()\n",
])
def test_a_try_that_takes_every_error_and_never_raises_keeps_them(source):
    assert keeps(source)


@pytest.mark.parametrize("source", [
    "def f():\n    g()\n",
    "def f():\n    try:\n        g()\n    except ValueError:\n        log()\n",  # other errors leave it
    "def f():\n    try:\n        g()\n    except Exception:\n        log()\n        raise\n",
    "def f():\n    try:\n        g()\n    except Exception as e:\n        raise Wrapped() from e\n",
    "def f():\n    try:\n        g()\n    except KeyError:\n        raise\n    except Exception:\n        log()\n",
    "def f():\n    x = g()\n    try:\n        h(x)\n    except Exception:\n        log()\n",  # g() is outside
    "def f():\n    try:\n        g()\n    except Exception:\n        log()\n    else:\n        raise Done()\n",
    "def f():\n    try:\n        g()\n    except Exception:\n        if bad():\n            raise\n",
])
def test_anything_else_does_not(source):
    assert not keeps(source)


WORK = """
    import logging

    log = logging.getLogger(__name__)


    def deliver(url):
        try:
            post(url)
        except Exception:
            log.exception("delivery to %s failed", url)


    def post(url): ...
    """
CALLER = """
    from concurrent.futures import ThreadPoolExecutor

    from app.work import deliver

    POOL = ThreadPoolExecutor(max_workers=2)


    def notify(url):
        POOL.submit(deliver, url)
    """


def test_a_cached_run_sees_the_callee_change(tmp_path, monkeypatch):
    """The flag is part of the module's interface: editing the callee re-checks its callers."""
    write_project(tmp_path, {"app/__init__.py": "", "app/work.py": WORK, "app/notify.py": CALLER})
    monkeypatch.chdir(tmp_path)

    def codes(*extra: str) -> list[str]:
        result = CliRunner().invoke(main, ["check", "--format", "concise", "--quiet", *extra, "."])
        return [line.split(": ", 1)[1].split(" ", 1)[0] for line in result.stdout.splitlines() if line]

    assert codes() == [] == codes("--no-cache")
    (tmp_path / "app/work.py").write_text(textwrap.dedent(WORK).replace("log.exception(", "raise RuntimeError(") , encoding="utf-8")
    assert codes() == ["BG605"] == codes("--no-cache")


def beside(source: str):
    text = textwrap.dedent(source)
    summary = build_summary(ast.parse(text), "m.py", "m", False, text)
    return summary.functions["m.f"].calls_beside_kept_try


def test_the_calls_beside_a_kept_try_are_recorded_and_any_other_statement_records_none():
    kept = "    try:\n        g()\n    except Exception as e:\n        errors.append(e)\n"
    assert beside("import logging\nlog = logging.getLogger()\ndef f(x):\n    log.debug(f'start {x.id}', x)\n" + kept) == ("m.log.debug",)
    assert beside("def f():\n" + kept + "    done()\n") == ("?",)  # unresolved
    assert beside("def f():\n" + kept) == ()  # the try alone: keeps_its_errors itself
    assert beside("def f(x):\n    log.debug(x['id'])\n" + kept) == ()  # a subscript can raise
    assert beside("def f(x):\n    log.debug(render(x))\n" + kept) == ()  # so can a call in the arguments
    assert beside("def f(x):\n    y = prepare(x)\n" + kept) == ()  # not a call statement
    assert beside("def f():\n    log.debug('a')\n" + kept + kept) == ()  # two tries


LOGGED_WORK = """
    import logging

    _logger = logging.getLogger(__name__)


    class Request:
        def __init__(self):
            self.errors = []
            self.log = logging.getLogger("requests")

        def call_api(self):
            _logger.debug(f"request {self} started")
            try:
                post(self)
            except Exception as e:
                self.errors.append(e)
            self.log.info("request %s done", self)

        def call_and_count(self):
            METRICS.incr("calls")
            try:
                post(self)
            except Exception as e:
                self.errors.append(e)


    def post(request): ...
    """
LOGGED_CALLER = """
    from concurrent.futures import ThreadPoolExecutor

    from app.work import Request

    POOL = ThreadPoolExecutor(max_workers=2)


    def send():
        request = Request()
        POOL.submit(request.call_api)
        POOL.submit(request.call_and_count)
    """


def test_a_dropped_future_of_a_function_that_logs_around_its_kept_try_holds_no_error(tmp_path, monkeypatch):
    # call_api logs before and after its try (logging reports its own failures): silent; in
    # call_and_count a call bgcheck cannot vouch for stands outside the try: reported.
    write_project(tmp_path, {"app/__init__.py": "", "app/work.py": LOGGED_WORK, "app/notify.py": LOGGED_CALLER})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--format", "concise", "--quiet", "--no-cache", "."])
    assert result.stdout.splitlines() == [
        "app/notify.py:12:5: BG605 The future returned by `submit()` is thrown away",
    ]
