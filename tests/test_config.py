"""Tests for bgcheck.load.config: durations, discovery, every key, every error."""

from __future__ import annotations

import dataclasses

import os
from pathlib import Path

import pytest

from bgcheck.load.config import (
    DEFAULT_EXCLUDE,
    Config,
    ConfigError,
    MoneyConfig,
    default_config,
    find_config_file,
    load_config,
    parse_duration,
)

KNOWN = ("BG101", "BG102", "BG201", "BG301")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project dir that is also the cwd, so messages show short relative paths."""
    for parent in tmp_path.parents:
        if (parent / "bgcheck.toml").exists() or (parent / "pyproject.toml").exists():
            pytest.skip(f"a config file above the temp dir ({parent}) would leak into discovery")
    monkeypatch.chdir(tmp_path)
    return tmp_path.resolve()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def pyproject(directory: Path, body: str) -> Path:
    return write(directory / "pyproject.toml", "[tool.bgcheck]\n" + body)


def load_pyproject(directory: Path, body: str, **kwargs) -> Config:
    return load_config(config_file=pyproject(directory, body), **kwargs)


def error_of(directory: Path, body: str, **kwargs) -> str:
    with pytest.raises(ConfigError) as info:
        load_pyproject(directory, body, **kwargs)
    message = str(info.value)
    assert "\n" not in message
    return message


# --------------------------------------------------------------------------
# parse_duration
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        (0, 0.0),
        (90, 90.0),
        (1.5, 1.5),
        (0.0, 0.0),
        ("90", 90.0),
        ("1.5", 1.5),
        ("0", 0.0),
        ("90s", 90.0),
        ("1500ms", 1.5),
        ("5m", 300.0),
        ("1h30m", 5400.0),
        ("2h", 7200.0),
        ("1d", 86400.0),
        ("1h 30m", 5400.0),
        ("1.5s", 1.5),
        ("1.5h", 5400.0),
        ("1d2h3m4s5ms", 86400 + 7200 + 180 + 4 + 0.005),
        ("  5m  ", 300.0),
        ("5M", 300.0),
        ("PT20M", 1200.0),
        ("PT1H30M", 5400.0),
        ("P1DT2H", 93600.0),
        ("PT0.5S", 0.5),
        ("P2D", 172800.0),
        ("PT1H2M3S", 3723.0),
        ("pt20m", 1200.0),
    ],
)
def test_parse_duration_valid(value, seconds):
    result = parse_duration(value)
    assert isinstance(result, float)
    assert result == pytest.approx(seconds)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (-1, "negative"),
        (-0.5, "negative"),
        ("-5s", "negative"),
        ("-5", "negative"),
        ("", "empty"),
        ("   ", "empty"),
        ("abc", "cannot parse"),
        ("5 minutes", "cannot parse"),
        ("5 m", "cannot parse"),
        ("1x", "cannot parse"),
        ("s", "cannot parse"),
        ("1.s", "cannot parse"),
        ("PT", "ISO-8601"),
        ("P", "ISO-8601"),
        ("P1DT", "ISO-8601"),
        ("P1Y", "ISO-8601"),
        ("P1M", "ISO-8601"),
        ("PT5X", "ISO-8601"),
        ("30m1h", "largest to smallest"),
        ("1m30m", "largest to smallest"),
        (True, "boolean"),
        (False, "boolean"),
        (None, "expected a number or a string"),
        ([1], "expected a number or a string"),
        (float("inf"), "finite"),
        (float("nan"), "finite"),
    ],
)
def test_parse_duration_invalid(value, reason):
    with pytest.raises(ValueError, match=reason):
        parse_duration(value)


# --------------------------------------------------------------------------
# Defaults
# --------------------------------------------------------------------------


def test_default_config(tmp_path):
    config = default_config(tmp_path)
    assert config.path is None
    assert config.root == tmp_path
    assert config.select is None
    assert config.ignore == ()
    assert config.exclude == DEFAULT_EXCLUDE
    assert config.extend_exclude == ()
    assert config.all_excludes() == DEFAULT_EXCLUDE
    assert config.per_file_ignores == ()
    assert config.target_version == (3, 10)
    assert config.replicas == 1
    assert config.grace_period == 30.0
    assert config.lock_ttl_margin == 1.0
    assert config.runtimes_file is None
    assert config.runtimes == {}
    assert config.money == MoneyConfig(functions=(), name_patterns=())


def test_default_exclude_contents():
    for name in (".git", ".venv", "venv", "__pycache__", ".bgcheck_cache", "node_modules", "build"):
        assert name in DEFAULT_EXCLUDE
    # "env"/".env" are ordinary names in many projects (and .env is usually a file).
    assert "env" not in DEFAULT_EXCLUDE and ".env" not in DEFAULT_EXCLUDE
    assert len(set(DEFAULT_EXCLUDE)) == len(DEFAULT_EXCLUDE)


def test_empty_tool_table_gives_defaults(project):
    config = load_pyproject(project, "")
    assert config.path == project / "pyproject.toml"
    assert config.root == project
    assert config == Config(path=project / "pyproject.toml", root=project)


def test_config_is_frozen(project):
    config = load_pyproject(project, "")
    with pytest.raises(AttributeError):
        config.replicas = 3  # type: ignore[misc]


# --------------------------------------------------------------------------
# Discovery
# --------------------------------------------------------------------------


def test_no_config_anywhere_gives_defaults_rooted_at_start(project):
    start = project / "src" / "pkg"
    start.mkdir(parents=True)
    assert find_config_file(start) is None
    config = load_config(start=start)
    assert config.path is None
    assert config.root == start
    assert config.in_project is False  # the named paths are the whole project; the cache goes to the working folder
    assert config == dataclasses.replace(default_config(start), in_project=False)


@pytest.mark.parametrize("marker", ["setup.cfg", ".git"])
def test_root_marker_without_config_roots_the_project(project, marker):
    start = project / "src" / "pkg"
    start.mkdir(parents=True)
    if marker == ".git":
        (project / ".git").mkdir()
    else:
        (project / marker).write_text("[metadata]\nname = x\n", encoding="utf-8")
    config = load_config(start=start)
    assert config.path is None
    assert config.root == project
    assert config.in_project is True


def test_start_defaults_to_cwd(project):
    pyproject(project, "replicas = 4\n")
    config = load_config()
    assert config.path == project / "pyproject.toml"
    assert config.replicas == 4


def test_walks_up_to_pyproject(project):
    pyproject(project, "replicas = 3\n")
    start = project / "a" / "b" / "c"
    start.mkdir(parents=True)
    assert find_config_file(start) == project / "pyproject.toml"
    config = load_config(start=start)
    assert config.path == project / "pyproject.toml"
    assert config.root == project
    assert config.replicas == 3


def test_walks_up_to_bgcheck_toml(project):
    write(project / "bgcheck.toml", "replicas = 5\n")
    start = project / "a" / "b"
    start.mkdir(parents=True)
    assert find_config_file(start) == project / "bgcheck.toml"
    assert load_config(start=start).replicas == 5


def test_nearest_config_wins(project):
    pyproject(project, "replicas = 2\n")
    inner = project / "sub"
    write(inner / "bgcheck.toml", "replicas = 7\n")
    (inner / "x").mkdir()
    assert load_config(start=inner / "x").replicas == 7
    assert load_config(start=project).replicas == 2


def test_bgcheck_toml_wins_over_pyproject_in_same_dir(project):
    pyproject(project, "replicas = 2\n")
    write(project / "bgcheck.toml", "replicas = 9\n")
    assert find_config_file(project) == project / "bgcheck.toml"
    config = load_config(start=project)
    assert config.path == project / "bgcheck.toml"
    assert config.replicas == 9


def test_pyproject_without_tool_table_is_skipped(project):
    pyproject(project, "replicas = 6\n")
    inner = project / "inner"
    write(inner / "pyproject.toml", '[project]\nname = "inner"\n\n[tool.other]\nx = 1\n')
    assert find_config_file(inner) == project / "pyproject.toml"
    config = load_config(start=inner)
    assert config.replicas == 6
    assert config.root == project  # the config file's directory, not the skipped pyproject's


def test_root_falls_back_to_first_pyproject(project):
    write(project / "pyproject.toml", '[project]\nname = "outer"\n')
    inner = project / "pkg"
    write(inner / "pyproject.toml", '[project]\nname = "inner"\n')
    start = inner / "src"
    start.mkdir()
    assert find_config_file(start) is None
    config = load_config(start=start)
    assert config.path is None
    assert config.root == inner  # the first (nearest) pyproject.toml
    assert config.replicas == 1


def test_start_may_be_a_file(project):
    pyproject(project, "replicas = 2\n")
    module = write(project / "pkg" / "jobs.py", "")
    assert find_config_file(module) == project / "pyproject.toml"
    assert load_config(start=module).replicas == 2


def test_start_may_be_relative(project):
    pyproject(project, "replicas = 2\n")
    (project / "pkg").mkdir()
    config = load_config(start=Path("pkg"))
    assert config.path == project / "pyproject.toml"


def test_discovery_reports_invalid_pyproject(project):
    write(project / "pyproject.toml", "[project\n")
    with pytest.raises(ConfigError, match=r"^pyproject\.toml: invalid TOML: "):
        load_config(start=project)


def test_tool_bgcheck_not_a_table(project):
    write(project / "pyproject.toml", "[tool]\nbgcheck = 3\n")
    with pytest.raises(ConfigError) as info:
        load_config(start=project)
    assert str(info.value) == "pyproject.toml: tool.bgcheck: expected a table, got 3"


# --------------------------------------------------------------------------
# Explicit --config
# --------------------------------------------------------------------------


def test_explicit_pyproject(project):
    path = pyproject(project / "elsewhere", "replicas = 3\n")
    config = load_config(config_file=path, start=project)
    assert config.path == path
    assert config.root == project / "elsewhere"
    assert config.replicas == 3


def test_explicit_config_wins_over_discovery(project):
    write(project / "bgcheck.toml", "replicas = 2\n")
    other = write(project / "conf" / "ci.toml", "replicas = 8\n")
    assert load_config(config_file=other, start=project).replicas == 8


def test_explicit_bgcheck_toml_top_level(project):
    path = write(project / "bgcheck.toml", 'replicas = 4\n[money]\nfunctions = ["a.b"]\n')
    config = load_config(config_file=path)
    assert config.path == path
    assert config.replicas == 4
    assert config.money.functions == ("a.b",)


def test_explicit_bgcheck_toml_with_tool_table(project):
    path = write(project / "bgcheck.toml", "[tool.bgcheck]\nreplicas = 4\n")
    assert load_config(config_file=path).replicas == 4


def test_discovered_bgcheck_toml_with_tool_table(project):
    write(project / "bgcheck.toml", "[tool.bgcheck]\nreplicas = 4\n")
    assert load_config(start=project).replicas == 4


def test_explicit_other_toml_name(project):
    path = write(project / "settings" / "strict.toml", 'select = ["BG1"]\n')
    config = load_config(config_file=path)
    assert config.select == ("BG1",)
    assert config.root == project / "settings"


def test_explicit_relative_path(project):
    write(project / "conf" / "bgcheck.toml", "replicas = 2\n")
    config = load_config(config_file=Path("conf/bgcheck.toml"))
    assert config.path == project / "conf" / "bgcheck.toml"
    assert config.root == project / "conf"


def test_explicit_pyproject_without_tool_table_is_an_error(project):
    path = write(project / "pyproject.toml", '[project]\nname = "x"\n')
    with pytest.raises(ConfigError) as info:
        load_config(config_file=path)
    assert str(info.value) == "pyproject.toml: no [tool.bgcheck] table"


def test_bgcheck_toml_with_both_layouts_is_an_error(project):
    path = write(project / "bgcheck.toml", "replicas = 2\n[tool.bgcheck]\nreplicas = 3\n")
    with pytest.raises(ConfigError) as info:
        load_config(config_file=path)
    message = str(info.value)
    assert message.startswith("bgcheck.toml: ")
    assert "top level" in message and "[tool.bgcheck]" in message


def test_bgcheck_toml_with_other_tool_is_unknown_key(project):
    path = write(project / "bgcheck.toml", "[tool.other]\nx = 1\n")
    with pytest.raises(ConfigError) as info:
        load_config(config_file=path)
    assert str(info.value) == "bgcheck.toml: unknown key 'tool'"


def test_explicit_missing_file(project):
    with pytest.raises(ConfigError) as info:
        load_config(config_file=project / "nope.toml")
    assert str(info.value) == "nope.toml: cannot read: No such file or directory"


def test_explicit_directory_is_unreadable(project):
    (project / "dir.toml").mkdir()
    with pytest.raises(ConfigError, match=r"^dir\.toml: cannot read: "):
        load_config(config_file=project / "dir.toml")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read anything")
def test_explicit_unreadable_file(project):
    path = write(project / "bgcheck.toml", "replicas = 2\n")
    path.chmod(0)
    try:
        with pytest.raises(ConfigError) as info:
            load_config(config_file=path)
        assert str(info.value) == "bgcheck.toml: cannot read: Permission denied"
    finally:
        path.chmod(0o644)


def test_path_outside_cwd_is_shown_in_full(tmp_path, monkeypatch):
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    missing = (tmp_path / "missing.toml").resolve()
    with pytest.raises(ConfigError) as info:
        load_config(config_file=missing)
    assert str(info.value).startswith(f"{missing}: cannot read: ")


def test_not_utf8(project):
    path = project / "bgcheck.toml"
    path.write_bytes(b"replicas = '\xff'\n")
    with pytest.raises(ConfigError, match=r"^bgcheck\.toml: cannot read: not UTF-8"):
        load_config(config_file=path)


@pytest.mark.parametrize("text", ["[tool.bgcheck\n", "[tool.bgcheck]\nreplicas = \n", "[tool.bgcheck]\na = 1\na = 2\n"])
def test_invalid_toml(project, text):
    path = write(project / "pyproject.toml", text)
    with pytest.raises(ConfigError) as info:
        load_config(config_file=path)
    message = str(info.value)
    assert message.startswith("pyproject.toml: invalid TOML: ")
    assert "(at line" in message  # tomllib's own message, with its position
    assert "\n" not in message


def test_invalid_toml_in_subdirectory_names_relative_path(project):
    write(project / "sub" / "bgcheck.toml", "replicas = = 2\n")
    with pytest.raises(ConfigError) as info:
        load_config(start=project / "sub")
    assert str(info.value).startswith(f"{Path('sub') / 'bgcheck.toml'}: invalid TOML: ")


# --------------------------------------------------------------------------
# Every key: happy paths
# --------------------------------------------------------------------------


def test_all_keys_together(project):
    config = load_pyproject(
        project,
        """
