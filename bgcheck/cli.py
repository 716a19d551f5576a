"""The command line: ``bgcheck check``, ``bgcheck rules``, ``bgcheck explain``.

Exit status: 0 no findings, 1 findings, 2 usage, configuration or internal
error (one line on stderr; a traceback only with ``--debug`` or
``BGCHECK_DEBUG=1``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
import threading
from pathlib import Path
from typing import Callable, Optional

import click

from bgcheck import __version__
from bgcheck import server as check_server
from bgcheck.diagnostics import BG000_CODE, BG000_NAME, BG000_SUMMARY, Severity
from bgcheck.rules import catalog
from bgcheck.rules.pages import read_page
from bgcheck.report import REPORTERS, ReportOptions

# Start-up matters (`bgcheck --version`, `rules`, `explain`, pre-commit hooks): what pulls in
# libcst (the rules, the engine, the cache's decoder) or the configuration's tables is
# imported where a command needs it, and rule metadata comes from the catalog, not the rules.
# tests/test_startup.py keeps it so.

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def all_rules():
    """The registered rules (imported on first use)."""
    from bgcheck.rules import all_rules as registered

    return registered()


def known_codes() -> list[str]:
    return [BG000_CODE] + [row[0] for row in catalog.RULES]


def catalog_code(key: str) -> Optional[str]:
    """The code of the rule a code or name (as `explain` and --select take them) designates."""
    key = key.strip()
    for code, name, *_rest in catalog.RULES:
        if key.upper() == code or key.lower() == name:
            return code
    return None


class UsageError(Exception):
    """A mistake in how bgcheck was called: exit 2 with a one-line message."""


def _debug_enabled(ctx: Optional[click.Context] = None) -> bool:
    if os.environ.get("BGCHECK_DEBUG", "") not in ("", "0"):
        return True
    root = ctx.find_root() if ctx else None
    return bool(root and root.params.get("debug"))


def _fail(message: str) -> None:
    click.echo(f"bgcheck: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def _run_guarded(work: Callable[[], int]) -> int:
    """Run ``work`` in a big-stack thread; turn every failure into exit 2."""
    outcome: dict = {}

    def target() -> None:
        try:
            outcome["code"] = work()
        except BaseException as exc:  # re-raised below in the main thread
            outcome["error"] = exc
            import traceback  # only on a failure: start-up

            outcome["traceback"] = traceback.format_exc()

    # A big stack and a raised recursion limit (run/process.py): libcst walks trees recursively.
    from bgcheck.load import bg000
    from bgcheck.run.process import STACK_BYTES, raise_recursion_limit, tune_gc

    # A failure on one file is that file's BG000; with --debug its traceback goes to stderr too.
    bg000.DEBUG = _debug_enabled(click.get_current_context(silent=True))
    tune_gc()
    previous_stack = threading.stack_size()
    threading.stack_size(STACK_BYTES)
    previous_limit = raise_recursion_limit()
    try:
        thread = threading.Thread(target=target, name="bgcheck")
        thread.start()
        thread.join()
    finally:
        threading.stack_size(previous_stack)
        sys.setrecursionlimit(previous_limit)
    error = outcome.get("error")
    if error is None:
        return outcome["code"]
    from bgcheck.load.config import ConfigError

    from bgcheck.run.parallel import WorkerError  # (imported by then, if a worker ran)

    if isinstance(error, (ConfigError, UsageError, WorkerError)):
        _fail(str(error))
    if isinstance(error, FileNotFoundError):
        _fail(f"no such file or folder: {error.filename or error}")
    if isinstance(error, KeyboardInterrupt):
        raise error
    if isinstance(error, click.exceptions.Exit):
        raise error
    if _debug_enabled(click.get_current_context(silent=True)):
        click.echo(outcome["traceback"], err=True)
    else:
        click.echo(
            f"bgcheck: internal error: {type(error).__name__}: {error} (run 'bgcheck --debug ...' for the traceback)", err=True
        )
    sys.exit(EXIT_ERROR)


_CODE_PATTERN = re.compile(r"^BG[0-9]{0,3}$")


def _parse_codes(values: tuple[str, ...], option: str) -> Optional[tuple[str, ...]]:
    """``--select BG1,BG201 --select cancellation-swallowed`` -> ("BG1", "BG201", "BG101");
    codes, prefixes, "ALL" and rule names (as ``explain`` takes them), validated."""
    if not values:
        return None
    known = known_codes()
    codes: list[str] = []
    for value in values:
        for raw in value.split(","):
            code = raw.strip().upper()
            if not code:
                continue
            if code == "ALL":
                code = "BG"
            if raw.strip().lower() == BG000_NAME:
                code = BG000_CODE
            elif not _CODE_PATTERN.match(code):
                named = catalog_code(raw.strip())
                if named is not None:
                    code = named
            if not _CODE_PATTERN.match(code) or not any(k.startswith(code) for k in known):
                raise click.BadParameter(f"unknown rule code {raw.strip()!r} (see `bgcheck rules`)", param_hint=f"'{option}'")
            codes.append(code)
    return tuple(codes)


def _alone(option: str, what_it_does: str, modes: dict, paths, others: tuple[str, ...]) -> None:
    """A usage error when ``option`` is given with one of ``others`` (of ``modes``: option -> value)
    or with stdin as the path."""
    clash = [name for name in others if modes[name]]
    if clash:
        raise click.UsageError(f"{option} cannot be combined with {clash[0]}")
    if any(str(p) == "-" for p in paths):
        raise click.UsageError(f"{option} {what_it_does}: it cannot read stdin")


def _parse_patterns(values: tuple[str, ...], option: str) -> Optional[tuple[str, ...]]:
    """``--exclude legacy,build --exclude "src/old/*"`` -> the patterns, each checked as the
    configuration's are (relative to the project root, as there)."""
    from bgcheck.load.files import glob_error

    if not values:
        return None
    patterns = []
    for value in values:
        for raw in value.split(","):
            pattern = raw.strip()
            reason = glob_error(pattern) if pattern else None
            if reason is not None:
                raise click.BadParameter(f"bad pattern {pattern!r}: {reason}", param_hint=f"'{option}'")
            if pattern:
                patterns.append(pattern)
    return tuple(patterns)


