"""Issue 32, the everyday interface as a ruff user expects it: --force-exclude, the command line
over the configuration (--select over a configured ignore, --extend-select, --exclude,
--extend-exclude, --per-file-ignores), --show-settings, --add-noqa, --watch, -o into a new
folder, bare `bgcheck` printing its help, --diff and --statistics with fixes, malformed noqa."""

from __future__ import annotations

import os

import pytest

from test_cli import THREE_FINDINGS, project
from test_interface import cli

# THREE_FINDINGS' findings in concise form, by code.
BG105 = "{path}:6:5: BG105 `except asyncio.CancelledError` can finish without re-raising: the stop request is swallowed"
BG102 = "{path}:12:5: BG102 `except:` catches the cancellation and can finish without re-raising"
BG103 = "{path}:19:9: BG103 `return` inside `finally:` discards the CancelledError in flight"


def concise(*args: str):
    raw = cli("check", "--no-cache", "--format", "concise", *args)
    return raw.exit_code, raw.stdout, raw.stderr


def findings(*lines: str, path: str = "app.py", files: int = 1) -> str:
    shown = [line.format(path=path) for line in lines]
    count = len(shown)
    if not count:
        return f"All checks passed ({files} file{'s' if files != 1 else ''} checked).\n"
    summary = f"Found {count} problem{'s' if count != 1 else ''} ({count} error{'s' if count != 1 else ''}); {files} file{'s' if files != 1 else ''} checked."
    return "\n".join(shown + [summary]) + "\n"


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def configured(root, config: str, files=None):
    return project(root, files or {"app.py": THREE_FINDINGS}, config)


# ---------------------------------------------------------------------------
# 1. --force-exclude


def test_force_exclude_skips_named_files_the_configuration_excludes(app):
    configured(app, 'extend-exclude = ["legacy"]\n', {"legacy/old.py": THREE_FINDINGS, "app.py": "x = 1\n"})
    assert concise("legacy/old.py") == (1, findings(BG105, BG102, BG103, path="legacy/old.py"), "")
    assert concise("legacy/old.py", "--force-exclude") == (0, findings(files=0), "bgcheck: warning: no Python files found in legacy/old.py\n")
    # a named folder inside an excluded one, and a named file matched by a path pattern
    assert concise("legacy", "--force-exclude")[0] == 0
    assert concise("--exclude", "legacy/*.py", "legacy/old.py", "--force-exclude")[:2] == (0, findings(files=0))
    # the named files that are not excluded are still checked, against the whole project
    assert concise("legacy/old.py", "app.py", "--force-exclude")[:2] == (0, findings(files=1))


def test_force_exclude_can_be_configured_and_turned_off(app):
    configured(app, 'extend-exclude = ["legacy"]\nforce-exclude = true\n', {"legacy/old.py": THREE_FINDINGS})
    assert concise("legacy/old.py")[:2] == (0, findings(files=0))
    assert concise("legacy/old.py", "--no-force-exclude")[:2] == (1, findings(BG105, BG102, BG103, path="legacy/old.py"))


def test_force_exclude_leaves_the_default_exclusions_to_folders_walked(app):
    # a default exclusion (build) applies to a named file in it too, as in ruff
    configured(app, "", {"build/gen.py": THREE_FINDINGS})
    assert concise("build/gen.py", "--force-exclude")[:2] == (0, findings(files=0))
    assert concise("build/gen.py")[0] == 1


# ---------------------------------------------------------------------------
# 2. the command line over the configuration's rule selection


