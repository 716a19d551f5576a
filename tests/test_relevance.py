"""A rule's relevance test (``Rule.is_relevant``) only spares phase 2 the files the rule cannot
find anything in: it must never lose a finding.

Every fixture project, every rule fixture (tests/rules/) and every rule page example is checked
twice, as the rules' tests decide and with every rule relevant to every file; the findings must
be identical, line for line (in preview mode: every rule runs).
"""

from __future__ import annotations

import textwrap

import pytest

from bgcheck.rules import REGISTRY
from conftest import write_project
from test_comments import FIXTURES, assert_same, outcome
from test_rule_fixtures import FOLDERS as RULE_FIXTURES
from test_rule_fixtures import copy_project, projects_of
from test_rule_pages import PAGES, parse_page, project_of


def _always_relevant(monkeypatch) -> None:
    for rule in REGISTRY.values():
        monkeypatch.setattr(rule, "is_relevant", lambda self, unit: True)


def _both(root, monkeypatch) -> tuple[dict, dict]:
    decided = outcome(root, monkeypatch, preview=True)
    with monkeypatch.context() as patched:
        _always_relevant(patched)
        forced = outcome(root, monkeypatch, preview=True)
    return decided, forced


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_fixture_findings_do_not_depend_on_relevance_tests(fixture, monkeypatch):
    decided, forced = _both(fixture, monkeypatch)
    assert forced["diagnostics"] or fixture.name != "demo_service", "the demo service should have findings"
    assert_same(decided, forced, f"{fixture.name} with the relevance tests")


@pytest.mark.parametrize("folder", RULE_FIXTURES, ids=lambda p: p.name)
def test_rule_fixture_findings_do_not_depend_on_relevance_tests(folder, tmp_path, monkeypatch):
    for project in projects_of(folder):
        copy = copy_project(folder, project, tmp_path)
        decided, forced = _both(copy, monkeypatch)
        shown = project.relative_to(folder.parent).as_posix()
        assert_same(decided, forced, f"tests/rules/{shown} with the relevance tests")


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_rule_page_findings_do_not_depend_on_relevance_tests(path, tmp_path, monkeypatch):
    page = parse_page(path.read_text(encoding="utf-8"))
    for heading in ("Example", "Use instead"):
        files, config = project_of(page.section(heading))
        root = tmp_path / heading
        write_project(root, {name: textwrap.dedent(text) for name, text in files.items()}, config)
        decided, forced = _both(root, monkeypatch)
        assert_same(decided, forced, f"{path.name}, ## {heading} with the relevance tests")


HANDLERS = '''
import asyncio
from redis import Redis as R

def plain():
    try:
        pass
    except (ValueError, R.Error, make_error()):
        pass
    except:
        pass

async def coroutine():
    class Inner:
        held = R().lock("k")
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        pass
    finally:
        return 1

try:
    pass
finally:
    pass
'''


def test_summary_records_the_handlers_and_class_body_calls():
    """What the relevance tests read of a file: every except clause with what it names (resolved as
    phase 2 resolves them, in the innermost function), the finally blocks a jump leaves (not one
    that none leaves), and the calls in class bodies, resolved in the enclosing function."""
    import ast

    from bgcheck.load.summary import build_summary

    summary = build_summary(ast.parse(HANDLERS), "m.py", "m", False, HANDLERS)
    assert summary.handlers == (
        ("m.plain", False, "except", ("v:ValueError", "v:redis.Redis.Error", "c:")),
        ("m.plain", False, "except", ()),
        ("m.coroutine", True, "except", ("v:asyncio.CancelledError",)),
        ("m.coroutine", True, "finally", ()),
    )
    assert summary.classes["m.coroutine.<locals>.Inner"].calls == ("redis.Redis().lock", "redis.Redis")
