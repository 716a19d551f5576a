"""Measured runtimes (bgcheck/runtimes.py): file formats, how keys match jobs and
locks, and every way a runtimes file can be wrong.

Sources: ``[tool.bgcheck.runtimes]``, ``runtimes-file`` in the configuration,
``--runtimes FILE`` on the command line (later sources win). Formats: CSV with
the header ``job,seconds`` (any duration form), a JSON object, or a Prometheus
instant-query result whose job label is one of job_name, task, task_name, job,
name. A bad file is a configuration error that names the file, the line or
entry, and what was wrong: exit 2 on the command line, with no traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from bgcheck.load.config import ConfigError, load_config
from bgcheck.run.engine import RunRequest, run
from bgcheck.model.runtimes import Runtime, load_runtimes, read_runtimes_file
from conftest import codes, write_project


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into output by default
    except TypeError:
        return CliRunner()  # click >= 8.2 always keeps stderr apart


def read(tmp_path, monkeypatch, name: str, content) -> dict:
    """Write ``content`` to ``name`` in tmp_path, chdir there, and read it as a runtimes file."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return read_runtimes_file(Path(name))


def seconds(runtimes: dict) -> dict:
    return {key: runtime.seconds for key, runtime in runtimes.items()}


def prometheus(*samples) -> str:
    return json.dumps({"status": "success", "data": {"resultType": "vector", "result": list(samples)}})


def sample(value, **labels) -> dict:
    return {"metric": labels, "value": [1764500000.123, value]}


# ---------------------------------------------------------------------------
# CSV


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90", 90.0),
        ("1.5", 1.5),
        ("90s", 90.0),
        ("1500ms", 1.5),
        ("5m", 300.0),
        ("1h30m", 5400.0),
        ("1h 30m", 5400.0),
        ("1d", 86400.0),
        ("PT20M", 1200.0),
        ("PT0.5S", 0.5),
        ("P1DT2H", 93600.0),
    ],
)
def test_csv_any_duration_form(tmp_path, monkeypatch, text, expected):
    found = read(tmp_path, monkeypatch, "ops/job-runtimes.csv", f"job,seconds\nproj.tasks.nightly,{text}\n")
    assert found == {"proj.tasks.nightly": Runtime(expected, "ops/job-runtimes.csv line 2")}


def test_csv_header_case_extra_columns_spaces_and_crlf(tmp_path, monkeypatch):
    text = "Job, Seconds ,measured_on\r\n nightly , 300 ,2026-11-29\r\nhourly,45,2026-11-29\r\n"
    found = read(tmp_path, monkeypatch, "runtimes.csv", text)
    assert seconds(found) == {"nightly": 300.0, "hourly": 45.0}
    assert found["hourly"].source == "runtimes.csv line 3"


def test_csv_from_a_spreadsheet_with_a_byte_order_mark(tmp_path, monkeypatch):
    found = read(tmp_path, monkeypatch, "runtimes.csv", "\ufeffjob,seconds\nnightly,300\n".encode("utf-8"))
    assert seconds(found) == {"nightly": 300.0}


def test_csv_line_numbers_count_blank_lines(tmp_path, monkeypatch):
    found = read(tmp_path, monkeypatch, "runtimes.csv", "job,seconds\n\nnightly,300\n\n\nhourly,45\n")
    assert found["nightly"].source == "runtimes.csv line 3"
    assert found["hourly"].source == "runtimes.csv line 6"


def test_csv_quoted_job_names(tmp_path, monkeypatch):
    found = read(tmp_path, monkeypatch, "runtimes.csv", 'job,seconds\n"reports:build,daily",120\n')
    assert seconds(found) == {"reports:build,daily": 120.0}


def test_csv_job_listed_twice_keeps_the_longest_run(tmp_path, monkeypatch):
    found = read(tmp_path, monkeypatch, "runtimes.csv", "job,seconds\nnightly,300\nnightly,500\nnightly,100\n")
    assert found == {"nightly": Runtime(500.0, "runtimes.csv line 3")}


