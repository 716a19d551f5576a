"""Which Python files a run checks.

`discover` walks the folders the user named and returns the ``*.py`` files
in them, minus what is excluded by ``exclude`` patterns, ``.gitignore`` files,
hidden folders and virtualenvs.  Files named explicitly are returned unless
``force_exclude`` (``--force-exclude``, as ruff's) says the exclusions apply to them too:
pre-commit passes every staged file name, excluded or not.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Optional, Protocol

from bgcheck.load.errors import ConfigError

__all__ = ["GitIgnore", "PathPatterns", "discover", "read_regular", "glob_error"]

# Told about what discovery leaves out and why: (path, reason, warn). ``warn``: say it
# always (a folder that cannot be read); otherwise only under --verbose (a link loop).
OnSkip = Callable[[str, str, bool], None]


def _no_report(path: str, reason: str, warn: bool) -> None:
    pass


class UnreadableFolder(ConfigError, OSError):
    """A folder named to be checked cannot be read: a one-line error for the command line (a
    ConfigError), an OSError for callers that walk a workspace and carry on (the language server)."""


def discover(
    paths: Sequence[Path], root: Path, exclude: Sequence[str], on_skip: OnSkip = _no_report, remembered: Optional[FolderMemory] = None
) -> list[Path]:
    """Return the files to check, deduplicated and sorted by their posix form.

    Each result is ``given_path / relative`` (not made absolute), so the output
    is stable and mirrors what the user typed. What the walk cannot enter or
    read is skipped (and reported to ``on_skip``), never an abort; a file named
    explicitly is always returned if anything is there (a FIFO, a link loop:
    reading it then says why it is not analysed). ``remembered``: what the last
    run's walk kept of each folder (load/file_states.py FolderStates): a folder
    whose stat and .gitignore files are as they were is not listed again.
    """
    return [path for path, _real in discover_real(paths, root, exclude, on_skip, remembered)]


def discover_real(
    paths: Sequence[Path],
    root: Path,
    exclude: Sequence[str],
    on_skip: OnSkip = _no_report,
    remembered: Optional[FolderMemory] = None,
    force_exclude: bool = False,
) -> list[tuple[Path, str]]:
    """``discover``, each file with its real path (the walk knows it: it enters no link).
    ``force_exclude``: a named path that the ``exclude`` patterns match is left out too."""
    excluder = _Exclude(exclude)
    cache: dict[str, Optional[_IgnoreFile]] = {}
    root_real = os.path.realpath(root)
    found: dict[str, Path] = {}  # real path -> path to report

    def add(real: str, path: Path) -> None:
        # Of several spellings of one file, keep the smallest so the result
        # does not depend on the order of `paths`.
        prev = found.get(real)
        if prev is None or path.as_posix() < prev.as_posix():
            found[real] = path

    for given in paths:
        given = Path(given)
        if force_exclude and force_excluded(given, root, excluder):
            on_skip(given.as_posix(), "excluded by the configuration (--force-exclude)", False)
            continue
        if given.is_dir():
            for rel, real in _walk(os.path.realpath(given), root_real, excluder, cache, given, on_skip, remembered):
                add(real, given / rel)
        elif given.exists() or _is_link_loop(str(given)):
            add(os.path.realpath(given), given)
        else:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(given))
    return sorted(((path, real) for real, path in found.items()), key=lambda item: item[0].as_posix())


class FolderMemory(Protocol):
    """What the walk asks of the last run's folder records (load/file_states.py FolderStates)."""

    def signature(self, info: os.stat_result) -> Optional[str]:
        """What a .gitignore's stat says of it, for the records of the folders below it; None when
        the stat is too recent to tell a later edit (see file_states.RACY_NS)."""

    def records(self, start: str) -> "FolderRecords":
        """The records of the walk that starts at ``start`` (a real path)."""


