#!/usr/bin/env python3
"""bgcheck's benchmark: speed on a pinned corpus of real projects, and peers for reference.

    python benchmarks/run.py                 # build the corpus if needed, time bgcheck and ruff
    python benchmarks/run.py --repeat 1      # one repetition (quicker)
    python benchmarks/run.py --cold-repeat 1 # the cold rows (minutes each) once, the others --repeat times
    python benchmarks/run.py --peers none    # bgcheck only (the peers' last figures are kept)
    python benchmarks/run.py --peers all     # also flake8-async and Fixit (about 15 minutes)
    python benchmarks/run.py --readme-only   # rewrite the README table from results.json

The corpus is built from PyPI source distributions (pinned below) into
benchmarks/corpus/ (git-ignored; it may be a link to a shared copy). Peers
(ruff; flake8-async and Fixit on request) are installed into a separate
virtualenv, benchmarks/.peers/, so they never touch bgcheck's environment.
bgcheck runs from this checkout (PYTHONPATH), with its bytecode compiled first.

Every row is measured against its target (TARGETS): the table is printed,
written to benchmarks/results.json and into README.md's performance section.
Each row records the median wall time and the least CPU time (user + system
of the process and its workers) of its runs: on a busy machine the CPU time
is the steadier figure, and when the load average at the start is above the
number of CPUs, time targets are judged on it. This is a benchmark, not a
test: CI does not run it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from datetime import date
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
README = REPO / "README.md"
CORPUS = HERE / "corpus"
PEERS = HERE / ".peers"
RESULTS = HERE / "results.json"

# name==version of each source distribution in the corpus, and the folder of
# the sdist that holds the package itself (tests and docs are left out):
# about 640,000 lines in all.
PINNED = {
    "Django==6.1.3": "django",
    "celery==5.7.0": "celery",
    "kombu==5.7.0": "kombu",
    "SQLAlchemy==2.1.9": "lib/sqlalchemy",
    "APScheduler==3.11.3": "src/apscheduler",
    "redis==8.1.0": "redis",
    "dramatiq==2.2.1": "dramatiq",
    "huey==3.5.4": "huey",
    "rq==2.12.0": "rq",
    "arq==0.28.0": "arq",
    "starlette==1.10.0": "starlette",
    "fastapi==0.163.2": "fastapi",
}
PEER_PACKAGES = {"flake8-async": "flake8-async==26.8.1", "fixit": "fixit==2.2.1", "ruff": "ruff==0.17.5"}

# What each row must reach (issue 15): ("s", limit) the median wall time must be under it,
# ("lines/s", floor) the speed at least it, ("MiB", limit) the peak memory under it.
TARGETS = {
    "cold_1": ("MiB", 400),
    "cold_n": ("lines/s", 35_000),
    "warm_nothing": ("s", 0.25),
    "warm_body": ("s", 0.5),
    "named_warm": ("s", 0.4),
    "named_edited": ("s", 0.4),
    "server_nothing": ("s", 0.25),
    "server_body": ("s", 0.5),
    "server_named_edited": ("s", 0.4),
    "version": ("s", 0.15),
    "rules": ("s", 0.15),
    "lsp_3": ("s", 0.1),
    "lsp_182": ("s", 0.1),
}
CHANGED_FILE = "celery-5.7.0/celery/app/task.py"  # imported by most of celery; no default rule reads it
# A module a default rule reads (BG602 finds a discarded task in it): its edit costs libcst's import
# (about 0.2 s), the file's parse and its check on top of what an edit of CHANGED_FILE costs.
RULE_READ_FILE = "arq-0.28.0/arq/worker.py"


def sh(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, check=False, text=True, capture_output=True, **kwargs)


def build_corpus() -> None:
    CORPUS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for spec, package_dir in PINNED.items():
            name, version = spec.split("==")
            target = CORPUS / f"{name.lower()}-{version}"
            if target.exists():
                _keep_only(target, package_dir)
                continue
            print(f"downloading {spec} ...", file=sys.stderr)
            done = sh([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", name, "--ignore-requires-python", "-d", tmp, spec])
            # --no-binary for the package alone: its build requirements may come as wheels
            if done.returncode != 0:
                raise SystemExit(f"cannot download {spec}: {done.stderr.strip().splitlines()[-1:]}")
            archive = next(p for p in Path(tmp).iterdir() if p.name.lower().startswith(name.lower().replace("-", "_")) or p.name.lower().startswith(name.lower()))
            unpack = Path(tmp) / "unpack"
            shutil.rmtree(unpack, ignore_errors=True)
            unpack.mkdir()
            if archive.suffix == ".zip":
                with zipfile.ZipFile(archive) as z:
                    z.extractall(unpack)
            else:
                with tarfile.open(archive) as t:
                    t.extractall(unpack, filter="data") if sys.version_info >= (3, 12) else t.extractall(unpack)
            (inner,) = list(unpack.iterdir())
            shutil.move(str(inner), target)
            archive.unlink()
            _keep_only(target, package_dir)


def _keep_only(target: Path, package_dir: str) -> None:
    """Keep the package's own folder of an unpacked sdist (at the same relative path)."""
    marker = target / ".bgcheck-corpus"
    if marker.exists():
        return
    keep = target / package_dir
    if not keep.is_dir():
        raise SystemExit(f"{target.name}: no folder {package_dir} in the sdist")
    staging = target.with_name(target.name + ".keep")
    shutil.move(str(keep), staging)
    shutil.rmtree(target)
    (target / package_dir).parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(staging), target / package_dir)
    marker.write_text(package_dir + "\n")


