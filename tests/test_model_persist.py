"""Stored project models (bgcheck/model/persist.py): a restored index is the built one.

The end-to-end direction (a cached run reports what a --no-cache run reports, and an edit that
changes a summary builds the models again) is in test_cache.py; here, model by model: every
model, the job code and every project fact of an index restored from its stored form (through
JSON, as the cache keeps it) equal those of the index it was stored from, and stored data of
the wrong shape is refused rather than trusted.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bgcheck.load.cache_keys import content_key
from bgcheck.load.config import console_scripts, load_config
from bgcheck.load.serial import DataError
from bgcheck.load.unit import load_unit
from bgcheck.model import persist
from bgcheck.model.build import Project, build_index
from bgcheck.model.facts import FACTS, fact_digest
from bgcheck.model.runtimes import load_runtimes

REPO = Path(__file__).resolve().parent.parent
PROJECTS = [REPO / "fixtures" / "demo_service", *sorted(p for p in (REPO / "tests" / "rules").iterdir() if p.is_dir())]


def _built(root: Path):
    config = load_config(start=root)
    units = [load_unit(p, p.relative_to(root).as_posix()) for p in sorted(root.rglob("*.py"))]
    summaries = {u.summary.path: u.summary for u in units if u.summary is not None}
    runtimes = load_runtimes(config, None)
    return build_index(summaries.values(), config, console_scripts(config.root), runtimes), summaries, runtimes


def _restored(index, summaries, runtimes, facts=None):
    stored = json.loads(json.dumps(persist.encode_project(index, facts or {}, {"m.py": 12345})))  # as the cache keeps it
    loaded: list[str] = []

    def load(display):
        loaded.append(display)
        return summaries[display]

    return persist.Restored(stored, load, runtimes), loaded


@pytest.mark.parametrize("root", PROJECTS, ids=lambda p: p.name)
def test_a_restored_index_has_the_models_facts_and_names_of_the_built_one(root):
    index, summaries, runtimes = _built(root)
    restored, loaded = _restored(index, summaries, runtimes)
    again = restored.index
    assert loaded == []  # nothing read until asked for
    for name in Project.MODELS:
        assert getattr(again, name) == getattr(index, name), name
    assert again.job_code == index.job_code
    assert list(again.modules) == list(index.modules)
    assert list(again.functions) == list(index.functions) and list(again.classes) == list(index.classes)
    for name in FACTS:
        assert fact_digest(again, name) == fact_digest(index, name), name
    assert restored.closures == {"m.py": 12345}


def test_the_stored_fact_digests_come_back():
    index, summaries, runtimes = _built(REPO / "fixtures" / "demo_service")
    facts = {name: fact_digest(index, name) for name in ("jobs", "locks")}
    restored, _ = _restored(index, summaries, runtimes, facts)
    assert restored.facts == facts
    assert restored.with_facts({**facts, "money": "x"})["facts"] == {**facts, "money": "x"}


def _retyped(data, path=()):
    """Every variant of ``data`` with one scalar inside a stored class replaced by another type."""
    if isinstance(data, list):
        for i, item in enumerate(data):
            yield from ((data[:i] + [variant] + data[i + 1:]) for variant in _retyped(item))
    elif isinstance(data, str) and data not in ("c", "t", "l", "s", "fs", "d", "i", "f", "b", "u", "e", "k"):
        yield 12345
    elif isinstance(data, bool):
        yield "yes"
    elif isinstance(data, int):
        yield "12"


def test_stored_models_of_the_wrong_types_are_refused():
    index, summaries, runtimes = _built(REPO / "fixtures" / "demo_service")
    stored = json.loads(json.dumps(persist.encode_project(index, {}, {})))
    models = stored["models"]
    refused = 0
    for position, (name, value) in enumerate(models):
        for variant in list(_retyped(value))[:40]:
            tampered = {**stored, "models": models[:position] + [[name, variant]] + models[position + 1:]}
            try:
                restored = persist.Restored(tampered, summaries.__getitem__, runtimes)
            except DataError:
                refused += 1
                continue
            # what is not refused is of its declared type: a string where any value may stand
            assert getattr(restored.index, name) != getattr(index, name)
    assert refused > 100
    with pytest.raises(DataError):
        persist.Restored({**stored, "version": 0}, summaries.__getitem__, runtimes)
    with pytest.raises(DataError):
        persist.Restored({**stored, "models": models[1:]}, summaries.__getitem__, runtimes)


def test_what_cannot_be_stored_is_not():
    with pytest.raises(DataError):
        persist._encode(object())
    with pytest.raises(DataError):
        persist._encode(Path("x"))
    value = {"a": (1, 2.5, -0.0, float("inf"), 2**80, b"\x00", None, True, frozenset({"x"}), {3}, ["l"])}
    assert persist._decode(json.loads(json.dumps(persist._encode(value)))) == value


# ---------------------------------------------------------------------------
# relocation: files that only moved lines


def _units(root: Path) -> list:
    """The files' units, with the content keys a cached run gives them (relocation finds the summaries it saw by these)."""
    units = []
    for path in sorted(root.rglob("*.py")):
        unit = load_unit(path, path.relative_to(root).as_posix())
        unit.content_key = content_key(path, unit.display, path.read_bytes())
        units.append(unit)
    return units