class FolderRecords(Protocol):
    def recall(self, rel: str, folder: str) -> Optional[tuple[str, bool, tuple[str, ...], tuple[str, ...]]]:
        """(ignores key, has a .gitignore, kept folder names, kept file names) of a folder whose
        stat, taken now, is the one recorded; else None. The stat is kept for ``record``, which
        the walk calls for every folder whose names it takes or lists."""

    def record(self, rel: str, folder: str, key: str, has_gitignore: bool, dirs: list[str], files: list[str]) -> None:
        """Keep what the walk made of a folder it listed (under the stat ``recall`` took)."""


def force_excluded(path: Path, root: Path, exclude: "Sequence[str] | _Exclude") -> bool:
    """Whether the ``exclude`` patterns match a path named on the command line or a folder
    above it within the project (``--force-exclude``). Outside the project only names match."""
    excluder = exclude if isinstance(exclude, _Exclude) else _Exclude(exclude)
    rel = _relative_to(os.path.abspath(path), os.path.abspath(root))
    if rel is None:
        rel = _relative_to(os.path.realpath(path), os.path.realpath(root))
    if rel is None:
        return excluder.matches(Path(os.path.abspath(path)).name, None)
    parts = rel.rstrip("/").split("/") if rel else []
    return any(excluder.matches(parts[i], "/".join(parts[: i + 1])) for i in range(len(parts)))


def _is_link_loop(path: str) -> bool:
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


# --------------------------------------------------------------------------
# Walking

# (a .gitignore, path of the current folder relative to its folder, ending in "/" or empty);
# ordered shallow to deep.
_Ignores = tuple[tuple["_IgnoreFile", str], ...]


def _walk(
    start: str,
    root_real: str,
    excluder: _Exclude,
    cache: dict[str, Optional[_IgnoreFile]],
    given: Path | None = None,
    on_skip: OnSkip = _no_report,
    remembered: Optional[FolderMemory] = None,
) -> Iterator[tuple[str, str]]:
    """Yield ``(relative posix path, real path)`` of the ``*.py`` files under `start`.

    `start` is a real path, and symlinked folders are never entered, so
    ``start + rel`` is already the real path of every non-symlink file.

    With ``remembered``, a folder whose stat is the one the last run recorded, under the same
    .gitignore files (by their stats), is not listed: the names the walk kept of it then are
    taken again. A folder changes its stat when an entry is added, removed or renamed in it; a
    folder with links in it (a link's target changes without its folder) or with what the walk
    reports is listed every time.
    """
    records = remembered.records(start) if remembered is not None else None
    # The start folder itself is walked even if hidden, excluded or ignored:
    # the user named it.
    stack: list[_Folder] = [(start, "", _relative_to(start, root_real), _parent_ignores(start, root_real, cache, remembered))]
    while stack:
        folder, rel, root_rel, ignores = stack.pop()
        kept = records.recall(rel, folder) if records is not None else None
        if kept is not None:
            key, has_gitignore, dirs, files = kept
            own = _ignores_with(ignores, folder, cache, remembered) if has_gitignore else ignores
            if key == _ignores_key(own):
                inside = folder if folder.endswith(os.sep) else folder + os.sep  # os.path.join, for thousands of names
                for name in dirs:
                    stack.append(_subfolder(inside + name, rel, root_rel, own, name))
                for name in files:
                    yield rel + name, inside + name
                records.record(rel, folder, key, has_gitignore, dirs, files)  # kept for the next run
                continue
        yield from _list_folder((folder, rel, root_rel, ignores), stack, excluder, cache, given, on_skip, remembered, records)


# A folder to walk: (its real path, its path relative to the start, relative to the root or None, the ignores for it)
_Folder = tuple[str, str, "str | None", _Ignores]


def _subfolder(path: str, rel: str, root_rel: Optional[str], ignores: _Ignores, name: str) -> _Folder:
    """The folder ``name`` (at ``path``) of the folder at ``rel``, to walk."""
    return (
        path,
        rel + name + "/",
        None if root_rel is None else root_rel + name + "/",
        tuple((gi, prefix + name + "/") for gi, prefix in ignores),
    )


