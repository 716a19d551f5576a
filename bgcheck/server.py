"""The check server: ``bgcheck server start`` keeps a process with libcst, the rules and the
models imported, and ``bgcheck check`` hands it the run instead of paying that start-up again.

One server per cache folder (the project's ``.bgcheck_cache``, or ``--cache-dir``), found as
``bgcheck check`` finds its cache. The server runs the same command line (bgcheck/cli.py) on
the same on-disk cache, in the client's working directory and with the environment facts the
output depends on (``ENV_KEYS``, the terminal's size, which streams are terminals, their
encodings), so a served run prints what a run in the client's own process prints. Requests
are served one at a time.

Files, in the cache folder: ``server.json`` (pid, bgcheck version, Python executable, code
stamp), ``server.key`` (the connection's authkey: a random token, mode 0600), ``server.lock``
(held by the live server: a lock that can be taken means no server), ``server.log`` and, on
POSIX, the socket ``server.sock`` (in the temporary folder, under a hash of the cache folder,
when that path is too long for a socket). The transport is ``multiprocessing.connection`` with
the authkey; messages are JSON and raw bytes (``send_bytes``), never pickles.

The client side (``client_check``, ``fast_check``, ``start``, ``stop``, ``status``) is what
every ``bgcheck check`` imports: the standard library and the configuration's discovery, never
libcst nor the rules (tests/test_server.py measures it). A server that is gone (a stale pid file
or socket), that does not answer in time, or that is another bgcheck or Python is never waited
on: the client runs in its own process (and stops a server of another bgcheck).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import bgcheck

INFO_FILE, KEY_FILE, LOCK_FILE, SOCKET_FILE, LOG_FILE = "server.json", "server.key", "server.lock", "server.sock", "server.log"
DEFAULT_IDLE_TIMEOUT = 30 * 60.0
CONNECT_TIMEOUT = 3.0  # for the connection and the handshake: a wedged server is never waited on longer
START_TIMEOUT = 30.0
# Environment variables the output depends on: set for each request as the client has them.
ENV_KEYS = ("NO_COLOR", "FORCE_COLOR", "TERM", "BGCHECK_DEBUG", "CI", "COLUMNS", "LINES")
SOCKET_PATH_LIMIT = 100
# The decoded cache entries a server keeps, counted by the size of their files (load/cache.py's
# Memory): the 636k-line benchmark corpus's warm runs read about 4 MiB of entries.
MEMORY_BYTES = 64 * 1024 * 1024  # sun_path holds 108 bytes on Linux, 104 on macOS and the BSDs

# Set in the server process: a request runs there in-process, never through a server again.
IN_SERVER = False
# Set when the fast path (bgcheck/__main__.py) already looked for a server and found none.
LOOKED = False


# ---------------------------------------------------------------------------
# Where a server lives and who it is


def identity() -> dict:
    """What a server must share with its client: bgcheck's version, the Python executable, and a
    stamp of bgcheck's code (an edited checkout is another bgcheck even at the same version).
    Made once per process: a server compares it with its clients' at each request."""
    if not _IDENTITY:
        _IDENTITY.update(version=bgcheck.__version__, executable=sys.executable, stamp=code_stamp())
    return dict(_IDENTITY)


_IDENTITY: dict = {}


def _same(info: dict) -> bool:
    return {key: info.get(key) for key in ("version", "executable", "stamp")} == identity()


def code_stamp() -> str:
    package = os.path.dirname(os.path.abspath(bgcheck.__file__))
    count, newest = 0, 0
    folders = [package]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                    folders.append(entry.path)
                elif entry.name.endswith(".py"):
                    count += 1
                    newest = max(newest, entry.stat().st_mtime_ns)
    return f"{count}-{newest}"


def address_of(folder: Path) -> tuple[str, str]:
    """(address, family) of the server of a cache folder."""
    absolute = os.path.abspath(folder)
    name = hashlib.sha256(os.fsencode(absolute)).hexdigest()[:32]
    if sys.platform == "win32":
        return rf"\\.\pipe\bgcheck-{name}", "AF_PIPE"
    path = os.path.join(absolute, SOCKET_FILE)
    if len(os.fsencode(path)) > SOCKET_PATH_LIMIT:
        import tempfile

        path = os.path.join(tempfile.gettempdir(), f"bgcheck-{os.getuid()}-{name}.sock")
    return path, "AF_UNIX"


