"""The check server (bgcheck/server.py): a served `bgcheck check` prints and exits exactly as a
run in the client's own process does, through edits, new and deleted files, configuration
changes, named files, stdin and report files; a dead, wedged or foreign server never costs a run;
the client imports neither the command line's heavy layers nor libcst. Every test stops the
servers it starts (the `servers` fixture), and their idle timeout is short."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import click
import pytest

from bgcheck import server
from bgcheck.cli import check as check_command
from test_startup import PROBE as STARTUP_PROBE

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "fixtures" / "demo_service"
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the tests start POSIX servers (AF_UNIX)")


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in server.ENV_KEYS and k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(REPO)
    env.update(extra)
    return env


def bgcheck(cwd: Path, *args: str, stdin: bytes = b"", **env: str) -> tuple[int, bytes, bytes]:
    done = subprocess.run(
        [sys.executable, "-m", "bgcheck", *args], cwd=cwd, input=stdin, capture_output=True, timeout=120, env=_env(**env)
    )
    return done.returncode, done.stdout, done.stderr


def running(pid: int) -> bool:
    """Is the process alive (a zombie nobody reaped is not)?"""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True


@pytest.fixture
def servers():
    """Cache folders whose servers the test starts; each is stopped (killed if need be) after it."""
    folders: list[Path] = []
    yield folders
    for folder in folders:
        info = server.read_info(folder)
        server.stop(folder)
        if info and running(info["pid"]):
            os.kill(info["pid"], signal.SIGKILL)


def copy_demo(root: Path) -> None:
    """The demo service at ``root``, without a cache or bytecode a run in the checkout left there."""
    shutil.copytree(DEMO, root, ignore=shutil.ignore_patterns(".bgcheck_cache", "__pycache__"))


@pytest.fixture
def project(tmp_path, servers):
    """The demo service with a short-lived server started on it."""
    root = tmp_path / "shop"
    copy_demo(root)
    servers.append(root / ".bgcheck_cache")
    code, out, err = bgcheck(root, "server", "start", "--idle-timeout", "120")
    assert code == 0, err
    assert b"server started for" in err + out
    return root


def served_requests(root: Path) -> int:
    line = server.status(root / ".bgcheck_cache")
    return int(line.split(" requests")[0].rsplit(" ", 1)[1])


def assert_same_as_in_process(root: Path, *args: str, stdin: bytes = b"", **env: str) -> tuple[int, bytes, bytes]:
    """The served run and a --no-server run print the same bytes and exit alike; the server served it."""
    before = served_requests(root)
    served = bgcheck(root, "check", *args, stdin=stdin, **env)
    assert served_requests(root) == before + 1, "the server did not serve the run"
    alone = bgcheck(root, "check", "--no-server", *args, stdin=stdin, **env)
    assert served == alone
    return served


def test_a_served_run_is_an_in_process_run_through_a_sequence_of_changes(project):
    code, out, _err = assert_same_as_in_process(project)
    assert code == 1 and b"BG104" in out
    code, out, _err = assert_same_as_in_process(project, "--format", "json")
    assert code == 1 and json.loads(out)["diagnostics"]
    tasks = project / "shop" / "tasks.py"
    tasks.write_text(tasks.read_text().replace("    order = db.get_order(order_id)\n", "    order = db.get_order(order_id)\n    retries = 0\n"))
    assert_same_as_in_process(project, "--statistics")
    (project / "shop" / "late.py").write_text(textwrap.dedent("""
        import asyncio

        async def worker(queue):
            while True:
                try:
                    await queue.get()
                except asyncio.CancelledError:
                    pass
    """))
    code, out, _err = assert_same_as_in_process(project)
    assert b"late.py" in out
    (project / "shop" / "reports.py").unlink()
    code, out, _err = assert_same_as_in_process(project, "--format", "concise")
    assert b"reports.py" not in out
    config = project / "pyproject.toml"
    config.write_text(config.read_text().replace('preview = true\n', 'preview = true\nselect = ["BG1"]\nignore = ["BG104"]\n'))
    code, out, _err = assert_same_as_in_process(project)
    assert b"BG101" in out and b"BG104" not in out and b"BG6" not in out


def test_named_files_stdin_and_report_files_are_served_as_in_process(project):
    assert_same_as_in_process(project, "shop/tasks.py", "shop/billing.py")
    source = (project / "shop" / "tasks.py").read_bytes() + b"\n\ndef late():\n    try:\n        pass\n    except BaseException:\n        pass\n"
    code, out, _err = assert_same_as_in_process(project, "-", "--stdin-filename", "shop/tasks.py", "--format", "concise", stdin=source)
    assert code == 1 and b"shop/tasks.py" in out
    before = served_requests(project)
    served = bgcheck(project, "check", "-o", "served.txt", "--statistics")
    alone = bgcheck(project, "check", "--no-server", "-o", "alone.txt", "--statistics")
    assert served_requests(project) == before + 1
    assert served == alone and served[1] == b""
    assert (project / "served.txt").read_bytes() == (project / "alone.txt").read_bytes() != b""
    # The environment facts the output depends on: colour forced, a terminal's width.
    code, out, _err = assert_same_as_in_process(project, "--show-source", "--show-explanations", FORCE_COLOR="1", COLUMNS="60")
    assert b"\x1b[" in out
    code, out, err = assert_same_as_in_process(project, "--select", "BG999")
    assert code == 2 and b"unknown rule code" in err


def test_fix_writes_in_the_clients_folder_as_in_process(project, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(project, other, ignore=shutil.ignore_patterns(".bgcheck_cache"))
    before = served_requests(project)
    served = bgcheck(project, "check", "--fix", "--unsafe-fixes")
    alone = bgcheck(other, "check", "--no-server", "--no-cache", "--fix", "--unsafe-fixes")
    assert served_requests(project) == before + 1
    assert served == alone and b"Fixed " in served[1]
    for path in sorted(other.rglob("*.py")):
        assert (project / path.relative_to(other)).read_bytes() == path.read_bytes()


def test_status_and_stop(project):
    folder = project / ".bgcheck_cache"
    code, out, _err = bgcheck(project, "server", "status")
    assert code == 0 and out.decode().startswith(f"bgcheck: server running for {folder} (pid ")
    pid = server.read_info(folder)["pid"]
    code, out, _err = bgcheck(project / "shop", "server", "stop")  # from a sub-folder: the same project
    assert code == 0 and out.decode() == f"bgcheck: server stopped for {folder} (pid {pid})\n"
    assert not running(pid)
    assert not (folder / server.INFO_FILE).exists() and not (folder / server.SOCKET_FILE).exists()
    assert bgcheck(project, "server", "status")[1].decode() == f"bgcheck: no server running for {folder}\n"
    assert bgcheck(project, "server", "stop")[1].decode() == f"bgcheck: no server running for {folder}\n"
    assert_in_process_only(project)


def assert_in_process_only(root: Path) -> None:
    """With no server, a check runs in its own process (and prints what --no-server prints)."""
    assert bgcheck(root, "check", "--format", "concise") == bgcheck(root, "check", "--no-server", "--format", "concise")


def test_a_dead_servers_files_are_removed_and_the_run_falls_back(tmp_path, servers):
    root = tmp_path / "shop"
    copy_demo(root)
    folder = root / ".bgcheck_cache"
    folder.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (folder / server.INFO_FILE).write_text(json.dumps({"pid": dead.pid, **server.identity()}))
    (folder / server.LOCK_FILE).write_bytes(b"")
    key = os.open(folder / server.KEY_FILE, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(key, b"0" * 64)
    os.close(key)
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(folder / server.SOCKET_FILE))
    stale.close()  # a socket file nobody listens on
    started = time.monotonic()
    assert_in_process_only(root)
    assert time.monotonic() - started < 60
    assert not (folder / server.INFO_FILE).exists() and not (folder / server.SOCKET_FILE).exists()


def test_a_server_that_does_not_answer_is_not_waited_on(project):
    folder = project / ".bgcheck_cache"
    pid = server.read_info(folder)["pid"]
    os.kill(pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        assert_in_process_only(project)
        assert time.monotonic() - started < 2 * server.CONNECT_TIMEOUT + 60
    finally:
        os.kill(pid, signal.SIGCONT)
    assert served_requests(project) >= 0  # it still answers afterwards


def test_a_server_of_another_bgcheck_is_stopped(project, monkeypatch):
    folder = project / ".bgcheck_cache"
    pid = server.read_info(folder)["pid"]
    monkeypatch.setattr(server, "_IDENTITY", {**server.identity(), "version": "0.0.0-another"})
    assert server.client_check(["check"], (project,), None, None, False, None, None) is None
    assert not running(pid)
    assert server.status(folder) == f"bgcheck: no server running for {folder}"


def test_check_server_starts_one_and_ci_never_does(tmp_path, servers):
    root = tmp_path / "shop"
    copy_demo(root)
    folder = root / ".bgcheck_cache"
    servers.append(folder)
    code, out, _err = bgcheck(root, "check", "--server", "--format", "concise", CI="true")
    assert code == 1 and server.read_info(folder) is None
    code, out, _err = bgcheck(root, "check", "--server", "--format", "concise")
    assert code == 1 and server.read_info(folder) is not None
    assert (code, out) == bgcheck(root, "check", "--no-server", "--format", "concise")[:2]
    assert served_requests(root) == 1


def test_the_server_stops_when_idle_or_when_its_folder_is_gone(tmp_path, servers):
    for name, idle in (("idle", "1"), ("removed", "120")):
        root = tmp_path / name
        copy_demo(root)
        folder = root / ".bgcheck_cache"
        servers.append(folder)
        assert bgcheck(root, "server", "start", "--idle-timeout", idle)[0] == 0
        pid = server.read_info(folder)["pid"]
        if name == "removed":
            shutil.rmtree(folder)
        deadline = time.monotonic() + 30
        while running(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not running(pid)
        assert not (folder / server.INFO_FILE).exists()


def test_ctrl_c_in_the_client_leaves_the_server_serving(project):
    slow = subprocess.Popen(
        [sys.executable, "-m", "bgcheck", "check", "--select", "BG1"], cwd=project, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    time.sleep(0.3)
    slow.send_signal(signal.SIGINT)
    slow.communicate(timeout=60)
    assert_same_as_in_process(project, "--format", "concise")


def test_the_client_imports_no_parser_nor_rules(project):
    before = served_requests(project)
    args = json.dumps(["check", "--format", "concise"])
    done = subprocess.run([sys.executable, "-c", STARTUP_PROBE, args], cwd=project, capture_output=True, text=True, timeout=60, env=_env())
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout.splitlines()[-1])
    assert outcome["code"] == 1 and served_requests(project) == before + 1
    heavy = ("libcst", "click", "bgcheck.cli", "bgcheck.rules", "bgcheck.run", "bgcheck.model", "bgcheck.report", "bgcheck.load.config")
    assert [m for m in outcome["modules"] if any(m == h or m.startswith(h + ".") for h in heavy)] == []


def test_the_fast_path_knows_every_option_of_check():
    """The client's parser (server.parse_check_args) takes the options `bgcheck check` has."""
    values, flags = set(), set()
    for param in check_command.params:
        if isinstance(param, click.Option):
            names = set(param.opts) | set(param.secondary_opts)
            (flags if param.is_flag else values).update(names)
    assert values == set(server.VALUE_OPTIONS)
    assert flags == set(server.FLAG_OPTIONS)
    parsed = server.parse_check_args(["-oout.txt", "--select=BG1", "src", "-j", "2", "--no-cache", "--", "-weird.py"])
    assert parsed["paths"] == ["src", "-weird.py"] and parsed["no_cache"] and parsed["--select"] == "BG1"
    assert server.parse_check_args(["--help"]) is None and server.parse_check_args(["-qv"]) is None