def _list_folder(
    walked: _Folder, stack: list[_Folder], excluder: _Exclude, cache: dict, given: Path | None, on_skip: OnSkip,
    remembered: Optional[FolderMemory], records: Optional[FolderRecords],
) -> Iterator[tuple[str, str]]:
    """One folder of the walk, listed: its ``*.py`` files are yielded, its folders to walk pushed
    on ``stack``; what it holds for the walk is recorded (``records``) unless it holds a link or
    something the walk reports."""
    folder, rel, root_rel, ignores = walked
    entries = _scan(folder, rel, given, on_skip)
    if entries is None:
        return  # skip rather than abort the run
    names = {e.name for e in entries}
    if rel and "pyvenv.cfg" in names:
        return  # a virtualenv, whatever its name
    has_gitignore = ".gitignore" in names
    if has_gitignore:
        ignores = _ignores_with(ignores, folder, cache, remembered)
    recordable = records is not None and "pyvenv.cfg" not in names
    kept_dirs: list[str] = []
    kept_files: list[str] = []

    for entry in entries:
        name = entry.name
        try:
            is_dir = _entry_kind(entry)
        except OSError as exc:  # a link loop (``loop.py -> loop.py``): skipped, the walk goes on
            shown = (given / rel / name).as_posix() if given is not None else os.path.join(folder, name)
            on_skip(shown, f"not checked: {exc.strerror or exc}", False)
            recordable = False
            continue
        if is_dir is None:
            recordable = recordable and not entry.is_symlink()
            continue
        child_root_rel = None if root_rel is None else root_rel + name
        if excluder.matches(name, child_root_rel) or _ignored(ignores, name, is_dir):
            continue
        if is_dir:
            kept_dirs.append(name)
            stack.append(_subfolder(entry.path, rel, root_rel, ignores, name))
        elif entry.is_symlink():
            recordable = False
            yield rel + name, os.path.realpath(entry.path)
        else:
            kept_files.append(name)
            yield rel + name, entry.path
    key = _ignores_key(ignores) if recordable else None
    if key is not None:
        records.record(rel, folder, key, has_gitignore, kept_dirs, kept_files)


def _scan(folder: str, rel: str, given: Path | None, on_skip: OnSkip) -> list[os.DirEntry] | None:
    """The entries of a folder of the walk; None (said through ``on_skip``) when it cannot be
    read, unless it is the folder the user named: that one is an UnreadableFolder error."""
    try:
        with os.scandir(folder) as it:
            return list(it)
    except OSError as exc:
        shown = (given / rel).as_posix() if given is not None else folder
        if not rel:  # the folder the user named
            raise UnreadableFolder(f"{shown}: cannot read the folder: {exc.strerror or exc}") from None
        on_skip(shown.rstrip("/") + "/", f"folder not checked: cannot read it ({exc.strerror or exc})", True)
        return None


def _entry_kind(entry: os.DirEntry) -> bool | None:
    """True for a folder to walk, False for a ``*.py`` file, None for the rest: hidden folders,
    ``__pycache__``, other files (FIFOs, devices), symlinked folders, broken links. A link
    loop raises OSError (ELOOP)."""
    name = entry.name
    if entry.is_dir(follow_symlinks=False):
        return None if name.startswith(".") or name == "__pycache__" else True
    if name.endswith(".py") and entry.is_file():
        return False
    if entry.is_symlink() and _is_link_loop(entry.path):
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP))
    return None


def _ignored(ignores: _Ignores, name: str, is_dir: bool) -> bool:
    # Deeper .gitignore files override shallower ones: ask the deepest first.
    for gitignore, prefix in reversed(ignores):
        verdict = gitignore.rules.match(prefix + name, is_dir)
        if verdict is not None:
            return verdict
    return False


