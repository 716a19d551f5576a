"""``python -m bgcheck`` and the ``bgcheck`` command: the command line (bgcheck/cli.py).

``bgcheck --version`` is answered here, before the command line and click are imported:
start-up is what a version check (a pre-commit hook's, an editor's) waits on."""

import os
import sys


def main() -> None:
    try:
        _main()
    except SystemExit as done:
        _leave(done.code)
    _leave(0)


def _leave(code) -> None:
    """End the process without the interpreter's teardown, when the process is bgcheck's own (the
    ``bgcheck`` command or ``python -m bgcheck``; not a program that runs it in-process): freeing
    every object and module, and the collections that go with it, was about 4% of a warm named
    run's instructions, for nothing (mypy ends the same way). Every write is done by then; the output is
    flushed here."""
    if sys.modules["__main__"].__dict__.get("main") is not main:
        sys.exit(code)
    if code is not None and not isinstance(code, int):  # sys.exit("message"), as the interpreter shows it
        print(code, file=sys.stderr)
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: the interpreter would say so and end with 120
        code = code or 120
    os._exit(code or 0)


def _main() -> None:
    if sys.argv[1:] == ["--version"]:
        from bgcheck import __version__

        print(f"bgcheck, version {__version__}")  # click's version_option says the same (tests/test_startup.py)
        sys.exit(0)
    if sys.argv[1:2] == ["check"] or sys.argv[1:3] == ["--debug", "check"]:
        # On a running check server (bgcheck/server.py), before the command line is imported.
        from bgcheck.server import fast_check

        code = fast_check(sys.argv[1:])
        if code is not None:
            sys.exit(code)
    from bgcheck.cli import main as cli_main

    cli_main(prog_name="bgcheck")  # the name help and errors show, also under ``python -m bgcheck``


if __name__ == "__main__":
    main()
