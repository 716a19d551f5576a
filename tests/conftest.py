"""Shared test helpers: write a small project to disk, run bgcheck on it."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from bgcheck.diagnostics import MAX_MESSAGE
from bgcheck.load.config import load_config
from bgcheck.run.engine import RunRequest, run


def stale_generated_files() -> list[str]:
    """The files scripts/rule_table.py writes from the rule registry that disagree with it now (a
    rule added, renamed, or moved in or out of preview without running the script)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("rule_table", Path(__file__).resolve().parent.parent / "scripts" / "rule_table.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    readme = script.README.read_text(encoding="utf-8")
    catalog = script.CATALOG.read_text(encoding="utf-8") if script.CATALOG.exists() else ""
    return [name for name, stale in (("README.md", script.render(readme) != readme), ("bgcheck/rules/catalog.py", script.catalog() != catalog)) if stale]


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """After failures, say once when they may come from a stale generated file: `bgcheck rules`,
    `bgcheck explain`, the SARIF driver and the page tests read the catalog, not the registry."""
    if not terminalreporter.stats.get("failed"):
        return
    stale = stale_generated_files()
    if stale:
        terminalreporter.write_line(f"{' and '.join(stale)} {'is' if len(stale) == 1 else 'are'} out of date with the rule registry: run python scripts/rule_table.py", red=True, bold=True)


def write_project(root: Path, files: dict[str, str], config: str = "") -> None:
    """Write ``files`` (relative path -> source, dedented) and a pyproject.toml with ``config``
    as the body of ``[tool.bgcheck]``. Rule tests run preview rules too (``preview = true``)
    unless ``config`` sets ``preview`` itself: what a rule finds does not depend on whether it is
    in preview; tests/test_preview.py checks that preview rules are off by default."""
    root.mkdir(parents=True, exist_ok=True)
    body = textwrap.dedent(config)
    if not re.search(r"^\s*preview\s*=", body, re.MULTILINE):
        body = "preview = true\n" + body
    (root / "pyproject.toml").write_text("[tool.bgcheck]\n" + body, encoding="utf-8")
    for rel, source in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")


class Checker:
    def __init__(self, tmp_path: Path, monkeypatch) -> None:
        self.tmp_path = tmp_path
        self.monkeypatch = monkeypatch
        self.count = 0

    def files(self, files: dict[str, str], config: str = "", select=None):
        """Run bgcheck over a fresh project made of ``files``; return the diagnostics."""
        self.count += 1
        root = self.tmp_path / f"project{self.count}"
        write_project(root, files, config)
        self.monkeypatch.chdir(root)
        cfg = load_config(start=root)
        diagnostics = run(RunRequest([Path(".")], cfg, select=select)).diagnostics
        for d in diagnostics:  # every rule test also holds the short-message limit
            assert len(d.message) <= MAX_MESSAGE, f"{d.code} message of {len(d.message)} characters: {d.message}"
        return diagnostics

    def code(self, source: str, config: str = "", select=None, name: str = "example.py"):
        """Run bgcheck over a single module."""
        return self.files({name: source}, config=config, select=select)


@pytest.fixture
def bg(tmp_path, monkeypatch) -> Checker:
    return Checker(tmp_path, monkeypatch)


def codes(diagnostics, prefix: str = "BG") -> list[tuple[str, int]]:
    """[(code, line), ...] of the diagnostics whose code starts with ``prefix``."""
    return [(d.code, d.location.line) for d in diagnostics if d.code.startswith(prefix)]


def reported_at(code: str, *args: str) -> list[str]:
    """``path:line:column`` of each ``code`` finding of ``bgcheck check`` on the current folder
    (``args`` before the path, such as ``--no-cache``), sorted: a cached run compared with a cold one."""
    from click.testing import CliRunner

    from bgcheck.cli import main

    result = CliRunner().invoke(main, ["check", "--select", code, "--format", "concise", *args, "."])
    return sorted(line.split(f": {code}")[0] for line in result.stdout.splitlines() if code in line)