def _parse_per_file_ignores(values: tuple[str, ...], option: str) -> Optional[tuple[tuple[str, tuple[str, ...]], ...]]:
    """``--per-file-ignores "tests/*:BG301,BG302"`` -> (("tests/*", ("BG301", "BG302")),), as
    the configuration's table holds them (ruff's PATTERN:CODE form, with a list of codes)."""
    if not values:
        return None
    pairs = []
    for value in values:
        pattern, colon, codes = value.rpartition(":")
        if not colon or not pattern.strip() or not codes.strip():
            raise click.BadParameter(f"expected PATTERN:CODES such as 'tests/*:BG301', got {value!r}", param_hint=f"'{option}'")
        (pattern,) = _parse_patterns((pattern,), option)
        pairs.append((pattern, _parse_codes((codes,), option)))
    return tuple(pairs)


def _with_command_line(config, overrides: dict):
    """The configuration with the command line's settings over it. ``overrides`` maps a TOML key
    to (the option's value, or None when it is not given; whether it replaces the configured
    value, else it extends it); ``extend-per-file-ignores`` extends ``per-file-ignores``."""
    for key, (value, replaces) in overrides.items():
        if value is not None:
            name = ("per-file-ignores" if key == "extend-per-file-ignores" else key).replace("-", "_")
            config = dataclasses.replace(config, **{name: value if replaces else tuple(getattr(config, name)) + tuple(value)})
    return config


class _Group(click.Group):
    """click's group, with usage errors as one line: ``bgcheck: error: ...`` and exit 2
    (click's own prints the usage and an ``Error:`` line)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        # The command line as given: `bgcheck check` hands it to a check server (bgcheck/server.py).
        self.given_args = list(args) if args is not None else sys.argv[1:]
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            # bare `bgcheck` or `bgcheck server`: the help as click prints it (stderr, exit 2), not one line
            exc.show()
            sys.exit(EXIT_ERROR)
        except click.UsageError as exc:
            message = " ".join(exc.format_message().split()).rstrip(".")
            hint = ""
            if exc.ctx is not None and "see `bgcheck" not in message:
                hint = f" (see `{' '.join(['bgcheck', *exc.ctx.command_path.split()[1:]])} --help`)"
            click.echo(f"bgcheck: error: {message}{hint}", err=True)
            sys.exit(EXIT_ERROR)
        except click.Abort:
            click.echo("bgcheck: error: aborted", err=True)
            sys.exit(EXIT_ERROR)
        except click.ClickException as exc:
            click.echo(f"bgcheck: error: {' '.join(exc.format_message().split())}", err=True)
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else EXIT_OK)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="bgcheck")
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
def main(debug: bool) -> None:
    """bgcheck: find background-job code that loses or duplicates work when a process stops or scales out."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "chosen_format", type=click.Choice(sorted(REPORTERS)), default=None, help="[default: the configured output-format, else text]")
