"""The language server's analysis after a sequence of edits is a fresh analysis of the final
texts: the same findings, positions and fixes, whatever the server reused between edits."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from bgcheck.language_server import WorkspaceState  # noqa: E402
from bgcheck.load.unit import analyse_text, summary_digest  # noqa: E402

WORKERS = (
    "import asyncio\n"
    "\n"
    "import billing\n"
    "\n"
    "\n"
    "async def worker_1(queue):\n"
    "    while True:\n"
    "        item = await queue.get()\n"
    "        try:\n"
    "            await billing.charge(item)\n"
    "        except asyncio.CancelledError:\n"
    "            pass\n"
    "        queue.task_done()\n"
    "\n"
    "\n"
    "async def worker_2(queue):\n"
    "    try:\n"
    "        await asyncio.sleep(1)\n"
    "    except asyncio.CancelledError:\n"
    "        raise\n"
    "\n"
    "\n"
    "class Pool:\n"
    "    async def run(self):\n"
    "        try:\n"
    "            await asyncio.sleep(2)\n"
    "        except asyncio.CancelledError:\n"
    "            pass\n"
    "\n"
    "\n"
    "def start(loop):\n"
    "    loop.create_task(worker_1(asyncio.Queue()))\n"
)
BILLING = "def charge(item):\n    return item\n"

# (old, new) replacements applied in turn, each to the text the previous one left
EDITS = [
    ("item = await queue.get()", "job = await queue.get()"),  # one identifier inside a function
    ("billing.charge(item)", "billing.charge(job)"),
    ("        raise\n", "        pass\n"),  # a new finding in another function
    ("            pass\n        queue", "            raise\n        queue"),  # a finding fixed
    ("import billing\n", "import billing\nimport threading\n"),  # an import added
    ("import asyncio\n", ""),  # an import removed: the names it bound are unknown now
    ("", "import asyncio\n"),  # and back
    ("    async def run(self):\n", "    async def run(self:\n"),  # broken syntax
    ("    async def run(self:\n", "    async def run(self):\n"),  # fixed again
    ("def start(loop):\n", "def start(loop):\n    # starts the worker\n"),
    ("\n\nclass Pool:", "\n\n# the pool\nclass Pool:"),  # a comment between statements
    ("loop.create_task(worker_1(asyncio.Queue()))\n", "loop.create_task(worker_1(asyncio.Queue()))\n\n\nasync def worker_3():\n    try:\n        await asyncio.sleep(3)\n    except asyncio.CancelledError:\n        pass\n"),
    ("async def worker_2(queue):\n    try:", "async def worker_2(queue):\n  try:"),
    ("        await asyncio.sleep(2)\n", "        await asyncio.sleep(2)\n        x = 1\n"),
]


def _workspace(tmp_path: Path) -> tuple[Path, str, str]:
    (tmp_path / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n")
    (tmp_path / "workers.py").write_text(WORKERS)
    (tmp_path / "billing.py").write_text(BILLING)
    root = Path(os.path.realpath(tmp_path))
    return root, str(root / "workers.py"), str(root / "billing.py")


def _fresh(root: Path, texts: dict[str, str]) -> dict:
    state = WorkspaceState(root)
    state.load()
    findings, _, errors = state.run([], list(texts.items()), list(texts))
    assert errors == []
    return findings


def _replay(tmp_path: Path, steps: list[tuple[str, str]]) -> int:
    """Apply each (path, new text) in turn to one server state, comparing every step with a fresh
    analysis; returns how many steps were spliced rather than parsed in full."""
    root, workers, billing = _workspace(tmp_path)
    state = WorkspaceState(root)
    state.load()
    texts = {workers: WORKERS, billing: BILLING}
    state.run([], list(texts.items()), list(texts))
    spliced = reported = 0
    for real, text in steps:
        before = state.parsed.get(real)
        texts[real] = text
        findings, _, errors = state.run([], [(real, text)], list(texts))
        assert errors == []
        after = state.parsed.get(real)
        if before is not None and after is not None and after.module.body and before.module.body:
            spliced += any(s is t for s in after.module.body for t in before.module.body)
        assert findings == _fresh(root, texts), text
        unit = state.units[real]
        if unit.error is None:  # the summary the index is built from is a fresh analysis's too
            fresh = analyse_text(unit.path, unit.display, text)
            assert summary_digest(unit.summary) == summary_digest(fresh.summary)
        reported += sum(len(found) for found in findings.values())
    assert reported  # the comparison covers findings (and their fixes), not only empty lists
    return spliced


def test_a_sequence_of_edits_gives_what_a_fresh_analysis_gives(tmp_path: Path):
    root, workers, _ = _workspace(tmp_path)
    text, steps = WORKERS, []
    for old, new in EDITS:
        assert old in text
        text = text.replace(old, new, 1) if old else new + text
        steps.append((workers, text))
    assert _replay(tmp_path, steps) >= len(EDITS) // 2  # most edits reuse the other statements


def test_edits_in_the_file_another_file_imports(tmp_path: Path):
    root, workers, billing = _workspace(tmp_path)
    steps = [
        (billing, "import stripe\n\n\ndef charge(item):\n    return stripe.Charge.create(amount=item)\n"),
        (workers, WORKERS.replace("item = await", "thing = await")),
        (billing, BILLING),
    ]
    _replay(tmp_path, steps)


def test_random_edits_give_what_a_fresh_analysis_gives(tmp_path: Path):
    rnd = random.Random(15)
    _, workers, _ = _workspace(tmp_path)
    snippets = ["pass", "raise", "job", "\n", "    ", "(", "await asyncio.sleep(0)\n        ", "# note\n", "import os\n"]
    text, steps = WORKERS, []
    for _ in range(25):
        a = rnd.randint(0, len(text))
        b = min(len(text), a + rnd.choice([0, 1, 4, 12]))
        text = text[:a] + rnd.choice(snippets) + text[b:]
        steps.append((workers, text))
    _replay(tmp_path, steps)


def test_a_failing_splice_falls_back_to_a_full_parse(tmp_path: Path, monkeypatch):
    from bgcheck.load.reparse import Parsed

    def broken(self, text):
        raise RuntimeError("a bug in the splice")

    monkeypatch.setattr(Parsed, "edited", broken)
    root, workers, billing = _workspace(tmp_path)
    state = WorkspaceState(root)
    state.load()
    state.run([], [(workers, WORKERS)], [workers])
    text = WORKERS.replace("        raise\n", "        pass\n")
    findings, _, errors = state.run([], [(workers, text)], [workers])
    assert errors == []
    assert findings == _fresh(root, {workers: text})
    assert len(findings[workers]) == 4  # the new BG101 too