def test_every_environment_variable_bgcheck_reads_is_sent():
    read = set()
    for path in (REPO / "bgcheck").rglob("*.py"):
        if path.name == "server.py":  # it sends them
            continue
        text = path.read_text(encoding="utf-8")
        for part in text.split("os.environ.get(")[1:]:
            read.add(part.split(",")[0].split(")")[0].strip("\"'"))
    assert read and read <= set(server.ENV_KEYS)


def test_a_long_cache_folder_puts_the_socket_in_the_temporary_folder(tmp_path):
    long = tmp_path / ("x" * 120) / ".bgcheck_cache"
    address, family = server.address_of(long)
    assert family == "AF_UNIX" and len(os.fsencode(address)) <= server.SOCKET_PATH_LIMIT
    assert address != server.address_of(tmp_path / ("y" * 120) / ".bgcheck_cache")[0]
    assert server.address_of(tmp_path)[0] == str(tmp_path / server.SOCKET_FILE)


class _WatchedMemory:
    """load/cache.py's Memory, recording each kept value's encoding when it is kept."""

    def __new__(cls, limit: int):
        from bgcheck.load import cache, serial

        class Watched(cache.Memory):
            def keep(self, path, kind, signature, size, value):
                super().keep(path, kind, signature, size, value)
                if path in self.entries:
                    self.snapshots[path] = (kind, serial.dumps(serial.ENTRY_CODECS[kind][0](value)))

        memory = Watched(limit)
        memory.snapshots = {}
        return memory


