import sys


def run_command(line):
    if line == "quit":
        sys.exit(0)
    print(line)
