"""Loading and validating bgcheck's configuration, in one place.

The rest of bgcheck only ever sees the frozen, fully validated `Config`
returned by `load_config()`; every check of a user-supplied setting lives
here, so every mistake gets the same kind of one-line message naming the
file, the key, what was expected and what was found.

Sources, in priority order:

1. an explicit ``--config FILE``: a ``pyproject.toml`` (its ``[tool.bgcheck]``
   table) or any other TOML file such as ``bgcheck.toml`` (its top-level
   table, or its ``[tool.bgcheck]`` table if it has one);
2. otherwise, walking up from the start directory: in each directory first
   ``bgcheck.toml``, then a ``pyproject.toml`` that has ``[tool.bgcheck]``;
3. otherwise the defaults.
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from bgcheck.knowledge import LazyPattern
from bgcheck.load.discovery import MAX_CONFIG_BYTES, PYPROJECT_FILENAME, display_path as _display
from bgcheck.load.discovery import project_root, read_toml as _read_toml, start_dir as _start_dir, tool_table as _tool_table
from bgcheck.load.discovery import discover as _discover
from bgcheck.load.errors import ConfigError
from bgcheck.load.files import glob_error, read_regular
from bgcheck.load.source import MAX_FILE_BYTES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "DEFAULT_EXCLUDE",
    "Config",
    "ConfigError",
    "MoneyConfig",
    "default_config",
    "find_config_file",
    "load_config",
    "parse_duration",
]


DEFAULT_EXCLUDE: tuple[str, ...] = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".hg",
    ".mypy_cache",
    ".nox",
    ".pants.d",
    ".pytype",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
    "__pycache__",
    ".bgcheck_cache",
    # Test code, and the helpers only tests import: it runs under a test runner, not as a
    # deployed worker, and a stop or a second replica never reaches it. Name a test folder in
    # `exclude` without these (or on the command line) to check it.
    "tests",
    "test",
    "*_tests",  # a package's private or named test folder (chia/_tests, marimo/_smoke_tests, integration_tests)
    "testing",
    "test_support",
    "conftest.py",
    "tests.py",
    "test_*.py",
    "*_test.py",
    # Other projects' code copied into this one (pip's ``_vendor``, ``_vendored``, ``vendored``,
    # ``vendored_deps``): fixed upstream, not here, and read as any installed library is (not at
    # all). A folder named plain ``vendor`` may be a project's own (a marketplace's sellers): kept.
    "_vendor*",
    "vendored*",
)

TARGET_VERSIONS: dict[str, tuple[int, int]] = {
    f"py3{minor}": (3, minor) for minor in range(10, 15)
}


# --------------------------------------------------------------------------
# Durations
# --------------------------------------------------------------------------

DURATION_FORMS = (
    "seconds as a number, or a string such as '90s', '1500ms', '5m', "
    "'1h30m', '1d' or ISO-8601 'PT20M'"
)

_NUMBER = r"\d+(?:\.\d+)?"
_PLAIN = LazyPattern(_NUMBER)
# Largest unit first; "ms" must come before "m" so that "1500ms" is not "1500m" + "s".
_UNITS: dict[str, float] = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}
_COMPACT_PART = LazyPattern(rf"({_NUMBER})(ms|d|h|m|s)\s*", re.IGNORECASE)
_COMPACT = LazyPattern(rf"(?:{_COMPACT_PART.pattern})+", re.IGNORECASE)
# Only fixed-length ISO-8601 units: years and months have no length in seconds.
# "T(?=\d)" rejects a dangling time designator ("PT", "P1DT").
_ISO = LazyPattern(
    rf"P(?:({_NUMBER})D)?(?:T(?=\d)(?:({_NUMBER})H)?(?:({_NUMBER})M)?(?:({_NUMBER})S)?)?",
    re.IGNORECASE,
)
_ISO_UNITS = (86400.0, 3600.0, 60.0, 1.0)


def parse_duration(value: object) -> float:
    """Return a duration in seconds.

    Accepts a number of seconds (int or float, >= 0; bool is rejected) or a
    string: a plain number ('90'), compact units ('90s', '1500ms', '5m',
    '1h30m', '1h 30m', '1.5s', '1d') or an ISO-8601 duration ('PT20M',
    'PT1H30M', 'P1DT2H', 'PT0.5S').  Raises ValueError with a short reason.
    """
    # bool is an int subclass; `true` as a duration is a mistake, not 1 second.
    if isinstance(value, bool):
        raise ValueError("a boolean is not a duration")
    if isinstance(value, (int, float)):
        try:
            return _checked_seconds(float(value))
        except OverflowError:  # an integer past float's range
            raise ValueError("duration too large") from None
    if not isinstance(value, str):
        raise ValueError(f"expected a number or a string, not {type(value).__name__}")

    text = value.strip()
    if not text:
        raise ValueError("empty duration")
    if text.startswith("-"):
        raise ValueError("negative duration")
    if _PLAIN.fullmatch(text):
        return _checked_seconds(float(text))
    if text[0] in "Pp":
        return _checked_seconds(_parse_iso(text))
    if _COMPACT.fullmatch(text):
        return _checked_seconds(_parse_compact(text))
    raise ValueError(f"cannot parse {text!r} as a duration")


def _parse_compact(text: str) -> float:
    total = 0.0
    previous_rank = -1
    ranks = list(_UNITS)
    for number, unit in _COMPACT_PART.findall(text):
        rank = ranks.index(unit.lower())
        # "30m1h" or "1m30m" are almost certainly typos; insist on d > h > m > s > ms.
        if rank <= previous_rank:
            raise ValueError(f"units in {text!r} must go from largest to smallest, each once")
        previous_rank = rank
        total += float(number) * _UNITS[unit.lower()]
    return total


def _parse_iso(text: str) -> float:
    match = _ISO.fullmatch(text)
    if match is None or not any(match.groups()):
        raise ValueError(f"cannot parse {text!r} as an ISO-8601 duration (expected e.g. 'PT20M')")
    return sum(
        float(number) * scale
        for number, scale in zip(match.groups(), _ISO_UNITS)
        if number is not None
    )


def _checked_seconds(seconds: float) -> float:
    if math.isnan(seconds) or math.isinf(seconds):
        raise ValueError("duration must be finite")
    if seconds < 0:
        raise ValueError("negative duration")
    return seconds


# --------------------------------------------------------------------------
# The configuration objects
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class MoneyConfig:
    functions: tuple[str, ...] = ()  # qualified names, e.g. "billing.charges.charge_customer"
    name_patterns: tuple[str, ...] = ()  # from key "name-patterns"


@dataclass(frozen=True)
class Config:
    path: Path | None  # the config file used, or None
    root: Path  # the config file's directory (or the start dir); config paths are relative to it
    select: tuple[str, ...] | None = None  # None means "all rules"
    extend_select: tuple[str, ...] = ()  # added to select (as ruff's extend-select)
    preview: bool = False  # run rules still in preview (off by default, as ruff's preview mode)
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    # The exclusions apply to paths named on the command line too (ruff's force-exclude): pre-commit names every staged file.
    force_exclude: bool = False
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (glob, codes)
    target_version: tuple[int, int] = (3, 10)
    replicas: int = 1
    grace_period: float = 30.0
    lock_ttl_margin: float = 1.0
    runtimes_file: Path | None = None
    runtimes: dict[str, float] = field(default_factory=dict)
    money: MoneyConfig = field(default_factory=MoneyConfig)
    # Decorators of task systems bgcheck has no table for: functions decorated with them are jobs.
    job_decorators: tuple[str, ...] = ()
    # How `bgcheck check` reports when its options do not say (None: the CLI's default).
    output_format: str | None = None
    show_source: bool | None = None
    show_explanations: bool | None = None
    # False when no configuration file and no root marker was found: the paths checked are
    # then the whole project, and no cache is written beside a lone file.
    in_project: bool = True
    # The keys the configuration file actually set (TOML spelling), for rules
    # that act only on an explicit setting (BG406 needs a configured grace-period).
    set_keys: frozenset = frozenset()

    def effective_select(self) -> tuple[str, ...] | None:
        """The configured selection: select plus extend-select (None: every rule)."""
        if self.select is None:
            return None
        return tuple(dict.fromkeys(self.select + self.extend_select))

    def all_excludes(self) -> tuple[str, ...]:
        return self.exclude + self.extend_exclude


def default_config(root: Path) -> Config:
    return Config(path=None, root=Path(root))


# --------------------------------------------------------------------------
# Validators: one per kind of value.  Each takes the raw TOML value, the
# table it came from and its key, and returns the Config value or raises.
# --------------------------------------------------------------------------

_BARE_KEY = LazyPattern(r"[A-Za-z0-9_-]+")
_CODE = LazyPattern(r"BG[0-9]{0,3}")


@dataclass(frozen=True)
class _Table:
    """Where a value came from, for error messages, plus what validators need."""

    file: str  # the config file, as shown to the user
    names: tuple[str, ...]  # TOML path of the table: ("tool", "bgcheck") or () for top level
    root: Path
    known_codes: tuple[str, ...]

    def sub(self, name: str) -> _Table:
        return replace(self, names=(*self.names, name))

    def error(self, key: str | None, message: str) -> ConfigError:
        header = f"[{'.'.join(_toml_key(n) for n in self.names)}] " if self.names else ""
        where = f"{_toml_key(key)}: " if key is not None else ""
        return ConfigError(f"{self.file}: {header}{where}{message}")

    def expected(self, key: str, what: str, value: object) -> ConfigError:
        return self.error(key, f"expected {what}, got {short_repr(value)}")


def _toml_key(key: str) -> str:
    # Quote keys the way TOML would need them, e.g. per-file-ignores globs.
    if _BARE_KEY.fullmatch(key):
        return key
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


Validator = Callable[[Any, _Table, str], Any]


def short_repr(value: object, limit: int = 80) -> str:
    """A value for a one-line message: its repr, cut short."""
    if isinstance(value, int) and value.bit_length() > 256:
        return "a number that large"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _string_list(value: Any, table: _Table, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise table.expected(key, "a list of strings", value)
    return tuple(value)


_DOTTED = LazyPattern(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")


def _dotted_names(value: Any, table: _Table, key: str) -> tuple[str, ...]:
    """Qualified names such as ``"proj.tasks.job"``: a module path and a name in it."""
    names = _string_list(value, table, key)
    for name in names:
        if not _DOTTED.fullmatch(name):
            raise table.error(key, f"expected a qualified name such as \"package.module.decorator\", got {short_repr(name)}")
    return names


def _glob(pattern: str, table: _Table, key: str) -> str:
    reason = glob_error(pattern)
    if reason is not None:
        raise table.error(key, f"bad pattern {short_repr(pattern)}: {reason}")
    return pattern


def _globs(value: Any, table: _Table, key: str) -> tuple[str, ...]:
    return tuple(_glob(pattern, table, key) for pattern in _string_list(value, table, key))


def _codes(value: Any, table: _Table, key: str) -> tuple[str, ...]:
    """Rule codes or prefixes, upper-cased and deduplicated; "ALL" is kept as is."""
    what = "a list of rule codes such as 'BG101', prefixes such as 'BG1', or 'ALL'"
    if not isinstance(value, list):
        raise table.expected(key, what, value)
    codes: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise table.expected(key, what, item)
        code = item.strip().upper()
        if code != "ALL" and not _CODE.fullmatch(code):
            raise table.expected(key, what, item)
        if code != "ALL" and table.known_codes and not any(
            known.startswith(code) for known in table.known_codes
        ):
            raise table.error(key, f"unknown rule code {item!r}")
        if code not in codes:
            codes.append(code)
    return tuple(codes)


def _select(value: Any, table: _Table, key: str) -> tuple[str, ...] | None:
    codes = _codes(value, table, key)
    return None if "ALL" in codes else codes


def _ignore(value: Any, table: _Table, key: str) -> tuple[str, ...]:
    # "BG" is a prefix of every code, so consumers need only prefix matching.
    codes = ("BG" if code == "ALL" else code for code in _codes(value, table, key))
    return tuple(dict.fromkeys(codes))


def _subtable(value: Any, table: _Table, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise table.expected(key, "a table", value)
    return value


def _per_file_ignores(
    value: Any, table: _Table, key: str
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    inner = table.sub(key)
    return tuple(
        (_glob(glob, table, key), _ignore(codes, inner, glob))
        for glob, codes in _subtable(value, table, key).items()
    )


def _target_version(value: Any, table: _Table, key: str) -> tuple[int, int]:
    version = TARGET_VERSIONS.get(value.lower()) if isinstance(value, str) else None
    if version is None:
        choices = ", ".join(repr(name) for name in TARGET_VERSIONS)
        raise table.expected(key, f"one of {choices}", value)
    return version


def _positive_int(value: Any, table: _Table, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise table.expected(key, "a positive integer", value)
    return value


def _duration(value: Any, table: _Table, key: str) -> float:
    try:
        return parse_duration(value)
    except ValueError as exc:
        raise table.error(
            key, f"expected a duration ({DURATION_FORMS}), got {short_repr(value)} ({exc})"
        ) from None


def _boolean(value: Any, table: _Table, key: str) -> bool:
    if not isinstance(value, bool):
        raise table.expected(key, "true or false", value)
    return value


# The report formats a configuration may name (bgcheck/report's renderers: a test keeps the two equal).
OUTPUT_FORMATS = ("concise", "github", "gitlab", "json", "lsp", "sarif", "text")


def _output_format(value: Any, table: _Table, key: str) -> str:
    if value not in OUTPUT_FORMATS:
        raise table.expected(key, "one of " + ", ".join(f'"{name}"' for name in OUTPUT_FORMATS), value)
    return value


def _margin(value: Any, table: _Table, key: str) -> float:
    # A margin below 1 would make a lock expire before the job it protects finishes.
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 1
    ):
        raise table.expected(key, "a number >= 1", value)
    return float(value)


def _path(value: Any, table: _Table, key: str) -> Path:
    # Relative to the config file, not the cwd, so the result doesn't depend
    # on where bgcheck is run from.  The file need not exist yet.
    if not isinstance(value, str) or not value.strip():
        raise table.expected(key, "a path (a non-empty string)", value)
    return (table.root / value).resolve()


def _runtimes(value: Any, table: _Table, key: str) -> dict[str, float]:
    inner = table.sub(key)
    return {job: _duration(v, inner, job) for job, v in _subtable(value, table, key).items()}


_MONEY_KEYS: dict[str, tuple[str, Validator]] = {
    "functions": ("functions", _string_list),
    "name-patterns": ("name_patterns", _string_list),
}


def _money(value: Any, table: _Table, key: str) -> MoneyConfig:
    return MoneyConfig(**_read_table(_subtable(value, table, key), table.sub(key), _MONEY_KEYS))


# TOML key -> (Config field, validator).  This table is the list of settings.
_KEYS: dict[str, tuple[str, Validator]] = {
    "select": ("select", _select),
    "extend-select": ("extend_select", _ignore),  # prefixes added to select; "ALL" is every rule
    "ignore": ("ignore", _ignore),
    "preview": ("preview", _boolean),
    "exclude": ("exclude", _globs),
    "extend-exclude": ("extend_exclude", _globs),
    "force-exclude": ("force_exclude", _boolean),
    "per-file-ignores": ("per_file_ignores", _per_file_ignores),
    "target-version": ("target_version", _target_version),
    "replicas": ("replicas", _positive_int),
    "grace-period": ("grace_period", _duration),
    "lock-ttl-margin": ("lock_ttl_margin", _margin),
    "runtimes-file": ("runtimes_file", _path),
    "runtimes": ("runtimes", _runtimes),
    "money": ("money", _money),
    "job-decorators": ("job_decorators", _dotted_names),
    "output-format": ("output_format", _output_format),
    "show-source": ("show_source", _boolean),
    "show-explanations": ("show_explanations", _boolean),
}


def setting_values(config: Config) -> list[tuple[str, Any]]:
    """(TOML key, the value in effect) of every setting, in the order of the settings table."""
    return [(key, getattr(config, field_name)) for key, (field_name, _validate) in _KEYS.items()]


def _read_table(
    raw: Mapping[str, Any], table: _Table, keys: Mapping[str, tuple[str, Validator]]
) -> dict[str, Any]:
    """Validate every key of `raw` against `keys`; return dataclass keyword arguments."""
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in keys:
            raise table.error(None, f"unknown key {key!r}{_suggestion(key, keys)}")
        field_name, validate = keys[key]
        values[field_name] = validate(value, table, key)
    return values


def _suggestion(key: str, choices: Iterable[str]) -> str:
    import difflib  # only for a mistake: start-up

    matches = difflib.get_close_matches(key, list(choices), n=1)
    return f" (did you mean {matches[0]!r}?)" if matches else ""


# --------------------------------------------------------------------------
# Finding and reading files
# --------------------------------------------------------------------------


# Data files named by the user (runtimes, baselines) are read as data, with limits: at most
# this many bytes, from a regular file or a pipe (never a device: ``/dev/zero`` never ends),
# JSON nested at most as deep as Python's parser allows and numbers of a sane length.
MAX_DATA_FILE_BYTES = MAX_CONFIG_BYTES
MAX_JSON_NUMBER_DIGITS = 100


def read_limited(path: Path, allow_pipe: bool = True) -> bytes:
    """A file's bytes: a regular file (or a pipe the user named), at most MAX_DATA_FILE_BYTES;
    else an OSError that says why."""
    return read_regular(path, MAX_DATA_FILE_BYTES, allow_pipe)


def read_data_file(path: Path, shown: str, what: str) -> str:
    """The text of a data file (UTF-8, a leading BOM dropped: spreadsheets and editors on
    Windows add one), or a ConfigError naming the file and what is wrong."""
    try:
        data = read_limited(path)
    except OSError as exc:
        raise ConfigError(f"{shown}: cannot read the {what}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{shown}: the {what} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


class _LongNumber(Exception):
    pass


def _parse_int(digits: str) -> int:
    if len(digits) > MAX_JSON_NUMBER_DIGITS:
        raise _LongNumber(len(digits.lstrip("-")))
    return int(digits)


def parse_json_data(text: str, shown: str, what: str) -> Any:
    """JSON from a data file; a ConfigError naming the file for what a parser alone would
    turn into an internal error (the caller words syntax errors: json.JSONDecodeError)."""
    try:
        return json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError:
        raise
    except _LongNumber as exc:
        raise ConfigError(f"{shown}: the {what} holds a number of {exc.args[0]} digits (at most {MAX_JSON_NUMBER_DIGITS})") from None
    except RecursionError:
        raise ConfigError(f"{shown}: the {what} is JSON nested too deeply") from None
    except ValueError as exc:  # anything else the parser refuses
        raise ConfigError(f"{shown}: the {what} is not valid JSON: {exc}") from None


def _config_table(data: dict[str, Any], path: Path) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The settings table of a config file and its TOML path (for messages)."""
    tool_table = _tool_table(data, path)
    if path.name == PYPROJECT_FILENAME:
        if tool_table is None:
            # Only reachable with an explicit --config: discovery skips such files.
            raise ConfigError(f"{_display(path)}: no [tool.bgcheck] table")
        return tool_table, ("tool", "bgcheck")
    if tool_table is None:
        return data, ()
    if set(data) != {"tool"}:
        # Half the settings in one place and half in another is surely a mistake.
        raise ConfigError(
            f"{_display(path)}: settings both at the top level and in [tool.bgcheck];"
            " use one or the other"
        )
    return tool_table, ("tool", "bgcheck")