def count_lines() -> tuple[int, int]:
    files = list(CORPUS.rglob("*.py"))
    lines = 0
    for path in files:
        with open(path, "rb") as handle:
            lines += handle.read().count(b"\n")
    return len(files), lines


def bgcheck_env() -> dict:
    """The environment bgcheck runs in: this checkout first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    return env


def timed(command: list[str], env=None, cwd=None) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in MiB) of a command. CPU counts the worker
    processes it waited for too; memory is its largest process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    _, _status, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped above
    elapsed = time.perf_counter() - start
    return elapsed, usage.ru_utime + usage.ru_stime, int(usage.ru_maxrss / 1024)


def median_of(repeat: int, command: list[str], before=None, env=None, cwd=None, server: Optional[int] = None) -> dict:
    """``server``: the pid of the check server the command runs on; its CPU time per run is
    added to the client's (and kept apart as ``server_cpu_seconds``)."""
    runs, served = [], []
    for _ in range(repeat):
        if before:
            before()
        spent = process_cpu(server)
        runs.append(timed(command, env=env, cwd=cwd))
        served.append(process_cpu(server) - spent)
    row = {
        "seconds": statistics.median(r[0] for r in runs),
        "cpu_seconds": min(r[1] + s for r, s in zip(runs, served)),
        "peak_mib": max(r[2] for r in runs),
        "runs": [round(r[0], 3) for r in runs],
    }
    if server is not None:
        row["client_cpu_seconds"] = min(r[1] for r in runs)
        row["server_cpu_seconds"] = statistics.median(served)
    return row