select = ["BG1", "bg201"]
ignore = ["BG102"]
exclude = ["migrations"]
extend-exclude = ["legacy/*.py"]
target-version = "py312"
replicas = 3
grace-period = "1m"
lock-ttl-margin = 1.5
runtimes-file = "data/runtimes.json"

[tool.bgcheck.per-file-ignores]
"tests/*.py" = ["BG1"]

[tool.bgcheck.runtimes]
send_email = "2m"

[tool.bgcheck.money]
functions = ["billing.charges.charge_customer"]
name-patterns = ["charge_*"]
""",
        known_codes=KNOWN,
    )
    assert config.select == ("BG1", "BG201")
    assert config.ignore == ("BG102",)
    assert config.exclude == ("migrations",)
    assert config.extend_exclude == ("legacy/*.py",)
    assert config.all_excludes() == ("migrations", "legacy/*.py")
    assert config.per_file_ignores == (("tests/*.py", ("BG1",)),)
    assert config.target_version == (3, 12)
    assert config.replicas == 3
    assert config.grace_period == 60.0
    assert config.lock_ttl_margin == 1.5
    assert config.runtimes_file == project / "data" / "runtimes.json"
    assert config.runtimes == {"send_email": 120.0}
    assert config.money == MoneyConfig(
        functions=("billing.charges.charge_customer",), name_patterns=("charge_*",)
    )


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        ('["BG101"]', ("BG101",)),
        ('["BG1", "BG10", "BG"]', ("BG1", "BG10", "BG")),
        ('["bg101", " BG102 "]', ("BG101", "BG102")),
        ('["BG101", "bg101"]', ("BG101",)),
        ("[]", ()),
        ('["ALL"]', None),
        ('["all"]', None),
        ('["BG1", "ALL"]', None),
    ],
)
def test_select(project, codes, expected):
    assert load_pyproject(project, f"select = {codes}\n", known_codes=KNOWN).select == expected


def test_select_without_known_codes_accepts_any_well_formed_code(project):
    assert load_pyproject(project, 'select = ["BG999"]\n').select == ("BG999",)


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        ('["BG101", "bg2"]', ("BG101", "BG2")),
        ("[]", ()),
        # "BG" is a prefix of every code, so consumers only need prefix matching.
        ('["ALL"]', ("BG",)),
        ('["ALL", "BG"]', ("BG",)),
    ],
)
def test_ignore(project, codes, expected):
    assert load_pyproject(project, f"ignore = {codes}\n", known_codes=KNOWN).ignore == expected


def test_exclude_replaces_defaults(project):
    config = load_pyproject(project, 'exclude = ["a", "b/**"]\n')
    assert config.exclude == ("a", "b/**")
    assert config.all_excludes() == ("a", "b/**")


def test_extend_exclude_adds_to_defaults(project):
    config = load_pyproject(project, 'extend-exclude = ["generated"]\n')
    assert config.exclude == DEFAULT_EXCLUDE
    assert config.all_excludes() == DEFAULT_EXCLUDE + ("generated",)


def test_per_file_ignores(project):
    config = load_pyproject(
        project,
        '[tool.bgcheck.per-file-ignores]\n"tests/*.py" = ["bg1", "BG201"]\n"scripts/**" = ["ALL"]\n"x.py" = []\n',
        known_codes=KNOWN,
    )
    assert config.per_file_ignores == (
        ("tests/*.py", ("BG1", "BG201")),
        ("scripts/**", ("BG",)),
        ("x.py", ()),
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [("py310", (3, 10)), ("py311", (3, 11)), ("py312", (3, 12)), ("py313", (3, 13)), ("py314", (3, 14)), ("PY311", (3, 11))],
)
def test_target_version(project, value, expected):
    assert load_pyproject(project, f'target-version = "{value}"\n').target_version == expected


@pytest.mark.parametrize("value", [1, 2, 100])
def test_replicas(project, value):
    assert load_pyproject(project, f"replicas = {value}\n").replicas == value


@pytest.mark.parametrize(
    ("toml_value", "seconds"),
    [("45", 45.0), ("2.5", 2.5), ("0", 0.0), ('"90s"', 90.0), ('"1500ms"', 1.5), ('"1h 30m"', 5400.0), ('"PT20M"', 1200.0)],
)
def test_grace_period(project, toml_value, seconds):
    config = load_pyproject(project, f"grace-period = {toml_value}\n")
    assert config.grace_period == seconds
    assert isinstance(config.grace_period, float)


@pytest.mark.parametrize(("toml_value", "expected"), [("1", 1.0), ("2", 2.0), ("1.25", 1.25)])
def test_lock_ttl_margin(project, toml_value, expected):
    config = load_pyproject(project, f"lock-ttl-margin = {toml_value}\n")
    assert config.lock_ttl_margin == expected
    assert isinstance(config.lock_ttl_margin, float)


def test_runtimes_file_is_relative_to_config_file_not_cwd(project):
    config_dir = project / "conf"
    path = write(config_dir / "bgcheck.toml", 'runtimes-file = "../data/runtimes.json"\n')
    (project / "elsewhere").mkdir()
    os.chdir(project / "elsewhere")  # monkeypatch restores the cwd afterwards
    config = load_config(config_file=path)
    assert config.runtimes_file == project / "data" / "runtimes.json"
    assert not config.runtimes_file.exists()  # it need not exist yet


def test_runtimes_file_found_by_discovery(project):
    pyproject(project, 'runtimes-file = "runtimes.json"\n')
    start = project / "a" / "b"
    start.mkdir(parents=True)
    assert load_config(start=start).runtimes_file == project / "runtimes.json"


def test_runtimes_file_absolute(project, tmp_path):
    target = (tmp_path / "abs" / "runtimes.json").resolve()
    config = load_pyproject(project, f"runtimes-file = '{target}'\n")
    assert config.runtimes_file == target


def test_runtimes(project):
    config = load_pyproject(
        project,
        '[tool.bgcheck.runtimes]\nsend_email = 12\nnightly_report = "1h30m"\n'
        '"reports.build" = "PT20M"\nquick = 0.5\nslow = "1d"\n',
    )
    assert config.runtimes == {
        "send_email": 12.0,
        "nightly_report": 5400.0,
        "reports.build": 1200.0,
        "quick": 0.5,
        "slow": 86400.0,
    }
    assert all(isinstance(v, float) for v in config.runtimes.values())


def test_runtimes_inline_table(project):
    config = load_pyproject(project, 'runtimes = { a = "5m", b = 3 }\n')
    assert config.runtimes == {"a": 300.0, "b": 3.0}


def test_money(project):
    config = load_pyproject(
        project,
        '[tool.bgcheck.money]\nfunctions = ["billing.charge", "payments.refund"]\nname-patterns = ["*charge*"]\n',
    )
    assert config.money.functions == ("billing.charge", "payments.refund")
    assert config.money.name_patterns == ("*charge*",)


def test_money_partial_and_empty(project):
    assert load_pyproject(project, '[tool.bgcheck.money]\nfunctions = ["a.b"]\n').money == MoneyConfig(functions=("a.b",))
    assert load_pyproject(project, "[tool.bgcheck.money]\n").money == MoneyConfig()


def test_top_level_bgcheck_toml_subtables(project):
    path = write(
        project / "bgcheck.toml",
        'grace-period = "PT1M"\n[runtimes]\njob = "5m"\n[per-file-ignores]\n"t/*" = ["BG1"]\n',
    )
    config = load_config(config_file=path)
    assert config.grace_period == 60.0
    assert config.runtimes == {"job": 300.0}
    assert config.per_file_ignores == (("t/*", ("BG1",)),)


# --------------------------------------------------------------------------
# Errors: unknown keys
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "suggestion"),
    [
        ("replica", "replicas"),
        ("grace_period", "grace-period"),
        ("extend_exclude", "extend-exclude"),
        ("per_file_ignores", "per-file-ignores"),
        ("target_version", "target-version"),
        ("lock-ttl", "lock-ttl-margin"),
        ("runtime", "runtimes"),
        ("runtimes_file", "runtimes-file"),
        ("selct", "select"),
    ],
)
def test_unknown_key_with_suggestion(project, key, suggestion):
    message = error_of(project, f"{key} = 1\n")
    assert message == f"pyproject.toml: [tool.bgcheck] unknown key '{key}' (did you mean '{suggestion}'?)"


def test_unknown_key_without_suggestion(project):
    message = error_of(project, "colour = 1\n")
    assert message == "pyproject.toml: [tool.bgcheck] unknown key 'colour'"


def test_unknown_key_in_top_level_bgcheck_toml(project):
    path = write(project / "bgcheck.toml", "replica = 2\n")
    with pytest.raises(ConfigError) as info:
        load_config(config_file=path)
    assert str(info.value) == "bgcheck.toml: unknown key 'replica' (did you mean 'replicas'?)"


def test_unknown_key_in_money_table(project):
    message = error_of(project, '[tool.bgcheck.money]\nfunction = ["a.b"]\n')
    assert message == "pyproject.toml: [tool.bgcheck.money] unknown key 'function' (did you mean 'functions'?)"


def test_underscore_key_in_money_table(project):
    message = error_of(project, '[tool.bgcheck.money]\nname_patterns = ["x"]\n')
    assert message == (
        "pyproject.toml: [tool.bgcheck.money] unknown key 'name_patterns' (did you mean 'name-patterns'?)"
    )


def test_unknown_key_in_money_table_of_top_level_bgcheck_toml(project):
    path = write(project / "bgcheck.toml", "[money]\nfoo = 1\n")
    with pytest.raises(ConfigError) as info:
        load_config(config_file=path)
    assert str(info.value) == "bgcheck.toml: [money] unknown key 'foo'"


# --------------------------------------------------------------------------
# Errors: wrong types and values, key by key
# --------------------------------------------------------------------------

CODES_EXPECTED = "expected a list of rule codes such as 'BG101', prefixes such as 'BG1', or 'ALL'"

WRONG_VALUES = [
    # (TOML line, expected message after "pyproject.toml: [tool.bgcheck] ")
    ('select = "BG1"', f"select: {CODES_EXPECTED}, got 'BG1'"),
    ("select = [101]", f"select: {CODES_EXPECTED}, got 101"),
    ('select = ["XY1"]', f"select: {CODES_EXPECTED}, got 'XY1'"),
    ('select = ["BG1234"]', f"select: {CODES_EXPECTED}, got 'BG1234'"),
    ('select = ["BG-1"]', f"select: {CODES_EXPECTED}, got 'BG-1'"),
    ('select = [""]', f"select: {CODES_EXPECTED}, got ''"),
    ('ignore = "ALL"', f"ignore: {CODES_EXPECTED}, got 'ALL'"),
    ('ignore = ["E501"]', f"ignore: {CODES_EXPECTED}, got 'E501'"),
    ("exclude = 'build'", "exclude: expected a list of strings, got 'build'"),
    ("exclude = ['a', 1]", "exclude: expected a list of strings, got ['a', 1]"),
    ("extend-exclude = {a = 1}", "extend-exclude: expected a list of strings, got {'a': 1}"),
    ('per-file-ignores = ["BG1"]', "per-file-ignores: expected a table, got ['BG1']"),
    ('target-version = "py39"', "target-version: expected one of 'py310', 'py311', 'py312', 'py313', 'py314', got 'py39'"),
    ("target-version = 3.11", "target-version: expected one of 'py310', 'py311', 'py312', 'py313', 'py314', got 3.11"),
    ('target-version = "3.11"', "target-version: expected one of 'py310', 'py311', 'py312', 'py313', 'py314', got '3.11'"),
    ('replicas = "two"', "replicas: expected a positive integer, got 'two'"),
    ("replicas = 0", "replicas: expected a positive integer, got 0"),
    ("replicas = -3", "replicas: expected a positive integer, got -3"),
    ("replicas = 2.0", "replicas: expected a positive integer, got 2.0"),
    ("replicas = true", "replicas: expected a positive integer, got True"),
    ("lock-ttl-margin = 0.5", "lock-ttl-margin: expected a number >= 1, got 0.5"),
    ("lock-ttl-margin = 0", "lock-ttl-margin: expected a number >= 1, got 0"),
    ('lock-ttl-margin = "2"', "lock-ttl-margin: expected a number >= 1, got '2'"),
    ("lock-ttl-margin = true", "lock-ttl-margin: expected a number >= 1, got True"),
    ("lock-ttl-margin = inf", "lock-ttl-margin: expected a number >= 1, got inf"),
    ("lock-ttl-margin = nan", "lock-ttl-margin: expected a number >= 1, got nan"),
    ("runtimes-file = 3", "runtimes-file: expected a path (a non-empty string), got 3"),
    ('runtimes-file = ""', "runtimes-file: expected a path (a non-empty string), got ''"),
    ("runtimes-file = ['a']", "runtimes-file: expected a path (a non-empty string), got ['a']"),
    ('runtimes = "5m"', "runtimes: expected a table, got '5m'"),
    ("money = ['a.b']", "money: expected a table, got ['a.b']"),
]


@pytest.mark.parametrize(("line", "expected"), WRONG_VALUES, ids=[line for line, _ in WRONG_VALUES])
def test_wrong_value(project, line, expected):
    assert error_of(project, line + "\n") == f"pyproject.toml: [tool.bgcheck] {expected}"


def test_wrong_value_in_top_level_bgcheck_toml_has_no_table_header(project):
    path = write(project / "bgcheck.toml", 'replicas = "two"\n')
    with pytest.raises(ConfigError) as info:
        load_config(config_file=path)
    assert str(info.value) == "bgcheck.toml: replicas: expected a positive integer, got 'two'"


@pytest.mark.parametrize(
    ("toml_value", "reason"),
    [
        ('"abc"', "cannot parse 'abc'"),
        ('"5 minutes"', "cannot parse '5 minutes'"),
        ('"1x"', "cannot parse '1x'"),
        ('"PT"', "ISO-8601"),
        ('""', "empty duration"),
        ('"-5m"', "negative duration"),
        ("-5", "negative duration"),
        ("true", "boolean"),
        ("[1]", "expected a number or a string"),
    ],
)
def test_bad_grace_period(project, toml_value, reason):
    message = error_of(project, f"grace-period = {toml_value}\n")
    assert message.startswith("pyproject.toml: [tool.bgcheck] grace-period: expected a duration (")
    # The message teaches the accepted forms...
    for form in ("seconds as a number", "'90s'", "'1500ms'", "'5m'", "'1h30m'", "ISO-8601 'PT20M'"):
        assert form in message
    # ...and says what was wrong with this one.
    assert reason in message


def test_bad_grace_period_shows_value_repr(project):
    message = error_of(project, 'grace-period = "abc"\n')
    assert "got 'abc' (cannot parse 'abc' as a duration)" in message


def test_bad_runtime_value_names_job(project):
    message = error_of(project, '[tool.bgcheck.runtimes]\nsend_email = "soon"\n')
    assert message.startswith("pyproject.toml: [tool.bgcheck.runtimes] send_email: expected a duration (")
    assert "got 'soon'" in message
    assert "'1h30m'" in message


def test_bad_runtime_value_with_dotted_job_name_is_quoted(project):
    message = error_of(project, '[tool.bgcheck.runtimes]\n"reports.build" = -1\n')
    assert message.startswith('pyproject.toml: [tool.bgcheck.runtimes] "reports.build": expected a duration (')
    assert "negative duration" in message


def test_bad_per_file_ignores_value_names_glob(project):
    message = error_of(project, '[tool.bgcheck.per-file-ignores]\n"tests/*.py" = "BG1"\n')
    assert message == f'pyproject.toml: [tool.bgcheck.per-file-ignores] "tests/*.py": {CODES_EXPECTED}, got \'BG1\''


def test_bad_code_in_per_file_ignores(project):
    message = error_of(project, '[tool.bgcheck.per-file-ignores]\n"a.py" = ["W1"]\n')
    assert message == f"pyproject.toml: [tool.bgcheck.per-file-ignores] \"a.py\": {CODES_EXPECTED}, got 'W1'"


@pytest.mark.parametrize(
    ("field", "value"),
    [("functions", '"a.b"'), ("functions", "[1]"), ("name-patterns", '"charge_*"'), ("name-patterns", '["x", true]')],
)
def test_bad_money_values(project, field, value):
    message = error_of(project, f"[tool.bgcheck.money]\n{field} = {value}\n")
    assert message.startswith(f"pyproject.toml: [tool.bgcheck.money] {field}: expected a list of strings, got ")


# --------------------------------------------------------------------------
# Errors: rule codes checked against the known codes
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "key", "code"),
    [
        ('select = ["BG999"]', "select", "BG999"),
        ('select = ["BG4"]', "select", "BG4"),
        ('ignore = ["bg103"]', "ignore", "bg103"),
        ('ignore = ["BG1", "BG999"]', "ignore", "BG999"),
    ],
)
def test_unknown_rule_code(project, line, key, code):
    message = error_of(project, line + "\n", known_codes=KNOWN)
    assert message == f"pyproject.toml: [tool.bgcheck] {key}: unknown rule code '{code}'"


def test_unknown_rule_code_in_per_file_ignores(project):
    message = error_of(project, '[tool.bgcheck.per-file-ignores]\n"a.py" = ["BG999"]\n', known_codes=KNOWN)
    assert message == "pyproject.toml: [tool.bgcheck.per-file-ignores] \"a.py\": unknown rule code 'BG999'"


def test_known_codes_are_case_insensitive(project):
    config = load_pyproject(project, 'select = ["bg10"]\n', known_codes=["bg101"])
    assert config.select == ("BG10",)


@pytest.mark.parametrize("prefix", ["BG", "BG1", "BG10", "BG101", "ALL"])
def test_prefixes_of_known_codes_are_accepted(project, prefix):
    load_pyproject(project, f'ignore = ["{prefix}"]\n', known_codes=KNOWN)


def test_known_codes_may_be_any_iterable(project):
    config = load_pyproject(project, 'select = ["BG2"]\n', known_codes=iter(KNOWN))
    assert config.select == ("BG2",)


# --------------------------------------------------------------------------
# hostile configuration: one line, never an internal error
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ('exclude = ["[z-a]"]\n', "[tool.bgcheck] exclude: bad pattern '[z-a]': bad character range z-a"),
        ('extend-exclude = ["ok", "src/[9-0]/*.py"]\n', "[tool.bgcheck] extend-exclude: bad pattern 'src/[9-0]/*.py': bad character range 9-0"),
        ('[tool.bgcheck.per-file-ignores]\n"[z-a].py" = ["BG1"]\n', "[tool.bgcheck] per-file-ignores: bad pattern '[z-a].py': bad character range z-a"),
    ],
    ids=["exclude", "extend-exclude", "per-file-ignores"],
)
def test_bad_glob_is_a_configuration_error(project, body, says):
    assert error_of(project, body) == f"pyproject.toml: {says}"


def test_good_bracket_globs_are_accepted(project):
    config = load_pyproject(project, 'exclude = ["[a-z]*", "[!_]x", "[]]"]\n[tool.bgcheck.per-file-ignores]\n"t[0-9].py" = ["BG1"]\n')
    assert config.exclude == ("[a-z]*", "[!_]x", "[]]")
    assert config.per_file_ignores == (("t[0-9].py", ("BG1",)),)


def test_bad_glob_on_the_command_line_exits_2_with_one_line(project):
    from click.testing import CliRunner

    from bgcheck.cli import main

    write(project / "a.py", "x = 1\n")
    pyproject(project, 'per-file-ignores = {"[z-a]" = ["BG1"]}\n')
    result = CliRunner().invoke(main, ["check", ".", "--no-cache"])
    assert result.exit_code == 2
    assert result.stderr == "bgcheck: error: pyproject.toml: [tool.bgcheck] per-file-ignores: bad pattern '[z-a]': bad character range z-a\n"


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("replicas = " + "7" * 5000 + "\n", "pyproject.toml: invalid TOML: Exceeds the limit (4300 digits)"),
        ("select = " + "[" * 100_000 + "]" * 100_000 + "\n", "pyproject.toml: invalid TOML: nested too deeply"),
        ("grace-period = " + "9" * 400 + "\n", "pyproject.toml: [tool.bgcheck] grace-period: expected a duration"),
        ("[tool.bgcheck.runtimes]\nnightly = " + "9" * 400 + "\n", "pyproject.toml: [tool.bgcheck.runtimes] nightly: expected a duration"),
    ],
    ids=["5000-digits", "nested-100k-deep", "400-digit-duration", "400-digit-runtime"],
)
def test_hostile_toml_is_a_one_line_configuration_error(project, body, says):
    message = error_of(project, body)
    assert message.startswith(says) and len(message) < 300, message


def test_config_that_is_a_device_is_refused(project):
    with pytest.raises(ConfigError) as info:
        load_config(config_file=Path("/dev/zero"))
    assert str(info.value) == "/dev/zero: cannot read: not a regular file (a device)"


def test_discovered_config_that_is_not_a_file_is_not_read(project):
    """A bgcheck.toml found by walking up that is a FIFO (it would block) or a link to a device
    (it would never end) is no configuration file: the defaults apply."""
    os.mkfifo(project / "bgcheck.toml")
    (project / "pyproject.toml").symlink_to("/dev/zero")
    config = load_config(start=project)
    assert config.path is None and config.root == project