@pytest.mark.parametrize(
    ("config", "args", "expected"),
    [
        ('ignore = ["BG105"]\n', ("--select", "BG105"), [BG105]),  # --select starts over
        ('ignore = ["BG1"]\n', ("--select", "BG105,BG103"), [BG105, BG103]),
        ('select = ["BG102"]\nignore = ["BG105"]\n', ("--select", "BG1"), [BG105, BG102, BG103]),
        ('ignore = ["BG105"]\n', ("--extend-select", "BG105"), [BG105, BG102, BG103]),  # over the configured ignore
        ('select = ["BG102"]\n', ("--extend-select", "BG103"), [BG102, BG103]),
        ('select = ["BG102"]\n', ("--extend-select", "cancellation-swallowed"), [BG105, BG102]),  # a rule name
        ('ignore = ["BG1"]\n', ("--extend-select", "BG103", "--ignore", "BG103"), []),  # the command line's ignore wins
        ('select = ["BG105"]\n', ("--ignore", "BG105"), []),
        ("", ("--select", "BG105", "--extend-select", "BG102"), [BG105, BG102]),
    ],
)
def test_the_command_line_wins_over_the_configured_selection(app, config, args, expected):
    configured(app, config)
    code, out, _err = concise(*args)
    assert (code, out) == ((1 if expected else 0), findings(*expected))


def test_extend_select_names_a_rule_that_runs_only_when_named(app):
    configured(app, "", {"app.py": "x = 1  # noqa: BG105\n"})
    assert concise()[:2] == (0, findings())
    assert concise("--extend-select", "BG001")[:2] == (
        1,
        "app.py:1:8: BG001 [*] Unused `noqa` directive (unused: `BG105`)\nFound 1 problem (1 warning); 1 file checked.\n",
    )


# ---------------------------------------------------------------------------
# 3. the command-line forms of the configuration


def test_exclude_replaces_and_extend_exclude_adds(app):
    configured(app, 'extend-exclude = ["one.py"]\n', {"one.py": THREE_FINDINGS, "two.py": THREE_FINDINGS})
    assert concise("--select", "BG105")[:2] == (1, findings(BG105, path="two.py"))
    assert concise("--select", "BG105", "--extend-exclude", "two.py")[:2] == (0, findings(files=0))
    # --exclude replaces the configured exclude (not extend-exclude), as ruff's does
    assert concise("--select", "BG105", "--exclude", "two.py")[:2] == (0, findings(files=0))
    # the default exclusions are part of `exclude`: replacing them checks a build folder
    configured(app, "", {"build/gen.py": THREE_FINDINGS})
    (app / "one.py").unlink()
    (app / "two.py").unlink()
    assert concise("--select", "BG105", "--exclude", "nothing")[:2] == (1, findings(BG105, path="build/gen.py"))


def test_per_file_ignores_on_the_command_line(app):
    configured(app, '[tool.bgcheck.per-file-ignores]\n"one.py" = ["BG105"]\n', {"one.py": THREE_FINDINGS, "two.py": THREE_FINDINGS})
    base = ("--select", "BG105,BG102")
    assert concise(*base)[1] == findings(BG102.format(path="one.py"), BG105, BG102, path="two.py", files=2)
    # replaces the configured table
    assert concise(*base, "--per-file-ignores", "two.py:BG105,BG102")[1] == findings(BG105, BG102, path="one.py", files=2)
    # added to it
    assert concise(*base, "--extend-per-file-ignores", "two.py:BG1")[1] == findings(BG102, path="one.py", files=2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--per-file-ignores", "tests"), "Invalid value for '--per-file-ignores': expected PATTERN:CODES such as 'tests/*:BG301', got 'tests'"),
        (("--per-file-ignores", "tests/*:"), "Invalid value for '--per-file-ignores': expected PATTERN:CODES such as 'tests/*:BG301', got 'tests/*:'"),
        (("--extend-per-file-ignores", "tests/*:BG999"), "Invalid value for '--extend-per-file-ignores': unknown rule code 'BG999' (see `bgcheck rules`)"),
        (("--exclude", "[z-a]"), "Invalid value for '--exclude': bad pattern '[z-a]': bad character range z-a"),
        (("--extend-exclude", "a,[z-a]"), "Invalid value for '--extend-exclude': bad pattern '[z-a]': bad character range z-a"),
        (("--extend-select", "BG9"), "Invalid value for '--extend-select': unknown rule code 'BG9' (see `bgcheck rules`)"),
    ],
)
def test_bad_command_line_settings_are_one_line_errors(app, args, message):
    configured(app, "")
    raw = cli("check", "--no-cache", *args)
    hint = "" if "see `bgcheck rules`" in message else " (see `bgcheck check --help`)"
    assert (raw.exit_code, raw.stdout, raw.stderr) == (2, "", f"bgcheck: error: {message}{hint}\n")