@click.option(
    "--select", multiple=True, help="Only these codes, prefixes or rule names (comma-separated; replaces the configured select, extend-select and ignore)."
)
@click.option("--extend-select", multiple=True, help="Also these codes, prefixes or rule names (comma-separated; over the configured ignore).")
@click.option("--ignore", multiple=True, help="Skip these codes, prefixes or rule names (comma-separated; over the configured select).")
@click.option("--exclude", multiple=True, help="Skip files and folders matching these patterns (comma-separated; replaces the configured exclude).")
@click.option("--extend-exclude", multiple=True, help="Also skip these patterns (comma-separated; added to the configured extend-exclude).")
@click.option(
    "--force-exclude/--no-force-exclude",
    default=None,
    help="Apply the exclusions to paths named on the command line too, as pre-commit needs (default: the configured force-exclude, else off).",
)
@click.option(
    "--per-file-ignores", multiple=True, metavar="PATTERN:CODES", help="Skip CODES in files matching PATTERN (repeatable; replaces the configured per-file-ignores)."
)
@click.option("--extend-per-file-ignores", multiple=True, metavar="PATTERN:CODES", help="As --per-file-ignores, added to the configured ones.")
@click.option("--add-noqa", is_flag=True, help="Add a `# noqa: CODE` (with a reason to fill in) for every finding, and exit 0.")
@click.option("--watch", "-w", "watch_files", is_flag=True, help="Check again whenever a file changes, until Ctrl-C.")
@click.option("--show-settings", is_flag=True, help="Print the resolved settings, where each came from and the rules checked; check nothing.")
@click.option("--output-file", "-o", "output_file", type=click.Path(path_type=Path, dir_okay=False), help="Write the report to FILE instead of stdout.")
@click.option("--stdin-filename", type=click.Path(path_type=Path), help="With PATH `-`: read the source from stdin and check it as this file of its project.")
@click.option("--config", "config_file", type=click.Path(path_type=Path), help="Use this pyproject.toml or bgcheck.toml.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings (errors still exit 2).")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("--show-source/--no-show-source", default=None, help="Code frames under each finding (default: on a terminal).")
@click.option(
    "--show-explanations/--no-show-explanations",
    default=None,
    help="Under each finding, what a stop does to this code and how to fix it (default: on a terminal).",
)
@click.option(
    "--show-fixes/--no-show-fixes",
    default=False,
    help="Under each finding this run can fix ([*]), the lines its fix changes, as a diff (text output).",
)
@click.option("--statistics", is_flag=True, help="Count findings by rule.")
@click.option("--quiet", "-q", is_flag=True, help="Print findings only, no summary line.")
@click.option("--runtimes", "runtimes_file", type=click.Path(path_type=Path), help="Measured job runtimes (CSV job,seconds; JSON; or a Prometheus query result).")
@click.option("--baseline", "baseline_file", type=click.Path(path_type=Path), help="Report only findings not recorded in this baseline.")
@click.option("--write-baseline", "write_baseline_file", type=click.Path(path_type=Path), help="Record today's findings in this file and exit 0.")
@click.option("--jobs", "-j", "jobs", type=click.IntRange(min=1), default=None, help="Processes for per-file work (default: one per CPU).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the result cache.")
@click.option("--cache-dir", type=click.Path(path_type=Path), default=None, help="Where the cache lives (default: .bgcheck_cache at the project root, else in the working folder).")
@click.option("--verbose", "-v", is_flag=True, help="Also say what was not checked and why (e.g. lock TTLs that do not fold).")
@click.option("--preview/--no-preview", default=None, help="Also run preview rules (default: the configured `preview`, else off).")
@click.option("--fix", "apply_fixes", is_flag=True, help="Apply the safe fixes to the files (with `-`: print the fixed source).")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply (with --fix or --diff) or offer the fixes that can change behaviour.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the fixes as a unified diff and write nothing (exit 1 when there is a diff).")
@click.option(
    "--server/--no-server",
    "use_server",
    default=None,
    help="Run on the project's check server, starting one if none runs (--no-server: in this process) [default: on a running one].",
)
def check(
    paths,
    chosen_format,
    select,
    extend_select,
    ignore,
    exclude,
    extend_exclude,
    force_exclude,
    per_file_ignores,
    extend_per_file_ignores,
    add_noqa,
    watch_files,
    show_settings,
    output_file,
    stdin_filename,
    config_file,
    exit_zero,
    color,
    show_source,
    show_explanations,
    show_fixes,
    statistics,
    quiet,
    runtimes_file,
    baseline_file,
    write_baseline_file,
    jobs,
    no_cache,
    cache_dir,
    verbose,
    preview,
    apply_fixes,
    unsafe_fixes,
    show_diff,
    use_server,
) -> None:
    """Check PATHS (files or folders; default: the current folder)."""
    if show_diff and write_baseline_file is not None:
        raise click.UsageError("--diff writes nothing: it cannot be combined with --write-baseline")
    modes = {"--fix": apply_fixes, "--diff": show_diff, "--add-noqa": add_noqa, "--write-baseline": write_baseline_file}
    if add_noqa:
        _alone("--add-noqa", "writes the files it checks", modes, paths, ("--fix", "--diff", "--write-baseline"))
    if watch_files:
        _alone("--watch", "watches files", modes, paths, ("--fix", "--diff", "--add-noqa", "--write-baseline"))
    select_codes = _parse_codes(select, "--select")
    extend_select_codes = _parse_codes(extend_select, "--extend-select") or ()
    ignore_codes = _parse_codes(ignore, "--ignore") or ()
    # The configuration's keys the command line sets, in TOML spelling: (value, replaces it).
    overrides = {
        "exclude": (_parse_patterns(exclude, "--exclude"), True),
        "extend-exclude": (_parse_patterns(extend_exclude, "--extend-exclude"), False),
        "per-file-ignores": (_parse_per_file_ignores(per_file_ignores, "--per-file-ignores"), True),
        "extend-per-file-ignores": (_parse_per_file_ignores(extend_per_file_ignores, "--extend-per-file-ignores"), False),
        "force-exclude": (force_exclude, True),
        "preview": (preview, True),
    }
    reads_stdin = any(str(p) == "-" for p in paths)
    if reads_stdin and stdin_filename is None:
        raise click.UsageError("`-` reads the source from stdin: name the file it is with --stdin-filename PATH")
    if stdin_filename is not None and any(str(p) != "-" for p in paths):
        raise click.UsageError("--stdin-filename checks stdin only: give `-` as the only path")
    if stdin_filename is not None and str(stdin_filename) in ("", "-"):
        raise click.BadParameter("name the file the source on stdin is (a path ending in .py)", param_hint="'--stdin-filename'")
    stdin = None
    if stdin_filename is not None:
        stdin = (stdin_filename, _read_stdin())
        paths = (stdin_filename,)
    paths = tuple(paths) or (Path("."),)
    given = getattr(click.get_current_context().find_root().command, "given_args", None)
    if given is not None and not check_server.LOOKED and not watch_files:
        code = check_server.client_check(given, paths, config_file, cache_dir, no_cache, use_server, stdin[1] if stdin else None)
        if code is not None:
            sys.exit(code)

    def work() -> int:
        from bgcheck.load.cache import open_cache
        from bgcheck.load.config import load_config
        from bgcheck.run.engine import RunRequest, run

        start = paths[0] if paths[0].is_dir() else paths[0].parent
        config = _with_command_line(load_config(config_file, start=start, known_codes=known_codes()), overrides)
        if show_settings:
            return _show_settings(config, overrides, cache_dir if not no_cache else None, no_cache, select_codes, extend_select_codes, ignore_codes)
        output_format = chosen_format or config.output_format or "text"
        from bgcheck.report.baseline import read_baseline, write_baseline

        known_findings = read_baseline(baseline_file) if baseline_file else None  # a bad baseline fails early
        # stdin outside any project (an editor's unsaved buffer): no cache in the working folder
        cache = open_cache(config, cache_dir, enabled=not no_cache and (stdin is None or config.in_project or cache_dir is not None))
        selection = {"select": select_codes, "ignore": ignore_codes, "extend_select": extend_select_codes}
        request = RunRequest(paths, config, **selection, runtimes_file=runtimes_file, jobs=jobs, cache=cache, need_index=verbose, stdin=stdin)
        result = run(request)
        for warning in _preview_warnings(config, select_codes, extend_select_codes) + result.warnings:
            click.echo(f"bgcheck: warning: {warning}", err=True)
        fixed = None
        if apply_fixes or show_diff:
            from bgcheck.run.fixes import fix_run

            def recheck(display: str, data: bytes) -> list:
                return run(dataclasses.replace(request, paths=(), jobs=1, need_index=False, stdin=(Path(display), data))).diagnostics

            fixed = fix_run(result, recheck, unsafe_fixes, stdin=stdin, write=apply_fixes and not show_diff and stdin is None)
            if show_diff:
                return _print_diff(fixed, result, unsafe_fixes)
        _warn_about_the_run(result, paths, verbose)
        if add_noqa:
            return _add_noqa(result)
        if write_baseline_file is not None:
            count = write_baseline(write_baseline_file, result)
            click.echo(f"Wrote {count} finding{'s' if count != 1 else ''} to the baseline {write_baseline_file}.", err=True)
            return EXIT_OK
        if known_findings is not None:
            _apply_baseline(result, known_findings)
        # With `- --fix` the fixed source goes to stdout, as ruff does, and the report to stderr.
        source_out = stdin is not None and fixed is not None
        is_tty = output_file is None and (sys.stderr if source_out else sys.stdout).isatty()
        options = ReportOptions(
            color=_use_color(color, is_tty, to_file=output_file is not None) if output_format in ("text", "concise") else False,
            show_source=_first_set(show_source, config.show_source, is_tty) and output_format == "text",
            show_explanations=_first_set(show_explanations, config.show_explanations, is_tty) and output_format == "text",
            show_fixes=show_fixes and output_format == "text",
            statistics=statistics,
            quiet=quiet,
            unsafe_fixes=unsafe_fixes,
            fix_mode=fixed is not None,
        )
        report = REPORTERS[output_format](result, options)
        if source_out:
            sys.stdout.buffer.write(fixed.stdin_output)
            sys.stdout.flush()
        _write_report(report, output_file, options.color, to_stderr=source_out)
        if result.diagnostics and not exit_zero:
            return EXIT_FINDINGS
        return EXIT_OK

    if watch_files:
        sys.exit(_watch(work, paths, config_file))
    sys.exit(_run_guarded(work))