def _moved_copy(root: Path, tmp_path: Path, edit) -> Path:
    moved = tmp_path / root.name
    shutil.copytree(root, moved, ignore=shutil.ignore_patterns(".bgcheck_cache", "__pycache__"))
    for path in sorted(moved.rglob("*.py")):
        path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return moved


def _lines_added(text: str) -> str:
    """Lines added at the top and after every top-level ``def``/``class`` line: positions move by
    different amounts through the file, their order stays."""
    out = ["\n\n"]
    for line in text.splitlines(keepends=True):
        out.append(line)
        if line.startswith(("def ", "class ", "async def ")) and line.rstrip().endswith(":"):
            out.append("\n")
    return "".join(out)


@pytest.mark.parametrize("root", PROJECTS, ids=lambda p: p.name)
def test_models_relocated_to_moved_lines_are_the_models_built_there(root, tmp_path):
    index, summaries, runtimes = _built(root)
    settings = "s"
    stored = json.loads(json.dumps(persist.encode_project(index, {}, {}, _units(root), settings)))
    moved = _moved_copy(root, tmp_path, _lines_added)
    units = _units(moved)
    by_key = {u.content_key: summaries[u.display] for u in _units(root) if u.summary is not None}
    relocated = persist.relocate(stored, units, settings, by_key.get, lambda unit: unit.summary)
    assert relocated is not None
    again, summaries_moved, _ = _built(moved)
    restored = persist.Restored(json.loads(json.dumps(relocated)), summaries_moved.__getitem__, runtimes).index
    for name in Project.MODELS:
        if name != "runtimes":  # the run's settings (here: read from another folder), not stored
            assert getattr(restored, name) == getattr(again, name), name
    if root.name == "demo_service":  # its jobs, locks and money chains moved with their lines
        assert all(getattr(restored, name) != getattr(index, name) for name in ("jobs", "locks", "money"))
    assert relocated["files"] == persist._files(units)


def test_models_are_not_relocated_when_a_file_changed_more_than_its_lines(tmp_path):
    root = REPO / "fixtures" / "demo_service"
    index, summaries, runtimes = _built(root)
    stored = json.loads(json.dumps(persist.encode_project(index, {}, {}, _units(root), "s")))
    by_key = {u.content_key: summaries[u.display] for u in _units(root) if u.summary is not None}
    units = _units(root)
    assert persist.relocate(stored, units, "s", by_key.get, lambda unit: unit.summary) is not None  # nothing moved
    assert persist.relocate(stored, units, "other settings", by_key.get, lambda unit: unit.summary) is None
    assert persist.relocate(stored, units[1:], "s", by_key.get, lambda unit: unit.summary) is None  # a file gone
    assert persist.relocate(stored, _units(_moved_copy(root, tmp_path / "a", _lines_added)), "s", {}.get, lambda unit: unit.summary) is None  # old summaries not cached
    reordered = _moved_copy(root, tmp_path / "b", lambda text: text.replace("def ", "def renamed_", 1))
    assert persist.relocate(stored, _units(reordered), "s", by_key.get, lambda unit: unit.summary) is None  # another shape


def test_every_stored_class_with_a_position_is_relocated():
    import dataclasses

    for name, cls in persist._CLASSES.items():
        fields = {f.name for f in dataclasses.fields(cls)}
        if {"line", "column", "lineno", "col", "position"} & fields:
            assert name in persist._PLACES and "path" in fields, name