def test_a_file_without_suffix_is_read_as_csv(tmp_path, monkeypatch):
    found = read(tmp_path, monkeypatch, "runtimes", "job,seconds\nnightly,5m\n")
    assert seconds(found) == {"nightly": 300.0}


# ---------------------------------------------------------------------------
# JSON object


def test_json_object_numbers_and_durations(tmp_path, monkeypatch):
    found = read(tmp_path, monkeypatch, "ops/runtimes.json", json.dumps({"nightly": 300, "hourly": "1m30s", "quick": 0.25}))
    assert seconds(found) == {"nightly": 300.0, "hourly": 90.0, "quick": 0.25}
    assert found["hourly"].source == "ops/runtimes.json entry 'hourly'"


def test_json_object_without_json_suffix(tmp_path, monkeypatch):
    found = read(tmp_path, monkeypatch, "runtimes.txt", '  {"nightly": "PT5M"}\n')
    assert seconds(found) == {"nightly": 300.0}


# ---------------------------------------------------------------------------
# Prometheus instant-query result


@pytest.mark.parametrize("label", ["job_name", "task", "task_name", "job", "name"])
def test_prometheus_each_job_label(tmp_path, monkeypatch, label):
    text = prometheus(sample("95.5", **{label: "proj.tasks.nightly", "instance": "worker-1"}))
    found = read(tmp_path, monkeypatch, "ops/prom.json", text)
    assert found == {"proj.tasks.nightly": Runtime(95.5, "ops/prom.json result[0] (proj.tasks.nightly)")}


def test_prometheus_label_order(tmp_path, monkeypatch):
    # job_name, task, task_name, job, name: the first present names the job
    text = prometheus(
        sample("10", job="celery-exporter", task_name="a.task"),
        sample("20", name="b.task", task="b.real"),
        sample("30", job_name="c.job", job="scrape", name="c.name"),
        sample("40", job="", name="d.task"),
    )
    found = read(tmp_path, monkeypatch, "prom.json", text)
    assert seconds(found) == {"a.task": 10.0, "b.real": 20.0, "c.job": 30.0, "d.task": 40.0}


def test_prometheus_one_series_per_worker_keeps_the_longest(tmp_path, monkeypatch):
    text = prometheus(
        sample("120", task_name="nightly", instance="w1"),
        sample("480", task_name="nightly", instance="w2"),
        sample("60", task_name="nightly", instance="w3"),
    )
    found = read(tmp_path, monkeypatch, "prom.json", text)
    assert found == {"nightly": Runtime(480.0, "prom.json result[1] (nightly)")}


def test_prometheus_empty_result(tmp_path, monkeypatch):
    assert read(tmp_path, monkeypatch, "prom.json", prometheus()) == {}


# ---------------------------------------------------------------------------
# Sources: configuration, runtimes-file, --runtimes (later wins)


def test_sources_merge_in_order(tmp_path, monkeypatch):
    write_project(
        tmp_path,
        {
            "ops/runtimes.csv": "job,seconds\nb,20\nc,30\n",
            "extra.json": json.dumps({"c": 300, "d": 400}),
        },
        '"runtimes-file" = "ops/runtimes.csv"\n[tool.bgcheck.runtimes]\na = 1\nb = "2s"\n',
    )
    monkeypatch.chdir(tmp_path)
    config = load_config(start=tmp_path)
    found = load_runtimes(config, Path("extra.json"))
    assert seconds(found) == {"a": 1.0, "b": 20.0, "c": 300.0, "d": 400.0}
    assert found["a"].source == "[tool.bgcheck.runtimes] in pyproject.toml"
    assert found["b"].source == "ops/runtimes.csv line 2"
    assert found["d"].source == "extra.json entry 'd'"


def test_runtimes_file_is_relative_to_the_configuration(tmp_path, monkeypatch):
    write_project(tmp_path, {"ops/runtimes.csv": "job,seconds\nnightly,300\n", "sub/x.py": ""}, 'runtimes-file = "ops/runtimes.csv"\n')
    monkeypatch.chdir(tmp_path / "sub")
    config = load_config(start=tmp_path / "sub")
    assert seconds(load_runtimes(config)) == {"nightly": 300.0}