def _watch(work: Callable[[], int], paths, config_file) -> int:
    """--watch: a run, then one after each change; an error (a configuration being edited) is
    reported and watching goes on. Ctrl-C ends it, exit 0."""
    from bgcheck.run import watch

    def run_once() -> None:
        try:
            _run_guarded(work)
        except SystemExit:  # the run's exit code, or an error already reported on stderr
            pass

    try:
        watch.watch(run_once, paths, [config_file] if config_file else [], lambda line: click.echo(line, err=True))
    except KeyboardInterrupt:
        pass
    return EXIT_OK


# The options that set each configuration key, for --show-settings.
_OVERRIDE_OPTIONS = {
    "exclude": "--exclude",
    "extend-exclude": "--extend-exclude",
    "per-file-ignores": "--per-file-ignores",
    "extend-per-file-ignores": "--extend-per-file-ignores",
    "force-exclude": "--[no-]force-exclude",
    "preview": "--[no-]preview",
}


def _show_settings(config, overrides: dict, cache_dir, no_cache: bool, select_codes, extend_select_codes, ignore_codes) -> int:
    from bgcheck.load.discovery import cache_folder
    from bgcheck.load.source import display_path
    from bgcheck.report.settings import render_settings
    from bgcheck.run.engine import enabled_codes, selected

    options: dict[str, list[str]] = {}
    for key, (value, _replaces) in overrides.items():
        if value is not None:
            options.setdefault("per-file-ignores" if key == "extend-per-file-ignores" else key, []).append(_OVERRIDE_OPTIONS[key])
    selection = [f"--select {','.join(select_codes)}"] if select_codes is not None else []
    selection += [f"{option} {','.join(codes)}" for option, codes in (("--extend-select", extend_select_codes), ("--ignore", ignore_codes)) if codes]
    codes = enabled_codes(config, select_codes, ignore_codes, extend_select_codes)
    if selected(BG000_CODE, config, select_codes, ignore_codes, extend_select_codes):
        codes = [BG000_CODE, *codes]
    cache = None if no_cache else cache_folder(config.root, config.in_project, cache_dir)
    click.echo(render_settings(config, options, selection, codes, cache, display_path), nl=False)
    return EXIT_OK