# ---------------------------------------------------------------------------
# 3. --show-settings


def test_show_settings_prints_each_value_and_where_it_came_from(app):
    configured(app, 'ignore = ["BG104"]\nextend-exclude = ["legacy"]\ngrace-period = "45s"\n[tool.bgcheck.per-file-ignores]\n"tests/*" = ["BG301"]\n')
    raw = cli("check", "--show-settings", "--select", "BG104,BG1", "--ignore", "BG102", "--extend-exclude", "old", "--no-preview")
    assert (raw.exit_code, raw.stderr) == (0, "")
    assert raw.stdout == (
        "Configuration: pyproject.toml\n"
        "Project root: .\n"
        "Cache: .bgcheck_cache\n"
        "\n"
        'select = ["ALL"]                              # default\n'
        "extend-select = []                            # default\n"
        'ignore = ["BG104"]                            # pyproject.toml\n'
        "preview = false                               # pyproject.toml, --[no-]preview\n"
        'exclude = [".bzr", ".direnv", ".eggs", ".git", ".hg", ".mypy_cache", ".nox", ".pants.d", ".pytype", ".ruff_cache", ".svn", ".tox",'
        ' ".venv", "__pypackages__", "_build", "buck-out", "build", "dist", "node_modules", "site-packages", "venv", "__pycache__",'
        ' ".bgcheck_cache", "tests", "test", "*_tests", "testing", "test_support", "conftest.py", "tests.py", "test_*.py", "*_test.py",'
        ' "_vendor*", "vendored*"]'
        '  # default\n'
        'extend-exclude = ["legacy", "old"]            # pyproject.toml, --extend-exclude\n'
        "force-exclude = false                         # default\n"
        'per-file-ignores = { "tests/*" = ["BG301"] }  # pyproject.toml\n'
        'target-version = "py310"                      # default\n'
        "replicas = 1                                  # default\n"
        "grace-period = 45.0                           # pyproject.toml\n"
        "lock-ttl-margin = 1.0                         # default\n"
        "# runtimes-file: not set\n"
        "runtimes = {}                                 # default\n"
        'money = { "functions" = [], "name-patterns" = [] }  # default\n'
        "job-decorators = []                           # default\n"
        "# output-format: not set\n"
        "# show-source: not set\n"
        "# show-explanations: not set\n"
        "\n"
        "Command line, over the configured selection: --select BG104,BG1 --ignore BG102\n"
        "Rules checked (2): BG101, BG104\n"  # BG102, BG103, BG105 and BG106 are preview rules
    )
    assert not (app / ".bgcheck_cache").exists()  # it checks nothing, writes nothing


def test_show_settings_without_a_configuration(app):
    raw = cli("check", "--show-settings", "--no-cache")
    assert raw.exit_code == 0
    from bgcheck.rules import catalog

    # every rule but the preview ones and BG001 (it runs only when named), and BG000
    codes = ["BG000"] + [code for code, _name, _severity, _summary, preview, _fix in catalog.RULES if not preview and code != "BG001"]
    head, rules = raw.stdout.partition("\n\n")[0], raw.stdout.rstrip("\n").rsplit("\n", 1)[1]
    assert head == "Configuration: none (the defaults)\nProject root: .\nCache: none"
    assert rules == f"Rules checked ({len(codes)}): {', '.join(codes)}"


# ---------------------------------------------------------------------------
# 3. --add-noqa