def _relative_to(path: str, base: str) -> str | None:
    """`path` relative to `base` as posix with a trailing "/" ("" if equal), or None."""
    try:
        if os.path.commonpath([path, base]) != base:
            return None
    except ValueError:  # different drives on Windows
        return None
    rel = os.path.relpath(path, base)
    return "" if rel == "." else rel.replace(os.sep, "/") + "/"


def _parent_ignores(start: str, root_real: str, cache: dict[str, Optional[_IgnoreFile]], remembered: Optional[FolderMemory]) -> _Ignores:
    """The .gitignore files above `start` that apply to it, shallow to deep.

    They go up to the repository top (the nearest folder holding ``.git``),
    or up to `root` when `start` is in no repository.
    """
    top = None
    folder = start
    while True:
        if os.path.exists(os.path.join(folder, ".git")):  # a folder, or a file in worktrees
            top = folder
            break
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    if top is None:
        top = root_real if _relative_to(start, root_real) is not None else start

    ignores: list[tuple[_IgnoreFile, str]] = []
    folder = start
    while folder != top:
        folder = os.path.dirname(folder)
        gitignore = _ignore_file(folder, cache, remembered)
        if gitignore is not None:
            ignores.append((gitignore, _relative_to(start, folder) or ""))
    ignores.reverse()
    return tuple(ignores)


def _ignores_with(ignores: _Ignores, folder: str, cache: dict[str, Optional[_IgnoreFile]], remembered: Optional[FolderMemory]) -> _Ignores:
    """``ignores`` and the .gitignore of ``folder`` (which lists one), for that folder and below."""
    gitignore = _ignore_file(folder, cache, remembered)
    return ignores if gitignore is None else (*ignores, (gitignore, ""))


def _ignores_key(ignores: _Ignores) -> Optional[str]:
    """The .gitignore files in effect with their stats: a folder record holds only under the same
    ones. None when one of them changed too recently for its stat to tell a later edit."""
    parts = []
    for gitignore, _prefix in ignores:
        if gitignore.signature is None:
            return None
        parts.append(gitignore.path + "\0" + gitignore.signature)
    return "\n".join(parts)


class _IgnoreFile:
    """A ``.gitignore`` the walk honours: its patterns compiled on first use (a folder the walk
    takes from its record matches no name), and its stat, under which the records of the
    folders below it are kept (``signature``: None when there are no records, or when the stat
    is too recent to tell a later edit)."""

    __slots__ = ("path", "signature", "_rules")

    def __init__(self, path: str, signature: Optional[str]) -> None:
        self.path, self.signature = path, signature
        self._rules: Optional[GitIgnore] = None

    @property
    def rules(self) -> "GitIgnore":
        if self._rules is None:
            try:
                self._rules = GitIgnore.from_file(self.path)
            except OSError:  # a folder, unreadable, too large, gone: nothing to honour
                self._rules = GitIgnore(())
        return self._rules


def _ignore_file(folder: str, cache: dict[str, Optional[_IgnoreFile]], remembered: Optional[FolderMemory]) -> Optional[_IgnoreFile]:
    """The .gitignore in ``folder``, once per walk; None when there is none."""
    if folder not in cache:
        path = os.path.join(folder, ".gitignore")
        try:
            info = os.stat(path)
        except OSError:  # missing, or not to be reached: nothing to honour
            cache[folder] = None
        else:
            cache[folder] = _IgnoreFile(path, remembered.signature(info) if remembered is not None else None)
    return cache[folder]


# --------------------------------------------------------------------------
# Reading files found in a repository

MAX_GITIGNORE_BYTES = 8 * 1024 * 1024
_FILE_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


class NotRegularFile(OSError):
    """Refused to read: a FIFO would block, a device might never end."""


class FileTooLarge(OSError):
    def __init__(self, size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"larger than {limit // (1024 * 1024)} MiB")
        self.size = size