def process_cpu(pid: Optional[int]) -> float:
    """User + system seconds a running process has spent (Linux's /proc; 0 elsewhere)."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def bgcheck(*args: str, target: Optional[Path] = None) -> list[str]:
    return [sys.executable, "-m", "bgcheck", "check", str(target or CORPUS), "--exit-zero", "--quiet", *args]


# ---------------------------------------------------------------------------
# LSP: from a change in a 2,000-line file to its published diagnostics.

LSP_DEBOUNCE = 0.3


def _lsp_send(process, message: dict) -> None:
    body = json.dumps(message).encode("utf-8")
    process.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)
    process.stdin.flush()


def _lsp_read(process) -> dict:
    length = None
    while True:
        line = process.stdout.readline()
        if not line:
            raise SystemExit("the language server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(process.stdout.read(length))


def _wait_for_diagnostics(process, uri: str, version: int) -> dict:
    while True:
        message = _lsp_read(process)
        params = message.get("params") or {}
        if message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri and params.get("version") == version:
            return params


def lsp_latency(repeat: int, every: int = 1) -> dict:
    """Seconds from didChange of a 2,000-line file to its diagnostics, minus the debounce delay.
    One function in ``every`` swallows CancelledError (a finding); the others re-raise it."""
    workspace = Path(tempfile.mkdtemp(prefix="bgcheck-lsp-bench-"))
    (workspace / "pyproject.toml").write_text("[tool.bgcheck]\n")
    package = workspace / "app"
    package.mkdir()
    (package / "__init__.py").write_text("")
    chunks = ["import asyncio\n\n"]
    while sum(c.count("\n") for c in chunks) < 2000:
        n = len(chunks)
        handler = "pass" if n % every == 0 else "raise"
        chunks.append(
            f"async def worker_{n}(queue):\n    while True:\n        item = await queue.get()\n"
            f"        try:\n            await handle(item)\n        except asyncio.CancelledError:\n"
            f"            {handler}\n        total_{n} = item + {n}\n        queue.task_done()\n\n\n"
        )
    text = "".join(chunks)
    path = package / "workers.py"
    path.write_text(text)
    uri = path.resolve().as_uri()
    process = subprocess.Popen(
        [sys.executable, "-m", "bgcheck", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=workspace,
        env=bgcheck_env(),
    )
    try:
        _lsp_send(process, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": workspace.as_uri(), "capabilities": {},
            "initializationOptions": {"debounce": LSP_DEBOUNCE}}})
        while _lsp_read(process).get("id") != 1:
            pass
        _lsp_send(process, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        _lsp_send(process, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}})
        _wait_for_diagnostics(process, uri, 1)
        latencies = []
        for version in range(2, 2 + max(repeat, 5)):
            text = text.replace("total_", f"t{version}_", 1)
            start = time.perf_counter()
            _lsp_send(process, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}})
            _wait_for_diagnostics(process, uri, version)
            latencies.append(time.perf_counter() - start - LSP_DEBOUNCE)
        _lsp_send(process, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        _lsp_send(process, {"jsonrpc": "2.0", "method": "exit"})
    finally:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(workspace, ignore_errors=True)
    return {"seconds": statistics.median(latencies), "cpu_seconds": None, "peak_mib": 0, "runs": [round(x, 3) for x in latencies]}


def install_peers(names: list[str]) -> Path:
    python = PEERS / "bin" / "python"
    if not python.exists():
        sh([sys.executable, "-m", "venv", str(PEERS)])
    missing = [name for name in names if not (PEERS / "bin" / name).exists()]
    if missing:
        done = sh([str(python), "-m", "pip", "install", "--quiet", *(PEER_PACKAGES[name] for name in missing)])
        if done.returncode != 0:
            raise SystemExit(f"cannot install peers: {done.stderr.strip()[-400:]}")
    return PEERS / "bin"


# Row key -> what the README calls it. The order is the table's.
LABELS = {
    "cold_1": "bgcheck, cold, `--jobs 1`, no cache",
    "cold_n": "bgcheck, cold, `--jobs {jobs}`, no cache",
    "warm_nothing": "bgcheck, warm, nothing changed",
    "warm_comment": "bgcheck, warm, one file changed (a comment)",
    "warm_body": "bgcheck, warm, one function body edited (a statement in a function of `celery/app/task.py`)",
    "warm_line_added": "bgcheck, warm, lines added at the top of `celery/app/task.py` (every line below moves)",
    "named_warm": "bgcheck, one named file (`celery/app/task.py`), warm cache, nothing changed",
    "named_edited": "bgcheck, one named file (`celery/app/task.py`) just edited, warm cache (pre-commit)",
    "named_line_added": "bgcheck, one named file (`celery/app/task.py`), lines added at its top, warm cache",
    "warm_rule_body": "bgcheck, warm, one function body edited in a file a rule reads (`arq/worker.py`)",
    "named_rule_edited": "bgcheck, one named file that a rule reads (`arq/worker.py`) just edited, warm cache (pre-commit)",
    "server_nothing": "bgcheck on a started server (`bgcheck server start`), warm, nothing changed",
    "server_body": "bgcheck on a started server, warm, one function body edited (as above)",
    "server_named_edited": "bgcheck on a started server, one named file just edited (pre-commit with `--server`)",
    "version": "`bgcheck --version`",
    "rules": "`bgcheck rules`",
    "lsp_3": "`bgcheck lsp`: change in a 2,000-line file with 3 findings to published diagnostics, after the 0.3 s debounce",
    "lsp_182": "`bgcheck lsp`: the same with 182 findings (one in every function)",
    "ruff": "ruff 0.17.5 `--select ASYNC,RUF006,BLE,B --no-cache` (reference)",
    "flake8-async": "flake8-async 26.8.1 (standalone)",
    "fixit": "Fixit 2.2.1",
}
README_START = "<!-- performance table: written by benchmarks/run.py -->"
README_END = "<!-- end of performance table -->"


def measure_bgcheck(rows: dict, repeat: int, jobs: int, cold_repeat: Optional[int] = None) -> None:
    env = bgcheck_env()
    cache = Path(tempfile.mkdtemp(prefix="bgcheck-bench-cache-"))
    changed = CORPUS / CHANGED_FILE
    original = changed.read_bytes()
    edits = iter(range(1, 1000))

    def comment_edit() -> None:
        """A new comment at the end: the file's bytes change, its summary does not."""
        changed.write_bytes(original + f"\n# benchmark edit {next(edits)}\n".encode())

    def body_edit(path: Path = changed, text: bytes = original) -> None:
        """A new statement in the first function of the file: its summary changes."""
        lines = text.decode("utf-8").splitlines(keepends=True)
        for i, line in enumerate(lines):
            match = re.match(r"^(\s*)def \w+\(.*\):\s*$", line)
            if match:
                lines.insert(i + 1, f"{match.group(1)}    _benchmark_edit = {next(edits)}\n")
                break
        path.write_bytes("".join(lines).encode("utf-8"))

    def line_added(command: list[str]):
        """Lines added at the top, against a cache that saw the file as it was, and a different
        number each repetition: every position below moves to where no earlier run saw it (the
        body edit's repetitions after the first find their shift in the cache, and measure an edit
        that moves nothing)."""

        def before() -> None:
            changed.write_bytes(original)
            timed(command, env=env)  # the cache of the file as it was
            changed.write_bytes(b"\n" * next(edits) + original)

        return before

    def run(key: str, command: list[str], before=None, times: Optional[int] = None, server: Optional[int] = None) -> None:
        rows[key] = median_of(times or repeat, command, before=before, env=env, server=server)
        print(f"  {key}: {rows[key]['seconds']:.2f} s (CPU {rows[key]['cpu_seconds']:.2f} s)", file=sys.stderr)

    try:
        run("cold_1", bgcheck("--no-cache", "--jobs", "1"), times=cold_repeat)
        run("cold_n", bgcheck("--no-cache", "--jobs", str(jobs)), times=cold_repeat)
        warm = bgcheck("--cache-dir", str(cache), "--jobs", str(jobs))
        named = bgcheck("--cache-dir", str(cache), "--jobs", str(jobs), target=changed)
        timed(warm, env=env)  # fill the cache
        run("warm_nothing", warm)
        run("warm_comment", warm, before=comment_edit)
        run("warm_body", warm, before=body_edit)
        run("warm_line_added", warm, before=line_added(warm))
        changed.write_bytes(original)
        timed(warm, env=env)  # the cache as it was
        run("named_warm", named)
        run("named_edited", named, before=body_edit)
        run("named_line_added", named, before=line_added(named))
        changed.write_bytes(original)
        ruled = CORPUS / RULE_READ_FILE
        ruled_original = ruled.read_bytes()
        timed(warm, env=env)  # the cache as it was
        try:
            run("warm_rule_body", warm, before=lambda: body_edit(ruled, ruled_original))
            run("named_rule_edited", bgcheck("--cache-dir", str(cache), "--jobs", str(jobs), target=ruled), before=lambda: body_edit(ruled, ruled_original))
        finally:
            ruled.write_bytes(ruled_original)
        timed(warm, env=env)
        measure_server(run, warm, named, body_edit, cache, env)
    finally:
        changed.write_bytes(original)
        sh([sys.executable, "-m", "bgcheck", "server", "stop", str(CORPUS), "--cache-dir", str(cache)], env=env)
        shutil.rmtree(cache, ignore_errors=True)
    for key, args in (("version", ["--version"]), ("rules", ["rules"])):
        rows[key] = median_of(max(repeat, 5), [sys.executable, "-m", "bgcheck", *args], env=env, cwd=tempfile.gettempdir())
    rows["lsp_3"] = lsp_latency(repeat, every=60)
    rows["lsp_182"] = lsp_latency(repeat)


