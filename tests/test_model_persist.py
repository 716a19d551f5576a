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
