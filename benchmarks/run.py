#!/usr/bin/env python3
"""bgcheck's benchmark: speed on a pinned corpus of real projects, and peers for reference.

    python benchmarks/run.py                 # build the corpus if needed, time everything
    python benchmarks/run.py --repeat 1      # one repetition (quicker)
    python benchmarks/run.py --no-peers      # bgcheck only

The corpus is built from PyPI source distributions (pinned below) into
benchmarks/corpus/ (git-ignored). Peers (flake8-async, Fixit, ruff) are
installed into a separate virtualenv, benchmarks/.peers/, so they never
touch bgcheck's environment. The table is printed and written to
benchmarks/results.json. This is a benchmark, not a test: CI does not run it.
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

HERE = Path(__file__).resolve().parent
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
PEER_PACKAGES = ["flake8-async==26.8.1", "fixit==2.2.1", "ruff==0.17.5"]


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


def timed(command: list[str], env=None) -> tuple[float, int]:
    """(wall seconds, peak RSS of the child in MiB)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, int(usage.ru_maxrss / 1024)


def median_of(repeat: int, command: list[str], before=None) -> dict:
    runs = []
    for _ in range(repeat):
        if before:
            before()
        runs.append(timed(command))
    return {"seconds": statistics.median(r[0] for r in runs), "peak_mib": max(r[1] for r in runs), "runs": [round(r[0], 3) for r in runs]}


def bgcheck(*args: str) -> list[str]:
    return [sys.executable, "-m", "bgcheck", "check", str(CORPUS), "--exit-zero", "--quiet", *args]


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
        [sys.executable, "-m", "bgcheck", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=workspace
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
    return {"seconds": statistics.median(latencies), "peak_mib": 0, "runs": [round(x, 3) for x in latencies]}


def install_peers() -> Path:
    python = PEERS / "bin" / "python"
    if not python.exists():
        sh([sys.executable, "-m", "venv", str(PEERS)])
        done = sh([str(python), "-m", "pip", "install", "--quiet", *PEER_PACKAGES])
        if done.returncode != 0:
            raise SystemExit(f"cannot install peers: {done.stderr.strip()[-400:]}")
    return PEERS / "bin"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-peers", action="store_true")
    options = parser.parse_args()

    build_corpus()
    files, lines = count_lines()
    # Every tool runs on a copy outside this repository: benchmarks/corpus is
    # git-ignored, and tools that honour .gitignore (Fixit, ruff) would skip it.
    global CORPUS
    scratch = Path(tempfile.mkdtemp(prefix="bgcheck-bench-"))
    shutil.copytree(CORPUS, scratch / "corpus")
    CORPUS = scratch / "corpus"
    jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    cache = Path(tempfile.mkdtemp(prefix="bgcheck-bench-cache-"))
    changed = CORPUS / "celery-5.7.0" / "celery" / "app" / "task.py"  # imported by most of celery
    if not changed.exists():
        changed = next(iter(sorted(CORPUS.rglob("*.py"))))
    original = changed.read_bytes()
    rows: dict[str, dict] = {}

    def cold() -> None:
        shutil.rmtree(cache, ignore_errors=True)

    edits = iter(range(1, 1000))

    def comment_edit() -> None:
        """A new comment at the end: the file's bytes change, its summary does not."""
        changed.write_bytes(original + f"\n# benchmark edit {next(edits)}\n".encode())

    def body_edit() -> None:
        """A new statement in the first function of the file: its summary changes."""
        lines = original.decode("utf-8").splitlines(keepends=True)
        for i, line in enumerate(lines):
            match = re.match(r"^(\s*)def \w+\(.*\):\s*$", line)
            if match:
                lines.insert(i + 1, f"{match.group(1)}    _benchmark_edit = {next(edits)}\n")
                break
        changed.write_bytes("".join(lines).encode("utf-8"))

    try:
        rows["bgcheck cold, --jobs 1"] = median_of(options.repeat, bgcheck("--no-cache", "--jobs", "1"))
        rows[f"bgcheck cold, --jobs {jobs}"] = median_of(options.repeat, bgcheck("--no-cache", "--jobs", str(jobs)))
        timed(bgcheck("--cache-dir", str(cache), "--jobs", str(jobs)))  # fill the cache
        rows["bgcheck warm, nothing changed"] = median_of(options.repeat, bgcheck("--cache-dir", str(cache), "--jobs", str(jobs)))
        rows["bgcheck warm, one file changed (a comment)"] = median_of(
            options.repeat, bgcheck("--cache-dir", str(cache), "--jobs", str(jobs)), before=comment_edit
        )
        rows["bgcheck warm, one file changed (a statement in a function)"] = median_of(
            options.repeat, bgcheck("--cache-dir", str(cache), "--jobs", str(jobs)), before=body_edit
        )
    finally:
        changed.write_bytes(original)
        shutil.rmtree(cache, ignore_errors=True)

    rows["bgcheck lsp: change -> diagnostics (2,000 lines, 3 findings, after the debounce)"] = lsp_latency(options.repeat, every=60)
    rows["bgcheck lsp: change -> diagnostics (2,000 lines, 182 findings, after the debounce)"] = lsp_latency(options.repeat)

    if options.no_peers and RESULTS.exists():  # keep the last measured peers
        previous = json.loads(RESULTS.read_text()).get("rows", {})
        rows.update({name: row for name, row in previous.items() if not name.startswith("bgcheck")})
    if not options.no_peers:
        bin_dir = install_peers()
        # flake8-async takes files only; all peers get the same file list.
        corpus_files = [str(p) for p in sorted(CORPUS.rglob("*.py"))]
        rows["flake8-async (standalone)"] = median_of(options.repeat, [str(bin_dir / "flake8-async"), *corpus_files])
        rows["Fixit"] = median_of(options.repeat, [str(bin_dir / "fixit"), "lint", *corpus_files])
        rows["ruff --select ASYNC,RUF006,BLE,B --no-cache"] = median_of(
            options.repeat,
            [str(bin_dir / "ruff"), "check", "--select", "ASYNC,RUF006,BLE,B", "--no-cache", "--exit-zero", "--quiet", *corpus_files],
        )

    shutil.rmtree(scratch, ignore_errors=True)
    reference = rows["bgcheck cold, --jobs 1"]["seconds"]
    print(f"bgcheck benchmark, {date.today()}, {platform.machine()}, {jobs} CPUs, Python {platform.python_version()}")
    print(f"corpus: {files} files, {lines} lines ({', '.join(PINNED)})")
    print(f"{'what':<70} {'median s':>9} {'lines/s':>9} {'vs cold -j1':>11} {'peak MiB':>9}")
    for name, row in rows.items():
        speed = lines / row["seconds"] if row["seconds"] and not name.startswith("bgcheck lsp") else 0
        print(f"{name:<70} {row['seconds']:>9.2f} {speed:>9.0f} {reference / row['seconds']:>10.2f}x {row['peak_mib']:>9}")
    RESULTS.write_text(
        json.dumps(
            {
                "date": str(date.today()),
                "machine": {"arch": platform.machine(), "cpus": jobs, "python": platform.python_version()},
                "corpus": {"files": files, "lines": lines, "packages": list(PINNED)},
                "rows": rows,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"written to {RESULTS.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
