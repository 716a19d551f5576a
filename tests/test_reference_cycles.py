"""Phase 1 leaves no reference cycles behind. A run makes the cyclic garbage collector rare
(run/process.py: tune_gc), so a cycle made per file or function keeps its nodes alive until a
full collection, and those collections, scanning everything the run holds, cost a cold run on the
benchmark corpus about a fifth of its time (mutually recursive closures in summary.py did)."""

import gc
from pathlib import Path

from bgcheck.load.unit import analyse_text

ROOT = Path(__file__).resolve().parent.parent


def _sources() -> list[Path]:
    return sorted((ROOT / "fixtures").rglob("*.py")) + sorted((ROOT / "bgcheck").rglob("*.py"))


def test_summarising_files_makes_no_cyclic_garbage():
    sources = _sources()
    assert len(sources) > 50
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        units = [analyse_text(path, str(path), path.read_text(encoding="utf-8")) for path in sources]
        assert all(unit.summary is not None for unit in units)
        del units
        gc.collect()
        garbage = [type(item).__name__ for item in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()
    assert garbage == []
