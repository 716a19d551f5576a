"""The demo service: every implemented rule fires on it, and its fixed twin is clean.

``fixtures/demo_service`` is a small, realistic service with the mistakes
bgcheck exists to catch; ``fixtures/demo_service_clean`` is the same service
with every mistake fixed the right way. When a rule is added, add code that
triggers it to the demo (and its fix to the clean twin), then extend
``EXPECTED`` below: the coverage test fails until the new code has a finding.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from bgcheck.rules import all_rules

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
DEMO = FIXTURES / "demo_service"
CLEAN = FIXTURES / "demo_service_clean"

# (path relative to the fixture's folder, line, code), in report order.
EXPECTED = [
    ("shop/billing.py", 25, "BG102"),  # bare `except:` around the Stripe charge, reached from a Celery task
    ("shop/main.py", 28, "BG101"),  # `except (CancelledError, KeyboardInterrupt)` in main() carries on
    ("shop/tasks.py", 30, "BG104"),  # `except Exception` in send_receipt eats the app-wide soft limit
    ("shop/tasks.py", 40, "BG104"),  # `except SoftTimeLimitExceeded: break` in rebuild_search_index
    ("shop/workers.py", 26, "BG101"),  # consumer loop breaks out on CancelledError
    ("shop/workers.py", 40, "BG102"),  # `except BaseException` in the event handler
    ("shop/workers.py", 51, "BG103"),  # `return` in `finally:` in fetch_rates
]


def run_json(folder: Path, monkeypatch) -> tuple[int, dict]:
    """``bgcheck check . --format json`` from inside ``folder`` (so paths are relative to it)."""
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["check", ".", "--format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.stderr == ""
    return result.exit_code, json.loads(result.stdout)


@pytest.fixture
def demo(monkeypatch) -> tuple[int, dict]:
    return run_json(DEMO, monkeypatch)


def test_demo_findings_are_exactly_the_expected_ones(demo):
    exit_code, report = demo
    found = [(d["path"], d["line"], d["code"]) for d in report["diagnostics"]]
    assert found == EXPECTED
    assert exit_code == 1


def test_demo_finds_every_implemented_rule(demo):
    _, report = demo
    found = {d["code"] for d in report["diagnostics"]}
    missing = sorted(rule.code for rule in all_rules() if rule.code not in found)
    assert not missing, f"rules with no finding in fixtures/demo_service: {missing}"


def test_demo_summary_counts_every_file(demo):
    _, report = demo
    python_files = sorted(DEMO.rglob("*.py"))
    assert report["summary"]["files_checked"] == len(python_files)
    assert report["summary"]["total"] == len(EXPECTED)
    assert report["summary"]["by_code"] == {
        code: sum(1 for *_, c in EXPECTED if c == code) for code in sorted({c for *_, c in EXPECTED})
    }


def test_demo_uses_its_own_configuration(demo):
    """The demo's pyproject.toml sets a soft limit of 120 s in celery_app.py; the message says where it came from."""
    _, report = demo
    (receipt,) = [d for d in report["diagnostics"] if d["path"] == "shop/tasks.py" and d["line"] == 30]
    assert "120 s" in receipt["message"]
    assert "shop/celery_app.py" in receipt["message"]


def test_clean_twin_has_no_findings(monkeypatch):
    exit_code, report = run_json(CLEAN, monkeypatch)
    assert report["diagnostics"] == []
    assert report["summary"]["total"] == 0
    assert report["summary"]["files_checked"] == len(sorted(CLEAN.rglob("*.py")))
    assert exit_code == 0


def test_clean_twin_mirrors_the_demo():
    """Both fixtures are the same service: the same files, so each fix sits where its problem was."""
    files = lambda root: sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    assert files(DEMO) == files(CLEAN)