def locate(paths: tuple, config_file: Optional[Path], cache_dir: Optional[Path]) -> Optional[Path]:
    """The cache folder a check of ``paths`` uses (as bgcheck check finds it), or None."""
    from bgcheck.load.discovery import cache_folder, project_root

    paths = tuple(Path(p) for p in paths) or (Path("."),)
    start = paths[0] if paths[0].is_dir() else paths[0].parent
    _path, root, in_project = project_root(config_file, start=start)
    folder = cache_folder(root, in_project, cache_dir)
    return Path(os.path.abspath(folder)) if folder is not None else None


def read_info(folder: Path) -> Optional[dict]:
    try:
        with open(folder / INFO_FILE, "rb") as handle:
            info = json.loads(handle.read(65536))
        return info if isinstance(info, dict) and isinstance(info.get("pid"), int) else None
    except (OSError, ValueError):
        return None


def _read_key(folder: Path) -> Optional[bytes]:
    """The authkey: only from a regular file of ours that nobody else can read (a cache folder
    may come with a repository: a committed key is not one)."""
    try:
        fd = os.open(folder / KEY_FILE, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    with open(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if sys.platform != "win32" and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            return None
        key = handle.read(256)
    return key or None


def _lock(folder: Path, blocking: bool = False):
    """The server's lock, held (an open file) or None when another process holds it. Where
    there is no fcntl (Windows), always taken: the named pipe then says who is alive."""
    try:
        import fcntl
    except ImportError:
        return open(folder / LOCK_FILE, "ab")
    handle = open(folder / LOCK_FILE, "ab")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except OSError:
        handle.close()
        return None
    return handle


def _alive(folder: Path) -> bool:
    """Does a live server hold the folder's lock? (No lock file: no server.)"""
    if not (folder / LOCK_FILE).exists():
        return False
    try:
        handle = _lock(folder)
    except OSError:
        return False
    if handle is None:
        return True
    handle.close()
    return sys.platform == "win32" and read_info(folder) is not None


def _remove_files(folder: Path, info: Optional[dict] = None) -> None:
    """The files of a server that is gone (or stopping): its socket, key and info."""
    address, family = address_of(folder)
    names = [folder / INFO_FILE, folder / KEY_FILE] + ([Path(address)] if family == "AF_UNIX" else [])
    for path in names:
        try:
            if path.name != INFO_FILE or info is None or read_info(folder) == info:
                os.unlink(path)
        except OSError:
            pass


# ---------------------------------------------------------------------------
# The client


def _connect(folder: Path):
    """A connection to the folder's server, or None (no key, nobody there, no answer in time)."""
    key = _read_key(folder)
    if key is None:
        return None
    import threading
    from multiprocessing.connection import Client

    address, family = address_of(folder)
    outcome: dict = {}

    def attempt() -> None:
        try:
            outcome["connection"] = Client(address, family=family, authkey=key)
        except Exception as exc:  # refused, no socket, a handshake that fails
            outcome["error"] = exc

    thread = threading.Thread(target=attempt, name="bgcheck-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_TIMEOUT)
    return outcome.get("connection")


def _ask(folder: Path, request: dict, payload: Optional[bytes] = None) -> Optional[tuple[dict, bytes]]:
    """Send one request, return (header, data), or None when the server cannot answer."""
    connection = _connect(folder)
    if connection is None:
        return None
    try:
        connection.send_bytes(json.dumps(request).encode("utf-8"))
        if payload is not None:
            connection.send_bytes(payload)
        header = json.loads(connection.recv_bytes())
        data = connection.recv_bytes() if header.get("data") else b""
        return header, data
    except (OSError, EOFError, ValueError):
        return None
    finally:
        connection.close()


def _usable(folder: Path, start_one: bool, idle_timeout: float) -> bool:
    """Is a server of this bgcheck running for the folder (started now if ``start_one``)? A
    server of another bgcheck or Python is stopped; a dead one's files are removed."""
    info = read_info(folder)
    if info is not None and not _same(info):
        stop(folder)
        info = None
    if info is not None and not _alive(folder):
        _remove_files(folder, info)
        info = None
    if info is None and start_one and not in_ci():
        return start(folder, idle_timeout)[0]
    return info is not None


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _stream_facts(stream) -> dict:
    try:
        return {"tty": bool(stream.isatty()), "encoding": stream.encoding or "utf-8", "errors": stream.errors or "strict"}
    except (AttributeError, ValueError):
        return {"tty": False, "encoding": "utf-8", "errors": "strict"}


def client_check(argv: list, paths: tuple, config_file, cache_dir, no_cache: bool, use: Optional[bool], stdin: Optional[bytes]) -> Optional[int]:
    """Run ``bgcheck check ARGV`` on the project's server and write what it printed; the exit
    code, or None to run in this process (no server, ``--no-server``, ``--no-cache``, a server
    that cannot answer). ``use``: the --server/--no-server choice (None: a running one)."""
    if IN_SERVER or no_cache or use is False:
        return None
    try:
        folder = locate(paths, config_file, cache_dir)
        if folder is None or not _usable(folder, bool(use), DEFAULT_IDLE_TIMEOUT):
            return None
        import shutil

        columns, lines = shutil.get_terminal_size()
        request = {
            "op": "check", "argv": list(argv), "cwd": os.getcwd(), "identity": identity(),
            "env": {key: os.environ.get(key) for key in ENV_KEYS if key not in ("COLUMNS", "LINES")},
            "size": [columns, lines], "stdout": _stream_facts(sys.stdout), "stderr": _stream_facts(sys.stderr),
            "stdin": stdin is not None,
        }
    except Exception:  # a configuration the run itself will report, a cwd that is gone
        return None
    try:
        answer = _ask(folder, request, stdin)
    except KeyboardInterrupt:  # the server finishes the request on its own; say what click says
        sys.stderr.write("\nbgcheck: error: aborted\n")
        return 2
    if answer is None or "code" not in answer[0]:
        return None
    header, data = answer
    _write_chunks(header.get("chunks", []), data)
    return int(header["code"])


def _write_chunks(chunks: list, data: bytes) -> None:
    """What the request printed, in the order it printed it."""
    offset = 0
    for stream, length in chunks:
        target = sys.stdout if stream == "out" else sys.stderr
        part = data[offset : offset + length]
        offset += length
        target.flush()
        if hasattr(target, "buffer"):
            target.buffer.write(part)
            target.buffer.flush()
        else:  # a stream of text only (replaced by a caller): the bytes in its encoding
            target.write(part.decode(getattr(target, "encoding", None) or "utf-8", "replace"))


# The options of ``bgcheck check`` (tests/test_server.py holds them to cli.py's): the fast path
# parses the command line only as far as finding the project and the server takes.
VALUE_OPTIONS = frozenset(
    "--format --select --extend-select --ignore --exclude --extend-exclude --per-file-ignores --extend-per-file-ignores "
    "--output-file -o --stdin-filename --config --color --runtimes --baseline --write-baseline --jobs -j --cache-dir".split()
)
FLAG_OPTIONS = frozenset(
    "--exit-zero --show-source --no-show-source --show-explanations --no-show-explanations --show-fixes --no-show-fixes --statistics --quiet -q "
    "--no-cache --verbose -v --preview --no-preview --fix --unsafe-fixes --diff --server --no-server --force-exclude "
    "--no-force-exclude --show-settings --add-noqa --watch -w".split()
)


def parse_check_args(args: list) -> Optional[dict]:
    """What the client needs of ``check ARGS``: paths, --config, --cache-dir, --no-cache,
    --server/--no-server, --stdin-filename; None for anything it does not know (``--help``,
    a typo, bundled short flags): the full command line then takes over."""
    found: dict = {"paths": [], "--config": None, "--cache-dir": None, "--stdin-filename": None, "no_cache": False, "use": None}
    index, only_paths = 0, False
    while index < len(args):
        token = args[index]
        index += 1
        if only_paths or token == "-" or not token.startswith("-"):
            found["paths"].append(token)
            continue
        if token == "--":
            only_paths = True
            continue
        name, has_value, value = token.partition("=") if token.startswith("--") else (token[:2], len(token) > 2, token[2:])
        if name in VALUE_OPTIONS:
            if not has_value:
                if index >= len(args):
                    return None
                value, index = args[index], index + 1
            found[name] = value
        elif name in FLAG_OPTIONS and not has_value:
            found["no_cache"] |= name == "--no-cache"
            found["use"] = {"--server": True, "--no-server": False}.get(name, found["use"])
        else:
            return None
    return found


def fast_check(argv: list) -> Optional[int]:
    """``bgcheck check ...`` before the command line is imported: on a running server, its exit
    code; None to run the command line in this process."""
    global LOOKED
    args = argv[1:] if argv[:1] == ["--debug"] else argv
    parsed = parse_check_args(args[1:]) if args[:1] == ["check"] else None
    if parsed is None:
        return None
    paths = tuple(parsed["paths"])
    stdin = None
    stdin_filename = parsed["--stdin-filename"]
    if stdin_filename is not None:
        if paths != ("-",) or stdin_filename in ("", "-") or getattr(sys.stdin, "buffer", None) is None:
            return None  # a usage error the command line reports
        paths = (stdin_filename,)
    elif "-" in paths:
        return None
    config_file = Path(parsed["--config"]) if parsed["--config"] is not None else None
    cache_dir = Path(parsed["--cache-dir"]) if parsed["--cache-dir"] else None
    if not parsed["no_cache"] and parsed["use"] is not False and stdin_filename is not None:
        folder = _located(paths, config_file, cache_dir)
        if folder is None or (read_info(folder) is None and not parsed["use"]):
            LOOKED = True
            return None
        from bgcheck.load.source import MAX_FILE_BYTES

        stdin = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        code = client_check(argv, paths, config_file, cache_dir, False, parsed["use"], stdin)
        if code is None:
            sys.stdin = _replayed_stdin(stdin)
            LOOKED = True
        return code
    code = client_check(argv, paths, config_file, cache_dir, parsed["no_cache"], parsed["use"], None)
    LOOKED = code is None
    return code


def _located(paths, config_file, cache_dir) -> Optional[Path]:
    try:
        return locate(paths, config_file, cache_dir)
    except Exception:
        return None


def _replayed_stdin(data: bytes):
    """stdin again, for the run in this process after the client read it."""
    import io

    return io.TextIOWrapper(io.BytesIO(data), encoding=sys.stdin.encoding or "utf-8", errors=sys.stdin.errors or "strict")


def start(folder: Path, idle_timeout: float) -> tuple[bool, str]:
    """Start the folder's server (detached) and wait until it answers: (started, message)."""
    import subprocess

    folder = Path(os.path.abspath(folder))
    info = read_info(folder)
    if info is not None and not _same(info):
        stop(folder)
    elif info is not None and _alive(folder):
        return True, f"bgcheck: a server is already running for {folder} (pid {info.get('pid')})"
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "bgcheck", "server", "serve", str(folder), "--idle-timeout", repr(float(idle_timeout))]
    options: dict = {"start_new_session": True} if sys.platform != "win32" else {
        "creationflags": getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        | getattr(subprocess, "CREATE_NO_WINDOW", 0)
    }
    with open(folder / LOG_FILE, "wb") as log:
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=folder.anchor or "/", close_fds=True, **options
        )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        info = read_info(folder)
        if info is not None and info.get("pid") == process.pid:
            return True, f"bgcheck: server started for {folder} (pid {process.pid})"
        if process.poll() is not None:
            break
        time.sleep(0.02)
    if process.poll() is None:
        process.kill()
    return False, f"bgcheck: warning: the server did not start (see {folder / LOG_FILE})"


def stop(folder: Path) -> str:
    """Stop the folder's server: by asking it, else (it holds its lock but does not answer) by
    its pid. One line saying what happened."""
    info = read_info(folder)
    if info is None or not _alive(folder):
        _remove_files(folder, info)
        return f"bgcheck: no server running for {folder}"
    answer = _ask(folder, {"op": "stop"})
    if answer is None:
        import signal

        try:
            os.kill(info["pid"], signal.SIGTERM)
        except OSError:
            pass
    deadline = time.monotonic() + CONNECT_TIMEOUT
    while _alive(folder) and time.monotonic() < deadline:
        time.sleep(0.02)
    _remove_files(folder, info)
    return f"bgcheck: server stopped for {folder} (pid {info['pid']})"


def status(folder: Path) -> str:
    info = read_info(folder)
    if info is None or not _alive(folder):
        return f"bgcheck: no server running for {folder}"
    answer = _ask(folder, {"op": "status"})
    facts = answer[0] if answer is not None else {}
    other = "" if _same(info) else ", another bgcheck (a check stops it)"
    served = f", {facts['requests']} requests, idle {facts['idle']:.0f} s of {facts['idle_timeout']:.0f} s" if "requests" in facts else ", not answering"
    return f"bgcheck: server running for {folder} (pid {info['pid']}, bgcheck {info.get('version')}{served}{other})"


# ---------------------------------------------------------------------------
# The server


class _Served:
    """The server's state: its folder, when it last served, whether it is serving."""

    def __init__(self, folder: Path, idle_timeout: float) -> None:
        self.folder = folder
        self.idle_timeout = idle_timeout
        self.last = time.monotonic()
        self.busy = False
        self.requests = 0
        self.info: dict = {}

    def exit(self) -> None:
        if os.getpid() == self.info.get("pid"):  # not in a worker a run forked (it inherits the handler)
            _remove_files(self.folder, self.info)
        os._exit(0)


def serve(folder: Path, idle_timeout: float, handler: Callable[[list], int], warm: Callable[[], None]) -> None:
    """The server's life: take the folder's lock, listen, serve requests one at a time until
    stopped, idle for ``idle_timeout`` seconds, or the folder is gone. ``handler(argv)`` runs
    the command line in this process and returns its exit code; ``warm()`` imports what a run
    needs."""
    global IN_SERVER
    IN_SERVER = True
    folder = Path(os.path.abspath(folder))
    folder.mkdir(parents=True, exist_ok=True)
    lock = _lock(folder)
    if lock is None:
        sys.exit(f"bgcheck: a server is already running for {folder}")
    listener = _listen(folder)
    from bgcheck.load import cache

    cache.Cache(folder).prepare()  # marked as a cache before anything but the server's files is in it
    cache.MEMORY = cache.Memory(MEMORY_BYTES)  # entries decoded once, while their files stay the same
    warm()
    state = _Served(folder, idle_timeout)
    state.info = {"pid": os.getpid(), **identity(), "address": address_of(folder)[0], "started": time.time()}
    _write_atomic(folder / INFO_FILE, json.dumps(state.info).encode("utf-8"))
    _watch(state)
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal's Ctrl-C is the client's
    signal.signal(signal.SIGTERM, lambda *_: state.exit())
    while True:
        try:
            connection = listener.accept()
        except Exception:  # a client that failed the handshake or went away
            continue
        try:
            state.busy = True
            _serve_one(state, connection, handler)
        except Exception:
            pass
        finally:
            connection.close()
            state.busy, state.last = False, time.monotonic()


def _listen(folder: Path):
    import secrets
    from multiprocessing.connection import Listener

    key = secrets.token_hex(32).encode("ascii")
    path = folder / KEY_FILE
    try:
        os.unlink(path)
    except OSError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0), 0o600)
    with open(fd, "wb") as handle:
        handle.write(key)
    address, family = address_of(folder)
    if family == "AF_UNIX" and os.path.exists(address):
        os.unlink(address)  # a dead server's: this process holds the lock
    listener = Listener(address, family=family, authkey=key)
    if family == "AF_UNIX":
        os.chmod(address, 0o600)
    return listener