def test_the_servers_memory_serves_what_the_files_hold_and_no_caller_changes_it(tmp_path, monkeypatch):
    """Runs with decoded entries kept in memory (as the server keeps them) print what runs that
    read every entry from its file print, through edits, named files, --fix and a baseline; and
    no run changes a value it was given (each kept value encodes as it did when kept)."""
    from click.testing import CliRunner

    from bgcheck.cli import main
    from bgcheck.load import cache, serial

    root = tmp_path / "shop"
    copy_demo(root)
    monkeypatch.chdir(root)
    memory = _WatchedMemory(64 * 1024 * 1024)

    def both(*args: str) -> None:
        monkeypatch.setattr(cache, "MEMORY", memory)
        kept = CliRunner().invoke(main, ["check", "--no-server", *args])
        monkeypatch.setattr(cache, "MEMORY", None)
        alone = CliRunner().invoke(main, ["check", "--no-server", *args])
        assert (kept.exit_code, kept.output) == (alone.exit_code, alone.output)
        for path, (kind, encoded) in memory.snapshots.items():
            if path in memory.entries:
                assert serial.dumps(serial.ENTRY_CODECS[kind][0](memory.entries[path][2])) == encoded, f"a {kind} entry was changed"

    both()
    both()
    both("--format", "json")
    tasks = root / "shop" / "tasks.py"
    tasks.write_text(tasks.read_text().replace("    order = db.get_order(order_id)\n", "    order = db.get_order(order_id)\n    retries = 0\n"))
    both()
    both("shop/tasks.py")
    both("--write-baseline", "baseline.json")
    both("--baseline", "baseline.json")
    (root / "shop" / "late.py").write_text("import asyncio\n\nasync def f():\n    try:\n        await asyncio.sleep(1)\n    except asyncio.CancelledError:\n        pass\n")
    both("--statistics")
    monkeypatch.setattr(cache, "MEMORY", memory)
    fixed = CliRunner().invoke(main, ["check", "--no-server", "--fix", "--unsafe-fixes"])
    assert "Fixed" in fixed.output
    both()
    assert {kind for kind, _encoded in memory.snapshots.values()} >= {"bundles", "recent", "results", "models", "digests"}


def test_the_memory_is_bounded_and_follows_the_files(tmp_path):
    from bgcheck.load import cache

    memory = cache.Memory(1000)
    store = cache.Cache(tmp_path)
    paths = []
    for n in range(6):
        path = tmp_path / f"entry{n}.json"
        path.write_bytes(b"x" * 200)
        memory.keep(path, "results", cache._signature(os.lstat(path)), 200, [n])
        paths.append(path)
    assert memory.size <= 1000 and paths[0] not in memory.entries and memory.get(paths[5], "results") == [5]
    paths[5].write_bytes(b"y" * 201)  # rewritten: the value in memory is not the file's any more
    assert memory.get(paths[5], "results") is cache._MISSING and paths[5] not in memory.entries
    memory.drop(paths[4])
    memory.keep(paths[4], "summaries", cache._signature(os.lstat(paths[4])), 200, [4])  # a kind never kept
    assert paths[4] not in memory.entries
    assert store.get("results", "0" * 64) is None