def _check_kind(mode: int, allow_pipe: bool) -> None:
    if stat.S_ISREG(mode) or (allow_pipe and stat.S_ISFIFO(mode)):
        return
    kind = next((name for test, name in _FILE_KINDS if test(mode)), "not a file")
    raise NotRegularFile(errno.EINVAL, f"not a regular file ({kind})")


def read_regular(path: str | os.PathLike[str], limit: int, allow_pipe: bool = False) -> bytes:
    """A file's bytes, if it is a regular file (or, with ``allow_pipe``, a pipe the user
    named) of at most ``limit`` bytes; else NotRegularFile, FileTooLarge or another OSError.
    Never blocks on a FIFO and never reads a device."""
    info = os.stat(path)
    _check_kind(info.st_mode, allow_pipe)
    if stat.S_ISREG(info.st_mode) and info.st_size > limit:
        raise FileTooLarge(info.st_size, limit)
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | (0 if allow_pipe else getattr(os, "O_NONBLOCK", 0))
    with open(os.open(path, flags), "rb") as handle:
        _check_kind(os.fstat(handle.fileno()).st_mode, allow_pipe)  # replaced since the stat
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(len(data), limit)
    return data


def glob_error(pattern: str) -> str | None:
    """Why an ``exclude``-style pattern cannot be used (``[z-a]``: a reversed range), or None."""
    try:
        _Exclude([pattern])
    except re.error as exc:
        return exc.msg
    return None


# --------------------------------------------------------------------------
# Patterns


class GitIgnore:
    """The compiled patterns of one ``.gitignore`` file.

    Paths given to `match` are posix and relative to the file's folder.
    """

    __slots__ = ("_rules",)

    def __init__(self, lines: Iterable[str]) -> None:
        # (regex, negated, directories only, anchored: match the whole relative path)
        self._rules: list[tuple[re.Pattern[str], bool, bool, bool]] = []
        for line in lines:
            rule = _parse_gitignore_line(line)
            if rule is not None:
                self._rules.append(rule)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> GitIgnore:
        # A repository can commit .gitignore as a link to /dev/zero: regular files only, limited.
        data = read_regular(path, MAX_GITIGNORE_BYTES)
        return cls(data.decode("utf-8", errors="surrogateescape").splitlines())

    def match(self, rel: str, is_dir: bool) -> bool | None:
        """True if ignored, False if re-included by a ``!`` pattern, None if no pattern matches.

        Only `rel` itself is tested, not its parent folders: the walk prunes
        ignored folders before reaching their contents, as git does.
        """
        name = rel.rpartition("/")[2]
        for regex, negated, dir_only, anchored in reversed(self._rules):  # last match wins
            if dir_only and not is_dir:
                continue
            if regex.fullmatch(rel if anchored else name):
                return not negated
        return None

    def __len__(self) -> int:
        return len(self._rules)


def _parse_gitignore_line(line: str) -> tuple[re.Pattern[str], bool, bool, bool] | None:
    line = line.rstrip("\r")
    if not line or line.startswith("#"):
        return None
    line = _trim_trailing_spaces(line)
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    dir_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    # A slash at the start or in the middle anchors the pattern to the
    # .gitignore's folder; otherwise it matches a name at any depth.
    anchored = "/" in line
    try:
        regex = re.compile(_glob_to_regex(line.lstrip("/"), star_crosses_slash=False), re.DOTALL)
    except re.error:  # ``[z-a]``: git's matcher matches nothing with it; neither do we
        return None
    return regex, negated, dir_only, anchored


