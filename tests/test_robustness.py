"""Nothing a file contains can break a run: hostile shapes become a BG000 for that file (with the
reason), every other file is still checked and reported at the right lines."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import bgcheck.model.build as build_module
import bgcheck.load.summary as summary_module
import bgcheck.rules.checker as checker_module
from bgcheck.cli import main
from bgcheck.load.config import load_config
from bgcheck.load.unit import analyse_text
from bgcheck.run.engine import RunRequest, run
from bgcheck.run.noqa import parse_noqa

SWALLOWS = textwrap.dedent(
    """\
    import asyncio


    async def worker():
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:
            pass
    """
)
SWALLOWS_LINE = 7


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n", encoding="utf-8")
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def as_entry_points_run_it(function, *args):
    """``function(*args)`` as the CLI, the workers and the language server run phase 1: with the
    raised recursion limit, on a thread with a big stack (CPython's parser recurses per level)."""
    from bgcheck.run.process import in_big_stack, raise_recursion_limit

    previous = raise_recursion_limit()
    try:
        return in_big_stack(function, *args)
    finally:
        sys.setrecursionlimit(previous)


def found(root: Path, monkeypatch, jobs: int = 1) -> list[tuple[str, int, str]]:
    monkeypatch.chdir(root)
    result = as_entry_points_run_it(run, RunRequest([Path(".")], load_config(start=root), jobs=jobs))
    return sorted((d.path, d.location.line, d.code) for d in result.diagnostics)


def bg000(root: Path, monkeypatch, name: str):
    monkeypatch.chdir(root)
    result = as_entry_points_run_it(run, RunRequest([Path(".")], load_config(start=root)))
    return [d for d in result.diagnostics if d.path == name and d.code == "BG000"]


# ---------------------------------------------------------------------------
# item 5: shapes that make parsing quadratic are measured before parsing

CHAIN_LINES = "x = (1\n" + "".join(f"    + {i}\n" for i in range(4000)) + ")\n"
HOSTILE_PARSE = {
    "operator_chain.py": "import os\n\n" + CHAIN_LINES,
    "attribute_chain.py": "x = a" + ".b" * 4000 + "\n",
    "call_chain.py": "x = f" + "()" * 4000 + "\n",
    "not_chain.py": "x = " + "not " * 5000 + "a\n",  # 20 KB
    "subscript_chains.py": ("x = a" + "[0]" * 130 + "\n") * 200,
    "nested_calls.py": "x = " + "f(0, " * 300 + ")" * 300 + "\n",
    "backslash_chain.py": "x = 1" + " \\\n    + 1" * 4000 + "\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_PARSE))
def test_quadratic_shapes_are_bg000_with_the_reason(name, tmp_path, monkeypatch):
    """In a file a rule reads (job code below the shape), the shape is measured before libcst
    parses it: a BG000 that says where, at once. Phase 1 (CPython's parser) reads it and the
    project index has its summary."""
    started = time.perf_counter()
    unit = as_entry_points_run_it(analyse_text, Path(name), name, HOSTILE_PARSE[name] + SWALLOWS)
    if name != "nested_calls.py":  # CPython refuses 300 nested parentheses: a syntax error
        assert unit.summary is not None and any(name.endswith(".worker") for name in unit.summary.functions)
    root = write(tmp_path / "p", {name: HOSTILE_PARSE[name] + SWALLOWS})
    (error,) = bg000(root, monkeypatch, name)
    assert time.perf_counter() - started < 10
    assert "nested" in error.message
    expected_line = 3 if name == "operator_chain.py" else 1
    assert error.location.line == expected_line


@pytest.mark.parametrize(
    "source",
    [
        "x = [\n" + "    1,\n" * 3000 + "]\n",  # long, but flat
        "x = {\n" + "".join(f'    "k{i}": [1, 2, {{"a": b.c}}],\n' for i in range(800)) + "}\n",
        'def f():\n    """' + "a - b. c + d (e) [f] not g " * 400 + '"""\n',
        "if a:\n    pass\n" + "elif a:\n    pass\n" * 3000,
        "x = a" + "[0]" * 90 + "\n" + "y = 1 + 2\n" * 100,
        "x = " + "f(0, " * 60 + ")" * 60 + "\n",
    ],
    ids=["flat-list", "big-dict", "punctuated-docstring", "elif-chain", "one-deepish-chain", "nested-calls-60"],
)
def test_long_but_shallow_code_is_analysed(source):
    """As every entry point runs phase 1 (the CLI, the workers, the language server): with the
    raised recursion limit and the big stack (CPython's parser recurses once per ``elif``)."""
    unit = as_entry_points_run_it(analyse_text, Path("ok.py"), "ok.py", source)
    assert unit.error is None and unit.summary is not None


def test_a_quadratic_file_does_not_stop_the_others(tmp_path, monkeypatch):
    """Each shape in a file a rule reads is its BG000; the same shapes in files no rule reads
    (module constants only) are read by CPython's parser alone and say nothing."""
    relevant = {f"job_{name}": text + SWALLOWS for name, text in HOSTILE_PARSE.items()}
    root = write(tmp_path / "p", {"app.py": SWALLOWS, **relevant, **HOSTILE_PARSE})
    result = found(root, monkeypatch)
    assert ("app.py", SWALLOWS_LINE, "BG105") in result
    # (CPython refuses 300 nested parentheses itself: a syntax error wherever it is)
    assert sorted(path for path, _line, code in result if code == "BG000") == sorted([*relevant, "nested_calls.py"])


# ---------------------------------------------------------------------------
# item 7: lone-CR line endings


def test_lone_cr_line_endings_give_the_real_lines_and_noqa_works(tmp_path, monkeypatch):
    with_noqa = SWALLOWS.replace("except asyncio.CancelledError:", "except asyncio.CancelledError:  # noqa: BG105")
    root = write(
        tmp_path / "p",
        {
            "cr.py": SWALLOWS.replace("\n", "\r").encode(),
            "cr_noqa.py": with_noqa.replace("\n", "\r").encode(),
            "crlf.py": SWALLOWS.replace("\n", "\r\n").encode(),
            "mixed.py": ("# one\r# two\r\n" + SWALLOWS).encode(),
        },
    )
    assert found(root, monkeypatch) == [
        ("cr.py", SWALLOWS_LINE, "BG105"),
        ("crlf.py", SWALLOWS_LINE, "BG105"),
        ("mixed.py", SWALLOWS_LINE + 2, "BG105"),
    ]
    # the code frame shows the real line
    monkeypatch.chdir(root)
    out = CliRunner().invoke(main, ["check", "cr.py", "--show-source", "--no-cache"]).output
    assert f"{SWALLOWS_LINE} |     except asyncio.CancelledError:" in out


def test_noqa_reads_lone_cr_lines():
    assert parse_noqa("a = 1\rb = 2  # noqa: BG105\rc = 3\r") == {2: frozenset({"BG105"})}
    assert parse_noqa("a = (\rb  # noqa\r") == {2: parse_noqa("x  # noqa\n")[1]}  # the broken-file fallback


def test_lone_cr_bg000_lands_on_the_real_line(tmp_path, monkeypatch):
    root = write(tmp_path / "p", {"broken.py": b"x = 1\ry = 2\rdef f(:\r    pass\r"})
    (error,) = bg000(root, monkeypatch, "broken.py")
    assert error.location.line == 3


# ---------------------------------------------------------------------------
# item 10: valid Python that libcst cannot parse


def test_valid_python_libcst_cannot_parse_says_why(tmp_path, monkeypatch):
    """Phase 1 reads every file with CPython's parser; a file a rule reads (here: job code) is parsed
    with libcst too, and one that libcst cannot parse is a BG000 that says which of its limits the
    code runs into. A file no rule reads (constants only) is analysed and says nothing."""
    below = SWALLOWS.count("\n")  # each file starts with job code that a rule reads
    root = write(
        tmp_path / "p",
        {
            "annotated.py": SWALLOWS + "x = 1\n(no_such_global): int\n",
            "strings.py": SWALLOWS + "x = (\n" + '"a"\n' * 20000 + ")\n",
            "annotated_attribute.py": SWALLOWS + "class A:\n    b: int = 1\n\n(A.b): int = 3\n",
            "fine.py": SWALLOWS + "x: int\nclass A:\n    b: int = 1\nA.b: int = 2\nA.b = 3\n",
            "constants_only.py": "x = 1\n(no_such_global): int\n",
            "app.py": SWALLOWS,
        },
    )
    result = found(root, monkeypatch)
    assert [r for r in result if r[2] == "BG000"] == [
        ("annotated.py", below + 2, "BG000"),
        ("annotated_attribute.py", below + 4, "BG000"),
        ("strings.py", below + 2, "BG000"),
    ]
    assert ("app.py", SWALLOWS_LINE, "BG105") in result and ("fine.py", SWALLOWS_LINE, "BG105") in result
    (annotated,) = bg000(root, monkeypatch, "annotated.py")
    # the message is one short line, the detail in the explanation (--verbose, --show-explanations)
    assert annotated.message == "file not analysed: valid Python that libcst (the parser bgcheck's rules use) cannot parse"
    assert "valid Python, but libcst" in annotated.explanation and "parenthesized target (`(no_such_global): ...`)" in annotated.explanation
    (strings,) = bg000(root, monkeypatch, "strings.py")
    assert "implicit concatenation of 20,000 lines of string literals" in strings.explanation


# ---------------------------------------------------------------------------
# per-file isolation: an exception in any phase is that file's BG000


def _raise_for(name: str, real):
    def wrapper(*args, **kwargs):
        if any(name in str(arg) for arg in args[:2]):
            raise ValueError(f"boom in {name}")
        return real(*args, **kwargs)

    return wrapper


@pytest.mark.parametrize("phase", ["summary", "check", "index"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_an_exception_in_one_file_is_that_files_bg000(tmp_path, monkeypatch, phase, jobs):
    files = {"app.py": SWALLOWS, "boom.py": SWALLOWS}
    if jobs > 1:  # enough files for two worker processes (forked: they see the patched functions)
        files.update({f"filler{i}.py": "x = 1\n" for i in range(40)})
    root = write(tmp_path / "p", files)
    if phase == "summary":
        monkeypatch.setattr(summary_module, "build_summary", _raise_for("boom.py", summary_module.build_summary))  # imported where a file is parsed
    elif phase == "check":
        monkeypatch.setattr(checker_module, "check_module", _raise_for("boom.py", checker_module.check_module))  # imported where a file is checked
    else:
        real = build_module.build_index

        def build_index(summaries, *args, **kwargs):
            summaries = list(summaries)
            if any(s.module == "boom" for s in summaries):
                raise ValueError("boom in the project model")
            return real(summaries, *args, **kwargs)

        monkeypatch.setattr(build_module, "build_index", build_index)
    result = found(root, monkeypatch, jobs=jobs)
    assert ("app.py", SWALLOWS_LINE, "BG105") in result
    assert ("boom.py", 1, "BG000") in result
    assert not [r for r in result if r[0] == "boom.py" and r[2] != "BG000"]
    assert not [r for r in result if r[0] != "boom.py" and r[2] == "BG000"]
    (error,) = bg000(root, monkeypatch, "boom.py") if jobs == 1 else [None]
    if error is not None:
        assert "bgcheck failed while" in error.message and "boom in" in error.message


def test_isolation_in_the_cli_exit_status_and_output(tmp_path, monkeypatch):
    root = write(tmp_path / "p", {"app.py": SWALLOWS, "boom.py": "x = 1\n"})
    monkeypatch.setattr(checker_module, "check_module", _raise_for("boom.py", checker_module.check_module))  # imported where a file is checked
    monkeypatch.chdir(root)
    raw = CliRunner().invoke(main, ["check", "--format", "json", "--no-cache"])
    assert raw.exit_code == 1, raw.output
    # boom.py has nothing a rule could find: it is never walked, so nothing fails
    assert [(d["path"], d["code"]) for d in json.loads(raw.stdout)["diagnostics"]] == [("app.py", "BG105")]


# ---------------------------------------------------------------------------
# everything at once, in a process limited to 4 GiB


FOLDING_HOSTILE = {
    "fold_format.py": 'import redis\nr = redis.Redis()\nKEY = "%09999999999d" % 1\nwith r.lock(KEY, timeout=30):\n    pass\n',
    "fold_timeout.py": 'import redis\nr = redis.Redis()\nwith r.lock("k", timeout=(2**64)**64):\n    pass\n',
    "fold_chain.py": "N0 = 1\n" + "".join(f"N{i} = N{i - 1} + N{i - 1}\n" for i in range(1, 60)) + "T0 = 1\n"
    + "".join(f"T{i} = (T{i - 1}, T{i - 1})\n" for i in range(1, 60)) + 'import redis\nr = redis.Redis()\nwith r.lock("k", timeout=N59):\n    pass\n',
    "fold_power.py": 'import redis\nr = redis.Redis()\nwith r.lock("k", timeout=((10**64)**64)**64):\n    pass\n',
    "fold_queue.py": "import queue\nq = queue.Queue(-(2**64)**64)\n",
    "fold_celery.py": textwrap.dedent(
        """\
        from datetime import timedelta
        from celery import Celery
        app = Celery()
        app.conf.task_soft_time_limit = (2 ** 64) ** 64
        app.conf.beat_schedule = {"x": {"task": "t", "schedule": timedelta(seconds=(2 ** 64) ** 64)}}

        @app.task(time_limit=(2 ** 64) ** 64)
        def t():
            pass
        """
    ),
    "fold_apscheduler.py": textwrap.dedent(
        """\
        from apscheduler.schedulers.background import BackgroundScheduler
        scheduler = BackgroundScheduler()
        def job():
            pass
        scheduler.add_job(job, "interval", seconds=(2 ** 64) ** 64)
        """
    ),
}
NOT_PARSED = {
    **{name: text + SWALLOWS for name, text in HOSTILE_PARSE.items()},  # (a rule reads each file)
    # valid Python that libcst cannot parse, in files a rule reads (job code)
    "annotated.py": SWALLOWS + "(no_such_global): int\n",
    "strings.py": SWALLOWS + "x = (\n" + '"a"\n' * 20000 + ")\n",
    # only in a subprocess: on the main thread's small stack libcst crashes the interpreter on it
    "elif_10000.py": "a = 1\nif a:\n    pass\n" + "elif a:\n    pass\n" * 10000 + SWALLOWS,
}
# (file, line, code) that must be found among the ordinary files
ORDINARY = {
    "app.py": (SWALLOWS, [("app.py", SWALLOWS_LINE, "BG105")]),
    "cr.py": (SWALLOWS.replace("\n", "\r"), [("cr.py", SWALLOWS_LINE, "BG105")]),
    "pkg/__init__.py": ("", []),
    "pkg/later.py": ("\n" * 50 + SWALLOWS, [("pkg/later.py", SWALLOWS_LINE + 50, "BG105")]),
    # 3,000 elif branches: libcst needs a big stack for it (the CLI and the workers have one)
    "elif_chain.py": (
        "a = 1\nif a:\n    pass\n" + "elif a:\n    pass\n" * 3000 + SWALLOWS,
        [("elif_chain.py", 3 + 6000 + SWALLOWS_LINE, "BG105")],
    ),
}


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 * 1024**3, 4 * 1024**3))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_project_of_every_hostile_file_finishes_under_4_gib(tmp_path, jobs):
    files: dict[str, str | bytes] = {**FOLDING_HOSTILE, **NOT_PARSED}
    files.update({name: text.encode() for name, (text, _) in ORDINARY.items()})
    if jobs == "2":
        files.update({f"filler/f{i}.py": "x = 1\n" for i in range(40)})
    root = write(tmp_path / "p", files)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bgcheck", "check", ".", "--format", "json", "--no-cache", "--jobs", jobs],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=240,
        preexec_fn=_limit_memory,
        env={**os.environ, "NO_COLOR": "1"},
    )
    elapsed = time.perf_counter() - started
    assert done.returncode == 1, done.stderr
    diagnostics = json.loads(done.stdout)["diagnostics"]
    found_ = {(d["path"], d["line"], d["code"]) for d in diagnostics}
    assert sorted(d["path"] for d in diagnostics if d["code"] == "BG000") == sorted(NOT_PARSED)
    messages = {d["path"]: d["message"] for d in diagnostics if d["code"] == "BG000"}
    assert all(len(message) <= 120 for message in messages.values())
    explained = {d["path"]: d["message"] + " " + d["explanation"] for d in diagnostics if d["code"] == "BG000"}
    assert "10,000 `elif` branches" in explained["elif_10000.py"]
    assert "nested more than 500 levels deep" in explained["operator_chain.py"]
    assert "parenthesized target" in explained["annotated.py"]
    for _name, (_text, expected) in ORDINARY.items():
        assert set(expected) <= found_
    assert elapsed < 120


# ---------------------------------------------------------------------------
# relevance tests read the whole text of every file: none may backtrack on what a file contains


@pytest.mark.parametrize(
    "text",
    [
        "x = 1  # a." + "#" * 40 + "\n",  # a dot before a run of comment marks (a banner line)
        "x = 1  # a." + " #" * 40 + "\n",
        "x = 1  # a." + "\\" * 40 + "\n",
        "lock = 1  # " + "set " * 2000 + "\n",
        "s = 'SELECT " + "FOR " * 2000 + "'\n",
    ],
    ids=["hashes", "spaced-hashes", "backslashes", "many-sets", "many-fors"],
)
def test_every_rules_relevance_test_is_linear_in_the_text(text):
    from bgcheck.model.build import build_index
    from bgcheck.rules import all_rules

    unit = analyse_text(Path("banner.py"), "banner.py", text)
    assert unit.summary is not None
    config = load_config(start=Path("/nonexistent"))
    unit.index = build_index([unit.summary], config)
    started = time.perf_counter()
    for rule_class in all_rules():
        rule_class(config).is_relevant(unit)
    assert time.perf_counter() - started < 10  # backtracking over 40 characters takes hours
