"""The result cache: where it lives, what it serves, when it is invalidated, and how it survives damage.

Every run here goes through the command line (``bgcheck check --format json``) from inside a
small project written to a temporary folder, with ``--jobs 1`` so that the monkeypatched
counters (``engine.analyse_text`` for parses, ``engine.check_unit`` for phase-2 checks) see
all the work. The oracle for "the cache is right" is always the same: a cached run reports
exactly what a ``--no-cache`` run of the same tree reports.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import bgcheck
from bgcheck import cache as cache_module
from bgcheck import cli, engine
from bgcheck.cache import CACHE_DIR_NAME, Cache, digest, version_tag
from bgcheck.cli import main
from bgcheck.config import load_config

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
        real_analyse, real_check, real_open = engine.analyse_text, engine.check_unit, cli.open_cache

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

        monkeypatch.setattr(engine, "analyse_text", analyse_text)
        monkeypatch.setattr(engine, "check_unit", check_unit)
        monkeypatch.setattr(cli, "open_cache", open_cache)

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
    return sorted(p for p in cache_dir.glob(f"v*/{kind}/*/*.pickle"))


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
    assert not list(tmp_path.rglob(CACHE_DIR_NAME)) and not list(tmp_path.rglob("*.pickle"))
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
    script = "from pathlib import Path; from bgcheck.config import load_config; from bgcheck.cache import digest; " \
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


# ---------------------------------------------------------------------------
# cross-file facts


def test_callee_starts_moving_money_and_stops_again(celery_project):
    runs = celery_project
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == []

    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == TASK_BG603
    assert "proj.tasks.settle_order" in diagnostics[0]["message"] and "stripe.PaymentIntent.create" in diagnostics[0]["message"]
    assert runs.parsed == ["proj/billing.py"]  # only the edited file is parsed again ...
    assert "proj/tasks.py" in runs.checked  # ... but the task that calls it is checked again

    runs.write("proj/billing.py", CELERY_PROJECT["proj/billing.py"])
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == []
    assert runs.parsed == runs.checked == []  # the earlier state is still in the cache

    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    _, diagnostics = runs.cached()
    assert found(diagnostics, "BG603") == TASK_BG603


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
    (root / "pyproject.toml").write_text('[project]\nname = "svc"\n[project.scripts]\nsvc = "svc.main:main"\n[tool.bgcheck]\n', encoding="utf-8")
    assert found(runs.cached()[1], "BG404") == [("svc/main.py", 6, "BG404")]
    (root / "pyproject.toml").write_text('[project]\nname = "svc"\n[tool.bgcheck]\n', encoding="utf-8")
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


def test_entry_of_another_version_at_the_same_path_is_foreign(tmp_path, monkeypatch):
    cache = Cache(tmp_path / "c")
    cache.put("results", "k" * 64, ["value"])
    path = next((tmp_path / "c").rglob("*.pickle"))
    assert cache.get("results", "k" * 64) == ["value"]
    monkeypatch.setattr(cache, "version", "v0.0.0-py0.0")  # same folder, stored by another version
    assert cache.get("results", "k" * 64) is None
    path.write_bytes(pickle.dumps(("k" * 64, ["value"])))  # an older entry format
    assert Cache(tmp_path / "c").get("results", "k" * 64) is None


# ---------------------------------------------------------------------------
# damage: corrupt, foreign, unwritable; never a crash


def _damage(cache_dir: Path, how: str) -> int:
    """Damage every entry one way; the number damaged."""
    paths = entries(cache_dir, "summaries") + entries(cache_dir, "digests") + entries(cache_dir, "results") + entries(cache_dir, "bundles")
    assert paths
    donor = paths[0].read_bytes()
    for n, path in enumerate(paths):
        if how == "truncated":
            path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
        elif how == "empty":
            path.write_bytes(b"")
        elif how == "random-bytes":
            path.write_bytes(os.urandom(200 + n))
        elif how == "not-a-pickle":
            path.write_text("just some text\n", encoding="utf-8")
        elif how == "another-key":  # a valid entry copied over another one
            other = paths[(n + 1) % len(paths)].read_bytes() if len(paths) > 1 else donor
            path.write_bytes(other if other != path.read_bytes() else pickle.dumps(("0" * 64, version_tag(), None)))
        elif how == "wrong-shape":  # the right key and version over a value of another kind
            key = path.stem
            path.write_bytes(pickle.dumps((key, version_tag(), {"not": "a summary"})))
        elif how == "wrong-tuple":
            key = path.stem
            path.write_bytes(pickle.dumps((key, version_tag(), (1, 2, 3))))
        elif how == "other-object":
            path.write_bytes(pickle.dumps(12345))
        elif how == "unknown-class":  # a class that does not exist here (another bgcheck's pickle)
            path.write_bytes(b"\x80\x04\x95\x1e\x00\x00\x00\x00\x00\x00\x00\x8c\x0fbgcheck.nowhere\x94\x8c\x05Thing\x94\x93\x94.")
        elif how == "directory":
            path.unlink()
            (path / "inside").mkdir(parents=True)
        else:  # pragma: no cover
            raise AssertionError(how)
    return len(paths)


@pytest.mark.parametrize(
    "how",
    ["truncated", "empty", "random-bytes", "not-a-pickle", "another-key", "wrong-shape", "wrong-tuple", "other-object", "unknown-class", "directory"],
)
def test_damaged_entries_are_ignored_and_rewritten(celery_project, how):
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    reference = runs.cached()
    cache_dir = runs.root / CACHE_DIR_NAME
    damaged = _damage(cache_dir, how)
    assert damaged == 16  # 5 summaries, 5 digests, 5 results, 1 bundle

    assert runs.cached() == reference  # no crash, same report
    assert len(runs.parsed) == 5 and len(runs.checked) == 5  # nothing damaged was trusted
    assert runs.cache.hits == 0
    # every entry was rewritten: a valid file again, and the next run is served from it
    for path in entries(cache_dir, "summaries") + entries(cache_dir, "digests") + entries(cache_dir, "results") + entries(cache_dir, "bundles"):
        assert path.is_file()
        key, version, _ = pickle.loads(path.read_bytes())
        assert (key, version) == (path.stem, version_tag())
    assert runs.check() == reference
    assert runs.parsed == runs.checked == [] and runs.cache.hits == 6
    assert temp_files(cache_dir) == []


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

    monkeypatch.setattr(cache_module.tempfile, "mkstemp", refuse)
    assert runs.check() == reference
    assert runs.check() == reference
    assert len(runs.parsed) == 5
    assert entries(runs.root / CACHE_DIR_NAME, "summaries") == []


def test_failed_write_leaves_no_temp_file_and_keeps_the_old_entry(tmp_path, monkeypatch):
    cache = Cache(tmp_path / "c")
    cache.put("results", "a" * 64, ["old"])

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache_module.os, "replace", fail)
    cache.put("results", "a" * 64, ["new"])  # never raises
    monkeypatch.undo()
    assert temp_files(tmp_path) == []
    assert Cache(tmp_path / "c").get("results", "a" * 64) == ["old"]


def test_unpicklable_value_is_not_stored_and_does_not_raise(tmp_path):
    cache = Cache(tmp_path / "c")
    cache.put("results", "b" * 64, [lambda: None])
    assert cache.get("results", "b" * 64) is None
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
    cache = Cache(tmp_path / "c")
    assert cache.get("summaries", "c" * 64) is None and cache.misses == 1
    cache.put("summaries", "c" * 64, (None, None, ""))
    assert cache.get("summaries", "c" * 64) == (None, None, "")
    assert (cache.hits, cache.misses) == (1, 1)
    assert cache.get("results", "c" * 64) is None  # kinds are separate