def test_add_noqa_suppresses_every_current_finding(app):
    source = THREE_FINDINGS.replace("    except:\n", "    except:  # noqa: E722\n")
    configured(app, "", {"app.py": source, "clean.py": "x = 1\n"})
    raw = cli("check", "--no-cache", "--add-noqa")
    assert (raw.exit_code, raw.stdout, raw.stderr) == (0, "", "Added 3 noqa directives.\n")
    assert (app / "app.py").read_text(encoding="utf-8") == (
        source.replace("    except asyncio.CancelledError:\n", "    except asyncio.CancelledError:  # noqa: BG105 - TODO: say why this is safe\n")
        .replace("# noqa: E722\n", "# noqa: E722, BG102\n")
        .replace("        return 0\n", "        return 0  # noqa: BG103 - TODO: say why this is safe\n")
    )
    assert (app / "clean.py").read_text(encoding="utf-8") == "x = 1\n"
    assert concise()[:2] == (0, findings(files=2))
    again = cli("check", "--no-cache", "--add-noqa")
    assert (again.exit_code, again.stderr) == (0, "Added 0 noqa directives.\n")


def test_add_noqa_keeps_crlf_line_ends(app):
    configured(app, "", {"app.py": THREE_FINDINGS.replace("\n", "\r\n").encode()})
    assert cli("check", "--no-cache", "--add-noqa", "--select", "BG103").stderr == "Added 1 noqa directive.\n"
    data = (app / "app.py").read_bytes()
    assert data == THREE_FINDINGS.replace("return 0\n", "return 0  # noqa: BG103 - TODO: say why this is safe\n").replace("\n", "\r\n").encode()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--fix",), "--add-noqa cannot be combined with --fix"),
        (("--diff",), "--add-noqa cannot be combined with --diff"),
        (("-", "--stdin-filename", "app.py"), "--add-noqa writes the files it checks: it cannot read stdin"),
    ],
)
def test_add_noqa_usage_errors(app, args, message):
    configured(app, "")
    raw = cli("check", "--no-cache", "--add-noqa", *args, input="")
    assert (raw.exit_code, raw.stderr) == (2, f"bgcheck: error: {message} (see `bgcheck check --help`)\n")
    assert (app / "app.py").read_text(encoding="utf-8") == THREE_FINDINGS


# ---------------------------------------------------------------------------
# 5. bare `bgcheck` and `bgcheck server` print their help


@pytest.mark.parametrize("args", [(), ("server",)])
def test_a_bare_group_prints_its_help_as_click_does(app, args):
    from click.testing import CliRunner

    from bgcheck.cli import main

    raw = CliRunner().invoke(main, list(args), prog_name="bgcheck")
    helped = CliRunner().invoke(main, [*args, "--help"], prog_name="bgcheck")
    assert helped.exit_code == 0 and helped.stdout.startswith(f"Usage: bgcheck {' '.join(args)}".rstrip() + " [OPTIONS] COMMAND [ARGS]...\n")
    assert (raw.exit_code, raw.stdout, raw.stderr) == (2, "", helped.stdout)


# ---------------------------------------------------------------------------
# 3. --watch


def test_watch_checks_again_after_a_change(app, monkeypatch):
    from bgcheck.run import watch

    configured(app, "", {"app.py": THREE_FINDINGS})
    polls = []

    def sleep(seconds):
        polls.append(seconds)
        if len(polls) == 2:  # nothing changed at the first poll; then the file is fixed
            (app / "app.py").write_text("x = 1\n", encoding="utf-8")
            os.utime(app / "app.py", ns=(1, 1))  # a new stat even on a coarse clock

    monkeypatch.setattr(watch, "ROUNDS", 1)
    monkeypatch.setattr(watch, "SLEEP", sleep)
    raw = cli("check", "--no-cache", "--format", "concise", "--select", "BG102", "--watch")
    assert raw.exit_code == 0
    assert raw.stdout == findings(BG102) + findings()
    assert raw.stderr == "Watching for file changes (Ctrl-C to stop).\nFile change detected: checking again.\n"
    assert polls == [watch.POLL_SECONDS] * 2


