"""--jobs N: the per-file work of both phases on several processes, with output identical to --jobs 1.

Each comparison runs ``bgcheck check . --format json`` from inside the project (paths in the
report are relative to it) once with ``--jobs 1`` and once with ``--jobs 2``, and compares the
whole standard output, the standard error and the exit status. A spy on the process pools
makes sure the parallel run really used two workers, each with a share of the files: a
comparison in which both runs were serial would prove nothing.
"""

from __future__ import annotations

import functools
import json
import os
import re
import signal
import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.run import parallel
from bgcheck.load.cache import CACHE_DIR_NAME
from bgcheck.cli import main

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
DEMO = FIXTURES / "demo_service"
CORPUS = REPO / "benchmarks" / "corpus"


def _logged(log: str, phase: str, inner, batch):
    """A worker's batch, with the worker's pid written down (the spy's record of who did the work)."""
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"{phase} {os.getpid()}\n")
    return inner(batch)


class Pools:
    """Records every process pool a run starts (its phase and its number of processes, for
    ``bgcheck check`` and ``bgcheck jobs`` alike) and which processes analysed and checked files."""

    def __init__(self, monkeypatch, log: Path) -> None:
        self.runs: list[tuple[str, int, int]] = []  # (phase, processes, batches) of each pool
        self.log = log
        real = parallel._run_batches
        pools = self

        def spy(tasks, jobs, state, task, context=None):
            pools.runs.append((task.__name__.strip("_").split("_")[0], jobs, len(tasks)))
            return real(tasks, jobs, state, task, context)

        monkeypatch.setattr(parallel, "_run_batches", spy)
        # the workers are forked from this process: they call the spies set here
        for phase, name in (("phase1", "_load_batch"), ("phase2", "_check_batch")):
            monkeypatch.setattr(parallel, name, functools.partial(_logged, str(log), phase, getattr(parallel, name)))

    @property
    def workers(self) -> list[int]:
        """The processes of each phase-1 pool."""
        return [jobs for phase, jobs, _ in self.runs if phase == "phase1"]

    def pids(self, phase: str) -> set[int]:
        lines = self.log.read_text(encoding="utf-8").split("\n") if self.log.exists() else []
        return {int(line.split()[1]) for line in lines if line.startswith(phase + " ")}

    def reset(self) -> None:
        self.runs = []
        self.log.unlink(missing_ok=True)

    def assert_two_workers_shared_the_work(self) -> None:
        phases = [(phase, jobs) for phase, jobs, _ in self.runs]
        assert phases == [("phase1", 2), ("phase2", 2)], self.runs
        assert all(batches >= 2 for _, _, batches in self.runs), self.runs  # work for both
        for phase in ("phase1", "phase2"):  # done in worker processes, not here
            assert self.pids(phase) and os.getpid() not in self.pids(phase), (phase, self.pids(phase))