def find_config_file(start: Path) -> Path | None:
    """The config file that applies to `start` (a directory or a file), or None."""
    return _discover(_start_dir(start))[0]


def load_config(
    config_file: Path | None = None,
    start: Path | None = None,
    known_codes: Iterable[str] = (),
) -> Config:
    """Load and validate the configuration; raises ConfigError on any problem.

    `config_file` (from --config) wins over discovery from `start` (default:
    the cwd).  If `known_codes` is non-empty, every rule code in the config
    must be a prefix of one of them.
    """
    path, root, in_project = project_root(config_file, start)
    if path is None:
        return default_config(root) if in_project else Config(path=None, root=root, in_project=False)

    raw, names = _config_table(_read_toml(path, allow_pipe=config_file is not None), path)
    table = _Table(
        file=_display(path),
        names=names,
        root=path.parent,
        known_codes=tuple(code.upper() for code in known_codes),
    )
    return Config(path=path, root=path.parent, set_keys=frozenset(raw), **_read_table(raw, table, _KEYS))


def console_scripts(root: Path) -> dict[str, str]:
    """``[project.scripts]`` of the analysed project's pyproject.toml (entry points for BG404)."""
    path = Path(root) / "pyproject.toml"
    try:
        data = tomllib.loads(read_regular(path, MAX_FILE_BYTES).decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # missing, a FIFO, not TOML: no entry points
        return {}
    project = data.get("project")
    scripts = project.get("scripts") if isinstance(project, dict) else None
    return {str(k): str(v) for k, v in scripts.items()} if isinstance(scripts, dict) else {}
