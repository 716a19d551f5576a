"""The pre-commit hook: ``.pre-commit-hooks.yaml`` at the repository root, tried for real.

``test_try_repo_fails_on_a_bad_file_then_passes`` runs ``pre-commit try-repo`` against a
snapshot of this working tree (committed in a temporary git repository, so uncommitted work is
what gets installed) from a temporary project holding one bad and one good file. pre-commit
installs bgcheck into its own virtualenv, which needs a package index: without pre-commit, or
when that install fails for want of a network, the test skips and says why. It takes ~10-20 s
per run (two runs) with the index reachable; deselect it with ``-k "not try_repo"``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HOOKS = REPO / ".pre-commit-hooks.yaml"
TIMEOUT = 240  # seconds per pre-commit run; the install dominates

BAD = """\
import asyncio


async def consume(queue):
    while True:
        try:
            await queue.get()
        except asyncio.CancelledError:
            pass
"""
GOOD = """\
def add(a, b):
    return a + b
"""
FIXED = BAD.replace("            pass\n", "            raise\n")

# What pip says when it cannot reach a package index (or the index lacks what is needed offline).
NETWORK_TROUBLE = re.compile(
    r"Could not find a version that satisfies the requirement|No matching distribution found|"
    r"NewConnectionError|Failed to establish a new connection|Temporary failure in name resolution|"
    r"Name or service not known|Network is unreachable|Connection refused|ConnectTimeoutError|"
    r"Read timed out|ProxyError|Max retries exceeded|nodename nor servname"
)
GIT = ["git", "-c", "user.name=bgcheck tests", "-c", "user.email=tests@example.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"]


def _git_env() -> dict:
    """The environment without a surrounding git operation's variables (tests may run inside a hook)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    return env


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run([*GIT, *args], cwd=cwd, env=_git_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"git {' '.join(args)} failed:\n{done.stdout}{done.stderr}"
    return done.stdout


def _repository_files() -> list[str]:
    """The working tree's files as git sees them: tracked (as they are now) and untracked, not ignored."""
    if shutil.which("git") and (REPO / ".git").exists():
        done = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            env=_git_env(),
            capture_output=True,
            timeout=60,
        )
        if done.returncode == 0:
            return [name for name in done.stdout.decode("utf-8", "surrogateescape").split("\0") if name]
    skipped = {".git", ".venv", "__pycache__", ".bgcheck_cache", ".pytest_cache", "build", "dist"}
    return [
        path.relative_to(REPO).as_posix()
        for path in REPO.rglob("*")
        if path.is_file() and not skipped.intersection(path.relative_to(REPO).parts)
    ]


def _snapshot(target: Path) -> Path:
    """A git repository holding the working tree as it is now, committed."""
    target.mkdir()
    for name in _repository_files():
        source = REPO / name
        if source.is_file():  # a tracked file may have been deleted in the working tree
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
    _git(target, "init", "-q")
    _git(target, "add", "-A")
    _git(target, "commit", "-q", "-m", "snapshot of the working tree")
    return target


def _try_repo(project: Path, hook_repo: Path, home: Path) -> subprocess.CompletedProcess:
    env = _git_env()
    env["PRE_COMMIT_HOME"] = str(home)
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), "bgcheck", "--all-files", "--color", "never"]
    try:
        done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.skip(f"pre-commit try-repo did not finish in {TIMEOUT} s (installing the hook's environment needs a package index: slow or no network?)")
    if done.returncode not in (0, 1):
        log = home / "pre-commit.log"
        output = done.stdout + done.stderr + (log.read_text(encoding="utf-8", errors="replace") if log.is_file() else "")
        trouble = NETWORK_TROUBLE.search(output)
        if trouble and "Installing environment" in done.stdout + done.stderr:
            line = next((ln.strip() for ln in output.splitlines() if trouble.group(0) in ln), trouble.group(0))
            pytest.skip(f"pre-commit could not install the hook's environment (no network to a package index?): {line}")
        pytest.fail(f"pre-commit try-repo exited {done.returncode}:\n{done.stdout}\n{done.stderr}\n{output[-4000:]}")
    return done


def test_hooks_manifest_declares_the_bgcheck_hook():
    pytest.importorskip("pre_commit", reason="pre-commit is not installed")
    from pre_commit.clientlib import load_manifest

    hooks = load_manifest(str(HOOKS))  # pre-commit's own validation of the manifest
    by_id = {hook["id"]: hook for hook in hooks}
    hook = by_id["bgcheck"]
    assert hook["entry"] == "bgcheck check --force-exclude"  # pre-commit names excluded files too
    assert hook["language"] == "python"
    assert hook["types"] == ["python"]
    assert hook["pass_filenames"] is True


def test_the_hooks_command_skips_the_files_the_configuration_excludes(tmp_path, monkeypatch):
    """What pre-commit runs: the manifest's entry with every staged file named, excluded or not."""
    yaml = pytest.importorskip("yaml")
    from click.testing import CliRunner

    from bgcheck.cli import main

    (hook,) = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.bgcheck]\npreview = true\nextend-exclude = ["legacy"]\n', encoding="utf-8")
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.py").write_text(BAD, encoding="utf-8")
    (tmp_path / "good.py").write_text(GOOD, encoding="utf-8")
    command = [*hook["entry"].split()[1:], "--no-cache", "--format", "concise", "legacy/old.py", "good.py"]
    done = CliRunner().invoke(main, command)
    assert (done.exit_code, done.stdout) == (0, "All checks passed (1 file checked).\n")
    without = CliRunner().invoke(main, [arg for arg in command if arg != "--force-exclude"])
    assert without.exit_code == 1 and without.stdout.startswith("legacy/old.py:8:9: BG101 ")


def test_try_repo_fails_on_a_bad_file_then_passes(tmp_path):
    if importlib.util.find_spec("pre_commit") is None:
        pytest.skip("pre-commit is not installed (pip install pre-commit; it needs a network to install)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    hook_repo = _snapshot(tmp_path / "bgcheck")
    home = tmp_path / "pre-commit-home"
    project = tmp_path / "project"
    project.mkdir()
    (project / "bad.py").write_text(BAD, encoding="utf-8")
    (project / "good.py").write_text(GOOD, encoding="utf-8")
    (project / "notes.txt").write_text("except asyncio.CancelledError: pass\n", encoding="utf-8")  # not Python: not checked
    (project / "legacy").mkdir()
    (project / "legacy" / "old.py").write_text(BAD, encoding="utf-8")  # excluded: pre-commit names it, the hook skips it
    (project / "pyproject.toml").write_text('[tool.bgcheck]\npreview = true\nextend-exclude = ["legacy"]\n', encoding="utf-8")  # BG101 is in preview
    _git(project, "init", "-q")
    _git(project, "add", "-A")

    failed = _try_repo(project, hook_repo, home)
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    assert re.search(r"^bgcheck\.+Failed$", output, re.M), output
    assert "bad.py:8:9: BG101 " in output
    assert "good.py:" not in output and "notes.txt" not in output and "legacy" not in output
    assert "2 files checked" in output

    (project / "bad.py").write_text(FIXED, encoding="utf-8")
    _git(project, "add", "-A")
    passed = _try_repo(project, hook_repo, home)
    output = passed.stdout + passed.stderr
    assert passed.returncode == 0, output
    assert re.search(r"^bgcheck\.+Passed$", output, re.M), output