def invoke(folder: Path, monkeypatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    return result.exit_code, result.stdout, result.stderr


def check_json(folder: Path, monkeypatch, jobs: int, *extra: str) -> tuple[int, str, str]:
    return invoke(folder, monkeypatch, "check", ".", "--format", "json", "--jobs", str(jobs), *extra)


def compare(folder: Path, monkeypatch, pools: Pools, *extra: str) -> dict:
    """--jobs 1 then --jobs 2 on ``folder``: identical output, and the second on two workers."""
    pools.reset()
    serial = check_json(folder, monkeypatch, 1, *extra)
    assert pools.runs == [] and not pools.pids("phase1")
    pools.reset()
    parallel_run = check_json(folder, monkeypatch, 2, *extra)
    pools.assert_two_workers_shared_the_work()
    assert parallel_run == serial
    return json.loads(serial[1])


def codes_of(report: dict) -> set[str]:
    return {d["code"] for d in report["diagnostics"]}


# ---------------------------------------------------------------------------
# a generated project big enough for two workers at the default threshold


def _shop_copy(source: str, n: int) -> str:
    return re.sub(r"\bshop\b", f"shop{n}", source)


DEEP_IFS = "".join("    " * i + f"if flag{i}:\n" for i in range(90)) + "    " * 90 + "pass\n"
TASK_IN_A_DEEP_FOLDER = """
    from shop0 import billing
    from shop0.celery_app import app


    @app.task
    def settle_deep(order_id):
        return billing.charge(order_id)
    """


CROSS = {
    "cross/__init__.py": "",
    "cross/app.py": "from celery import Celery\n\napp = Celery('cross')\n",
    "cross/gateway.py": "def settle(order_id):\n    return order_id\n",
    "cross/tasks.py": """
        from cross import gateway
        from cross.app import app

        @app.task
        def finish_order(order_id):
            return gateway.settle(order_id)
        """,
}
GATEWAY_MOVES_MONEY = """
    import stripe


    def settle(order_id):
        return stripe.PaymentIntent.create(amount=100, currency="usd", metadata={"order": order_id})
    """


def generated_project(root: Path, copies: int = 5) -> Path:
    """Copies of the demo service (12 modules each, every rule firing), files that end as BG000,
    a deeply nested file and a task in a deeply nested package that calls into another package."""
    root.mkdir(parents=True)
    shutil.copy(DEMO / "pyproject.toml", root / "pyproject.toml")
    for n in range(copies):
        target = root / f"shop{n}"
        target.mkdir()
        for module in sorted((DEMO / "shop").glob("*.py")):
            (target / module.name).write_text(_shop_copy(module.read_text(encoding="utf-8"), n), encoding="utf-8")
    broken = root / "broken"
    broken.mkdir()
    (broken / "syntax_error.py").write_text("def oops(:\n    pass\n", encoding="utf-8")
    (broken / "nul_byte.py").write_bytes(b"x = 1\n\x00\n")
    (broken / "latin1.py").write_bytes(b"name = '\xe9t\xe9'\n")  # no coding cookie: not UTF-8
    (broken / "bad_cookie.py").write_bytes(b"# -*- coding: no-such-codec -*-\nx = 1\n")
    (broken / "deep_brackets.py").write_text("x = " + "[" * 3000 + "]" * 3000 + "\n", encoding="utf-8")
    # too deep for libcst in a function a rule reads (a module of such constants is read by CPython's parser alone)
    (broken / "deep_not.py").write_text("async def f():\n    try:\n        x = " + "not " * 3000 + "y\n    except BaseException:\n        pass\n", encoding="utf-8")
    (broken / "deep_ifs.py").write_text(DEEP_IFS, encoding="utf-8")  # deep but valid: analysed
    folder = root
    for part in "abcdefgh":
        folder = folder / part
        folder.mkdir()
        (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "deep_task.py").write_text(textwrap.dedent(TASK_IN_A_DEEP_FOLDER), encoding="utf-8")
    (root / "empty.py").write_text("", encoding="utf-8")
    for rel, source in CROSS.items():
        (root / rel).parent.mkdir(exist_ok=True)
        (root / rel).write_text(textwrap.dedent(source), encoding="utf-8")
    return root


@pytest.fixture
def pools(monkeypatch, tmp_path) -> Pools:
    return Pools(monkeypatch, tmp_path / "worker-pids")


@pytest.fixture(scope="module")
def big_project(tmp_path_factory) -> Path:
    return generated_project(tmp_path_factory.mktemp("big") / "project")


def test_generated_project_is_big_enough_for_two_workers(big_project):
    files = [p for p in big_project.rglob("*.py")]
    assert len(files) >= 60
    assert parallel.MIN_FILES_PER_WORKER == 16
    assert parallel.workers_for(2, len(files)) == 2


def test_generated_project_jobs_2_matches_jobs_1(big_project, monkeypatch, pools):
    report = compare(big_project, monkeypatch, pools, "--no-cache")
    found = codes_of(report)
    assert {"BG000", "BG101", "BG205", "BG404", "BG501", "BG603", "BG604"} <= found
    bg000 = {d["path"]: d["message"] for d in report["diagnostics"] if d["code"] == "BG000"}
    assert sorted(bg000) == [
        "broken/bad_cookie.py", "broken/deep_brackets.py", "broken/deep_not.py",
        "broken/latin1.py", "broken/nul_byte.py", "broken/syntax_error.py",
    ]
    assert "nested" in bg000["broken/deep_brackets.py"] and "nested" in bg000["broken/deep_not.py"]
    # the task in the deep package is flagged through a module of another package
    assert ("a/b/c/d/e/f/g/h/deep_task.py", "BG603") in {(d["path"], d["code"]) for d in report["diagnostics"]}
    # every copy reports the same findings
    per_copy = {
        n: sorted((d["path"].split("/", 1)[1], d["line"], d["code"]) for d in report["diagnostics"] if d["path"].startswith(f"shop{n}/"))
        for n in range(5)
    }
    assert all(per_copy[n] == per_copy[0] for n in range(5)) and per_copy[0]


def test_generated_project_text_output_and_three_jobs(big_project, monkeypatch, pools):
    serial = invoke(big_project, monkeypatch, "check", ".", "--no-cache", "--jobs", "1", "--statistics", "--show-source", "--color", "never")
    for jobs in ("2", "3"):
        assert invoke(big_project, monkeypatch, "check", ".", "--no-cache", "--jobs", jobs, "--statistics", "--show-source", "--color", "never") == serial
    assert pools.workers == [2, 3]


def test_workers_that_are_sent_the_index(big_project, monkeypatch, pools):
    """Where workers are not forked (macOS, Windows), each is sent the index when it starts and
    every batch its units: the same output."""
    monkeypatch.setattr(parallel, "forks", lambda: False)
    compare(big_project, monkeypatch, pools, "--no-cache")


def test_generated_project_select_and_ignore(big_project, monkeypatch, pools):
    for extra in (["--select", "BG6"], ["--ignore", "BG0,BG2"], ["--select", "BG000"]):
        compare(big_project, monkeypatch, pools, "--no-cache", *extra)


def test_parallel_runs_with_the_cache(tmp_path, monkeypatch, pools):
    root = generated_project(tmp_path / "project")
    reference = check_json(root, monkeypatch, 1, "--no-cache")
    pools.reset()
    assert check_json(root, monkeypatch, 2) == reference  # cold: workers write the summaries
    pools.assert_two_workers_shared_the_work()
    assert check_json(root, monkeypatch, 2) == reference  # warm
    assert check_json(root, monkeypatch, 1) == reference  # entries written by workers serve a serial run
    summaries = list((root / CACHE_DIR_NAME).glob("v*/summaries/*/*.json"))
    assert len(summaries) == len(list(root.rglob("*.py")))

    # a cross-file fact changes: the gateway that cross/tasks.py calls starts moving money, and
    # the task appears in the report; reverted, it leaves it again
    gateway = root / "cross" / "gateway.py"
    original = gateway.read_text(encoding="utf-8")
    gateway.write_text(textwrap.dedent(GATEWAY_MOVES_MONEY), encoding="utf-8")
    expected = check_json(root, monkeypatch, 1, "--no-cache")
    assert check_json(root, monkeypatch, 2) == expected
    before = {(d["path"], d["line"], d["code"]) for d in json.loads(reference[1])["diagnostics"]}
    after = {(d["path"], d["line"], d["code"]) for d in json.loads(expected[1])["diagnostics"]}
    assert after - before == {("cross/tasks.py", 6, "BG603")}
    assert before - after == set()
    gateway.write_text(original, encoding="utf-8")
    assert check_json(root, monkeypatch, 2) == reference
    assert not [p for p in (root / CACHE_DIR_NAME).rglob("*") if p.name.startswith(".tmp-")]


# ---------------------------------------------------------------------------
# the fixtures (small: the threshold is lowered so that pools start)


@pytest.mark.parametrize("fixture", ["demo_service", "jobs_inventory", "demo_service_clean"])
def test_fixture_jobs_2_matches_jobs_1(fixture, monkeypatch, pools):
    monkeypatch.setattr(parallel, "MIN_FILES_PER_WORKER", 1)
    folder = FIXTURES / fixture
    report = compare(folder, monkeypatch, pools, "--no-cache")  # --no-cache: nothing written into the repository
    if fixture == "demo_service":
        assert len(report["diagnostics"]) > 20


def test_jobs_command_jobs_2_matches_jobs_1(monkeypatch, pools):
    monkeypatch.setattr(parallel, "MIN_FILES_PER_WORKER", 1)
    folder = FIXTURES / "jobs_inventory"
    serial = invoke(folder, monkeypatch, "jobs", ".", "--format", "json", "--no-cache", "--jobs", "1")
    assert pools.runs == []
    parallel_run = invoke(folder, monkeypatch, "jobs", ".", "--format", "json", "--no-cache", "--jobs", "2")
    assert pools.workers == [2] and [phase for phase, _, _ in pools.runs] == ["phase1"]  # no check: no phase 2
    assert parallel_run == serial
    assert len(json.loads(serial[1])["jobs"]) > 10


def test_jobs_command_on_the_generated_project(big_project, monkeypatch, pools):
    serial = invoke(big_project, monkeypatch, "jobs", ".", "--no-cache", "--jobs", "1")
    assert invoke(big_project, monkeypatch, "jobs", ".", "--no-cache", "--jobs", "2") == serial
    assert pools.runs[0][:2] == ("phase1", 2) and os.getpid() not in pools.pids("phase1")
    assert "BG000" in serial[2]  # the files that could not be analysed, on stderr


def test_small_projects_stay_serial(monkeypatch, pools):
    assert parallel.workers_for(2, 2 * parallel.MIN_FILES_PER_WORKER - 1) == 1
    assert parallel.workers_for(8, 100) == 100 // parallel.MIN_FILES_PER_WORKER
    assert parallel.workers_for(2, 10_000) == 2
    assert parallel.workers_for(None, 10_000) == min(parallel.default_jobs(), 10_000 // parallel.MIN_FILES_PER_WORKER)
    assert parallel.default_jobs() >= 1
    check_json(DEMO, monkeypatch, 2, "--no-cache")
    assert pools.runs == []  # 12 files: not worth two processes


def test_default_jobs_is_one_per_cpu(monkeypatch, pools, big_project):
    monkeypatch.setattr(parallel, "default_jobs", lambda: 2)
    invoke(big_project, monkeypatch, "check", ".", "--no-cache", "--format", "json")
    assert pools.workers == [2]


# ---------------------------------------------------------------------------
# the benchmark corpus


def _corpus_package() -> Path | None:
    if not CORPUS.is_dir():
        return None
    packages = sorted(p for p in CORPUS.iterdir() if p.is_dir())
    preferred = [p for p in packages if p.name.startswith("celery-")]
    for package in preferred + packages:
        if sum(1 for _ in package.rglob("*.py")) >= 2 * parallel.MIN_FILES_PER_WORKER:
            return package
    return None


def test_benchmark_corpus_package_jobs_2_matches_jobs_1(tmp_path, monkeypatch, pools):
    package = _corpus_package()
    if package is None:
        pytest.skip(f"no benchmark corpus at {CORPUS} (built by `python benchmarks/run.py`; it is git-ignored)")
    # a snapshot: both runs see the same files, and nothing is written into the corpus
    copy = tmp_path / package.name
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__", CACHE_DIR_NAME))
    report = compare(copy, monkeypatch, pools, "--no-cache")
    assert report["diagnostics"] or package.name, "compared"


def _killed(batch):
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize("phase", ["_load_batch", "_check_batch"])
def test_a_worker_that_dies_fails_the_run_cleanly(big_project, monkeypatch, phase):
    """A worker killed mid-phase (out of memory, a signal): exit 2 with a message that says so,
    never a hang or a traceback."""
    monkeypatch.setattr(parallel, phase, _killed)  # the forked workers inherit it
    monkeypatch.chdir(big_project)
    result = CliRunner().invoke(main, ["check", ".", "--no-cache", "--jobs", "2"])
    assert result.exit_code == 2
    assert result.stderr == "bgcheck: error: a worker process stopped unexpectedly (killed, or out of memory); try --jobs 1\n"
