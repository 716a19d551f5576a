"""Whether no exception leaves a function (FunctionSummary.keeps_its_errors): BG602 stays silent
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
    assert codes() == ["BG602"] == codes("--no-cache")