def measure_server(run, warm: list[str], named: list[str], body_edit, cache: Path, env: dict) -> None:
    """The warm rows again on a started check server (bgcheck/server.py): the same commands, which
    use the server on their own; CPU is the client's and the server's for the request."""
    changed = CORPUS / CHANGED_FILE
    original = changed.read_bytes()
    started = sh([sys.executable, "-m", "bgcheck", "server", "start", str(CORPUS), "--cache-dir", str(cache), "--idle-timeout", "15m"], env=env)
    info = json.loads((cache / "server.json").read_text()) if started.returncode == 0 else None
    if info is None:
        print(f"  the server did not start: {started.stderr.strip()}", file=sys.stderr)
        return
    timed(warm, env=env)  # the server's first request
    run("server_nothing", warm, server=info["pid"])
    run("server_body", warm, before=body_edit, server=info["pid"])
    changed.write_bytes(original)
    timed(warm, env=env)  # the cache as it was
    run("server_named_edited", named, before=body_edit, server=info["pid"])


def measure_peers(rows: dict, repeat: int, names: list[str]) -> None:
    bin_dir = install_peers(names)
    # flake8-async takes files only; all peers get the same file list.
    corpus_files = [str(p) for p in sorted(CORPUS.rglob("*.py"))]
    commands = {
        "ruff": [str(bin_dir / "ruff"), "check", "--select", "ASYNC,RUF006,BLE,B", "--no-cache", "--exit-zero", "--quiet", *corpus_files],
        "flake8-async": [str(bin_dir / "flake8-async"), *corpus_files],
        "fixit": [str(bin_dir / "fixit"), "lint", *corpus_files],
    }
    for name in names:
        rows[name] = median_of(1 if name != "ruff" else repeat, commands[name])