def test_watch_reports_a_configuration_error_and_goes_on(app, monkeypatch):
    from bgcheck.run import watch

    configured(app, "replicas = 0\n", {"app.py": THREE_FINDINGS})

    def sleep(seconds):
        configured(app, "", {})  # the configuration is fixed

    monkeypatch.setattr(watch, "ROUNDS", 1)
    monkeypatch.setattr(watch, "SLEEP", sleep)
    raw = cli("check", "--no-cache", "--format", "concise", "--select", "BG103", "-w")
    assert (raw.exit_code, raw.stdout) == (0, findings(BG103))
    assert raw.stderr == (
        "Watching for file changes (Ctrl-C to stop).\n"
        "bgcheck: error: pyproject.toml: [tool.bgcheck] replicas: expected a positive integer, got 0\n"
        "File change detected: checking again.\n"
    )


@pytest.mark.parametrize("other", ["--fix", "--diff", "--add-noqa"])
def test_watch_usage_errors(app, other):
    configured(app, "")
    raw = cli("check", "--watch", other)
    assert (raw.exit_code, raw.stderr) == (2, f"bgcheck: error: --watch cannot be combined with {other} (see `bgcheck check --help`)\n")


# ---------------------------------------------------------------------------
# 4. --diff says what --unsafe-fixes would fix


def test_diff_with_only_unsafe_fixes_says_how_many_are_hidden(app):
    configured(app, "")
    raw = cli("check", "--no-cache", "--diff")
    assert (raw.exit_code, raw.stdout, raw.stderr) == (0, "", "No fixes available (2 hidden fixes can be enabled with the `--unsafe-fixes` option).\n")
    unsafe = cli("check", "--no-cache", "--diff", "--unsafe-fixes")
    assert (unsafe.exit_code, unsafe.stderr) == (1, "Would fix 2 problems.\n")
    assert (app / "app.py").read_text(encoding="utf-8") == THREE_FINDINGS


def test_diff_with_safe_fixes_counts_the_unsafe_ones_too(app):
    configured(app, "", {"app.py": THREE_FINDINGS, "noqa.py": "x = 1  # noqa: BG105\n"})
    raw = cli("check", "--no-cache", "--diff", "--extend-select", "BG001")
    assert raw.exit_code == 1
    assert raw.stdout == "--- a/noqa.py\n+++ b/noqa.py\n@@ -1 +1 @@\n-x = 1  # noqa: BG105\n+x = 1\n"
    assert raw.stderr == "Would fix 1 problem (2 additional fixes available with `--unsafe-fixes`).\n"


# ---------------------------------------------------------------------------
# 4. --show-fixes: each fixable finding's fix, as a diff under it


def test_show_fixes_prints_each_fixable_findings_diff_under_it(app):
    configured(app, "")
    raw = cli("check", "--no-cache", "--no-show-source", "--no-show-explanations", "--show-fixes", "--unsafe-fixes")
    assert raw.exit_code == 1
    assert raw.stdout == (
        "app.py:6:5: BG105 [*] `except asyncio.CancelledError` can finish without re-raising: the stop request is swallowed\n"
        "  fix: Re-raise the stop at the end of the handler (unsafe)\n"
        "    @@ -7 +7 @@\n"
        "    -        pass\n"
        "    +        raise\n"
        "\n"
        "app.py:12:5: BG102 [*] `except:` catches the cancellation and can finish without re-raising\n"
        "  fix: Catch `Exception` instead (unsafe)\n"
        "    @@ -12 +12 @@\n"
        "    -    except:\n"
        "    +    except Exception:\n"
        "\n"
        "app.py:19:9: BG103 `return` inside `finally:` discards the CancelledError in flight\n"
        "[*] 2 fixable with `--fix --unsafe-fixes`.\n"
        "Found 3 problems (3 errors); 1 file checked.\n"
    )
    assert (app / "app.py").read_text(encoding="utf-8") == THREE_FINDINGS  # shown, never written


