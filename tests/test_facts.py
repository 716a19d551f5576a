"""The project facts each rule declares (``Rule.reads``) are the facts it reads.

The cache key of a file's results digests the facts its enabled rules declare
(bgcheck.model.facts), so a rule that reads a fact it did not declare could be served a stale
result. Every registered rule is run here, alone, over every fixture project and every example
of every rule page, with an index that records which members it reads; each member is a fact
(``MEMBER_FACTS``) or a name lookup covered by the imported modules' interfaces
(``NAME_MEMBERS``). A member in neither table fails too: whoever adds one says which it is.
"""

from __future__ import annotations

from collections.abc import Mapping
import shutil
from pathlib import Path

import libcst as cst
import pytest

from conftest import write_project
from test_rule_pages import PAGES, parse_page, project_of

from bgcheck.load.config import load_config
from bgcheck.model.build import Project, build_index
from bgcheck.model.facts import FACTS, MEMBER_FACTS, NAME_MEMBERS, fact_digest
from bgcheck.model.project import ProjectIndex
from bgcheck.diagnostics import Severity
from bgcheck.rules import Rule, all_rules, facts_read
from bgcheck.rules.checker import check_module
from bgcheck.load.unit import ensure_text
from bgcheck.run.engine import load_units

FIXTURES = sorted(p.parent for p in (Path(__file__).resolve().parent.parent / "fixtures").glob("*/pyproject.toml"))


class RecordingIndex:
    """The index, seen through a recorder of the facts read from it."""

    def __init__(self, index: ProjectIndex) -> None:
        self._index = index
        self.read: set[str] = set()
        self.unclassified: set[str] = set()  # members in neither table, and whole-project loops

    def __getattr__(self, name: str):
        value = getattr(self._index, name)
        if name in MEMBER_FACTS:
            self.read.update(MEMBER_FACTS[name])
        elif name not in NAME_MEMBERS:
            self.unclassified.add(name)
        elif name in ("modules", "functions", "classes"):
            return _Lookups(value, self, name)
        return value

    def reading(self, facts) -> ProjectIndex:
        """A model function marked ``reads_facts`` is called: it reads these facts and the real index."""
        self.read.update(facts)
        return self._index


class _Lookups(Mapping):
    """``index.modules`` and friends: looking one entry up by name is free; going over all of them
    is a whole-project read no fact declares (a model function marked ``reads_facts`` may)."""

    def __init__(self, data: dict, recorder: RecordingIndex, name: str) -> None:
        self._data, self._recorder, self._name = data, recorder, name

    def __getitem__(self, key):
        return self._data[key]

    def __contains__(self, key) -> bool:
        return key in self._data

    def __iter__(self):
        self._recorder.unclassified.add(f"every entry of index.{self._name}")
        return iter(self._data)

    def __len__(self) -> int:
        self._recorder.unclassified.add(f"every entry of index.{self._name}")
        return len(self._data)


def _projects(tmp_path: Path) -> list[Path]:
    """The fixture projects and a project per rule page example (Example and Use instead)."""
    roots = list(FIXTURES)
    for page in PAGES:
        for section in parse_page(page.read_text(encoding="utf-8")).sections:
            if section.heading in ("Example", "Use instead") and any(b.language == "python" for b in section.blocks):
                files, config = project_of(section)
                root = tmp_path / f"{page.stem}-{section.heading.replace(' ', '-')}"
                write_project(root, files, config)
                roots.append(root)
    return roots


def _reads_per_rule(roots: list[Path], monkeypatch, rules=None) -> tuple[dict[str, set], dict[str, set]]:
    """rule code -> facts it read, and -> members in neither table, over all the projects."""
    rules = all_rules() if rules is None else rules
    read: dict[str, set] = {rule.code: set() for rule in rules}
    unclassified: dict[str, set] = {rule.code: set() for rule in rules}
    for root in roots:
        monkeypatch.chdir(root)
        config = load_config(start=root)
        units = [u for u in load_units([Path(".")], config, jobs=1) if u.summary is not None and u.error is None]
        index = build_index([u.summary for u in units], config)
        for rule_class in rules:
            recorder = RecordingIndex(index)
            rule = rule_class(config)
            for unit in units:
                unit.index = recorder
                if rule.is_relevant(unit):
                    module = unit.module or cst.parse_module(ensure_text(unit).text)
                    check_module(unit.display, module, unit.summary, recorder, config, [rule])
            read[rule.code] |= recorder.read
            unclassified[rule.code] |= recorder.unclassified
    return read, unclassified


def test_lines_added_at_the_top_of_every_file_change_no_fact(tmp_path, monkeypatch):
    """Facts hold positions in other files only as ``Pos`` (digested as their order within their
    file): moving every line down changes none of them, so no result is checked again for it but
    those whose notes point into the moved file (load/cache_keys.py: ``foreign_files``)."""

    def digests(root: Path) -> dict[str, str]:
        monkeypatch.chdir(root)
        config = load_config(start=root)
        units = [u for u in load_units([Path(".")], config, jobs=1) if u.summary is not None and u.error is None]
        index = build_index([u.summary for u in units], config)
        return {name: fact_digest(index, name) for name in FACTS}

    for root in _projects(tmp_path):
        moved = tmp_path / "moved" / root.name
        shutil.copytree(root, moved, ignore=shutil.ignore_patterns(".bgcheck_cache", "__pycache__"))
        for path in moved.rglob("*.py"):
            path.write_bytes(b"\n\n" + path.read_bytes())
        assert digests(moved) == digests(root), root.name


def test_every_declared_fact_exists():
    for rule in all_rules():
        unknown = set(rule.reads) - set(FACTS)
        assert not unknown, f"{rule.code} declares facts that do not exist: {sorted(unknown)}"
    for member, facts in MEMBER_FACTS.items():
        assert set(facts) <= set(FACTS), member
    assert facts_read([rule.code for rule in all_rules()]) == tuple(sorted({f for rule in all_rules() for f in rule.reads}))


def test_every_rule_reads_only_the_facts_it_declares(tmp_path, monkeypatch):
    read, unclassified = _reads_per_rule(_projects(tmp_path), monkeypatch)
    undeclared = {code: sorted(facts - set(rule.reads)) for code, facts in read.items() for rule in [_rule(code)] if facts - set(rule.reads)}
    assert not undeclared, f"rules read facts they do not declare in `reads`: {undeclared}"
    unknown = {code: sorted(members) for code, members in unclassified.items() if members}
    assert not unknown, f"index members in neither MEMBER_FACTS nor NAME_MEMBERS: {unknown}"


class _ReadsMoneyUndeclared(Rule):
    code, name, severity, summary = "BG999", "test-only", Severity.WARNING, "reads the money model without declaring it"

    def visit_Call(self, node: cst.Call, ctx) -> None:
        ctx.index.money.moves_money(ctx.resolve_call(node))
        list(ctx.index.modules.values())  # a whole-project loop


def test_the_recorder_sees_an_undeclared_fact_and_a_whole_project_loop(monkeypatch):
    read, unclassified = _reads_per_rule([FIXTURES[0]], monkeypatch, rules=[_ReadsMoneyUndeclared])
    assert read["BG999"] == {"money"} and unclassified["BG999"] == {"every entry of index.modules"}


def _rule(code: str):
    return next(rule for rule in all_rules() if rule.code == code)


@pytest.mark.parametrize("member", sorted(set(MEMBER_FACTS) | NAME_MEMBERS))
def test_every_classified_member_is_a_member_of_the_index(member):
    assert member in Project.MODELS or hasattr(ProjectIndex, member) or member in ("modules", "functions", "classes")