def busy(results: dict) -> bool:
    """Was the machine busier than its CPUs when the benchmark started (a load average above
    their number)? Wall times then measure the other work too: "s" targets are judged on CPU time."""
    load = results.get("load")
    return load is not None and load > results["machine"]["cpus"]


def meets(key: str, row: dict, lines: int, by_cpu: bool = False) -> str:
    """The row against its target: "yes", "no", or "" (no target). ``by_cpu``: judge a time
    target on the row's CPU seconds where it has them (a busy machine, see ``busy``)."""
    target = TARGETS.get(key)
    if target is None or row is None:
        return ""
    unit, limit = target
    if unit == "s":
        seconds = row["cpu_seconds"] if by_cpu and row.get("cpu_seconds") is not None else row["seconds"]
        return "yes" if seconds < limit else "no"
    if unit == "lines/s":
        return "yes" if lines / row["seconds"] >= limit else "no"
    return "yes" if 0 < row["peak_mib"] < limit else "no"


def target_text(key: str) -> str:
    target = TARGETS.get(key)
    if target is None:
        return ""
    unit, limit = target
    return {"s": f"< {limit:g} s", "lines/s": f">= {limit:,} lines/s", "MiB": f"< {limit} MiB"}[unit]


def table(results: dict) -> str:
    """The README's performance table: every row against its target."""
    lines_total = results["corpus"]["lines"]
    jobs = results["machine"]["cpus"]
    out = ["| run | target | median s | CPU s | lines/s | peak MiB | meets target |", "|---|---|---:|---:|---:|---:|---|"]
    for key, label in LABELS.items():
        row = results["rows"].get(key)
        if row is None:
            continue
        speed = f"{lines_total / row['seconds']:,.0f}" if key.startswith(("cold", "ruff", "flake8", "fixit")) else ""
        cpu = f"{row['cpu_seconds']:.2f}" if row.get("cpu_seconds") is not None else ""
        peak = f"{row['peak_mib']}" if row.get("peak_mib") else ""
        out.append(
            f"| {label.format(jobs=jobs)} | {target_text(key)} | {row['seconds']:.2f} | {cpu} | {speed} | {peak} | {meets(key, row, lines_total, busy(results))} |"
        )
    return "\n".join(out)