def _warn_about_the_run(result, paths, verbose: bool) -> None:
    """On stderr: no file found, no rule selected; under --verbose, what was not checked and why."""
    if not result.files_checked:
        shown = ", ".join(str(p) for p in paths)
        click.echo(f"bgcheck: warning: no Python files found in {shown}", err=True)
    if not result.codes:
        click.echo("bgcheck: warning: no rules selected: select, extend-select, ignore and preview leave nothing to check", err=True)
    if verbose:
        for note in result.notes + _unanalysed(result.diagnostics) + _skipped_checks(result.index, result.checked_paths):
            click.echo(f"bgcheck: note: {note}", err=True)


def _add_noqa(result) -> int:
    """--add-noqa: the directives written, a count on stderr (as ruff's), exit 0."""
    from bgcheck.run.add_noqa import add_noqa

    added, warnings = add_noqa(result)
    for warning in warnings:
        click.echo(f"bgcheck: warning: {warning}", err=True)
    click.echo(f"Added {added} noqa directive{'s' if added != 1 else ''}.", err=True)
    return EXIT_OK


def _apply_baseline(result, known_findings) -> None:
    """Leave out the findings the baseline records; say on stderr how many of its entries are gone."""
    from bgcheck.report.baseline import apply_baseline

    gone = apply_baseline(result, known_findings)
    if gone:
        click.echo(
            f"bgcheck: {gone} baseline {'entries no longer occur' if gone != 1 else 'entry no longer occurs'} "
            "(update the baseline with --write-baseline).",
            err=True,
        )


