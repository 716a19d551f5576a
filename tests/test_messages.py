"""Short messages: every finding says what is wrong here in at most 120 characters, and
carries the long explanation (what a stop or a second replica does, and how to fix it) apart.

Measured over every rule page's example and every project in ``fixtures/``, so a new rule,
page or fixture is covered without touching this file.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from bgcheck.diagnostics import MAX_MESSAGE, Diagnostic, Location, Severity, clip, short_name
from bgcheck.load.config import load_config
from bgcheck.load.serial import diagnostic_from_data, diagnostic_to_data
from bgcheck.run.engine import RunRequest, run
from test_rule_pages import PAGES, diagnostics_of, parse_page

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PROJECTS = sorted(path for path in FIXTURES.iterdir() if path.is_dir())


def _check(diagnostics) -> None:
    for d in diagnostics:
        where = f"{d.location.path}:{d.location.line}: {d.code}"
        assert len(d.message) <= MAX_MESSAGE, f"{where}: {len(d.message)} characters: {d.message}"
        assert "\n" not in d.message, f"{where}: a message is one line"
        assert not d.message.endswith("."), f"{where}: a short message is a phrase, not sentences: {d.message}"
        if d.code != "BG000":
            assert d.explanation, f"{where}: no explanation"
            assert d.explanation != d.message


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.stem)
def test_rule_page_example_messages_are_short(path, tmp_path, monkeypatch):
    section = parse_page(path.read_text(encoding="utf-8")).section("Example")
    diagnostics = diagnostics_of(section, tmp_path, monkeypatch)
    assert diagnostics, f"{path.name}: the example finds nothing"
    _check(diagnostics)


@pytest.mark.parametrize("project", PROJECTS, ids=lambda path: path.name)
def test_fixture_messages_are_short(project):
    config = dataclasses.replace(load_config(start=project), preview=True)
    _check(run(RunRequest([project], config, select=["ALL"])).diagnostics)


def test_the_demo_messages_before_and_after():
    """The demo's findings, short: the longest fits the limit, and half are under 90 characters."""
    project = FIXTURES / "demo_service"
    result = run(RunRequest([project], load_config(start=project)))
    lengths = sorted(len(d.message) for d in result.diagnostics)
    assert lengths, "the demo finds nothing"  # which findings: tests/test_demo.py
    assert lengths[-1] <= MAX_MESSAGE
    assert lengths[len(lengths) // 2] < 90


def test_explanation_survives_the_cache_encoding():
    diagnostic = Diagnostic(
        code="BG101",
        name="cancellation-swallowed",
        severity=Severity.ERROR,
        message="short",
        location=Location("a.py", 1, 1, 1, 5),
        explanation="long: what a stop does, and how to fix it",
    )
    assert diagnostic_from_data(diagnostic_to_data(diagnostic)) == diagnostic
    assert diagnostic.to_dict()["explanation"] == "long: what a stop does, and how to fix it"


def test_short_names_and_clips():
    assert short_name("shop.tasks.send_receipt") == "send_receipt"
    assert short_name("settle-payouts") == "settle-payouts"
    assert short_name("x" * 50, 10) == "x" * 9 + "\u2026"
    assert clip("abcdef", 4) == "abc\u2026"
    assert clip("abc", 4) == "abc"


# ---------------------------------------------------------------------------
# where the explanation shows: text (on a terminal, or asked for), JSON, SARIF, hover; never
# in the one-line formats


@pytest.fixture(scope="module")
def demo_copy(tmp_path_factory) -> Path:
    from test_formats import copy_demo

    return copy_demo(tmp_path_factory.mktemp("messages") / "demo")


def _check_cli(folder: Path, *args: str) -> str:
    from test_formats import check

    code, out, err = check(folder, *args)
    assert code == 1 and err == "", err
    return out


@pytest.fixture(scope="module")
def demo_findings(demo_copy) -> list[dict]:
    return json.loads(_check_cli(demo_copy, "--format", "json"))["diagnostics"]


def test_json_carries_message_and_explanation(demo_findings):
    assert len(demo_findings) == 35
    for finding in demo_findings:
        assert len(finding["message"]) <= MAX_MESSAGE
        assert finding["explanation"] and finding["explanation"] not in finding["message"]


def test_text_shows_explanations_when_asked_and_wraps_them(demo_copy, demo_findings):
    plain = _check_cli(demo_copy, "--select", "BG501")
    assert "why:" not in plain  # off a terminal, by default: one line per finding
    shown = _check_cli(demo_copy, "--select", "BG501", "--show-explanations")
    (finding,) = [f for f in demo_findings if f["code"] == "BG501"]
    lines = shown.splitlines()
    assert lines[0].endswith(f"BG501 {finding['message']}")
    assert lines[1].startswith("  why: Lock `lock:settle-payouts` held by `settle-payouts` expires after 300 s")
    why = [line for line in lines[1:] if line.startswith("  why: ") or line.startswith("       ")]
    assert " ".join(line[7:] for line in why) == finding["explanation"]
    assert all(len(line) <= 100 for line in why)
    assert "measured 840 s in [tool.bgcheck.runtimes]" in finding["explanation"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_text_shows_explanations_on_a_terminal(demo_copy):
    from test_cli import _run_on_a_terminal

    out = _run_on_a_terminal(["check", ".", "--no-cache", "--select", "BG502"], demo_copy, {"NO_COLOR": "1"})
    assert "  why: The lock is taken with no expiry" in out
    out = _run_on_a_terminal(["check", ".", "--no-cache", "--select", "BG502", "--no-show-explanations"], demo_copy, {"NO_COLOR": "1"})
    assert "why:" not in out


@pytest.mark.parametrize("output_format", ["concise", "github", "gitlab"])
def test_one_line_formats_show_the_short_message_only(demo_copy, demo_findings, output_format):
    out = _check_cli(demo_copy, "--format", output_format)
    for finding in demo_findings:
        assert finding["explanation"] not in out
    assert all(finding["message"].replace("`", "") in out.replace("`", "") or output_format == "github" for finding in demo_findings)


def test_sarif_message_is_short_and_the_explanation_a_property(demo_copy, demo_findings):
    document = json.loads(_check_cli(demo_copy, "--format", "sarif"))
    (run_,) = document["runs"]
    for result, finding in zip(run_["results"], demo_findings):
        assert result["message"]["text"] == finding["message"]
        assert result["properties"]["explanation"] == finding["explanation"]
    rules = {rule["id"]: rule for rule in run_["tool"]["driver"]["rules"]}
    assert len(rules["BG501"]["fullDescription"]["text"]) > MAX_MESSAGE  # the rule's long description


def test_lsp_format_message_is_the_short_one(demo_copy, demo_findings):
    files = json.loads(_check_cli(demo_copy, "--format", "lsp"))
    messages = sorted(d["message"] for f in files for d in f["diagnostics"])
    assert messages == sorted(finding["message"] for finding in demo_findings)


def test_readme_explanation_sample_is_real(monkeypatch):
    from click.testing import CliRunner

    from bgcheck.cli import main

    repo = FIXTURES.parent
    monkeypatch.chdir(repo)
    lines = (repo / "README.md").read_text(encoding="utf-8").splitlines()
    shown = []
    for number, line in enumerate(lines):
        if line.startswith("  why: "):
            shown.append(line)
            shown.extend(next_line for next_line in _continuation(lines[number + 1 :]))
    assert shown, "the README shows an explanation"
    result = CliRunner().invoke(main, ["check", "fixtures/demo_service", "--no-cache", "--show-explanations"])
    actual = result.stdout.splitlines()
    for line in shown:
        assert line in actual, line


def _continuation(lines):
    for line in lines:
        if not line.startswith(" " * 7) or line.startswith(" " * 8):
            return
        yield line