def write_readme(results: dict) -> None:
    text = README.read_text(encoding="utf-8")
    if README_START not in text:
        print("README.md has no performance table markers: not rewritten", file=sys.stderr)
        return
    head, rest = text.split(README_START, 1)
    _old, tail = rest.split(README_END, 1)
    machine = results["machine"]
    note = (
        f"Measured on {results['date']} ({machine['arch']}, {machine['cpus']} CPUs, Python {machine['python']}"
        f"{', load average ' + format(results['load'], '.1f') + ' at the start' if results.get('load') is not None else ''})."
    )
    if busy(results):
        note += (
            " The machine was busier than its CPUs: time targets are judged on CPU seconds where a row has them;"
            " lines/s are from wall time, and so count the other work too (the cold rows' CPU seconds are the comparable figure)."
        )
    README.write_text(f"{head}{README_START}\n{note}\n\n{table(results)}\n{README_END}{tail}", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold-repeat", type=int, help="repetitions of the cold rows (default: --repeat); they take minutes each")
    parser.add_argument("--peers", choices=["none", "ruff", "all"], default="ruff", help="which peers to time (default: ruff, the reference)")
    parser.add_argument("--no-peers", action="store_true", help="the same as --peers none")
    parser.add_argument("--readme-only", action="store_true", help="rewrite README.md's table from benchmarks/results.json")
    options = parser.parse_args()
    if options.readme_only:
        write_readme(json.loads(RESULTS.read_text()))
        return
    peers = {"none": [], "ruff": ["ruff"], "all": ["ruff", "flake8-async", "fixit"]}["none" if options.no_peers else options.peers]

    build_corpus()
    files, lines = count_lines()
    # bgcheck's own bytecode, compiled once: a run must not pay for it (nor for its absence).
    sh([sys.executable, "-m", "compileall", "-q", str(REPO / "bgcheck")])
    # Every tool runs on a copy outside this repository: benchmarks/corpus is
    # git-ignored, and tools that honour .gitignore (Fixit, ruff) would skip it.
    # The copy is a project (a pyproject.toml at its root): a named file is checked
    # against the whole project, as pre-commit and editors do.
    global CORPUS
    scratch = Path(tempfile.mkdtemp(prefix="bgcheck-bench-"))
    shutil.copytree(CORPUS, scratch / "corpus", symlinks=False)
    CORPUS = scratch / "corpus"
    (CORPUS / "pyproject.toml").write_text("[tool.bgcheck]\n")
    jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    rows: dict[str, dict] = {}
    try:
        measure_bgcheck(rows, options.repeat, jobs, options.cold_repeat)
        previous = json.loads(RESULTS.read_text()).get("rows", {}) if RESULTS.exists() else {}
        rows.update({key: row for key, row in previous.items() if key in PEER_PACKAGES and key not in peers})  # keep the last measured
        measure_peers(rows, options.repeat, peers)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    results = {
        "date": str(date.today()),
        "machine": {"arch": platform.machine(), "cpus": jobs, "python": platform.python_version()},
        "load": load,
        "corpus": {"files": files, "lines": lines, "packages": list(PINNED)},
        "targets": {key: list(target) for key, target in TARGETS.items()},
        "rows": rows,
    }
    print(f"bgcheck benchmark, {date.today()}, {platform.machine()}, {jobs} CPUs, Python {platform.python_version()}, load {load}")
    print(f"corpus: {files} files, {lines} lines ({', '.join(PINNED)})")
    print(table(results))
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    write_readme(results)
    print(f"written to {RESULTS.relative_to(REPO)} and README.md")


if __name__ == "__main__":
    main()
