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
from bgcheck.diagnostics import EXPLICIT_ONLY_CODES
from bgcheck.rules import all_rules

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
DEMO = FIXTURES / "demo_service"
CLEAN = FIXTURES / "demo_service_clean"

# (path relative to the fixture's folder, line, code), in report order.
EXPECTED = [
    ("shop/audit.py", 18, "BG605"),  # the audit write's future is dropped: a failed write is never seen
    ("shop/billing.py", 25, "BG106"),  # bare `except:` around the Stripe charge eats charge_order's soft limit
    ("shop/main.py", 34, "BG404"),  # the worker's __main__ starts consumers and never handles SIGTERM
    ("shop/outbox.py", 17, "BG204"),  # the relay's `FOR UPDATE` without SKIP LOCKED: replicas queue up
    ("shop/outbox.py", 21, "BG203"),  # kafka `send().get()` with no timeout
    ("shop/reports.py", 16, "BG401"),  # the backup ThreadPool is never closed: exit terminates the copies
    ("shop/reports.py", 33, "BG302"),  # `renderer.map()` over a generator submits every invoice at once
    ("shop/reports.py", 34, "BG206"),  # `Future.result()` with no timeout
    ("shop/reports.py", 41, "BG402"),  # atexit `shutdown(wait=False)` abandons queued renders
    ("shop/scheduler.py", 20, "BG301"),  # the audit queue has no maxsize
    ("shop/scheduler.py", 25, "BG205"),  # expire-carts runs on all 3 replicas with no lock
    ("shop/scheduler.py", 30, "BG205"),  # sync-stock too
    ("shop/scheduler.py", 31, "BG201"),  # ... and it never returns (`while True`)
    ("shop/scheduler.py", 39, "BG501"),  # the 300 s settlement lock vs a 14 min measured run
    ("shop/scheduler.py", 44, "BG601"),  # payouts handed to fire-and-forget threads
    ("shop/scheduler.py", 52, "BG502"),  # `set(nx=True)` lock with no expiry
    ("shop/scheduler.py", 56, "BG503"),  # ... released with a plain `delete()`
    ("shop/scheduler.py", 67, "BG206"),  # the audit thread's blocking `queue.get()`
    ("shop/scheduler.py", 70, "BG202"),  # non-daemon metrics thread that loops for ever
    ("shop/scheduler.py", 71, "BG403"),  # daemon audit thread writes to a Redis stream
    ("shop/scheduler.py", 74, "BG406"),  # the SIGTERM handler's waits (10 s + 25 s) exceed the 30 s grace period
    ("shop/scheduler.py", 76, "BG405"),  # `scheduler.shutdown()` waits for running jobs with no deadline
    ("shop/scheduler.py", 79, "BG503"),  # the SIGTERM handler deletes the settlement lock it may not own
    ("shop/tasks.py", 16, "BG603"),  # charge_order moves money and acknowledges early
    ("shop/tasks.py", 22, "BG604"),  # `send_receipt.delay()` inside `engine.begin()`
    ("shop/tasks.py", 30, "BG106"),  # `except Exception` in send_receipt eats the app-wide soft limit, and the task goes on to mark the receipt sent
    ("shop/tasks.py", 41, "BG104"),  # `except Exception` in rebuild_search_index's loop: the limit is logged and the next batch goes on
    ("shop/workers.py", 27, "BG101"),  # the consumer loop reads again after CancelledError
    ("shop/workers.py", 42, "BG102"),  # `except BaseException` in the event handler
    ("shop/workers.py", 49, "BG304"),  # `except QueueFull: pass` drops partner webhooks
    ("shop/workers.py", 56, "BG303"),  # one task per webhook with no bound ...
    ("shop/workers.py", 56, "BG602"),  # ... and the task, whose posts can fail, is thrown away
    ("shop/workers.py", 66, "BG103"),  # `return` in `finally:` in fetch_rates
    ("shop/workers.py", 80, "BG105"),  # partner_status returns {} when cancelled, and its caller carries on
    ("shop/workers.py", 99, "BG606"),  # warm_rates drops the task of a library call (preview)
]


def run_json(folder: Path, monkeypatch) -> tuple[int, dict]:
    """``bgcheck check . --format json`` from inside ``folder`` (so paths are relative to it)."""
    monkeypatch.chdir(folder)
    # --no-cache: the test must not write a .bgcheck_cache into the repository's fixtures
    result = CliRunner().invoke(main, ["check", ".", "--format", "json", "--no-cache"])
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
    # BG001 (unused noqa) runs only when selected by its code: tests/test_unused_noqa.py covers it
    missing = sorted(rule.code for rule in all_rules() if rule.code not in found and rule.code not in EXPLICIT_ONLY_CODES)
    assert not missing, (
        f"rules with no finding in fixtures/demo_service: {missing}: add a case to the demo, its fix to "
        "fixtures/demo_service_clean, and its finding to EXPECTED in tests/test_demo.py"
    )


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
    assert "shop/celery_app.py" in receipt["explanation"]


def test_clean_twin_has_no_findings(monkeypatch):
    exit_code, report = run_json(CLEAN, monkeypatch)
    assert report["diagnostics"] == []
    assert report["summary"]["total"] == 0
    assert report["summary"]["files_checked"] == len(sorted(CLEAN.rglob("*.py")))
    assert exit_code == 0


def test_clean_twin_mirrors_the_demo():
    """Both fixtures are the same service: the same files, so each fix sits where its problem was."""

    def files(root: Path) -> list[str]:
        return sorted(
            path.relative_to(root).as_posix()
            for path in root.rglob("*")
            if path.is_file() and not any(part.startswith(".") or part == "__pycache__" for part in path.relative_to(root).parts)
        )

    assert files(DEMO) == files(CLEAN)
