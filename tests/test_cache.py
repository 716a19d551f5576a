"""The result cache: where it lives, what it serves, when it is invalidated, and how it survives damage.

Every run here goes through the command line (``bgcheck check --format json``) from inside a
small project written to a temporary folder, with ``--jobs 1`` so that the monkeypatched
counters (``load.unit.analyse_text`` for parses, ``run.check.check_unit`` for phase-2 checks) see
all the work. The oracle for "the cache is right" is always the same: a cached run reports
exactly what a ``--no-cache`` run of the same tree reports.
"""

from __future__ import annotations

import json
import os
import stat
import re
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner

import bgcheck
from bgcheck.load import cache as cache_module
from bgcheck import cli
from bgcheck.load import unit as load_unit_module
from bgcheck.run import check as check_module_home
from bgcheck.load.cache import CACHE_DIR_NAME, Cache, digest, version_tag
from bgcheck.cli import main
from bgcheck.load.config import load_config
from bgcheck.diagnostics import Diagnostic, Location, Severity

from conftest import write_project

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "fixtures" / "demo_service"


# ---------------------------------------------------------------------------
# helpers


class Runs:
    """Runs ``bgcheck check`` in one project and counts the work each run does."""

    def __init__(self, root: Path, monkeypatch) -> None:
        self.root = root
        self.monkeypatch = monkeypatch
        self.parsed: list[str] = []  # display paths analyse_text parsed in the last run
        self.checked: list[str] = []  # display paths check_unit checked in the last run
        self.caches: list[Cache] = []  # the Cache objects the command line opened
        real_analyse, real_check, real_open = load_unit_module.analyse_text, check_module_home.check_unit, cache_module.open_cache

        def analyse_text(path, display, text, unit=None):
            self.parsed.append(display)
            return real_analyse(path, display, text, unit)

        def check_unit(unit, index, config, rule_classes):
            self.checked.append(unit.display)
            return real_check(unit, index, config, rule_classes)

        def open_cache(config, cache_dir, enabled):
            opened = real_open(config, cache_dir, enabled)
            if opened is not None:
                self.caches.append(opened)
            return opened

        monkeypatch.setattr(load_unit_module, "analyse_text", analyse_text)
        monkeypatch.setattr(check_module_home, "check_unit", check_unit)
        monkeypatch.setattr(cache_module, "open_cache", open_cache)  # the CLI imports it when a check starts

    @property
    def cache(self) -> Cache:
        return self.caches[-1]

    def check(self, *args: str, cwd: Path | None = None) -> tuple[int, list]:
        """``bgcheck check . --format json --jobs 1 ARGS``: (exit code, diagnostics)."""
        self.parsed, self.checked = [], []
        self.monkeypatch.chdir(cwd or self.root)
        result = CliRunner().invoke(main, ["check", ".", "--format", "json", "--jobs", "1", *args])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output
        assert result.exit_code in (0, 1), (result.exit_code, result.stdout, result.stderr)
        assert "internal error" not in result.stderr and "Traceback" not in result.stderr, result.stderr
        return result.exit_code, json.loads(result.stdout)["diagnostics"]

    def fresh(self, *args: str) -> tuple[int, list]:
        """The same run without the cache: the reference."""
        return self.check("--no-cache", *args)

    def cached(self, *args: str) -> tuple[int, list]:
        """A run with the cache on, checked against a --no-cache run of the same tree."""
        outcome = self.check(*args)
        parsed, checked = self.parsed, self.checked
        assert outcome == self.fresh(*args)  # (--no-cache opens no Cache: self.cache stays this run's)
        self.parsed, self.checked = parsed, checked
        return outcome

    def write(self, rel: str, source: str) -> None:
        (self.root / rel).write_text(textwrap.dedent(source), encoding="utf-8")


def found(diagnostics, code: str | None = None) -> list[tuple[str, int, str]]:
    return [(d["path"], d["line"], d["code"]) for d in diagnostics if code is None or d["code"] == code]


def entries(cache_dir: Path, kind: str) -> list[Path]:
    return sorted(p for p in cache_dir.glob(f"v*/{kind}/*/*.json"))


def temp_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.startswith(".tmp-")]


# A Celery task whose callee, in another module, may or may not move money. The configured money
# name patterns leave `charge` out, so billing.charge is money only when its body calls Stripe.
CELERY_PROJECT = {
    "proj/__init__.py": "",
    "proj/celery.py": """
        from celery import Celery

        app = Celery("proj")
        """,
    "proj/tasks.py": """
        from proj import billing
        from proj.celery import app


        @app.task
        def settle_order(order_id):
            return billing.charge(order_id)
        """,
    "proj/billing.py": """
        def charge(order_id):
            return order_id
        """,
    "proj/unrelated.py": """
        def helper():
            return 1  # a comment
        """,
}
CELERY_CONFIG = '[tool.bgcheck.money]\nname-patterns = ["disburse"]\n'
BILLING_MOVES_MONEY = """
    import stripe


    def charge(order_id):
        return stripe.PaymentIntent.create(amount=100, currency="usd", metadata={"order": order_id})
    """
TASK_BG603 = [("proj/tasks.py", 7, "BG603")]


@pytest.fixture
def celery_project(tmp_path, monkeypatch) -> Runs:
    root = tmp_path / "svc"
    write_project(root, CELERY_PROJECT, CELERY_CONFIG)
    return Runs(root, monkeypatch)


# ---------------------------------------------------------------------------
# where the cache lives


