"""``bgcheck check --show-settings``: the resolved configuration, one setting a line, each with
where its value came from (the default, the configuration file, a command-line option), then the
rules the run would check. Values are written as TOML writes them, so a line can be copied into
``[tool.bgcheck]``; a setting with no value is shown as a comment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional, Sequence

from bgcheck.load.config import TARGET_VERSIONS, Config, MoneyConfig, setting_values

ALIGN_WIDTH = 48


def render_settings(
    config: Config,
    options: dict[str, list[str]],
    selection: Sequence[str],
    codes: Sequence[str],
    cache: Optional[Path],
    shown: "callable",
) -> str:
    """``options``: TOML key -> the command-line options that set it; ``selection``: the command
    line's --select/--extend-select/--ignore as given (they are a layer over the configured
    lists, not values of them); ``codes``: the rules the run checks; ``shown``: a path as printed."""
    source = shown(config.path) if config.path is not None else None
    lines = [
        f"Configuration: {source or 'none (the defaults)'}",
        f"Project root: {shown(config.root)}",
        f"Cache: {shown(cache) if cache is not None else 'none'}",
        "",
    ]
    rows = []
    for key, value in setting_values(config):
        origins = ([source] if key in config.set_keys and source else []) + options.get(key, [])
        text = _toml(key, value)
        rows.append((f"{key} = {text}", ", ".join(origins) or "default") if text is not None else (f"# {key}: not set", ""))
    # Origins line up, except after the few long values (the default exclude list).
    width = max(len(row) for row, _origin in rows if len(row) <= ALIGN_WIDTH)
    lines += [f"{row:<{width}}  # {origin}" if origin else row for row, origin in rows]
    lines.append("")
    if selection:
        lines.append(f"Command line, over the configured selection: {' '.join(selection)}")
    lines.append(f"Rules checked ({len(codes)}): {', '.join(codes) if codes else 'none'}")
    return "\n".join(lines) + "\n"


def _toml(key: str, value: Any) -> Optional[str]:
    """A setting's value as TOML (inline), or None for a setting that has none."""
    if value is None:
        return '["ALL"]' if key == "select" else None
    if key == "target-version":
        return json.dumps(next(name for name, version in TARGET_VERSIONS.items() if version == value))
    if key == "per-file-ignores":
        return _inline_table({pattern: list(codes) for pattern, codes in value})
    if isinstance(value, MoneyConfig):
        return _inline_table({"functions": list(value.functions), "name-patterns": list(value.name_patterns)})
    return _value(value)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (str, Path)):
        return json.dumps(str(value))
    if isinstance(value, dict):
        return _inline_table(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    return str(value)


def _inline_table(table: dict) -> str:
    if not table:
        return "{}"
    return "{ " + ", ".join(f"{json.dumps(key)} = {_value(item)}" for key, item in table.items()) + " }"
