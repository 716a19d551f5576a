"""Preview rules: off unless `preview = true` or `--preview`, marked in `bgcheck rules`.

Which rules are in preview changes as their precision on real projects improves
(scripts/ecosystem.py), so these tests put a rule into preview themselves.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from bgcheck.load.config import ConfigError, load_config
from bgcheck.rules import REGISTRY, all_rules

# BG103 (`return` in `finally:` of a coroutine) at line 7; the tests set whether it is in preview.
SWALLOW = """\
import asyncio

async def total(client):
    try:
        return await client.count()
    finally:
        return 0
"""


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    (tmp_path / "worker.py").write_text(SWALLOW, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.bgcheck]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def bg103_in_preview(monkeypatch):
    """BG103 put into preview for the test (the fixture keeps its historical name), in the
    registry and in the catalog `bgcheck rules` prints (see test_startup.py)."""
    from bgcheck.rules import catalog

    monkeypatch.setattr(REGISTRY["BG103"], "preview", True)
    monkeypatch.setattr(catalog, "RULES", tuple((*row[:4], True, *row[5:]) if row[0] == "BG103" else row for row in catalog.RULES))


@pytest.fixture
def bg103_default(monkeypatch):
    """BG103 made a default rule for the test, in the registry and in the catalog."""
    from bgcheck.rules import catalog

    monkeypatch.setattr(REGISTRY["BG103"], "preview", False)
    monkeypatch.setattr(catalog, "RULES", tuple((*row[:4], False, *row[5:]) if row[0] == "BG103" else row for row in catalog.RULES))


def run(*args: str):
    result = CliRunner().invoke(main, ["check", "--no-cache", "--format", "json", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result


def found(result) -> list[tuple[str, int]]:
    return [(d["code"], d["line"]) for d in json.loads(result.stdout)["diagnostics"]]


def test_default_rule_runs_without_preview(project, bg103_default):
    assert found(run(".")) == [("BG103", 7)]


def test_preview_rule_is_off_by_default(project, bg103_in_preview):
    result = run(".")
    assert result.exit_code == 0
    assert found(result) == []


def test_preview_flag_turns_preview_rules_on(project, bg103_in_preview):
    result = run(".", "--preview")
    assert result.exit_code == 1
    assert found(result) == [("BG103", 7)]


def test_preview_in_configuration(project, bg103_in_preview):
    (project / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n", encoding="utf-8")
    assert found(run(".")) == [("BG103", 7)]
    # --no-preview overrides the configuration for one run
    assert found(run(".", "--no-preview")) == []


def test_selecting_a_preview_rule_without_preview_warns_and_does_not_run_it(project, bg103_in_preview):
    result = run(".", "--select", "BG103")
    assert found(result) == []
    assert "bgcheck: warning: BG103 is a preview rule: it runs only with --preview" in result.stderr


def test_prefix_selection_does_not_warn(project, bg103_in_preview):
    result = run(".", "--select", "BG1")
    assert found(result) == []
    assert "preview" not in result.stderr


def test_rules_listing_marks_preview_rules(bg103_in_preview):
    result = CliRunner().invoke(main, ["rules"])
    line = next(l for l in result.stdout.splitlines() if l.startswith("BG103"))
    assert line.endswith("(preview)")
    other = next(l for l in result.stdout.splitlines() if l.startswith("BG102"))
    assert not other.endswith("(preview)") or REGISTRY["BG102"].preview
    document = json.loads(CliRunner().invoke(main, ["rules", "--format", "json"]).stdout)
    assert {r["code"]: r["preview"] for r in document["rules"]}["BG103"] is True


def test_preview_must_be_a_boolean(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.bgcheck]\npreview = "yes"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(start=tmp_path)
    assert "preview" in str(error.value) and "true or false" in str(error.value)


def test_every_preview_rule_says_so_on_its_page():
    from bgcheck.rules.pages import read_page

    for rule in all_rules():
        page = read_page(rule.code) or ""
        assert ("preview" in page.lower().split("\n", 3)[2] if rule.preview else True), rule.code