def test_default_cache_is_at_the_project_root_with_its_own_gitignore(celery_project):
    runs = celery_project
    runs.check(cwd=runs.root / "proj")  # from a sub-folder: the project root is where pyproject.toml is
    cache_dir = runs.root / CACHE_DIR_NAME
    assert cache_dir.is_dir()
    assert not (runs.root / "proj" / CACHE_DIR_NAME).exists()
    assert "*" in (cache_dir / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert entries(cache_dir, "summaries") and entries(cache_dir, "results")
    assert (cache_dir / version_tag()).is_dir()


def test_no_cache_neither_writes_nor_reads(celery_project, tmp_path):
    runs = celery_project
    runs.fresh()
    runs.fresh()
    assert runs.parsed == runs.checked == ["proj/__init__.py", "proj/billing.py", "proj/celery.py", "proj/tasks.py", "proj/unrelated.py"]
    assert not list(tmp_path.rglob(CACHE_DIR_NAME)) and not list(tmp_path.rglob("*.json"))
    # with a warm cache beside it, --no-cache still parses and checks everything
    runs.check()
    runs.fresh()
    assert len(runs.parsed) == len(runs.checked) == 5


def test_cache_dir_option(celery_project, tmp_path):
    runs = celery_project
    elsewhere = tmp_path / "somewhere" / "else"
    runs.check("--cache-dir", str(elsewhere))
    assert not (runs.root / CACHE_DIR_NAME).exists()
    assert "*" in (elsewhere / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert len(entries(elsewhere, "summaries")) == 5
    # relative to the working folder
    runs.check("--cache-dir", "rel-cache")
    assert len(entries(runs.root / "rel-cache", "summaries")) == 5
    # and served from there the second time
    runs.check("--cache-dir", str(elsewhere))
    assert runs.parsed == runs.checked == []


def test_bgcheck_jobs_uses_the_cache_too(tmp_path, monkeypatch):
    root = tmp_path / "svc"
    write_project(root, CELERY_PROJECT, CELERY_CONFIG)
    monkeypatch.chdir(root)
    outputs = [CliRunner().invoke(main, ["jobs", ".", "--format", "json", *extra]) for extra in (["--no-cache"], [], [])]
    assert [o.exit_code for o in outputs] == [0, 0, 0]
    assert outputs[0].stdout == outputs[1].stdout == outputs[2].stdout
    assert "proj.tasks.settle_order" in outputs[0].stdout
    assert len(entries(root / CACHE_DIR_NAME, "summaries")) == 5


# ---------------------------------------------------------------------------
# what a second run does


def test_second_run_is_identical_and_served_from_the_cache(celery_project):
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    first = runs.cached()
    assert found(first[1]) == TASK_BG603
    assert len(runs.parsed) == 5 and runs.cache.hits == 0
    second = runs.check()
    assert second == first
    assert runs.parsed == [] and runs.checked == []  # no parse, no check
    assert runs.cache.hits == 6 and runs.cache.misses == 0  # 5 summary digests + the bundle of every result


def test_demo_service_second_run_is_served_from_the_cache(tmp_path, monkeypatch):
    """The demo's configuration sets several keys (a set of them is part of the configuration):
    the cache key must not depend on the order a set happens to iterate in."""
    import shutil

    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    runs = Runs(root, monkeypatch)
    first = runs.cached()
    assert len(found(first[1])) > 20
    assert runs.check() == first
    assert runs.parsed == runs.checked == []


def test_cache_keys_do_not_depend_on_the_hash_seed(tmp_path):
    """Each CLI run is a new process with its own hash seed: a second run under another seed
    must find every result the first one stored (no new entry written)."""
    import shutil

    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    outputs = []
    counts = []
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-m", "bgcheck", "check", ".", "--format", "json", "--jobs", "1"],
            cwd=root, env=env, capture_output=True, text=True, timeout=300,
        )
        assert done.returncode == 1, done.stderr
        outputs.append(done.stdout)
        counts.append((len(entries(root / CACHE_DIR_NAME, "summaries")), len(entries(root / CACHE_DIR_NAME, "results"))))
    assert outputs[0] == outputs[1] == outputs[2]
    assert counts[0] == counts[1] == counts[2]


def test_digest_is_canonical():
    config = load_config(start=DEMO)
    assert len(config.set_keys) > 1
    script = "from pathlib import Path; from bgcheck.load.config import load_config; from bgcheck.load.cache import digest; " \
        f"print(digest(load_config(start=Path({str(DEMO)!r})), {{'b', 'a', 'c'}}, frozenset({{'x', 'y', 'z'}})))"
    seen = {
        subprocess.run([sys.executable, "-c", script], env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True, text=True, check=True).stdout
        for seed in ("1", "2", "3", "4")
    }
    assert len(seen) == 1
    assert digest({"a", "b"}) == digest({"b", "a"}) != digest({"a"})
    assert digest(b"x") != digest("x") != digest(("x",))


def test_an_edit_that_changes_no_summary_rechecks_only_that_file(celery_project):
    runs = celery_project
    runs.cached()
    runs.write("proj/unrelated.py", CELERY_PROJECT["proj/unrelated.py"].replace("a comment", "another comment"))
    runs.cached()
    assert runs.parsed == runs.checked == ["proj/unrelated.py"]


def test_after_a_first_run_a_comment_rechecks_only_its_file(tmp_path, monkeypatch):
    """Result keys are made of summaries read back from the cache on the second run and built
    fresh on the first: their digests must not depend on which equal strings happen to be one
    object (a pickle's bytes do), or a comment after a first run checks most files again."""
    import shutil

    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    runs = Runs(root, monkeypatch)
    runs.cached()
    edited = sorted(p for p in root.rglob("*.py") if p.stat().st_size > 500)[0]
    edited.write_text(edited.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    runs.cached()
    rel = edited.relative_to(root).as_posix()
    assert runs.parsed == [rel] and runs.checked == [rel]


def _count_builds(monkeypatch) -> list:
    """The project indexes built (model/build.py build_index) from now on, one item each."""
    from bgcheck.model import build

    built: list = []
    real = build.build_index

    def build_index(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(build, "build_index", build_index)
    return built


TASK_WITH_A_LOCAL = CELERY_PROJECT["proj/tasks.py"].replace("return billing.charge(order_id)", "attempts = 1\n            return billing.charge(order_id)")


def test_an_edit_that_changes_no_summary_restores_the_project_models(celery_project, monkeypatch):
    """A comment, or a local bound to another value: every summary digest is as before, so the
    stored models serve the run (no index is built) and only the edited file is checked."""
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    runs.write("proj/tasks.py", TASK_WITH_A_LOCAL)
    runs.cached()
    built = _count_builds(monkeypatch)
    for rel, source in (
        ("proj/unrelated.py", CELERY_PROJECT["proj/unrelated.py"].replace("a comment", "another comment")),
        ("proj/tasks.py", TASK_WITH_A_LOCAL.replace("attempts = 1", "attempts = 2")),
        ("proj/tasks.py", TASK_WITH_A_LOCAL.replace("attempts = 1", "attempts = 'many'")),
    ):
        runs.write(rel, source)
        built.clear()
        assert found(runs.check()[1], "BG603") == TASK_BG603
        assert runs.checked == [rel] and built == []
        runs.cached()  # and the same as a --no-cache run


def test_restored_models_read_a_lost_summary_from_its_file(celery_project, monkeypatch):
    """The restored index reads summaries as the check asks for them: one whose entry is gone
    is made again from its file (unchanged: the digest its state recorded)."""
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    reference = runs.cached()
    for path in entries(runs.root / CACHE_DIR_NAME, "summaries"):
        path.unlink()
    built = _count_builds(monkeypatch)
    runs.write("proj/tasks.py", CELERY_PROJECT["proj/tasks.py"] + "# edited\n")
    assert runs.check() == reference
    assert built == [] and runs.checked == ["proj/tasks.py"]
    assert "proj/celery.py" in runs.parsed  # asked for while checking tasks.py (what ``app`` is bound to), and made again
    assert runs.fresh() == reference


def test_unchanged_results_come_from_the_last_bundle_in_one_read(celery_project, monkeypatch):
    """After an edit, the files whose result keys are unchanged take their results from the last
    bundle's ("recent", one entry); only the edited file's own entry is looked up (a miss)."""
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    runs.cached()
    read: list[str] = []
    real_get = Cache.get

    def get(self, kind, key, counted=True):
        read.append(kind)
        return real_get(self, kind, key, counted)

    monkeypatch.setattr(Cache, "get", get)
    runs.write("proj/unrelated.py", CELERY_PROJECT["proj/unrelated.py"].replace("a comment", "another comment"))
    assert found(runs.check()[1], "BG603") == TASK_BG603
    assert read.count("recent") == 1 and read.count("results") == 1 and runs.checked == ["proj/unrelated.py"]
    read.clear()
    runs.write("proj/billing.py", CELERY_PROJECT["proj/billing.py"])  # the money is gone: every key changes
    assert found(runs.cached()[1], "BG603") == []
    assert len(runs.checked) == 5


def test_lines_added_above_a_callee_recheck_only_the_results_whose_notes_point_there(celery_project):
    """Positions in other files are no part of a result key (model/facts.py digests them as their
    order in their file): the results whose notes point into the edited file are checked again, the
    others are kept, and every run equals a cold one (``cached``)."""
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    runs.cached()

    def notes_in_billing(diagnostics) -> list[tuple[int, str]]:
        return [(r["line"], r["message"]) for d in diagnostics for r in d["related"] if r["path"] == "proj/billing.py"]

    before = notes_in_billing(runs.cached()[1])
    assert before  # BG603's money chain ends at charge() and its payment call in billing.py
    runs.write("proj/billing.py", "\n\n" + textwrap.dedent(BILLING_MOVES_MONEY))  # every line two further down
    after = runs.cached()[1]
    assert notes_in_billing(after) == [(line + 2, message) for line, message in before]
    assert found(after, "BG603") == TASK_BG603
    assert sorted(runs.checked) == ["proj/billing.py", "proj/tasks.py"]  # not celery.py, unrelated.py, __init__.py
    runs.write("proj/unrelated.py", "\n" + textwrap.dedent(CELERY_PROJECT["proj/unrelated.py"]))
    runs.cached()
    assert runs.checked == ["proj/unrelated.py"]


# Edits that change what the project models are built from: each must build them again (and
# report what a --no-cache run reports), and undoing it (but for a comment) restores the first
# run's models.
MODEL_EDITS = {
    "a new call": ("proj/billing.py", BILLING_MOVES_MONEY),
    "a new job": ("proj/unrelated.py", """
        from proj.celery import app


        @app.task
        def helper():
            return 1  # a comment
        """),
    "a changed setting": ("proj/celery.py", CELERY_PROJECT["proj/celery.py"] + "app.conf.task_acks_late = True\n"),
    "a deleted file": ("proj/billing.py", None),
    "a new file": ("proj/extra.py", "from proj import billing\n\ndef f():\n    return billing.charge(1)\n"),
    "a configured job decorator": ("pyproject.toml", CELERY_CONFIG + "\n[tool.bgcheck]\njob-decorators = [\"proj.unrelated.helper\"]\n"),
}


@pytest.mark.parametrize("rel", ["proj/tasks.py", "proj/billing.py", "proj/unrelated.py"])
def test_lines_moved_relocate_the_last_models_instead_of_building_them(celery_project, monkeypatch, rel):
    """A file whose summary changed only in where its lines are (model/persist.py: relocate): the
    last models, moved to the new lines, and the report of a --no-cache run."""
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    runs.cached()
    built = _count_builds(monkeypatch)
    path = runs.root / rel
    path.write_text("\n\n\n" + path.read_text(encoding="utf-8").replace("\ndef ", "\n\ndef "), encoding="utf-8")
    outcome = runs.check()
    assert built == []
    assert outcome == runs.fresh()
    path.write_text("import os\n" + path.read_text(encoding="utf-8"), encoding="utf-8")  # a new import: another shape
    built.clear()
    outcome = runs.check()
    assert built == [1]
    assert outcome == runs.fresh()


@pytest.mark.parametrize("edit", sorted(MODEL_EDITS))
def test_an_edit_to_what_the_models_are_built_from_builds_them_again(celery_project, monkeypatch, edit):
    runs = celery_project
    reference = runs.cached()
    built = _count_builds(monkeypatch)
    rel, source = MODEL_EDITS[edit]
    path = runs.root / rel
    original = path.read_text(encoding="utf-8") if path.exists() else None
    if source is None:
        path.unlink()
    else:
        runs.write(rel, source)
    built.clear()
    outcome = runs.check()
    assert built == [1]  # the models of the edited project, built
    assert outcome == runs.fresh()
    if original is None:
        path.unlink()
    else:  # undone, with a comment: bytes no run saw, the first run's summaries and settings
        path.write_text(original + "\n# undone\n", encoding="utf-8")
    built.clear()
    assert runs.check() == reference
    assert built == []  # the first run's models, restored
    assert runs.fresh() == reference


def test_interface_hashes_kept_in_the_cache_are_those_of_the_summaries(celery_project):
    """The result keys read each unchanged summary's interface hash back from the cache (one
    entry): every hash kept is the one its summary gives, an edit that changes an interface
    replaces its hash, and a lost or tampered-with entry gives the keys of a run without it."""
    from bgcheck.load import cache_keys
    from bgcheck.load.unit import load_unit, summary_digest

    runs = celery_project

    def check_hashes() -> dict:
        kept = runs.cache.get("interfaces", cache_keys.INTERFACES_KEY, counted=False)
        units = [load_unit(p, p.relative_to(runs.root).as_posix()) for p in sorted(runs.root.rglob("*.py"))]
        fresh = {summary_digest(u.summary): digest(u.summary.module, cache_keys.interface(u.summary))[:32] for u in units}
        assert kept == fresh
        return kept

    runs.cached()
    before = check_hashes()
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)  # a new import: billing's interface changes
    assert found(runs.cached()[1], "BG603") == TASK_BG603
    after = check_hashes()
    assert len(after) == len(before) and after != before
    entry = entries(runs.root / CACHE_DIR_NAME, "interfaces")
    assert len(entry) == 1
    entry[0].write_bytes(entry[0].read_bytes().replace(b'"', b"'"))  # no longer JSON: a miss, rewritten
    for models in entries(runs.root / CACHE_DIR_NAME, "models"):
        models.unlink()  # else the first run's models, with its import closures, serve the summaries restored below
    runs.write("proj/billing.py", CELERY_PROJECT["proj/billing.py"] + "# restored\n")  # bytes no earlier run saw
    assert found(runs.cached()[1], "BG603") == []
    assert check_hashes() == before


# ---------------------------------------------------------------------------
# cross-file facts


def test_callee_starts_moving_money_and_stops_again(celery_project):
    runs = celery_project
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == []

    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == TASK_BG603
    assert "proj.tasks.settle_order" in diagnostics[0]["explanation"] and "stripe.PaymentIntent.create" in diagnostics[0]["explanation"]
    assert runs.parsed == ["proj/billing.py"]  # only the edited file is parsed again ...
    assert "proj/tasks.py" in runs.checked  # ... but the task that calls it is checked again

    runs.write("proj/billing.py", CELERY_PROJECT["proj/billing.py"])
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == []
    assert runs.parsed == runs.checked == []  # the earlier state is still in the cache

    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == TASK_BG603


def test_a_put_in_another_module_reaches_the_queue_it_feeds(tmp_path, monkeypatch):
    """BG301 at a queue's creation depends on puts anywhere in the project, also in modules the
    queue's own module does not import: a cached result must follow them."""
    root = tmp_path / "svc"
    write_project(root, {
        "proj/__init__.py": "",
        "proj/queues.py": "import queue\n\nWORK = queue.Queue()\n",
        "proj/feeder.py": "from proj.queues import WORK\n\n\ndef feed(source):\n    while True:\n        WORK.put(source.read())\n",
    })
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG301") == [("proj/queues.py", 3, "BG301")]
    runs.write("proj/feeder.py", "from proj.queues import WORK\n\n\ndef feed(item):\n    WORK.put(item)\n")
    assert found(runs.cached()[1], "BG301") == []
    runs.write("proj/feeder.py", "from proj.queues import WORK\n\n\ndef feed(source):\n    while True:\n        WORK.put(None)\n")
    assert found(runs.cached()[1], "BG301") == []  # a sentinel, not work
    runs.write("proj/feeder.py", "from proj.queues import WORK\n\n\ndef feed(items):\n    for item in items:\n        WORK.put(item)\n")
    assert found(runs.cached()[1], "BG301") == []  # a for over a parameter: not a stream
    runs.write("proj/feeder.py", "from proj.queues import WORK\n\n\ndef feed(source):\n    while True:\n        WORK.put(source.read())\n")
    assert found(runs.cached()[1], "BG301") == [("proj/queues.py", 3, "BG301")]
    assert runs.parsed == runs.checked == []  # that state is in the cache


def test_what_a_function_returns_reaches_its_callers(tmp_path, monkeypatch):
    """A receiver's type can come from what a function in another module returns (``make_pool()``)."""
    root = tmp_path / "svc"
    pools = "from concurrent.futures import ThreadPoolExecutor\n\n\ndef make_pool():\n    return ThreadPoolExecutor(4)\n"
    user = "from proj.pools import make_pool\n\nPOOL = make_pool()\n\n\ndef go(f):\n    POOL.submit(f)\n"
    write_project(root, {"proj/__init__.py": "", "proj/pools.py": pools, "proj/user.py": user})
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG605") == [("proj/user.py", 7, "BG605")]  # POOL is an executor
    runs.write("proj/pools.py", pools.replace("return ThreadPoolExecutor(4)", "return None"))
    assert found(runs.cached()[1], "BG605") == []
    assert runs.parsed == ["proj/pools.py"] and "proj/user.py" in runs.checked
    runs.write("proj/pools.py", pools)
    assert found(runs.cached()[1], "BG605") == [("proj/user.py", 7, "BG605")]


@pytest.mark.parametrize("fixture", ["demo_service", "jobs_inventory"])
def test_emptying_any_file_and_restoring_it_matches_a_fresh_run(tmp_path, monkeypatch, fixture):
    """A guard for cross-file facts the cache keys might miss: every module, emptied in turn (its
    jobs, constants, settings, locks and callees gone) and then restored, gives with the cache
    exactly what a --no-cache run gives (Runs.cached compares every run)."""
    import shutil

    root = tmp_path / fixture
    shutil.copytree(REPO / "fixtures" / fixture, root, ignore=shutil.ignore_patterns(".bgcheck_cache", "__pycache__"))
    runs = Runs(root, monkeypatch)
    reference = runs.cached()
    modules = sorted(p for p in root.rglob("*.py") if p.stat().st_size)
    assert len(modules) >= 5
    changed = 0
    for path in modules:
        original = path.read_text(encoding="utf-8")
        path.write_text("", encoding="utf-8")
        changed += runs.cached() != reference
        path.write_text(original, encoding="utf-8")
        assert runs.cached() == reference
    assert changed  # the edits do change the report


# ---------------------------------------------------------------------------
# cold against warm-after-edit: every fixture project, edits of every kind
#
# Each kind of edit is made at a few places of each fixture project (the first, middle and last
# place it applies), one at a time; after each, a cached run must report what a --no-cache run
# reports (Runs.cached). The edits are made on the syntax tree, so each one is what a developer
# would write (and each file still parses).

FIXTURE_PROJECTS = sorted(p.parent.name for p in (REPO / "fixtures").glob("*/pyproject.toml"))
_PLACES = 3


def _spread(candidates: list) -> list:
    """The first, middle and last of the candidates (fewer when there are fewer)."""
    if len(candidates) <= _PLACES:
        return candidates
    return [candidates[0], candidates[len(candidates) // 2], candidates[-1]]


def _sources(root: Path) -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.py")) if ".bgcheck_cache" not in p.parts}


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class _NthNode(cst.CSTTransformer):
    """Replace the n-th node (in source order) that ``pick`` accepts with ``change(node)``."""

    def __init__(self, pick, n: int = -1, change=None) -> None:
        self.pick, self.n, self.change, self.seen = pick, n, change, 0

    def on_leave(self, original, updated):
        if self.pick(original):
            self.seen += 1
            if self.seen - 1 == self.n:
                return self.change(updated)
        return updated


def _node_edits(sources: dict[Path, str], pick, change) -> list[dict[Path, str]]:
    """One edit per place ``pick`` accepts (spread over the project), each changing that node alone."""
    places = []
    for path, text in sources.items():
        counter = _NthNode(pick)
        cst.parse_module(text).visit(counter)
        places.extend((path, n) for n in range(counter.seen))
    edits = []
    for path, n in _spread(places):
        edited = cst.parse_module(sources[path]).visit(_NthNode(pick, n, change))
        edits.append({path: edited.code})
    return edits


def _is_module_constant(node) -> bool:
    return (
        isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)
        and node.targets[0].target.value.isupper() and isinstance(node.value, (cst.Integer, cst.Float, cst.SimpleString))
    )


def _changed_constant(node: cst.Assign) -> cst.Assign:
    value = node.value
    if isinstance(value, cst.SimpleString):
        return node.with_changes(value=cst.SimpleString(value.value[:-1] + ":edited" + value.value[-1]))
    return node.with_changes(value=cst.Integer(str(int(float(value.value)) * 100 + 1)))


def _is_flag(node) -> bool:
    return isinstance(node, cst.Name) and node.value in ("True", "False")


def _is_call_with_keywords(node) -> bool:
    return isinstance(node, cst.Call) and any(arg.keyword is not None for arg in node.args)


def _without_first_keyword(node: cst.Call) -> cst.Call:
    first = next(i for i, arg in enumerate(node.args) if arg.keyword is not None)
    args = list(node.args[:first]) + list(node.args[first + 1 :])
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return node.with_changes(args=args)


def _with_timeout(node: cst.Call) -> cst.Call:
    args = list(node.args)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return node.with_changes(args=[*args, cst.Arg(keyword=cst.Name("timeout"), value=cst.Integer("30"))])


def _top_level_functions(sources: dict[Path, str]) -> list[tuple[Path, str]]:
    found = []
    for path, text in sources.items():
        for statement in cst.parse_module(text).body:
            if isinstance(statement, cst.FunctionDef):
                found.append((path, statement.name.value))
    return found


def _renames(sources: dict[Path, str]) -> list[dict[Path, str]]:
    """A top-level function renamed, with every use of its name in the project."""
    edits = []
    for _path, name in _spread(_top_level_functions(sources)):
        word = re.compile(rf"\b{name}\b")
        edits.append({p: word.sub(f"{name}_renamed", text) for p, text in sources.items() if word.search(text)})
    return edits


def _moves(root: Path, sources: dict[Path, str]) -> list[dict[Path, str]]:
    """A top-level function moved to another module of the project, imported back where it was."""
    edits = []
    for path, name in _spread(_top_level_functions(sources)):
        others = [p for p in sources if p != path and p.name != "__init__.py"]
        if not others:
            continue
        target = others[0]
        module = cst.parse_module(sources[path])
        moved = next(s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == name)
        kept = [s for s in module.body if s is not moved]
        back = cst.parse_statement(f"from {_module_name(root, target)} import {name}\n")
        edits.append({
            path: module.with_changes(body=[back, *kept]).code,
            target: sources[target].rstrip("\n") + "\n\n\n" + module.code_for_node(moved).lstrip("\n"),
        })
    return edits


def _settings(sources: dict[Path, str]) -> list[dict[Path, str]]:
    """Celery's acks_late (a task option or the task_acks_late setting) flipped where it is set, and
    task_acks_late set on the app where it is not."""
    flag = re.compile(r"\b((?:task_)?acks_late\s*=\s*)(True|False)\b")
    edits = []
    for path, text in sources.items():
        for match in flag.finditer(text):
            flipped = "False" if match.group(2) == "True" else "True"
            edits.append({path: text[: match.start(2)] + flipped + text[match.end(2) :]})
        app = re.search(r"^(\w+) = Celery\(.*$", text, re.MULTILINE)
        if app and "task_acks_late" not in text:
            edits.append({path: text[: app.end()] + f"\n{app.group(1)}.conf.task_acks_late = True" + text[app.end() :]})
    return edits


def _edits_of_kind(kind: str, root: Path) -> list[dict[Path, str]]:
    sources = _sources(root)
    if kind == "constant":
        return _node_edits(sources, _is_module_constant, _changed_constant)
    if kind == "boolean":
        return _node_edits(sources, _is_flag, lambda n: n.with_changes(value="False" if n.value == "True" else "True"))
    if kind == "keyword-added":
        return _node_edits(sources, lambda n: isinstance(n, cst.Call), _with_timeout)
    if kind == "keyword-removed":
        return _node_edits(sources, _is_call_with_keywords, _without_first_keyword)
    if kind == "renamed-function":
        return _renames(sources)
    if kind == "moved-function":
        return _moves(root, sources)
    return _settings(sources)


EDIT_KINDS = ["constant", "boolean", "keyword-added", "keyword-removed", "renamed-function", "moved-function", "setting"]


@pytest.mark.parametrize("kind", EDIT_KINDS)
@pytest.mark.parametrize("fixture", FIXTURE_PROJECTS)
def test_cached_runs_equal_fresh_runs_after_edits_of_every_kind(tmp_path, monkeypatch, fixture, kind):
    """The cache's key must move with every cross-file fact a rule reads (bgcheck.model.facts):
    after each edit, a run served from the cache reports exactly what a --no-cache run does."""
    import shutil

    root = tmp_path / fixture
    shutil.copytree(REPO / "fixtures" / fixture, root, ignore=shutil.ignore_patterns(".bgcheck_cache", "__pycache__"))
    runs = Runs(root, monkeypatch)
    reference = runs.cached()
    edits = _edits_of_kind(kind, root)
    assert edits, f"no place in {fixture} for an edit of kind {kind}"
    originals = _sources(root)
    for edit in edits:
        for path, text in edit.items():
            path.write_text(text, encoding="utf-8")
        runs.cached()  # asserts: equal to a --no-cache run of the edited tree
        for path in edit:
            path.write_text(originals[path], encoding="utf-8")
    assert runs.cached() == reference


def test_a_use_in_another_module_reaches_the_pool_it_uses(tmp_path, monkeypatch):
    """BG401 is silent on a pool nothing uses; a use (a method call, or the pool passed on
    as a value) can be in any module, also one the pool's module does not import."""
    root = tmp_path / "svc"
    pools = "import multiprocessing\n\nPOOL = multiprocessing.Pool(4)\n"
    calls = "from proj.pools import POOL\n\n\ndef go(f):\n    return POOL.apply_async(f)\n"
    passes = "from proj import pools\n\n\ndef go(f):\n    helper(pools.POOL, f)\n"
    unused = "def go(f):\n    return f\n"
    write_project(root, {"proj/__init__.py": "", "proj/pools.py": pools, "proj/user.py": calls})
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG401") == [("proj/pools.py", 3, "BG401")]
    for source, expected in ((unused, []), (passes, [("proj/pools.py", 3, "BG401")]), (unused, []), (calls, [("proj/pools.py", 3, "BG401")])):
        runs.write("proj/user.py", source)
        assert found(runs.cached()[1], "BG401") == expected


CONF_ACKS_LATE = """
    from celery import Celery

    app = Celery("proj")
    app.conf.task_acks_late = True
    """
DJANGO_CELERY = """
    from celery import Celery

    app = Celery("proj")
    app.config_from_object("django.conf:settings", namespace="CELERY")
    """


@pytest.mark.parametrize(
    "edits",
    [
        {"proj/celery.py": CONF_ACKS_LATE},
        {"proj/settings.py": "DEBUG = False\nCELERY_TASK_ACKS_LATE = True\n"},
    ],
    ids=["app-conf", "django-settings"],
)
def test_settings_module_turns_on_acks_late(celery_project, edits):
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    runs.write("proj/celery.py", DJANGO_CELERY)
    runs.write("proj/settings.py", "DEBUG = False\n")
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == TASK_BG603
    before = {rel: (runs.root / rel).read_text(encoding="utf-8") for rel in edits}

    for rel, source in edits.items():
        runs.write(rel, source)
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == []
    assert "proj/tasks.py" in runs.checked and "proj/tasks.py" not in runs.parsed

    for rel, source in before.items():
        (runs.root / rel).write_text(source, encoding="utf-8")
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == TASK_BG603


def test_acks_late_turned_off_again_brings_the_finding_back(celery_project):
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    runs.write("proj/celery.py", CONF_ACKS_LATE)
    assert found(runs.cached()[1], "BG603") == []
    runs.write("proj/celery.py", CONF_ACKS_LATE.replace("True", "False"))
    assert found(runs.cached()[1], "BG603") == TASK_BG603


def test_a_new_module_and_a_deleted_module(celery_project):
    runs = celery_project
    # billing.charge delegates to a module that does not exist yet: nothing to report
    runs.write("proj/billing.py", "from proj.gateway import pay\n\ndef charge(order_id):\n    return pay(order_id)\n")
    assert found(runs.cached()[1], "BG603") == []
    runs.write("proj/gateway.py", "import stripe\n\ndef pay(order_id):\n    return stripe.Charge.create(amount=1, currency='usd')\n")
    assert found(runs.cached()[1], "BG603") == TASK_BG603
    (runs.root / "proj" / "gateway.py").unlink()
    assert found(runs.cached()[1], "BG603") == []


def test_package_marker_added_and_removed(celery_project):
    """Module names (and so every import) depend on the __init__.py files above a module."""
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    assert found(runs.cached()[1], "BG603") == TASK_BG603
    (runs.root / "proj" / "__init__.py").unlink()
    without = runs.cached()[1]
    assert found(without, "BG603") == []  # `from proj import billing` no longer resolves
    runs.write("proj/__init__.py", "")
    assert found(runs.cached()[1], "BG603") == TASK_BG603
    assert runs.parsed == runs.checked == []


def test_console_scripts_in_pyproject_invalidate(tmp_path, monkeypatch):
    """BG404's entry points come from [project.scripts], outside every summary."""
    root = tmp_path / "svc"
    files = {
        "svc/__init__.py": "",
        "svc/main.py": "import threading\n\ndef work():\n    outbox.commit()\n\ndef main():\n    threading.Thread(target=work).start()\n",
    }
    write_project(root, files)
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG404") == []
    (root / "pyproject.toml").write_text('[project]\nname = "svc"\n[project.scripts]\nsvc = "svc.main:main"\n[tool.bgcheck]\npreview = true\n', encoding="utf-8")
    assert found(runs.cached()[1], "BG404") == [("svc/main.py", 6, "BG404")]
    (root / "pyproject.toml").write_text('[project]\nname = "svc"\n[tool.bgcheck]\npreview = true\n', encoding="utf-8")
    assert found(runs.cached()[1], "BG404") == []


# ---------------------------------------------------------------------------
# configuration


SCHEDULER = {
    "jobs.py": """
        from apscheduler.schedulers.background import BackgroundScheduler

        scheduler = BackgroundScheduler()

        @scheduler.scheduled_job("cron", hour=3)
        def send_invoices():
            return 1
        """,
}


def test_replicas_change_invalidates(tmp_path, monkeypatch):
    root = tmp_path / "svc"
    write_project(root, SCHEDULER, "replicas = 3\n")
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG205") == [("jobs.py", 7, "BG205")]
    write_project(root, SCHEDULER, "replicas = 1\n")
    assert found(runs.cached()[1], "BG205") == []
    assert runs.parsed == [] and runs.checked == ["jobs.py"]  # summaries reused, results not
    write_project(root, SCHEDULER, "replicas = 3\n")
    assert found(runs.cached()[1], "BG205") == [("jobs.py", 7, "BG205")]
    assert runs.parsed == runs.checked == []


def test_select_and_ignore_invalidate(celery_project):
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    everything = runs.cached()[1]
    assert found(everything, "BG603") == TASK_BG603
    assert found(runs.cached("--select", "BG1")[1], "BG603") == []
    assert found(runs.cached("--ignore", "BG6")[1], "BG603") == []
    assert found(runs.cached("--select", "BG603")[1]) == TASK_BG603
    assert runs.cached()[1] == everything
    # the same through the configuration file
    write_project(runs.root, {}, CELERY_CONFIG.replace("[tool.bgcheck.money]", 'ignore = ["BG603"]\n[tool.bgcheck.money]'))
    assert found(runs.cached()[1], "BG603") == []
    write_project(runs.root, {}, CELERY_CONFIG.replace("[tool.bgcheck.money]", 'select = ["BG6"]\n[tool.bgcheck.money]'))
    assert found(runs.cached()[1]) == TASK_BG603
    write_project(runs.root, {}, CELERY_CONFIG.replace("[tool.bgcheck.money]", 'per-file-ignores = {"proj/tasks.py" = ["BG603"]}\n[tool.bgcheck.money]'))
    assert found(runs.cached()[1], "BG603") == []
    write_project(runs.root, {}, '[tool.bgcheck.money]\nname-patterns = ["settle"]\n')  # now the task is money by its name
    assert found(runs.cached()[1], "BG603") == [("proj/tasks.py", 7, "BG603")]


def test_runtimes_file_invalidates(tmp_path, monkeypatch):
    root = tmp_path / "svc"
    files = {
        "jobs.py": """
            import redis

            r = redis.Redis()

            def settle():
                with r.lock("settle-lock", timeout=300):
                    return 1
            """,
    }
    write_project(root, files)
    runs = Runs(root, monkeypatch)
    runtimes = root / "runtimes.csv"
    runtimes.write_text("job,seconds\nsettle-lock,60\n", encoding="utf-8")
    first = runs.cached("--runtimes", str(runtimes))
    runtimes.write_text("job,seconds\nsettle-lock,900\n", encoding="utf-8")
    second = runs.cached("--runtimes", str(runtimes))
    assert found(second[1], "BG501") == [("jobs.py", 7, "BG501")]
    assert found(first[1], "BG501") == []


def test_version_is_part_of_the_key(celery_project, monkeypatch):
    runs = celery_project
    runs.cached()
    old = version_tag()
    assert old.startswith(f"v{bgcheck.__version__}-")
    monkeypatch.setattr(bgcheck, "__version__", "99.0.0")
    assert version_tag().startswith("v99.0.0-")
    runs.cached()
    assert len(runs.parsed) == len(runs.checked) == 5  # nothing from the other version is reused
    assert runs.cache.hits == 0
    cache_dir = runs.root / CACHE_DIR_NAME
    assert (cache_dir / old).is_dir() and (cache_dir / version_tag()).is_dir()
    runs.check()
    assert runs.parsed == runs.checked == []
    monkeypatch.setattr(bgcheck, "__version__", "99.0.1")
    runs.check()
    assert len(runs.parsed) == 5


DIAGNOSTIC = Diagnostic(code="BG101", name="n", severity=Severity.ERROR, message="m", location=Location("a.py", 1, 1, 1, 2))
OTHER = Diagnostic(code="BG102", name="n", severity=Severity.INFO, message="m", location=Location("b.py", 3, 1, 3, 2))


def test_entry_of_another_version_at_the_same_path_is_foreign(tmp_path, monkeypatch):
    cache = Cache(tmp_path / "c")
    cache.put("results", "k" * 64, ([DIAGNOSTIC], ()))
    path = next((tmp_path / "c").rglob("*.json"))
    assert cache.get("results", "k" * 64) == ([DIAGNOSTIC], ())
    monkeypatch.setattr(cache, "version", "v0.0.0-py0.0")  # same folder, stored by another version
    assert cache.get("results", "k" * 64) is None
    path.write_bytes(pickle.dumps(("k" * 64, version_tag(), [DIAGNOSTIC])))  # the format bgcheck 0.1 wrote
    assert Cache(tmp_path / "c").get("results", "k" * 64) is None


def entry_header(path: Path, kind: str) -> bytes:
    return f"bgcheck-cache {cache_module.ENTRY_FORMAT} {version_tag()} {kind} {path.stem}\n".encode()


def all_entries(cache_dir: Path) -> list[tuple[str, Path]]:
    return [(kind, path) for kind in ("summaries", "digests", "results", "bundles", "models", "recent") for path in entries(cache_dir, kind)]


def _swap_types(value):
    """The same structure with every scalar of another type (strings <-> numbers, ...)."""
    if isinstance(value, list):
        return [_swap_types(v) for v in value]
    if isinstance(value, dict):
        return {k: _swap_types(v) for k, v in value.items()}
    if isinstance(value, str):
        return 0
    if isinstance(value, bool):
        return "true"
    if isinstance(value, (int, float)):
        return str(value)
    return 1.5  # null


class RunsCode:
    """A pickle that, when loaded, creates ``marker`` (open(path, "w")): proof that it ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def _damage(cache_dir: Path, how: str) -> int:
    """Damage every entry one way; the number damaged."""
    paths = all_entries(cache_dir)
    assert paths
    for n, (kind, path) in enumerate(paths):
        header = entry_header(path, kind)
        body = path.read_bytes()
        assert body.startswith(header)
        if how == "truncated":
            path.write_bytes(body[: len(body) // 2])
        elif how == "truncated-body":
            path.write_bytes(body[: len(header) + (len(body) - len(header)) // 2])
        elif how == "empty":
            path.write_bytes(b"")
        elif how == "random-bytes":
            path.write_bytes(os.urandom(200 + n))
        elif how == "not-json":
            path.write_bytes(header + b"just some text\n")
        elif how == "another-key":  # a valid entry copied over another one
            path.write_bytes(paths[(n + 1) % len(paths)][1].read_bytes())
        elif how == "another-kind":  # the right key, the header of another kind
            path.write_bytes(body.replace(f" {kind} ".encode(), b" results " if kind != "results" else b" bundles ", 1))
        elif how == "another-format":
            path.write_bytes(body.replace(f"bgcheck-cache {cache_module.ENTRY_FORMAT} ".encode(), b"bgcheck-cache 0 ", 1))
        elif how == "wrong-shape":  # the right header over a value of another kind
            path.write_bytes(header + b'{"not": "a summary"}')
        elif how == "wrong-tuple":
            path.write_bytes(header + b"[1, 2, 3]")
        elif how == "other-object":
            path.write_bytes(header + b"12345")
        elif how == "wrong-types":  # the entry's own structure, every scalar of another type
            original = json.loads(body[len(header):])
            swapped = _swap_types(original)
            path.write_bytes(header + json.dumps(swapped if swapped != original else [0]).encode())  # (no scalar: no finding)
        elif how == "nested-100k-deep":
            path.write_bytes(header + b"[" * 100_000 + b"]" * 100_000)
        elif how == "5000-digit-integer":
            path.write_bytes(header + b"[" + b"7" * 5000 + b"]")
        elif how == "a-pickle":  # the right header over the pickle bgcheck 0.1 stored
            path.write_bytes(header + pickle.dumps((path.stem, version_tag(), [DIAGNOSTIC])))
        elif how == "directory":
            path.unlink()
            (path / "inside").mkdir(parents=True)
        elif how == "fifo":  # reading must not block
            path.unlink()
            os.mkfifo(path)
        elif how == "link-to-dev-zero":
            path.unlink()
            path.symlink_to("/dev/zero")
        elif how == "link-to-a-valid-entry":  # not followed, even to an entry with the right header
            donor = path.with_name(path.name + ".donor")
            donor.write_bytes(body)
            path.unlink()
            path.symlink_to(donor)
        else:  # pragma: no cover
            raise AssertionError(how)
    return len(paths)


DAMAGE = [
    "truncated", "truncated-body", "empty", "random-bytes", "not-json", "another-key", "another-kind", "another-format",
    "wrong-shape", "wrong-tuple", "other-object", "wrong-types", "nested-100k-deep", "5000-digit-integer", "a-pickle",
    "directory", "fifo", "link-to-dev-zero", "link-to-a-valid-entry",
]


@pytest.mark.parametrize("how", DAMAGE)
def test_damaged_entries_are_ignored_and_rewritten(celery_project, how):
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    reference = runs.cached()
    cache_dir = runs.root / CACHE_DIR_NAME
    damaged = _damage(cache_dir, how)
    assert damaged == 19  # 5 summaries, 5 digests, 5 results, 1 bundle, 2 models (and the last one's key), 1 recent

    assert runs.cached() == reference  # no crash, no hang, same report
    assert len(runs.parsed) == 5 and len(runs.checked) == 5  # nothing damaged was trusted
    assert runs.cache.hits == 0
    # every entry was rewritten: a valid file again, and the next run is served from it
    for kind, path in all_entries(cache_dir):
        assert path.is_file() and not path.is_symlink()
        assert path.read_bytes().startswith(entry_header(path, kind))
    assert runs.check() == reference
    assert runs.parsed == runs.checked == [] and runs.cache.hits == 6
    assert temp_files(cache_dir) == []


def test_an_undamaged_cache_is_trusted(celery_project):
    """The other direction: the checks above refuse damage, not entries as bgcheck writes them."""
    runs = celery_project
    reference = runs.cached()
    cache_dir = runs.root / CACHE_DIR_NAME
    for kind, path in all_entries(cache_dir):
        assert path.read_bytes().startswith(entry_header(path, kind))
        json.loads(path.read_bytes()[len(entry_header(path, kind)):])  # the rest is JSON
    assert runs.cached() == reference
    assert runs.parsed == runs.checked == [] and runs.cache.hits == 6 and runs.cache.misses == 0


@pytest.mark.parametrize("with_header", [False, True], ids=["bare", "behind-a-valid-header"])
def test_crafted_pickles_in_the_cache_run_nothing(celery_project, tmp_path, with_header):
    """A repository that commits .bgcheck_cache/ with pickles whose loading runs code (a pull
    request, a CI cache restored from elsewhere): nothing runs, and the report is the --no-cache one."""
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    reference = runs.cached()
    # the payload is live: loading it creates its marker
    proof = tmp_path / "proof"
    pickle.loads(pickle.dumps(RunsCode(proof)))
    assert proof.exists()

    marker = tmp_path / "ran"
    payload = pickle.dumps(RunsCode(marker))
    cache_dir = runs.root / CACHE_DIR_NAME
    for kind, path in all_entries(cache_dir):
        path.write_bytes((entry_header(path, kind) if with_header else b"") + payload)
        path.with_suffix(".pickle").write_bytes(payload)  # where bgcheck 0.1 kept its entries
    assert runs.cached() == reference
    assert len(runs.parsed) == 5 and runs.cache.hits == 0
    assert runs.check() == reference
    assert not marker.exists()


def test_entry_over_the_size_limit_is_a_miss(celery_project, monkeypatch):
    runs = celery_project
    reference = runs.cached()
    cache_dir = runs.root / CACHE_DIR_NAME
    sizes = [path.stat().st_size for _kind, path in all_entries(cache_dir)]
    monkeypatch.setattr(cache_module, "MAX_ENTRY_BYTES", min(sizes) - 1)
    assert runs.check() == reference
    assert len(runs.parsed) == 5 and runs.cache.hits == 0
    monkeypatch.setattr(cache_module, "MAX_ENTRY_BYTES", max(sizes))
    assert runs.check() == reference
    assert runs.parsed == [] and runs.cache.hits == 6


def test_cache_never_writes_through_a_link_inside_it(celery_project, tmp_path):
    """A repository can commit links inside its cache folder: bgcheck's writes stay in the cache."""
    runs = celery_project
    reference = runs.cached()
    cache_dir = runs.root / CACHE_DIR_NAME
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for _kind, path in all_entries(cache_dir):
        shard = path.parent
        if not shard.is_symlink():
            import shutil

            shutil.rmtree(shard)
            shard.symlink_to(elsewhere, target_is_directory=True)
    assert runs.cached() == reference
    assert list(elsewhere.iterdir()) == []
    assert len(runs.parsed) == 5


def test_default_cache_folder_that_is_a_link_is_not_used(celery_project, tmp_path):
    runs = celery_project
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (runs.root / CACHE_DIR_NAME).symlink_to(elsewhere, target_is_directory=True)
    reference = runs.fresh()
    assert runs.check() == reference
    assert runs.check() == reference
    assert len(runs.parsed) == 5
    assert list(elsewhere.iterdir()) == []
    # a link given on the command line is the user's choice: used
    assert runs.check("--cache-dir", str(runs.root / CACHE_DIR_NAME)) == reference
    assert runs.check("--cache-dir", str(runs.root / CACHE_DIR_NAME)) == reference
    assert runs.parsed == []
    assert (elsewhere / version_tag()).is_dir()


def test_damaged_gitignore_and_version_folder(celery_project):
    runs = celery_project
    reference = runs.cached()
    cache_dir = runs.root / CACHE_DIR_NAME
    # a file where the version's folder should be
    import shutil

    shutil.rmtree(cache_dir / version_tag())
    (cache_dir / version_tag()).write_bytes(b"garbage")
    assert runs.cached() == reference
    assert len(runs.parsed) == 5


def test_cache_dir_that_cannot_be_created(celery_project, tmp_path):
    runs = celery_project
    reference = runs.fresh()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    for cache_dir in (blocker, blocker / "sub"):
        assert runs.check("--cache-dir", str(cache_dir)) == reference
        assert runs.check("--cache-dir", str(cache_dir)) == reference
        assert len(runs.parsed) == 5
    assert blocker.read_text(encoding="utf-8") == "not a folder\n"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root can write to a read-only folder")
def test_read_only_cache_dir(celery_project, tmp_path):
    runs = celery_project
    reference = runs.fresh()
    read_only = tmp_path / "ro"
    read_only.mkdir()
    read_only.chmod(0o500)
    try:
        assert runs.check("--cache-dir", str(read_only)) == reference
        assert runs.check("--cache-dir", str(read_only)) == reference
        assert list(read_only.iterdir()) == []
    finally:
        read_only.chmod(0o700)


def test_unwritable_cache_dir_never_crashes(celery_project, monkeypatch):
    """Every write fails (as in a read-only folder, even for root): the run still reports."""
    runs = celery_project
    reference = runs.fresh()

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cache_module, "_new_temporary", refuse)
    assert runs.check() == reference
    assert runs.check() == reference
    assert len(runs.parsed) == 5
    assert entries(runs.root / CACHE_DIR_NAME, "summaries") == []


def test_failed_write_leaves_no_temp_file_and_keeps_the_old_entry(tmp_path, monkeypatch):
    cache = Cache(tmp_path / "c")
    cache.put("results", "a" * 64, ([DIAGNOSTIC], ()))

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache_module.os, "replace", fail)
    cache.put("results", "a" * 64, ([OTHER], ()))  # never raises
    monkeypatch.undo()
    assert temp_files(tmp_path) == []
    assert Cache(tmp_path / "c").get("results", "a" * 64) == ([DIAGNOSTIC], ())


def test_value_that_cannot_be_encoded_is_not_stored_and_does_not_raise(tmp_path):
    cache = Cache(tmp_path / "c")
    cache.put("results", "b" * 64, ([lambda: None], ()))
    cache.put("results", "b" * 64, (["not a diagnostic"], ()))
    cache.put("results", "b" * 64, ([DIAGNOSTIC], (("b.py", 7),)))  # a digest is a string
    cache.put("no-such-kind", "b" * 64, [DIAGNOSTIC])
    assert cache.get("results", "b" * 64) is None
    assert cache.get("no-such-kind", "b" * 64) is None
    assert temp_files(tmp_path) == []


def test_atomic_writes_leave_no_temp_files(celery_project):
    runs = celery_project
    runs.cached()
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    runs.cached()
    cache_dir = runs.root / CACHE_DIR_NAME
    assert temp_files(cache_dir) == []
    assert sorted(p.name for p in cache_dir.iterdir()) == [".gitignore", "CACHEDIR.TAG", version_tag()]


def test_cache_get_and_put_round_trip(tmp_path):
    from bgcheck.load.unit import analyse_text

    summary = analyse_text(Path("m.py"), "m.py", "import os\nTTL = 60 * 5\n\ndef f(x):\n    return os.path.join(x, 'a')\n").summary
    cache = Cache(tmp_path / "c")
    assert cache.get("summaries", "c" * 64) is None and cache.misses == 1
    cache.put("summaries", "c" * 64, (None, DIAGNOSTIC, ""))
    assert cache.get("summaries", "c" * 64) == (None, DIAGNOSTIC, "")
    assert (cache.hits, cache.misses) == (1, 1)
    assert cache.get("results", "c" * 64) is None  # kinds are separate
    cache.put("summaries", "d" * 64, (summary, None, "x" * 64))
    assert cache.get("summaries", "d" * 64) == (summary, None, "x" * 64)
    cache.put("digests", "d" * 64, ("x" * 64, None))
    assert cache.get("digests", "d" * 64) == ("x" * 64, None)
    cache.put("results", "d" * 64, ([], ()))
    assert cache.get("results", "d" * 64) == ([], ())  # an empty result is a hit, not a miss
    cache.put("results", "e" * 64, ([OTHER], (("b.py", "f" * 64),)))
    assert cache.get("results", "e" * 64) == ([OTHER], (("b.py", "f" * 64),))
    cache.put("bundles", "d" * 64, {"a.py": [DIAGNOSTIC], "b.py": [OTHER], "c.py": []})
    assert cache.get("bundles", "d" * 64) == {"a.py": [DIAGNOSTIC], "b.py": [OTHER], "c.py": []}
    assert (cache.hits, cache.misses) == (6, 2)


def test_project_transaction_wrapper_and_job_wrapper_edits_reach_cached_results(tmp_path, monkeypatch):
    """BG604 through a decorator of the project, BG201 through a job wrapper and the job-decorators
    setting: editing the wrapper's module, or the setting, changes another module's findings."""
    root = tmp_path / "svc"
    atomic = "from django.db import transaction\n\n\ndef in_tx(f):\n    return transaction.atomic(f)\n"
    plain = "def in_tx(f):\n    return f\n"
    jobs_wrapper = "import schedule\n\n\ndef periodic(f):\n    schedule.every(5).minutes.do(f)\n    return f\n"
    files = {
        "proj/__init__.py": "",
        "proj/db.py": atomic,
        "proj/jobs.py": jobs_wrapper,
        "proj/tasks.py": "from celery import shared_task\n\n\n@shared_task\ndef notify(pk):\n    pass\n",
        "proj/services.py": (
            "from proj.db import in_tx\nfrom proj.jobs import periodic\nfrom proj.tasks import notify\n\n\n"
            "@in_tx\ndef place(order):\n    notify.delay(Order.objects.create(ref=order.pk).pk)\n\n\n"
            "@periodic\ndef poll(stream):\n    while True:\n        stream.read_one()\n"
        ),
    }
    write_project(root, files)
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG604") == [("proj/services.py", 8, "BG604")]
    assert found(runs.cached()[1], "BG201") == [("proj/services.py", 13, "BG201")]
    runs.write("proj/db.py", plain)
    runs.write("proj/jobs.py", "def periodic(f):\n    return f\n")
    assert found(runs.cached()[1], "BG604") == []
    assert found(runs.cached()[1], "BG201") == []
    write_project(root, {**files, "proj/db.py": plain, "proj/jobs.py": "def periodic(f):\n    return f\n"}, 'job-decorators = ["proj.jobs.periodic"]\n')
    assert found(runs.cached()[1], "BG201") == [("proj/services.py", 13, "BG201")]
    runs.write("proj/db.py", atomic)
    assert found(runs.cached()[1], "BG604") == [("proj/services.py", 8, "BG604")]


def test_a_direct_await_in_a_module_that_is_not_imported_reaches_the_task_it_awaits(tmp_path, monkeypatch):
    """BG101 is silent on a task of its own that ends on cancel; a direct await of that coroutine
    in any module (one the coroutine's module does not import) makes its caller carry on."""
    root = tmp_path / "svc"
    refresh = (
        "import asyncio\n\n\nasync def refresh(cache):\n    try:\n        await cache.reload()\n"
        "    except asyncio.CancelledError:\n        return\n\n\ndef schedule(cache):\n"
        "    return asyncio.create_task(refresh(cache))\n"
    )
    awaits = "from proj.refresh import refresh\n\n\nasync def warm(cache):\n    await refresh(cache)\n    await cache.mark()\n"
    spawns = "import asyncio\n\nfrom proj.refresh import refresh\n\n\ndef warm(cache):\n    return asyncio.create_task(refresh(cache))\n"
    write_project(root, {"proj/__init__.py": "", "proj/refresh.py": refresh, "proj/user.py": spawns})
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG105") == []
    for source, expected in ((awaits, [("proj/refresh.py", 7, "BG105")]), (spawns, []), (awaits, [("proj/refresh.py", 7, "BG105")])):
        runs.write("proj/user.py", source)
        assert found(runs.cached()[1], "BG105") == expected


def test_a_call_of_a_cleanup_helper_moved_out_of_finally_in_another_module_reaches_its_bg101(tmp_path, monkeypatch):
    """BG101 is silent in a coroutine every caller of which calls it in a ``finally:``; a caller in
    another module (one the helper's module does not import) that calls it outside one makes the
    helper's cached result stale."""
    root = tmp_path / "svc"
    close = "import asyncio\n\n\nasync def close(conn):\n    try:\n        await conn.drain()\n    except asyncio.CancelledError:\n        pass\n"
    in_finally = "from proj.close import close\n\n\nasync def serve(conn):\n    try:\n        await conn.run()\n    finally:\n        await close(conn)\n"
    in_loop = "from proj.close import close\n\n\nasync def serve(conn):\n    while True:\n        await conn.run()\n        await close(conn)\n"
    write_project(root, {"proj/__init__.py": "", "proj/close.py": close, "proj/server.py": in_finally})
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG105") == []
    for source, expected in ((in_loop, [("proj/close.py", 7, "BG105")]), (in_finally, [])):
        runs.write("proj/server.py", source)
        assert found(runs.cached()[1], "BG105") == expected


def test_a_route_that_stops_ending_on_its_handler_in_another_module_reaches_its_bg101(tmp_path, monkeypatch):
    """BG101 is silent in a coroutine that a route (only its framework runs it) ends on; when the
    route, in a module the handler's module does not import, goes on after it, the handler's
    cached result is stale."""
    root = tmp_path / "svc"
    handler = "import asyncio\n\n\nasync def pump(ws):\n    try:\n        await ws.accept()\n    except asyncio.CancelledError:\n        return\n"
    ends = "from proj.handler import pump\n\n\n@router.websocket('/ws')\nasync def endpoint(ws):\n    await pump(ws)\n"
    goes_on = "from proj.handler import pump\n\n\n@router.websocket('/ws')\nasync def endpoint(ws):\n    await pump(ws)\n    await ws.send_text('bye')\n"
    write_project(root, {"proj/__init__.py": "", "proj/handler.py": handler, "proj/routes.py": ends})
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG105") == []
    for source, expected in ((goes_on, [("proj/handler.py", 7, "BG105")]), (ends, [])):
        runs.write("proj/routes.py", source)
        assert found(runs.cached()[1], "BG105") == expected


def test_a_prompt_helper_two_modules_away_that_stops_prompting_reaches_the_repl_s_bg101(tmp_path, monkeypatch):
    """BG101 is silent in a loop that waits at a terminal prompt through the project's helpers
    (ProjectIndex.prompting_functions); when the helper at the end of the chain, in a module the
    REPL's module does not import, stops asking the user, the REPL's cached result is stale."""
    root = tmp_path / "svc"
    repl = (
        "import asyncio\n\nfrom proj.ask import ask\n\n\nasync def repl(agent):\n    while True:\n"
        "        line = await ask()\n        try:\n            await agent.reply(line)\n"
        "        except asyncio.CancelledError:\n            print('interrupted')\n"
    )
    ask = "from proj.terminal import read\n\n\nasync def ask():\n    return await read()\n"
    prompts = "import asyncio\n\n\nasync def read():\n    return await asyncio.to_thread(lambda: input('> '))\n"
    reads_a_socket = "import asyncio\n\n\nasync def read():\n    return await asyncio.to_thread(lambda: SOCKET.recv(1024))\n"
    write_project(root, {"proj/__init__.py": "", "proj/repl.py": repl, "proj/ask.py": ask, "proj/terminal.py": prompts})
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG101") == []
    for source, expected in ((reads_a_socket, [("proj/repl.py", 11, "BG101")]), (prompts, [])):
        runs.write("proj/terminal.py", source)
        assert found(runs.cached()[1], "BG101") == expected


def test_a_consumer_callback_registered_in_another_module_reaches_its_bg301(tmp_path, monkeypatch):
    """BG301 counts a put in a function a kombu consumer calls per message as fed from a stream;
    the registration is in a module the queue's module does not import, so registering it (or not)
    there must reach the queue's cached result."""
    root = tmp_path / "svc"
    inbox = "import queue\n\nINBOX = queue.Queue()\n\n\ndef take(body, message):\n    INBOX.put(body)\n"
    registered = "import kombu\n\nfrom proj.inbox import take\n\n\ndef listen(channel, q):\n    kombu.Consumer(channel, [q], callbacks=[take])\n"
    called = "from proj.inbox import take\n\n\ndef listen(channel, q):\n    take(None, None)\n"
    write_project(root, {"proj/__init__.py": "", "proj/inbox.py": inbox, "proj/listen.py": called})
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG301") == []
    for source, expected in ((registered, [("proj/inbox.py", 3, "BG301")]), (called, [])):
        runs.write("proj/listen.py", source)
        assert found(runs.cached()[1], "BG301") == expected


def test_a_durable_write_added_where_an_entry_point_reaches_reaches_its_bg404(tmp_path, monkeypatch):
    """BG404 needs the entry point's work to write durably: a write added in a module the entry's
    module does not import (through a function it reaches) changes its finding."""
    root = tmp_path / "svc"
    main = (
        "import threading\n\nfrom proj import work\n\n\nif __name__ == \"__main__\":\n"
        "    threading.Thread(target=print).start()\n    work.loop()\n"
    )
    work = "from proj.store import keep\n\n\ndef loop():\n    while True:\n        keep()\n"
    quiet = "def keep():\n    print('kept')\n"
    durable = "def keep():\n    outbox.commit()\n"
    write_project(root, {"proj/__init__.py": "", "proj/main.py": main, "proj/work.py": work, "proj/store.py": quiet})
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG404") == []
    for source, expected in ((durable, [("proj/main.py", 6, "BG404")]), (quiet, []), (durable, [("proj/main.py", 6, "BG404")])):
        runs.write("proj/store.py", source)
        assert found(runs.cached()[1], "BG404") == expected


def test_publishes_through_calls_follow_edits_in_modules_not_imported(tmp_path, monkeypatch):
    """BG604 through calls: whether a publish is reported where it stands depends on every caller, in
    modules the publishing module does not import, and a call inside a transaction depends on what the
    callee does: cached results must follow both."""
    root = tmp_path / "svc"
    notify = "from proj.tasks import send\n\n\ndef notify(order):\n    send.delay(Order.objects.create(ref=order.pk).pk)\n"
    orders = "from django.db import transaction\n\nfrom proj.notify import notify\n\n\ndef place(order):\n    with transaction.atomic():\n        notify(order)\n"
    files = {
        "proj/__init__.py": "",
        "proj/tasks.py": "from celery import shared_task\n\n\n@shared_task\ndef send(pk):\n    pass\n",
        "proj/notify.py": notify,
        "proj/orders.py": orders,
    }
    write_project(root, files)
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG604") == [("proj/notify.py", 5, "BG604")]  # its only caller is in a transaction
    runs.write("proj/cron.py", "from proj.notify import notify\n\n\ndef nightly(order):\n    notify(order)\n")
    assert found(runs.cached()[1], "BG604") == [("proj/orders.py", 8, "BG604")]  # a caller outside: at the call
    runs.write("proj/notify.py", "def notify(order):\n    order.save()\n")
    assert found(runs.cached()[1], "BG604") == []
    runs.write("proj/notify.py", notify)
    assert found(runs.cached()[1], "BG604") == [("proj/orders.py", 8, "BG604")]


def test_a_session_committed_by_a_caller_in_another_module_follows_edits(tmp_path, monkeypatch):
    """BG604: a helper's write on a module's session, then a publish, is inside the session's
    transaction when a caller commits it after the call; the caller is in a module the helper does
    not import, and cached results must follow its commit coming and going."""
    root = tmp_path / "svc"
    helper = "from proj.db import db\nfrom proj.tasks import send\n\n\ndef record(order):\n    db.session.add(order)\n    send.delay(order.id)\n"
    commits = "from proj.db import db\nfrom proj.services import record\n\n\ndef create(order):\n    record(order)\n    db.session.commit()\n"
    leaves = "from proj.db import db\nfrom proj.services import record\n\n\ndef create(order):\n    record(order)\n"
    files = {
        "proj/__init__.py": "",
        "proj/db.py": "from flask_sqlalchemy import SQLAlchemy\n\ndb = SQLAlchemy()\n",
        "proj/tasks.py": "from celery import shared_task\n\n\n@shared_task\ndef send(pk):\n    pass\n",
        "proj/services.py": helper,
        "proj/views.py": leaves,
    }
    write_project(root, files)
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG604") == []
    for source, expected in ((commits, [("proj/services.py", 7, "BG604")]), (leaves, []), (commits, [("proj/services.py", 7, "BG604")])):
        runs.write("proj/views.py", source)
        assert found(runs.cached()[1], "BG604") == expected


def test_a_handler_for_another_signal_in_another_module_follows_edits(tmp_path, monkeypatch):
    """BG404 notes where the program installs a handler for other signals only; the install is in
    a module the entry point's module imports, and cached notes must follow it changing."""
    root = tmp_path / "svc"
    core = "import signal\nimport threading\n\n\ndef stop(signum, frame):\n    pass\n\n\ndef work():\n    outbox.commit()\n\n\ndef start():\n    signal.signal(signal.{sig}, stop)\n    threading.Thread(target=work).start()\n"
    write_project(root, {
        "pyproject.toml": "[tool.bgcheck]\npreview = true\n",
        "proj/__init__.py": "",
        "proj/core.py": core.format(sig="SIGINT"),
        "proj/__main__.py": "from proj.core import start\n\nif __name__ == \"__main__\":\n    start()\n",
    })
    runs = Runs(root, monkeypatch)

    def notes():
        return [n["message"] for d in runs.cached()[1] if d["code"] == "BG404" for n in d.get("related", [])]

    assert "installs a handler for SIGINT, none for SIGTERM" in notes()
    runs.write("proj/core.py", core.format(sig="SIGQUIT"))
    assert "installs a handler for SIGQUIT, none for SIGTERM" in notes()
    runs.write("proj/core.py", core.format(sig="SIGTERM"))
    assert notes() == []


def test_a_client_the_class_makes_in_another_module_follows_edits(tmp_path, monkeypatch):
    """BG203 types ``self.client = client or make_client()`` by what the factory in another module
    returns; cached findings must follow that return changing from an httpx client to another."""
    root = tmp_path / "svc"
    factory = "import httpx\n\n\ndef make_client():\n    return {made}\n"
    write_project(root, {
        "pyproject.toml": "[tool.bgcheck]\n",
        "proj/__init__.py": "",
        "proj/clients.py": factory.format(made="httpx.Client(timeout=30.0)"),
        "proj/poller.py": (
            "import threading\n\nfrom proj.clients import make_client\n\n\n"
            "class Poller:\n    def __init__(self, client=None):\n        self.client = client or make_client()\n\n"
            "    def poll(self, url):\n        while True:\n            self.client.get(url, timeout=None)\n\n\n"
            "def run():\n    Poller().poll(\"https://erp.example.com\")\n\n\n"
            "def start():\n    threading.Thread(target=run).start()\n"
        ),
    })
    runs = Runs(root, monkeypatch)
    assert found(runs.cached()[1], "BG203") == [("proj/poller.py", 12, "BG203")]
    runs.write("proj/clients.py", factory.format(made="object()"))
    assert found(runs.cached()[1], "BG203") == []
    runs.write("proj/clients.py", factory.format(made="httpx.AsyncClient()"))
    assert [line for _path, line, _message in found(runs.cached()[1], "BG203")] == [12]


def test_a_temporary_name_left_by_another_process_is_not_written_through(tmp_path):
    """The temporary file of a write is new (O_EXCL): a file, or a link, left under the name this
    process would take first is skipped, never written through."""
    import threading

    target = tmp_path / "outside"
    target.write_text("keep")
    first = tmp_path / f".tmp-{os.getpid()}-{threading.get_ident()}-0"
    first.symlink_to(target)
    fd, name = cache_module._new_temporary(tmp_path)
    os.close(fd)
    assert name == str(tmp_path / f".tmp-{os.getpid()}-{threading.get_ident()}-1")
    assert target.read_text() == "keep"
    assert stat.S_IMODE(os.stat(name).st_mode) == 0o600