def _write_atomic(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _watch(state: _Served) -> None:
    """A thread that ends the server when it has been idle too long or its folder (or its
    info file: another server's, or removed) is gone."""
    import threading

    import gc

    def watch() -> None:
        collected = 0
        while True:
            time.sleep(0.5)
            if not state.busy and time.monotonic() - state.last > state.idle_timeout:
                state.exit()
            if read_info(state.folder) != state.info:
                os._exit(0)  # the folder or the files are gone, or another server's: nothing to remove
            if not state.busy and collected != state.requests and time.monotonic() - state.last > 1:
                # A run freezes what the collector tracks (run/process.py tune_gc): a request's
                # cycles would stay for the server's life. Collected while nobody waits.
                collected = state.requests
                gc.unfreeze()
                gc.collect()

    threading.Thread(target=watch, name="bgcheck-watch", daemon=True).start()


def _serve_one(state: _Served, connection, handler: Callable[[list], int]) -> None:
    request = json.loads(connection.recv_bytes())
    op = request.get("op")
    if op == "stop":
        connection.send_bytes(json.dumps({"stopping": os.getpid()}).encode("utf-8"))
        connection.close()
        state.exit()
    if op == "status":
        facts = {"pid": os.getpid(), "requests": state.requests, "idle": time.monotonic() - state.last, "idle_timeout": state.idle_timeout}
        connection.send_bytes(json.dumps(facts).encode("utf-8"))
        return
    if op != "check" or request.get("identity") != identity():
        connection.send_bytes(json.dumps({"refused": "another bgcheck"}).encode("utf-8"))
        return
    stdin = connection.recv_bytes() if request.get("stdin") else None
    state.requests += 1
    code, chunks, data = run_request(request, stdin, handler)
    header = {"code": code, "chunks": chunks, "data": bool(data)}
    try:
        connection.send_bytes(json.dumps(header).encode("utf-8"))
        if data:
            connection.send_bytes(data)
    except OSError:  # the client is gone (Ctrl-C): the run is done all the same
        pass


class _Chunks:
    """What a request writes to stdout and stderr, in order: (stream, bytes)."""

    def __init__(self) -> None:
        self.parts: list = []

    def stream(self, name: str, tty: bool):
        import io

        chunks = self

        class Stream(io.RawIOBase):
            def writable(self) -> bool:
                return True

            def isatty(self) -> bool:
                return tty

            def write(self, data) -> int:
                chunks.parts.append((name, bytes(data)))
                return len(data)

        return Stream()


def run_request(request: dict, stdin: Optional[bytes], handler: Callable[[list], int]) -> tuple[int, list, bytes]:
    """Run one check as the client would have run it: in its working directory, with its
    environment facts, its terminal's size, its streams' kinds and encodings."""
    import io

    chunks = _Chunks()
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_env = {key: os.environ.get(key) for key in ENV_KEYS}
    saved_cwd = os.getcwd()
    try:
        os.chdir(request["cwd"])
        for key, value in {**request["env"], "COLUMNS": str(request["size"][0]), "LINES": str(request["size"][1])}.items():
            _set_env(key, value)
        streams = []
        for name in ("out", "err"):
            facts = request["std" + name]
            raw = chunks.stream(name, facts["tty"])
            streams.append(io.TextIOWrapper(io.BufferedWriter(raw), encoding=facts["encoding"], errors=facts["errors"], write_through=True))
        sys.stdout, sys.stderr = streams
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
        code = handler(list(request["argv"]))
    except Exception as exc:  # a cwd that is gone: say so as a run would
        sys.stderr.write(f"bgcheck: error: {exc}\n")
        code = 2
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        for key, value in saved_env.items():
            _set_env(key, value)
        os.chdir(saved_cwd)
    return code, [[name, len(part)] for name, part in chunks.parts], b"".join(part for _name, part in chunks.parts)


def _set_env(key: str, value: Optional[str]) -> None:
    if value is None:
        os.environ.pop(key, None)
    else:
        os.environ[key] = value