def _trim_trailing_spaces(line: str) -> str:
    # Trailing spaces are dropped unless escaped with a backslash ("foo\ ").
    end = len(line)
    while end and line[end - 1] == " ":
        backslashes = 0
        while end - 1 - backslashes > 0 and line[end - 2 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2:
            break
        end -= 1
    return line[:end]


def _glob_to_regex(pattern: str, *, star_crosses_slash: bool) -> str:
    """Translate a glob to a regex for `re.fullmatch`.

    Supports ``*``, ``?``, ``[...]`` (``!``/``^`` negate), backslash escapes and
    ``**`` as a whole path component (``**/x``, ``x/**``, ``a/**/b``); any other
    ``**`` is a plain ``*``.  In gitignore globs ``*``, ``?`` and ``[...]`` never
    match "/"; fnmatch-style globs (`star_crosses_slash`) let them.
    """
    one = "." if star_crosses_slash else "[^/]"
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            j = i
            while j < n and pattern[j] == "*":
                j += 1
            whole_component = (i == 0 or pattern[i - 1] == "/") and (j == n or pattern[j] == "/")
            if j - i >= 2 and whole_component:
                if j == n:
                    out.append(".*")  # "x/**": everything inside
                else:
                    out.append("(?:.*/)?")  # "**/": zero or more folders
                    j += 1
            else:
                out.append(one + "*")
            i = j
        elif c == "?":
            out.append(one)
            i += 1
        elif c == "[":
            cls, i = _bracket(pattern, i, star_crosses_slash)
            out.append(cls)
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 2
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


def _bracket(pattern: str, i: int, star_crosses_slash: bool) -> tuple[str, int]:
    """Translate the ``[...]`` starting at `i`; return (regex, index after it)."""
    j = i + 1
    negated = j < len(pattern) and pattern[j] in "!^"
    if negated:
        j += 1
    if j < len(pattern) and pattern[j] == "]":  # a leading "]" is literal
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    if j >= len(pattern):
        return re.escape("["), i + 1  # unterminated: a literal "["
    body = pattern[i + 1 + negated : j]
    chars: list[str] = []
    k = 0
    while k < len(body):
        ch = body[k]
        if ch == "\\" and k + 1 < len(body):
            k += 1
            chars.append("\\" + body[k])
        elif ch in "\\[]^":
            chars.append("\\" + ch)
        else:
            chars.append(ch)  # includes "-" for ranges
        k += 1
    inner = "".join(chars)
    if negated:
        return "[^" + ("" if star_crosses_slash else "/") + inner + "]", j + 1
    return "[" + inner + "]", j + 1


class _Exclude:
    """User ``exclude`` patterns, ruff/black style.

    A pattern without "/" matches any basename ("build", "*.egg-info"); one
    with "/" matches the posix path relative to `root` ("src/legacy/*").
    """

    def __init__(self, patterns: Iterable[str]) -> None:
        names: list[str] = []
        paths: list[str] = []
        for raw in patterns:
            pattern = raw.strip()
            if os.sep != "/":
                pattern = pattern.replace(os.sep, "/")
            if pattern.startswith("./"):
                pattern = pattern[2:]
            pattern = pattern.rstrip("/")  # "build/" means the folder "build"
            if not pattern:
                continue
            bucket = paths if "/" in pattern else names
            bucket.append(_glob_to_regex(pattern.lstrip("/"), star_crosses_slash=True))
        # One alternation per kind: a single regex call per walked entry.
        self._names = _alternation(names)
        self._paths = _alternation(paths)

    def matches(self, name: str, root_rel: str | None) -> bool:
        if self._names is not None and self._names.fullmatch(name):
            return True
        return self._paths is not None and root_rel is not None and bool(self._paths.fullmatch(root_rel))


def _alternation(regexes: list[str]) -> re.Pattern[str] | None:
    if not regexes:
        return None
    return re.compile("|".join(f"(?:{r})" for r in regexes), re.DOTALL)


class PathPatterns:
    """``exclude``-style patterns applied to a single file path (per-file-ignores)."""

    def __init__(self, patterns: Iterable[str]) -> None:
        self._exclude = _Exclude(patterns)

    def matches(self, root_rel: str) -> bool:
        """True if the file, or any folder above it (below root), matches."""
        parts = root_rel.split("/")
        return any(self._exclude.matches(parts[i], "/".join(parts[: i + 1])) for i in range(len(parts)))
