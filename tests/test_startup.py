"""Start-up: the commands users wait on before any analysis (`--version`, `--help`, `rules`,
`explain`) import neither libcst, pygls, pygments nor the rule modules, and the rule metadata
they print (bgcheck/rules/catalog.py) is the registry's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bgcheck.cli import rule_table
from bgcheck.rules import all_rules
from bgcheck.rules.catalog import RULES

REPO = Path(__file__).resolve().parent.parent
RULE_MODULES = sorted({rule.__module__ for rule in all_rules()})
HEAVY = ("libcst", "pygls", "pygments", *RULE_MODULES, "bgcheck.run.engine", "bgcheck.load.config")

# Runs the CLI as `python -m bgcheck ARGS` does, then prints the modules it imported.
PROBE = textwrap.dedent(
    """
    import contextlib, io, json, runpy, sys
    sys.argv = ["bgcheck", *json.loads(sys.argv[1])]
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            runpy.run_module("bgcheck", run_name="__main__")
        except SystemExit as exc:
            code = exc.code
    print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
    """
)


def imported_by(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(list(args))], cwd=REPO, capture_output=True, text=True, timeout=60,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["rules"], ["rules", "--format", "json"], ["explain", "BG102"], ["check", "--help"]])
def test_startup_commands_import_no_parser_nor_rules(args):
    outcome = imported_by(*args)
    assert outcome["code"] in (0, None)
    heavy = [m for m in outcome["modules"] if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert heavy == []


def test_a_check_imports_the_rules_and_libcst_only_for_a_file_a_rule_reads():
    """The probe sees imports at all: a check loads the rules (their relevance tests read summaries),
    and libcst only when a rule reads a file (syntax/lazy.py): a file no rule reads costs no libcst."""
    plain = imported_by("check", "--no-cache", str(REPO / "bgcheck" / "diagnostics.py"))
    assert "bgcheck.rules.cancellation" in plain["modules"] and "libcst" not in plain["modules"]
    demo = imported_by("check", "--no-cache", str(REPO / "fixtures" / "demo_service"))
    assert "libcst" in demo["modules"]


def test_catalog_is_the_registry():
    """`bgcheck rules` prints the catalog; the catalog is what the rule classes say
    (scripts/rule_table.py rewrites it)."""
    registered = [(r.code, r.name, r.severity.value, r.summary, r.preview, r.fixable) for r in all_rules()]
    assert list(RULES) == registered, "bgcheck/rules/catalog.py is out of date: run python scripts/rule_table.py"
    assert [row["code"] for row in rule_table()] == ["BG000"] + [code for code, *_ in registered]


def test_version_answered_before_the_command_line_says_what_click_says():
    """`bgcheck --version` is answered before click is imported (bgcheck/__main__.py): the same
    line as the command line's own --version, from the entry point pyproject.toml installs."""
    from click.testing import CliRunner

    from bgcheck.cli import main

    expected = CliRunner().invoke(main, ["--version"]).output
    done = subprocess.run(
        [sys.executable, "-m", "bgcheck", "--version"], cwd=REPO, capture_output=True, text=True, timeout=60,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0 and done.stdout == expected and expected.startswith("bgcheck, version ")
    assert 'bgcheck = "bgcheck.__main__:main"' in (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert "click" not in imported_by("--version")["modules"]


@pytest.mark.parametrize("command", [[sys.executable, "-m", "bgcheck"], [str(Path(sys.executable).parent / "bgcheck")]])
def test_the_command_ends_without_teardown_and_keeps_all_its_output(command, tmp_path):
    """``bgcheck`` and ``python -m bgcheck`` end with os._exit (__main__.py): the exit code is the
    command's, and everything written to a pipe arrives (a large JSON report, the one-line error)."""
    if not Path(command[0]).exists():
        pytest.skip("no bgcheck command installed beside this Python")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    demo = str(REPO / "fixtures" / "demo_service")
    done = subprocess.run([*command, "check", demo, "--no-cache", "--format", "json", "--preview"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert len(report["diagnostics"]) == report["summary"]["total"] > 10
    missing = subprocess.run([*command, "check", str(tmp_path / "nothing.py")], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr.startswith("bgcheck: error: no such file or folder") and missing.stderr.count("\n") == 1
    version = subprocess.run([*command, "--version"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert (version.returncode, version.stdout) == (0, "bgcheck, version " + version.stdout.split()[-1] + "\n")