# ---------------------------------------------------------------------------
# Matching: which keys count, and the warning for a key that matches nothing

PROJECT = {
    "proj/__init__.py": "",
    "proj/tasks.py": """
    import redis
    from celery import Celery

    app = Celery("proj")
    r = redis.Redis()

    @app.task(name="reports.build")
    def build():
        with r.lock("reports:build", timeout=60):
            pass

    @app.task
    def nightly():
        with r.lock(f"nightly:{1 + 1}:{app}", timeout=60):
            pass
""",
    "proj/clock.py": """
    from apscheduler.schedulers.blocking import BlockingScheduler

    sched = BlockingScheduler()
    sched.add_job("proj.work:compact", "interval", minutes=5, id="compactor")
""",
    "proj/work.py": """
    def compact():
        pass
""",
}


def run_project(bg, table: dict, select=("BG5",)):
    config = "[tool.bgcheck.runtimes]\n" + "".join(f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in table.items())
    root = bg.tmp_path / f"matching{bg.count}"
    bg.count += 1
    write_project(root, PROJECT, config)
    bg.monkeypatch.chdir(root)
    return run(RunRequest([Path(".")], load_config(start=root), select=list(select)))


@pytest.mark.parametrize(
    "key",
    [
        "reports.build",  # Celery task name
        "proj.tasks.build",  # qualified function name
        "reports:build",  # lock key
    ],
)
def test_each_kind_of_key_reaches_the_lock(bg, key):
    result = run_project(bg, {key: 120})
    assert codes(result.diagnostics) == [("BG501", 10)]
    assert "measured 120 s" in result.diagnostics[0].explanation
    assert result.warnings == []


@pytest.mark.parametrize(
    "key",
    [
        "compactor",  # scheduler job id
        "proj.work.compact",  # qualified function name of a job registered by string
        "proj.work:compact",  # the string it is registered by
        "proj.tasks.nightly",
        "nightly:2:x",  # a key the f-string lock key can take
    ],
)
def test_keys_that_match_a_job_or_lock_are_not_warned_about(bg, key):
    assert run_project(bg, {key: 1}).warnings == []


def test_a_key_matching_an_fstring_lock_key_is_held_against_it(bg):
    result = run_project(bg, {"nightly:2:x": 120})
    assert codes(result.diagnostics) == [("BG501", 15)]
    assert "measured 120 s" in result.diagnostics[0].explanation


def test_unmatched_key_is_a_warning_naming_its_source(bg):
    result = run_project(bg, {"proj.tasks.biuld": 120, "reports.build": 30})
    assert result.warnings == [
        "runtime 'proj.tasks.biuld' ([tool.bgcheck.runtimes] in pyproject.toml) matches no job or lock"
    ]