def test_show_fixes_shows_only_what_this_run_could_fix(app):
    """Without --unsafe-fixes the unsafe fixes are not fixable: no diff, the hidden count as before;
    a safe fix (BG001's) is shown; --no-show-fixes and other formats print no diff."""
    configured(app, "", {"app.py": THREE_FINDINGS, "noqa.py": "x = 1  # noqa: BG105\n"})
    raw = cli("check", "--no-cache", "--no-show-source", "--no-show-explanations", "--show-fixes", "--extend-select", "BG001")
    assert raw.stdout == (
        BG105.format(path="app.py") + "\n" + BG102.format(path="app.py") + "\n" + BG103.format(path="app.py") + "\n"
        "noqa.py:1:8: BG001 [*] Unused `noqa` directive (unused: `BG105`)\n"
        "  fix: Remove the unused `noqa` codes (safe)\n"
        "    @@ -1 +1 @@\n"
        "    -x = 1  # noqa: BG105\n"
        "    +x = 1\n"
        "\n"
        "[*] 1 fixable with `--fix`.\n"
        "2 more fixes available with `--unsafe-fixes` (they can change behaviour: see each rule's page).\n"
        "Found 4 problems (3 errors, 1 warning); 2 files checked.\n"
    )
    plain = cli("check", "--no-cache", "--no-show-source", "--no-show-explanations", "--unsafe-fixes")
    assert plain.stdout == cli("check", "--no-cache", "--no-show-source", "--no-show-explanations", "--unsafe-fixes", "--no-show-fixes").stdout
    assert "fix:" not in plain.stdout
    assert "fix:" not in cli("check", "--no-cache", "--format", "concise", "--show-fixes", "--unsafe-fixes").stdout


def test_readme_show_fixes_sample_is_real(monkeypatch):
    from test_interface import REPO

    monkeypatch.chdir(REPO)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = "bgcheck check fixtures/demo_service --select BG102 --show-fixes --unsafe-fixes"
    sample = readme.split(f"$ {command}\n", 1)[1].split("...\n```", 1)[0]
    raw = cli(*command.split()[1:], "--no-cache", "--no-show-source", "--no-show-explanations")
    assert raw.stdout.startswith(sample) and raw.stdout[len(sample) :].startswith("Found 1 problem")


# ---------------------------------------------------------------------------
# 10. a malformed `# noqa` is warned of (ruff's words), once per directive, and never fails the run

MALFORMED = THREE_FINDINGS.replace("    except asyncio.CancelledError:\n", "    except asyncio.CancelledError:  # noqa BG105\n").replace(
    "    except:\n", "    except:  # noqa: see the ticket\n"
)
MISSING_COLON = "bgcheck: warning: Invalid `# noqa` directive on {path}:6: expected `:` followed by a comma-separated list of codes (e.g., `# noqa: BG101, BG102`).\n"
MISSING_CODES = "bgcheck: warning: Invalid `# noqa` directive on {path}:12: expected a comma-separated list of codes (e.g., `# noqa: BG101, BG102`).\n"


def test_a_malformed_noqa_is_warned_of_and_suppresses_nothing(app):
    configured(app, "", {"app.py": MALFORMED, "ok.py": "x = 1  # noqa\ny = 2  # noqa: BG105 because\nfrom m import z  # noqa F401\n"})
    raw = cli("check", "--no-cache", "--format", "concise")
    assert (raw.exit_code, raw.stdout) == (1, findings(BG105, BG102, BG103, files=2))
    assert raw.stderr == MISSING_COLON.format(path="app.py") + MISSING_CODES.format(path="app.py")