def _write_report(report: str, output_file: Optional[Path], color: bool, to_stderr: bool) -> None:
    """The report to --output-file, else to stdout (stderr when stdout carries the fixed source)."""
    if output_file is not None:
        try:
            output_file.parent.mkdir(parents=True, exist_ok=True)  # as ruff's -o: a report folder need not exist yet
            output_file.write_text(report, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write the report to {output_file}: {exc.strerror or exc}") from None
    else:
        # color=True: click strips escapes when stdout is not a terminal, even with --color always
        click.echo(report, nl=False, color=color or None, err=to_stderr)


def _print_diff(fixed, result, unsafe_fixes: bool) -> int:
    """--diff: the fixes as a unified diff on stdout, a count on stderr (with how many more
    --unsafe-fixes would make, in ruff's words); exit 1 when there is a diff."""
    from bgcheck.diagnostics import fix_counts
    from bgcheck.report.counts import plural

    diffs = [outcome.diff() for outcome in fixed.files if outcome.changed]
    if diffs:
        click.echo("".join(diffs), nl=False)
    count = fixed.fixed_count
    _fixable, hidden = fix_counts(result.diagnostics, unsafe_fixes)  # the findings left: those the safe fixes did not fix
    if count:
        more = f" ({plural(hidden, 'additional fix', 'additional fixes')} available with `--unsafe-fixes`)" if hidden else ""
        click.echo(f"Would fix {plural(count, 'problem')}{more}.", err=True)
    else:
        more = f" ({plural(hidden, 'hidden fix', 'hidden fixes')} can be enabled with the `--unsafe-fixes` option)" if hidden else ""
        click.echo(f"No fixes available{more}.", err=True)
    return EXIT_FINDINGS if diffs else EXIT_OK


def _first_set(option: Optional[bool], configured: Optional[bool], default: bool) -> bool:
    """The command line's choice, else the configuration's, else the default."""
    return default if option is None and configured is None else bool(option if option is not None else configured)


def _use_color(choice: str, is_tty: bool, to_file: bool) -> bool:
    """--color always; else (auto) on a terminal or with FORCE_COLOR set, unless NO_COLOR is
    set (https://no-color.org, https://force-color.org). A report file gets colour only with always."""
    if choice != "auto":
        return choice == "always"
    if to_file or os.environ.get("NO_COLOR"):
        return False
    return is_tty or bool(os.environ.get("FORCE_COLOR"))


def _read_stdin() -> bytes:
    from bgcheck.load.source import MAX_FILE_BYTES

    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise click.UsageError("stdin is closed: nothing to check")
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise click.UsageError(f"stdin holds more than the {MAX_FILE_BYTES // 1048576} MiB a file may have")
    return data


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--config", "config_file", type=click.Path(path_type=Path), help="Use this pyproject.toml or bgcheck.toml.")
@click.option("--runtimes", "runtimes_file", type=click.Path(path_type=Path), help="Measured job runtimes to show beside lock TTLs.")
@click.option("--jobs", "-j", "jobs_count", type=click.IntRange(min=1), default=None, help="Processes for per-file work (default: one per CPU).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the result cache.")
@click.option("--cache-dir", type=click.Path(path_type=Path), default=None, help="Where the cache lives.")
def jobs(paths, output_format, config_file, runtimes_file, jobs_count, no_cache, cache_dir) -> None:
    """List every background job bgcheck found in PATHS: how it runs, when, and under what limits."""
    paths = tuple(paths) or (Path("."),)

    def work() -> int:
        from bgcheck.load.cache import open_cache
        from bgcheck.load.config import load_config
        from bgcheck.run.engine import collect_project

        start = paths[0] if paths[0].is_dir() else paths[0].parent
        config = load_config(config_file, start=start, known_codes=known_codes())
        cache = open_cache(config, cache_dir, enabled=not no_cache)
        index, errors = collect_project(paths, config, runtimes_file, jobs=jobs_count, cache=cache)
        found = sorted(index.jobs, key=lambda j: (j.path, j.line, j.name, j.kind, j.framework))
        if output_format == "json":
            document = {"version": __version__, "jobs": [_job_document(index, job) for job in found]}
            click.echo(json.dumps(document, indent=2))
        else:
            click.echo(_jobs_table(index, found))
        from bgcheck.model.jobs import inventory_warning

        for label, module in index.frameworks_without_jobs:
            click.echo(f"bgcheck: warning: {inventory_warning(label, module)}", err=True)
        for error in errors:
            loc = error.location
            click.echo(f"{loc.path}:{loc.line}:{loc.column}: {error.code} {error.message}", err=True)
        return EXIT_OK

    sys.exit(_run_guarded(work))


def _unanalysed(diagnostics) -> list[str]:
    """What --verbose adds to each BG000: why the file was not analysed, in full (the message is one short line)."""
    return [
        f"{d.location.path}:{d.location.line}: BG000: {d.explanation}"
        for d in diagnostics
        if d.code == BG000_CODE and d.explanation
    ]


def _skipped_checks(index, checked: frozenset) -> list[str]:
    """What --verbose explains: locks whose TTL could not be folded, and method calls whose receiver's
    type is not known, so the rules that match that method did not look (never guessed). Only in the
    files the run checks: the rest of the project is modelled, not reported on."""
    notes = []
    for site in index.locks if index else ():
        if site.ttl is None and site.path in checked:
            key = f"`{site.key}`" if site.key else "a lock"
            where = f"{site.path}:{site.line}" if site.line else site.path
            notes.append(f"{where}: {key} in {site.function.rsplit('.', 1)[-1]}() ({site.api}): TTL not checked: {site.ttl_note}")
    if index is not None:
        notes.extend(index.unknown_receivers(checked))
    return notes


def _job_locks(index, job) -> list[dict]:
    """The locks a job's code takes, each with the runtime it is held against."""
    from bgcheck.model.locks import runtime_for

    found = []
    for site in index.locks:
        if any(holder is job for holder in site.jobs):
            runtime, key = runtime_for(index.runtimes, [job], site.key)
            entry = site.to_dict()
            entry["runtime_seconds"] = runtime.seconds if runtime else None
            entry["runtime_source"] = runtime.source if runtime else None
            found.append(entry)
    return found


def _job_document(index, job) -> dict:
    document = job.to_dict()
    document["locks"] = _job_locks(index, job)
    return document


def _lock_cell(lock: dict) -> str:
    ttl = "no TTL" if lock["never_expires"] else (f"TTL {lock['ttl_seconds']:g} s" if lock["ttl_seconds"] is not None else "TTL ?")
    runtime = f" vs runtime {lock['runtime_seconds']:g} s" if lock["runtime_seconds"] is not None else ""
    return f"{lock['key'] or '?'} ({ttl}{runtime})"


def _jobs_table(index, found) -> str:
    from bgcheck.report.jobs_table import render_jobs_table

    rows = [
        {
            "job": job.name,
            "kind": job.kind,
            "framework": job.framework,
            "schedule": job.schedule.describe() if job.schedule else "-",
            "limits": ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in sorted(job.limits.items())),
            "locks": "; ".join(_lock_cell(lock) for lock in _job_locks(index, job)),
            "via": job.via or "",
            "location": f"{job.path}:{job.line}" if job.line else job.path,
        }
        for job in found
    ]
    return render_jobs_table(rows)