def test_unmatched_key_is_warned_about_once_on_the_command_line(tmp_path, monkeypatch):
    files = dict(PROJECT)
    files["proj/more.py"] = "import redis\nr = redis.Redis()\n\ndef f():\n    r.lock('more', timeout=5)\n"
    files["ops/runtimes.csv"] = "job,seconds\nghost,10\n"
    write_project(tmp_path, files, 'runtimes-file = "ops/runtimes.csv"\n[tool.bgcheck.runtimes]\nghost = 5\n')
    (tmp_path / "extra.csv").write_text("job,seconds\nghost,20\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = _runner().invoke(main, ["check", ".", "--runtimes", "extra.csv", "--select", "BG5", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("ghost") == 1
    assert "bgcheck: warning: runtime 'ghost' (extra.csv line 2) matches no job or lock" in result.stderr


def test_a_warm_run_repeats_the_warning_without_building_the_index(tmp_path, monkeypatch):
    from bgcheck.run import engine

    write_project(tmp_path, dict(PROJECT), "[tool.bgcheck.runtimes]\nghost = 5\n")
    monkeypatch.chdir(tmp_path)
    cold = _runner().invoke(main, ["check", ".", "--select", "BG5"])
    assert "runtime 'ghost' ([tool.bgcheck.runtimes] in pyproject.toml) matches no job or lock" in cold.stderr

    def no_index(self):
        raise AssertionError("a run that changed nothing built the index")

    monkeypatch.setattr(engine._Phase2, "index", no_index)
    warm = _runner().invoke(main, ["check", ".", "--select", "BG5"], catch_exceptions=False)
    assert (warm.exit_code, warm.stdout, warm.stderr) == (cold.exit_code, cold.stdout, cold.stderr)
    # A change of the runtimes is a new project key: the warning follows it.
    write_project(tmp_path, dict(PROJECT), "[tool.bgcheck.runtimes]\nphantom = 5\n")
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    changed = _runner().invoke(main, ["check", ".", "--select", "BG5"])
    assert "runtime 'phantom'" in changed.stderr and "ghost" not in changed.stderr


# ---------------------------------------------------------------------------
# Every kind of bad runtimes file: ConfigError naming the file, where, and what

BAD_FILES = [
    # (file name, content, what the message must say)
    ("empty.csv", "", ["empty.csv:", "empty", "job,seconds"]),
    ("header.csv", "name,duration\nnightly,5\n", ["header.csv: line 1:", "expected the header 'job,seconds'", "name,duration"]),
    ("short.csv", "job,seconds\nnightly,5\nhourly\n", ["short.csv: line 3:", "expected 'job,seconds'", "hourly"]),
    ("nojob.csv", "job,seconds\n,5\n", ["nojob.csv: line 2:", "expected 'job,seconds'"]),
    ("word.csv", "job,seconds\nnightly,5\n\nhourly,soon\n", ["word.csv: line 4:", "bad duration 'soon'"]),
    ("negative.csv", "job,seconds\nnightly,-5\n", ["negative.csv: line 2:", "bad duration '-5'", "negative"]),
    ("empty-value.csv", "job,seconds\nnightly,\n", ["empty-value.csv: line 2:", "bad duration ''"]),
    ("units.csv", "job,seconds\nnightly,30m1h\n", ["units.csv: line 2:", "largest to smallest"]),
    ("list.json", "[1, 2]", ["list.json:", "expected a JSON object"]),
    ("nested.json", '{"nightly": {"seconds": 5}}', ["nested.json: entry 'nightly':", "expected a number of seconds", "{'seconds': 5}"]),
    ("negative.json", '{"nightly": -1}', ["negative.json: entry 'nightly':", "got -1"]),
    ("bool.json", '{"nightly": true}', ["bool.json: entry 'nightly':", "got True"]),
    ("nan.json", '{"nightly": NaN}', ["nan.json: entry 'nightly':", "got nan"]),
    ("word.json", '{"nightly": "soon"}', ["word.json: entry 'nightly':", "bad duration 'soon'"]),
    ("syntax.json", '{"nightly": 5,\n "hourly": }', ["syntax.json:", "invalid JSON", "line 2"]),
    ("empty.json", "", ["empty.json:", "invalid JSON", "line 1"]),
    (
        "status.json",
        json.dumps({"status": "error", "errorType": "bad_data", "data": {}}),
        ["status.json:", "status 'error'"],
    ),
    (
        "matrix.json",
        json.dumps({"status": "success", "data": {"resultType": "matrix", "result": []}}),
        ["matrix.json:", "resultType 'vector'"],
    ),
    ("nolabel.json", prometheus(sample("3", instance="w1")), ["nolabel.json: result[0]:", "no job label", "job_name, task, task_name, job, name"]),
    ("badvalue.json", prometheus(sample("3", job="a"), sample("abc", job="b")), ["badvalue.json: result[1]:", "bad number 'abc'"]),
    ("nanvalue.json", prometheus(sample("NaN", job="a")), ["nanvalue.json: result[0]:", "bad number 'NaN'"]),
    ("infvalue.json", prometheus(sample("+Inf", job="a")), ["infvalue.json: result[0]:", "bad number '+Inf'"]),
    ("shape.json", prometheus({"metric": {"job": "a"}, "value": "3"}), ["shape.json: result[0]:", "[timestamp, \"seconds\"]"]),
    ("sample.json", prometheus("a"), ["sample.json: result[0]:", "expected an object with 'metric' and 'value'"]),
    ("runtimes.yaml", "jobs:\n  nightly: 5\n", ["runtimes.yaml:", "unknown runtimes file format"]),
    ("runtimes.toml", "[jobs]\nnightly = 5\n", ["runtimes.toml:", "unknown runtimes file format"]),
    ("latin1.csv", b"job,seconds\n\xe9t\xe9,5\n", ["latin1.csv:", "not UTF-8"]),
    # hostile input: parsed as data, with limits, and told in one short line
    ("deep.json", '{"nightly": ' + "[" * 100_000 + "]" * 100_000 + "}", ["deep.json:", "nested too deeply"]),
    ("deep-object.json", '{"a": ' * 100_000 + "1" + "}" * 100_000, ["deep-object.json:", "nested too deeply"]),
    ("digits.json", '{"nightly": ' + "7" * 5000 + "}", ["digits.json:", "a number of 5000 digits"]),
    ("digits-key.json", '{"nightly": 1, "x": [' + "7" * 101 + "]}", ["digits-key.json:", "a number of 101 digits"]),
    ("digits.csv", "job,seconds\nnightly," + "7" * 5000 + "\n", ["digits.csv: line 2:", "bad duration", "must be finite"]),
    ("digits-prometheus.json", prometheus(sample("7" * 5000, job="a")), ["digits-prometheus.json: result[0]:", "bad number"]),
    ("long-name.csv", "job,seconds\n" + "x" * 5000 + "\n", ["long-name.csv: line 2:", "expected 'job,seconds'"]),
]


@pytest.mark.parametrize(("name", "content", "expected"), BAD_FILES, ids=[case[0] for case in BAD_FILES])
def test_bad_file_is_a_configuration_error(tmp_path, monkeypatch, name, content, expected):
    with pytest.raises(ConfigError) as caught:
        read(tmp_path, monkeypatch, f"ops/{name}", content)
    message = str(caught.value)
    assert message.startswith(f"ops/{name}:")
    for part in expected:
        assert part in message


@pytest.mark.parametrize(("name", "content", "expected"), BAD_FILES, ids=[case[0] for case in BAD_FILES])
def test_bad_file_message_is_one_short_line(tmp_path, monkeypatch, name, content, expected):
    with pytest.raises(ConfigError) as caught:
        read(tmp_path, monkeypatch, f"ops/{name}", content)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 400, message


def test_long_numbers_below_the_limit_are_read(tmp_path, monkeypatch):
    """The other direction: 100 digits is a (silly but valid) number of seconds."""
    assert seconds(read(tmp_path, monkeypatch, "ok.json", '{"nightly": ' + "1" * 100 + "}")) == {"nightly": float("1" * 100)}
    assert seconds(read(tmp_path, monkeypatch, "ok.csv", "job,seconds\nnightly," + "9" * 300 + "\n")) == {"nightly": float("9" * 300)}


def _run_in_subprocess(cwd: Path, *args: str):
    """bgcheck in a child process with a deadline: a regression hangs the child, never the tests."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "bgcheck", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null", "folder"])
def test_a_runtimes_file_that_is_not_a_file_is_refused_at_once(tmp_path, target):
    write_project(tmp_path, SOURCE)
    (tmp_path / "folder").mkdir()
    done = _run_in_subprocess(tmp_path, "check", ".", "--no-cache", "--runtimes", target)
    assert done.returncode == 2
    assert done.stderr == f"bgcheck: error: {target}: cannot read the runtimes file: not a regular file ({'a folder' if target == 'folder' else 'a device'})\n"


def test_a_runtimes_file_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    from bgcheck.load import config as config_module

    monkeypatch.setattr(config_module, "MAX_DATA_FILE_BYTES", 100)
    with pytest.raises(ConfigError, match=r"^ops/big\.csv: cannot read the runtimes file: larger than"):
        read(tmp_path, monkeypatch, "ops/big.csv", "job,seconds\n" + "nightly,5\n" * 20)
    assert seconds(read(tmp_path, monkeypatch, "ops/small.csv", "job,seconds\nnightly,5\n")) == {"nightly": 5.0}


def test_a_runtimes_pipe_is_read(tmp_path, monkeypatch):
    """``--runtimes <(curl ...)``: a pipe the user names is read (up to the limit), a device is not."""
    import os
    import threading

    monkeypatch.chdir(tmp_path)
    fifo = tmp_path / "runtimes.csv"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w", encoding="utf-8") as handle:
            handle.write("job,seconds\nnightly,5m\n")

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    assert seconds(read_runtimes_file(Path("runtimes.csv"))) == {"nightly": 300.0}
    writer.join(10)


def test_missing_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"^ops/missing\.csv: cannot read the runtimes file: No such file"):
        read_runtimes_file(Path("ops/missing.csv"))


def test_a_folder_is_not_a_runtimes_file(tmp_path, monkeypatch):
    (tmp_path / "ops" / "runtimes.csv").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"^ops/runtimes\.csv: cannot read the runtimes file"):
        read_runtimes_file(Path("ops/runtimes.csv"))


SOURCE = {"jobs.py": "import redis\nr = redis.Redis()\n\ndef f():\n    r.lock('k', timeout=5)\n"}


@pytest.mark.parametrize(("name", "content", "expected"), BAD_FILES, ids=[case[0] for case in BAD_FILES])
def test_bad_runtimes_option_exits_2_without_traceback(tmp_path, monkeypatch, name, content, expected):
    write_project(tmp_path, SOURCE)
    path = tmp_path / "ops" / name
    path.parent.mkdir()
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    monkeypatch.chdir(tmp_path)
    result = _runner().invoke(main, ["check", ".", "--runtimes", f"ops/{name}", "--no-cache"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"bgcheck: error: ops/{name}:")
    assert expected[-1] in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [["check", "."], ["jobs", "."], ["jobs", ".", "--format", "json"]])
def test_bad_configured_runtimes_file_exits_2(tmp_path, monkeypatch, command):
    write_project(tmp_path, {**SOURCE, "ops/job-runtimes.csv": "job,seconds\nnightly,5\nhourly,abc\n"}, 'runtimes-file = "ops/job-runtimes.csv"\n')
    monkeypatch.chdir(tmp_path)
    result = _runner().invoke(main, [*command, "--no-cache"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "bgcheck: error: ops/job-runtimes.csv: line 3: bad duration 'abc' (cannot parse 'abc' as a duration)"


@pytest.mark.parametrize("command", ["check", "jobs"])
def test_missing_runtimes_option_file_exits_2(tmp_path, monkeypatch, command):
    write_project(tmp_path, SOURCE)
    monkeypatch.chdir(tmp_path)
    result = _runner().invoke(main, [command, ".", "--runtimes", "nowhere.csv", "--no-cache"])
    assert result.exit_code == 2
    assert result.stderr.startswith("bgcheck: error: nowhere.csv: cannot read the runtimes file")
    assert "Traceback" not in result.stderr


def test_bad_file_fails_before_any_finding_is_printed(tmp_path, monkeypatch):
    write_project(tmp_path, {"jobs.py": "import redis\nr = redis.Redis()\n\ndef f():\n    r.lock('k')\n", "bad.json": "[]"})
    monkeypatch.chdir(tmp_path)
    result = _runner().invoke(main, ["check", ".", "--runtimes", "bad.json", "--no-cache"])
    assert result.exit_code == 2
    assert "BG502" not in result.stdout


# ---------------------------------------------------------------------------
# The result cache and runtimes


def test_cached_bg501_names_the_current_runtimes_source(tmp_path, monkeypatch):
    write_project(
        tmp_path,
        {
            "jobs.py": "import redis\nr = redis.Redis()\n\ndef f():\n    r.lock('k', timeout=5)\n",
            "ops/a.csv": "job,seconds\nk,10\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    first = _runner().invoke(main, ["check", ".", "--runtimes", "ops/a.csv", "--format", "json"])
    assert "ops/a.csv line 2" in first.stdout
    (tmp_path / "ops" / "a.csv").write_text("job,seconds\n\nk,10\n", encoding="utf-8")  # same numbers, k now on line 3
    second = _runner().invoke(main, ["check", ".", "--runtimes", "ops/a.csv", "--format", "json"])
    assert "ops/a.csv line 3" in second.stdout
