"""Fuzzing that stays in the repository: bgcheck never crashes, whatever the program.

- generated programs (hypothesmith: from Python's grammar and from libcst's node types);
- mutants of the rules' own examples (rules/*.md): lines deleted, duplicated, swapped.

Every run must end with diagnostics: no exception, no BG000 that reports a failure inside
bgcheck, every position inside its file. CI runs a small budget; for a big run by hand:

    BGCHECK_FUZZ_EXAMPLES=2000 pytest tests/test_fuzz.py
"""

from __future__ import annotations

import os
import tempfile
import textwrap
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
hypothesmith = pytest.importorskip("hypothesmith")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from bgcheck.run.process import in_big_stack  # noqa: E402
from bgcheck.load.config import load_config  # noqa: E402
from bgcheck.load.unit import analyse_text  # noqa: E402
from bgcheck.run.engine import check_units  # noqa: E402
from conftest import write_project  # noqa: E402
from test_rule_pages import PAGES, parse_page, project_of  # noqa: E402

EXAMPLES = int(os.environ.get("BGCHECK_FUZZ_EXAMPLES", "30"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=EXAMPLES <= 30,  # CI: the same examples every run; by hand: new ones each time
    suppress_health_check=list(HealthCheck),
    database=None,
)


def check_files(files: dict[str, str], config: str = "") -> list:
    """Analyse and check ``files`` (relative path -> source) like a run does, in a thread with the
    CLI's big stack; returns the diagnostics."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        write_project(root, {}, config)
        cfg = load_config(start=root)

        def work():
            units = [analyse_text(root / rel, rel, text) for rel, text in files.items()]
            return check_units(units, cfg).diagnostics

        return in_big_stack(work)


def assert_sound(files: dict[str, str], diagnostics: list) -> None:
    for d in diagnostics:
        assert "bgcheck failed while" not in d.message, f"{d.message}\n--- {d.path}:\n{files.get(d.path, '')}"
        text = files[d.path]
        lines = max(1, text.count("\n") + text.count("\r") - text.count("\r\n") + (not text.endswith(("\n", "\r"))))
        assert 1 <= d.location.line <= lines + 1, (d, text)
        assert d.location.column >= 1


# ---------------------------------------------------------------------------
# generated programs

# Imports and names the rules look for, so generated code meets the framework models too.
PRELUDE = textwrap.dedent(
    """\
    import asyncio, queue, threading, redis, stripe
    from celery import Celery, shared_task
    app = Celery("proj")
    r = redis.Redis()
    """
)


@FUZZ
@given(source=hypothesmith.from_grammar() | hypothesmith.from_node())
def test_generated_programs_never_crash(source):
    files = {"generated.py": source, "with_prelude.py": PRELUDE + source}
    assert_sound(files, check_files(files))


# ---------------------------------------------------------------------------
# mutants of the rules' examples

def _examples() -> list[tuple[str, dict[str, str], str]]:
    found = []
    for page_path in PAGES:
        page = parse_page(page_path.read_text(encoding="utf-8"))
        for heading in ("Example", "Use instead"):
            try:
                files, config = project_of(page.section(heading))
            except (KeyError, ValueError, AssertionError, LookupError):
                continue
            if any(rel.endswith(".py") for rel in files):
                found.append((f"{page_path.stem}/{heading}", files, config))
    return found


EXAMPLES_OF_PAGES = _examples()


def _mutate(text: str, operations: list[tuple[int, int]]) -> str:
    lines = text.splitlines(keepends=True)
    for kind, position in operations:
        if not lines:
            break
        i = position % len(lines)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[i])
        elif i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return "".join(lines)


def test_the_pages_have_examples_to_mutate():
    assert len(EXAMPLES_OF_PAGES) >= 2 * len(PAGES) - 2


@FUZZ
@given(
    example=st.sampled_from(EXAMPLES_OF_PAGES),
    operations=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10_000)), min_size=1, max_size=4),
)
def test_mutated_rule_examples_never_crash(example, operations):
    _name, files, config = example
    python = sorted(rel for rel in files if rel.endswith(".py"))
    target = python[operations[0][1] % len(python)]
    mutated = dict(files)
    mutated[target] = _mutate(files[target], operations)
    sources = {rel: text for rel, text in mutated.items() if rel.endswith(".py")}
    assert_sound(sources, check_files(sources, config))
