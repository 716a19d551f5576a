"""``python -m bgcheck`` and the ``bgcheck`` command: the command line (bgcheck/cli.py).

``bgcheck --version`` is answered here, before the command line and click are imported:
start-up is what a version check (a pre-commit hook's, an editor's) waits on."""

import sys


def main() -> None:
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
