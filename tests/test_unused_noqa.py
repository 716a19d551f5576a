"""BG001 unused-noqa: when it runs, what it reports and what it never reports."""

from __future__ import annotations

from pathlib import Path

from bgcheck.load.config import load_config
from bgcheck.run.engine import RunRequest, run
from conftest import write_project

SOURCE = """\
import asyncio


async def poll(client):
    while True:
        try:
            await client.fetch()
        except Exception:  # noqa: BG102
            pass
        try:
            await client.ping()
        except BaseException:  # noqa: BG102
            pass
        try:
            await client.flush()
        except asyncio.CancelledError:  # noqa: BG101, E722
            pass
        await asyncio.sleep(1)  # noqa: E501, BG999
        await asyncio.sleep(2)  # noqa
"""


def found(tmp_path, monkeypatch, config: str = "", select=None) -> list[tuple[int, str]]:
    write_project(tmp_path, {"poll.py": SOURCE}, config)
    monkeypatch.chdir(tmp_path)
    result = run(RunRequest([Path(".")], load_config(start=tmp_path), select=select))
    return [(d.location.line, d.message) for d in result.diagnostics if d.code == "BG001"]


def test_off_by_default_and_with_all(tmp_path, monkeypatch):
    assert found(tmp_path, monkeypatch) == []
    assert found(tmp_path, monkeypatch, select=("BG",)) == []  # --select ALL
    assert found(tmp_path, monkeypatch, 'select = ["BG"]') == []


def test_reports_unused_and_unknown_codes_only(tmp_path, monkeypatch):
    reported = found(tmp_path, monkeypatch, 'extend-select = ["BG001"]\npreview = true\n')
    # line 8: BG102 silences nothing; line 12 silences a BG102; line 16 silences a BG101, E722 is
    # another tool's; line 18: BG999 is no rule; line 19: a bare noqa
    assert [line for line, _message in reported] == [8, 18]
    assert "unused: `BG102`" in reported[0][1]
    assert "unknown: `BG999`" in reported[1][1]


def test_a_code_of_a_rule_that_did_not_run_is_not_unused(tmp_path, monkeypatch):
    # BG101 and BG102 are preview rules: off, they silence nothing and are not reported
    reported = found(tmp_path, monkeypatch, 'extend-select = ["BG001"]\npreview = false\n')
    assert [line for line, _message in reported] == [18]


def test_selected_by_code_on_the_command_line(tmp_path, monkeypatch):
    reported = found(tmp_path, monkeypatch, select=("BG0", "BG1"))
    # preview on (write_project's default): BG101 ran and silenced the handler on line 16
    assert [line for line, _message in reported] == [8, 18]
