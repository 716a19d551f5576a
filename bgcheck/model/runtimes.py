"""Measured job runtimes, from the configuration and from files.

Sources, merged (a later source overrides an earlier one for the same key):
``[tool.bgcheck.runtimes]``, then ``runtimes-file`` from the configuration,
then ``--runtimes FILE`` from the command line. File formats:

* CSV with a header ``job,seconds`` (the value may be any duration form);
* a JSON object ``{"job": seconds or "duration"}``;
* a Prometheus HTTP API instant-query result, as saved from a
  ``max_over_time`` query: the job is the first present of the labels
  ``job_name``, ``task``, ``task_name``, ``job``, ``name``.

A bad file is a ConfigError naming the file, the line or entry, and what
was wrong.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from bgcheck.load.config import Config, ConfigError, parse_duration, parse_json_data, read_data_file, short_repr

PROMETHEUS_JOB_LABELS = ("job_name", "task", "task_name", "job", "name")


@dataclass(frozen=True)
class Runtime:
    seconds: float
    source: str  # "ops/job-runtimes.csv line 3", "[tool.bgcheck.runtimes] in pyproject.toml"


def load_runtimes(config: Config, extra_file: Optional[Path] = None) -> dict[str, Runtime]:
    runtimes: dict[str, Runtime] = {}
    where = f"[tool.bgcheck.runtimes] in {_display(config.path)}" if config.path else "[tool.bgcheck.runtimes]"
    for key, seconds in config.runtimes.items():
        runtimes[key] = Runtime(seconds, where)
    for path in (config.runtimes_file, extra_file):
        if path is not None:
            runtimes.update(read_runtimes_file(Path(path)))
    return runtimes


def read_runtimes_file(path: Path) -> dict[str, Runtime]:
    shown = _display(path)
    text = read_data_file(path, shown, "runtimes file")  # limited: a device or a huge file is refused
    suffix = path.suffix.lower()
    stripped = text.lstrip()
    if suffix == ".json" or stripped.startswith("{"):
        return _from_json(text, shown)
    if suffix in (".csv", ".txt", "") or (stripped and "," in stripped.splitlines()[0]):
        return _from_csv(text, shown)
    raise ConfigError(
        f"{shown}: unknown runtimes file format (expected .csv with a header 'job,seconds', or .json holding "
        "an object {job: seconds} or a Prometheus query result)"
    )


def _seconds(value, shown: str, where: str) -> float:
    if isinstance(value, str):
        try:
            return parse_duration(value.strip())
        except ValueError as exc:
            raise ConfigError(f"{shown}: {where}: bad duration {short_repr(value)} ({exc})") from None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0:
        return float(value)
    raise ConfigError(f"{shown}: {where}: expected a number of seconds or a duration such as '5m', got {short_repr(value)}")


def _from_csv(text: str, shown: str) -> dict[str, Runtime]:
    import csv  # only for a runtimes file: start-up

    reader = csv.reader(io.StringIO(text))
    try:
        rows = [(reader.line_num, row) for row in reader]  # line_num: the line a row ends on
    except csv.Error as exc:
        raise ConfigError(f"{shown}: line {reader.line_num}: {exc}") from None
    rows = [(number, row) for number, row in rows if row and any(cell.strip() for cell in row)]
    if not rows:
        raise ConfigError(f"{shown}: the runtimes file is empty (expected a header 'job,seconds')")
    number, first = rows[0]
    header = [cell.strip().lower() for cell in first]
    if header[:2] != ["job", "seconds"]:
        raise ConfigError(f"{shown}: line {number}: expected the header 'job,seconds', got {short_repr(','.join(first))}")
    result: dict[str, Runtime] = {}
    for number, row in rows[1:]:
        if len(row) < 2 or not row[0].strip():
            raise ConfigError(f"{shown}: line {number}: expected 'job,seconds', got {short_repr(','.join(row))}")
        _keep_longest(result, row[0].strip(), Runtime(_seconds(row[1].strip(), shown, f"line {number}"), f"{shown} line {number}"))
    return result


def _keep_longest(result: dict, job: str, runtime: Runtime) -> None:
    """A job listed twice (one series per worker in a Prometheus result) runs as long as its slowest run."""
    if job not in result or runtime.seconds > result[job].seconds:
        result[job] = runtime


def _from_json(text: str, shown: str) -> dict[str, Runtime]:
    try:
        data = parse_json_data(text, shown, "runtimes file")
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{shown}: invalid JSON: {exc.msg} (line {exc.lineno})") from None
    if isinstance(data, dict) and "status" in data and "data" in data:
        return _from_prometheus(data, shown)
    if not isinstance(data, dict):
        raise ConfigError(f"{shown}: expected a JSON object {{job: seconds}} or a Prometheus query result")
    return {str(key): Runtime(_seconds(value, shown, f"entry {short_repr(key)}"), f"{shown} entry {key!r}") for key, value in data.items()}


def _from_prometheus(data: dict, shown: str) -> dict[str, Runtime]:
    if data.get("status") != "success":
        raise ConfigError(f"{shown}: the Prometheus result has status {short_repr(data.get('status'))}, not 'success'")
    body = data.get("data")
    if not isinstance(body, dict) or body.get("resultType") != "vector" or not isinstance(body.get("result"), list):
        raise ConfigError(f"{shown}: expected a Prometheus instant-query result with resultType 'vector'")
    result: dict[str, Runtime] = {}
    for number, sample in enumerate(body["result"]):
        where = f"result[{number}]"
        if not isinstance(sample, dict) or not isinstance(sample.get("metric"), dict):
            raise ConfigError(f"{shown}: {where}: expected an object with 'metric' and 'value'")
        labels = sample["metric"]
        job = next((labels[label] for label in PROMETHEUS_JOB_LABELS if labels.get(label)), None)
        if job is None:
            raise ConfigError(f"{shown}: {where}: no job label (looked for {', '.join(PROMETHEUS_JOB_LABELS)})")
        value = sample.get("value")
        if not isinstance(value, list) or len(value) != 2:
            raise ConfigError(f"{shown}: {where}: expected 'value': [timestamp, \"seconds\"]")
        try:
            seconds = float(value[1])
        except (TypeError, ValueError):
            raise ConfigError(f"{shown}: {where}: bad number {short_repr(value[1])}") from None
        if not math.isfinite(seconds) or seconds < 0:
            raise ConfigError(f"{shown}: {where}: bad number {short_repr(value[1])}")
        _keep_longest(result, str(job), Runtime(seconds, f"{shown} {where} ({job})"))
    return result


def _display(path: Optional[Path]) -> str:
    if path is None:
        return "?"
    try:
        return Path(path).resolve().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)