def test_malformed_noqa_warnings_on_cached_runs_named_files_and_stdin(app):
    configured(app, "", {"app.py": MALFORMED, "other.py": "x = 1  # noqa BG102\n"})
    other = "bgcheck: warning: Invalid `# noqa` directive on other.py:1: expected `:` followed by a comma-separated list of codes (e.g., `# noqa: BG101, BG102`).\n"
    expected = MISSING_COLON.format(path="app.py") + MISSING_CODES.format(path="app.py") + other
    cold = cli("check", "--format", "concise")
    warm = cli("check", "--format", "concise")
    assert (cold.stdout, cold.stderr) == (warm.stdout, warm.stderr) == (findings(BG105, BG102, BG103, files=2), expected)
    (app / "other.py").write_text("x = 1  # noqa BG102\ny = 2  # noqa BG105\n", encoding="utf-8")  # app.py's from the last run
    edited = cli("check", "--format", "concise")
    assert edited.stderr == expected + other.replace("other.py:1", "other.py:2")
    (app / "other.py").write_text("x = 1  # noqa BG102\n", encoding="utf-8")
    named = cli("check", "--format", "concise", "other.py")
    assert (named.exit_code, named.stdout, named.stderr) == (0, findings(), other)
    stdin = cli("check", "--no-cache", "--format", "concise", "-", "--stdin-filename", "app.py", input=MALFORMED)
    assert (stdin.exit_code, stdin.stderr) == (1, MISSING_COLON.format(path="app.py") + MISSING_CODES.format(path="app.py"))
    exit_zero = cli("check", "--no-cache", "--format", "concise", "--exit-zero")
    assert (exit_zero.exit_code, exit_zero.stderr) == (0, expected)


# ---------------------------------------------------------------------------
# 7. the README's `bgcheck jobs` sample is the whole output, exactly


def test_readme_jobs_sample_is_the_whole_output(monkeypatch):
    from test_interface import REPO

    monkeypatch.chdir(REPO)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    sample = readme.split("$ bgcheck jobs fixtures/demo_service\n", 1)[1].split("```", 1)[0]
    raw = cli("jobs", "fixtures/demo_service", "--no-cache")
    assert (raw.exit_code, raw.stdout) == (0, sample)


# ---------------------------------------------------------------------------
# 10. BG406's notes point at each join call, printed as written


def test_bg406_notes_point_at_each_wait_as_written(monkeypatch):
    from test_interface import REPO

    monkeypatch.chdir(REPO)
    raw = cli("check", "fixtures/demo_service", "--no-cache", "--select", "BG406", "--no-show-source", "--show-explanations")
    assert raw.stdout == (
        "fixtures/demo_service/shop/scheduler.py:74:5: BG406 The waits on this shutdown path (signal handler) add up to 35 s, more than the 30 s grace period\n"
        "  note: fixtures/demo_service/shop/scheduler.py:77:5: stop() waits 10 s: metrics.join(timeout=10)\n"
        "  note: fixtures/demo_service/shop/scheduler.py:78:5: stop() waits 25 s: audit.join(timeout=25)\n"
        "  why: The waits: metrics.join(timeout=10) in stop() + audit.join(timeout=25) in stop() = 35 s.\n"
        "       SIGKILL arrives before the last wait ends, and what it waited for is lost. Shorten the waits,\n"
        "       run them in parallel, or raise the grace period (terminationGracePeriodSeconds).\n"
        "\n"
        "Found 1 problem (1 error); 13 files checked.\n"
    )


def test_bg406_prints_a_constant_bound_by_its_name(app):
    configured(app, 'grace-period = "30s"', {
        "svc/__init__.py": "",
        "svc/main.py": (
            "import signal\nimport threading\n\nTIMEOUT = 20\nWORKER = threading.Thread(target=print)\n\n"
            "def on_term(signum, frame):\n    WORKER.join(TIMEOUT)\n    WORKER.join(2 * TIMEOUT)\n\nsignal.signal(signal.SIGTERM, on_term)\n"
        ),
    })
    raw = cli("check", "--no-cache", "--select", "BG406", "--no-show-source", "--no-show-explanations")
    # A limit of the summaries: a wait is placed at the first call of its target in the function
    # (FunctionSummary.call_sites), so two joins of one thread share a line; an argument that is
    # neither a literal nor a name is printed as its value.
    assert raw.stdout == (
        "svc/main.py:7:5: BG406 The waits on this shutdown path (signal handler) add up to 60 s, more than the 30 s grace period\n"
        "  note: svc/main.py:8:5: on_term() waits 20 s: WORKER.join(TIMEOUT)\n"
        "  note: svc/main.py:8:5: on_term() waits 40 s: WORKER.join(40)\n"
        "Found 1 problem (1 error); 2 files checked.\n"
    )
