"""``python -m bgcheck`` and the ``bgcheck`` command: the command line (bgcheck/cli.py).

``bgcheck --version`` is answered here, before the command line and click are imported:
start-up is what a version check (a pre-commit hook's, an editor's) waits on."""

import sys


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        from bgcheck import __version__

        print(f"bgcheck, version {__version__}")  # click's version_option says the same (tests/test_startup.py)
        sys.exit(0)
    from bgcheck.cli import main as cli_main

    cli_main(prog_name="bgcheck")  # the name help and errors show, also under ``python -m bgcheck``


if __name__ == "__main__":
    main()