@main.group("server")
def server_group() -> None:
    """A background process that keeps bgcheck loaded for a project: `bgcheck check` then runs on it."""


_PATH_ARGUMENT = click.argument("path", required=False, type=click.Path(path_type=Path))
_CONFIG_OPTION = click.option("--config", "config_file", type=click.Path(path_type=Path), help="The configuration bgcheck check is given, if any.")
_CACHE_OPTION = click.option("--cache-dir", type=click.Path(path_type=Path), default=None, help="The cache folder bgcheck check is given, if any.")


def _server_folder(path, config_file, cache_dir) -> Path:
    """The cache folder whose server the command is about (one server per cache folder)."""
    from bgcheck.load.config import ConfigError

    try:
        folder = check_server.locate((path,) if path else (), config_file, cache_dir)
    except ConfigError as exc:
        _fail(str(exc))
    if folder is None:
        _fail(f"{path or '.'} has no cache folder (it is in no project, or its .bgcheck_cache is a link): give --cache-dir")
    return folder


@server_group.command("start")
@_PATH_ARGUMENT
@_CONFIG_OPTION
@_CACHE_OPTION
@click.option("--idle-timeout", default="30m", show_default=True, help="Stop after this long without a request (seconds, or 90s, 5m, 1h).")
def server_start(path, config_file, cache_dir, idle_timeout) -> None:
    """Start the check server of the project PATH (default: the current folder) belongs to."""
    from bgcheck.load.config import parse_duration

    try:
        seconds = parse_duration(idle_timeout)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--idle-timeout'") from None
    started, message = check_server.start(_server_folder(path, config_file, cache_dir), seconds)
    click.echo(message, err=not started)
    sys.exit(EXIT_OK if started else EXIT_ERROR)


