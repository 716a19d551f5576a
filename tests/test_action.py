"""The GitHub Action (action.yml at the repository root): its shape, and its shell steps run
for real on a copy of the demo with this checkout's bgcheck."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "fixtures" / "demo_service"


@pytest.fixture(scope="module")
def action() -> dict:
    return yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))


def step(action: dict, name: str) -> dict:
    return next(s for s in action["runs"]["steps"] if s.get("name") == name)


def test_action_is_composite_and_installs_from_its_own_checkout(action):
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) == {"args", "sarif", "working-directory", "python-version"}
    assert action["inputs"]["python-version"]["default"] == "3.13"  # a recent Python reads every syntax
    for name in ("bgcheck (SARIF)", "bgcheck"):
        assert step(action, name)["working-directory"] == "${{ inputs.working-directory }}"
    assert action["inputs"]["sarif"]["default"] == "false"
    python = step(action, "Set up Python for bgcheck")
    assert python["uses"].startswith("actions/setup-python@")
    assert python["with"]["update-environment"] is False
    install = step(action, "Install bgcheck")["run"]
    assert '-m pip install' in install and '"$GITHUB_ACTION_PATH"' in install
    assert "bgcheck==" not in (REPO / "action.yml").read_text(encoding="utf-8")  # nothing from PyPI
    assert (REPO / "pyproject.toml").is_file()  # what pip installs from the action's path


def test_sarif_steps_run_only_when_asked(action):
    sarif = step(action, "bgcheck (SARIF)")
    upload = step(action, "Upload SARIF")
    assert sarif["if"] == "inputs.sarif == 'true'"
    # a fork's pull request cannot upload (no security-events: write): a notice instead, and the
    # annotations run whatever the upload did
    assert upload["if"] == "inputs.sarif == 'true' && !github.event.pull_request.head.repo.fork"
    assert step(action, "SARIF not uploaded from a fork")["if"] == "inputs.sarif == 'true' && github.event.pull_request.head.repo.fork"
    assert upload["continue-on-error"] is True
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "${{ runner.temp }}/bgcheck.sarif"
    assert '--output-file "$RUNNER_TEMP/bgcheck.sarif"' in sarif["run"] and "--exit-zero" in sarif["run"]
    names = [s.get("name") for s in action["runs"]["steps"]]
    assert names.index("bgcheck") == len(names) - 1  # the step that fails on findings comes last


def run_step(action, name, folder: Path, tmp_path: Path, args: str):
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("needs bash")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(
        BGCHECK_PYTHON=sys.executable,
        BGCHECK_ARGS=args,
        RUNNER_TEMP=str(tmp_path),
        PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""),
    )
    return subprocess.run([bash, "-c", step(action, name)["run"]], cwd=folder, env=env, capture_output=True, text=True, timeout=300)


def test_the_check_step_annotates_and_fails_on_findings(action, tmp_path):
    demo = tmp_path / "demo"
    shutil.copytree(DEMO, demo)
    done = run_step(action, "bgcheck", demo, tmp_path, ". --no-cache --preview")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith(("::error file=", "::warning file=", "::notice file=")) for line in lines)
    clean = tmp_path / "clean"
    shutil.copytree(REPO / "fixtures" / "demo_service_clean", clean)
    assert run_step(action, "bgcheck", clean, tmp_path, ". --no-cache").returncode == 0


def test_the_sarif_step_writes_every_finding_and_exits_0(action, tmp_path):
    demo = tmp_path / "demo"
    shutil.copytree(DEMO, demo)
    done = run_step(action, "bgcheck (SARIF)", demo, tmp_path, ". --no-cache --preview")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    sarif = json.loads((tmp_path / "bgcheck.sarif").read_text(encoding="utf-8"))
    expected = subprocess.run(
        [sys.executable, "-m", "bgcheck", "check", "--no-cache", "--preview", "--format", "json", "."],
        cwd=demo, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=300,
    )
    assert len(sarif["runs"][0]["results"]) == len(json.loads(expected.stdout)["diagnostics"]) > 0


def test_args_keep_a_quoted_path_with_spaces_whole(action, tmp_path):
    folder = tmp_path / "my project"
    shutil.copytree(REPO / "fixtures" / "demo_service_clean", folder)
    done = run_step(action, "bgcheck", tmp_path, tmp_path, '"my project" --no-cache')
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert run_step(action, "bgcheck", tmp_path, tmp_path, '"no such folder" --no-cache').stderr == "bgcheck: error: no such file or folder: no such folder\n"
