"""scripts/peers.py, offline: reading the peers' labels, the coroutine copies, the units compared."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

import libcst as cst

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "peers.py"
spec = importlib.util.spec_from_file_location("peers_script", SCRIPT)
peers = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = peers  # dataclasses look their module up
spec.loader.exec_module(peers)


def test_flake8_async_labels(tmp_path):
    path = tmp_path / "async104.py"
    path.write_text(
        textwrap.dedent(
            """\
            # ARG --enable=ASYNC103,ASYNC104
            try:
                ...
            except BaseException:  # ASYNC103_trio: 7, "BaseException"
                raise ValueError()  # error: 4
            except:  # would otherwise error
                ...
            """
        )
    )
    labels = peers.flake8_async_labels(path)
    assert [(label.code, label.line, label.column) for label in labels] == [("ASYNC103", 4, 7), ("ASYNC104", 5, 4)]


def test_ruff_snapshot_labels(tmp_path):
    snap = tmp_path / "x.snap"
    snap.write_text("---\nsource: x\n---\nRUF006.py:6:5: RUF006 Store a reference\n  |\n")
    assert [(label.code, label.line, label.column) for label in peers.ruff_labels(snap)] == [("RUF006", 6, 4)]


def test_wrap_keeps_lines_and_makes_coroutines_that_can_suspend():
    source = textwrap.dedent(
        """\
        # header
        import trio

        def f():
            try:
                ...
            finally:
                return

        try:
            x = 1
        except trio.Cancelled:
            pass
        """
    )
    wrapped, first, shift = peers.wrap(source)
    assert (first, shift) == (2, 1)
    lines = wrapped.splitlines()
    original = source.splitlines()
    assert lines[first - 1].startswith("async def _peers_module()")
    for number in range(first, len(original) + 1):  # every moved line keeps its text, one line down
        assert lines[number - 1 + shift].strip().endswith(original[number - 1].strip().rsplit(";", 1)[-1].strip())
    assert "async def f():" in wrapped
    assert "await asyncio.sleep(0); ..." in wrapped
    assert "await asyncio.sleep(0); x = 1" in wrapped
    cst.parse_module(wrapped)


def test_units_and_label_attachment():
    source = textwrap.dedent(
        """\
        try:
            ...
        except BaseException as e:
            try:
                ...
            except ValueError as g:
                raise g  # ASYNC104: 8
            raise e
        try:
            ...
        finally:
            for x in y:
                break
            return
        asyncio.create_task(a()); asyncio.create_task(b())
        """
    )
    units = peers.units_of(source)
    kinds = [(u.kind, u.line) for u in units]
    assert kinds == [("handler", 3), ("finally-jump", 14), ("spawn", 15), ("spawn", 15)]
    labels = [peers.Label("ASYNC104", 7, 8), peers.Label("ASYNC300", 15, 26)]
    assert peers.attach_peer_labels(units, labels, source) == []
    assert units[0].peer and units[3].peer and not units[2].peer