@server_group.command("stop")
@_PATH_ARGUMENT
@_CONFIG_OPTION
@_CACHE_OPTION
def server_stop(path, config_file, cache_dir) -> None:
    """Stop the check server of the project PATH belongs to."""
    click.echo(check_server.stop(_server_folder(path, config_file, cache_dir)))


@server_group.command("status")
@_PATH_ARGUMENT
@_CONFIG_OPTION
@_CACHE_OPTION
def server_status(path, config_file, cache_dir) -> None:
    """Say whether a check server runs for the project PATH belongs to."""
    click.echo(check_server.status(_server_folder(path, config_file, cache_dir)))


@server_group.command("serve", hidden=True)
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--idle-timeout", type=float, default=check_server.DEFAULT_IDLE_TIMEOUT)
def server_serve(folder, idle_timeout) -> None:
    """The server process itself (`server start` runs it, detached)."""
    check_server.serve(folder, idle_timeout, handler=_serve_request, warm=_warm_server)


def _serve_request(argv: list) -> int:
    """One request in the server: the command line, in this process; its exit code."""
    try:
        main.main(args=argv, prog_name="bgcheck")
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        click.echo(str(exc.code), err=True)
        return EXIT_FINDINGS
    return EXIT_OK


def _warm_server() -> None:
    """What a run imports, imported once by the server."""
    import bgcheck.load.cache  # noqa: F401
    import bgcheck.report.baseline  # noqa: F401
    import bgcheck.run.engine  # noqa: F401
    import bgcheck.run.fixes  # noqa: F401

    all_rules()


@main.command()
def lsp() -> None:
    """Run the language server over stdio (diagnostics, fixes and noqa code actions, rule pages on hover)."""
    try:
        from bgcheck.language_server import serve
    except ImportError as exc:  # pygls is an optional extra
        _fail(f"the language server needs pygls: pip install 'pygls>=2,<3' into bgcheck's environment, or install bgcheck with its lsp extra ('.[lsp]' from a clone) ({exc})")
    from bgcheck.load import bg000

    bg000.DEBUG = _debug_enabled(click.get_current_context(silent=True))
    serve()


def _preview_warnings(config, select_codes, extend_select_codes=()) -> list[str]:
    """A preview rule selected by its full code while preview is off: say why it will not run."""
    if config.preview:
        return []
    chosen = (select_codes if select_codes is not None else (config.effective_select() or ())) + tuple(extend_select_codes)
    return [
        f"{code} is a preview rule: it runs only with --preview (or `preview = true`)"
        for code, _name, _severity, _summary, is_preview, *_rest in catalog.RULES
        if is_preview and code in chosen
    ]


def rule_table() -> list[dict]:
    """BG000 and every rule, from the catalog (no rule module imported; see catalog.py)."""
    rows = [
        {"code": BG000_CODE, "name": BG000_NAME, "severity": Severity.ERROR.value, "summary": BG000_SUMMARY, "preview": False, "fix": ""}
    ]
    rows += [
        {"code": code, "name": name, "severity": severity, "summary": summary, "preview": preview, "fix": fix}
        for code, name, severity, summary, preview, fix in catalog.RULES
    ]
    return rows


@main.command()
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules(output_format: str) -> None:
    """List every rule: code, name, severity and what it flags."""
    rows = rule_table()
    if output_format == "json":
        click.echo(json.dumps({"version": __version__, "rules": rows}, indent=2))
        return
    for row in rows:
        mark = " (preview)" if row["preview"] else ""
        click.echo(f"{row['code']}  {row['name']:<38} {row['severity']:<8} {row['summary']}{mark}")


@main.command()
@click.argument("rule")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "markdown"]),
    default="text",
    show_default=True,
    help="text: rendered for reading in a terminal; markdown: the page as written.",
)
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
def explain(rule: str, output_format: str, color: str) -> None:
    """Print the page of RULE (a code such as BG101, or a name such as cancellation-swallowed)."""
    key = rule.strip()
    if key.upper() == BG000_CODE or key.lower() == BG000_NAME:
        code = BG000_CODE
    else:
        code = catalog_code(key)
        if code is None:
            _fail(f"unknown rule {rule!r} (see `bgcheck rules`)")
    page = read_page(code)
    if page is None:
        _fail(f"no page for {code}: the installation is incomplete")
    if output_format == "text":
        from bgcheck.report.page import render_page

        use_color = _use_color(color, sys.stdout.isatty(), to_file=False)
        click.echo(render_page(page, use_color), nl=False, color=use_color or None)
    else:
        click.echo(page, nl=not page.endswith("\n"))


if __name__ == "__main__":  # pragma: no cover
    main()
