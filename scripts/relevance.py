#!/usr/bin/env python3
"""How much of a corpus phase 2 walks: per rule, the share of the source (in characters) in files
its relevance test (``Rule.is_relevant``) accepts, and the share relevant to any rule: the share
of the source that phase 2 parses with libcst (bgcheck/run/check.py; phase 1 reads every file
with CPython's ast).

    PYTHONPATH=$PWD python scripts/relevance.py /work/bench_corpus/*          # one project per path
    PYTHONPATH=$PWD python scripts/relevance.py --preview scripts/.ecosystem/src/*

Each path is a project of its own (its own index, default configuration); the figures are summed
over them. Nothing is checked: this measures the relevance tests only.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def measure(root: Path, preview: bool, per_rule: collections.Counter, files: collections.Counter) -> tuple[int, int, int]:
    """(chars, chars relevant to any rule, files) of one project; per_rule and files count each rule's."""
    from bgcheck.load.config import console_scripts, default_config
    from bgcheck.model.build import build_index_isolated
    from bgcheck.run.engine import enabled_rules, load_units

    config = dataclasses.replace(default_config(root), preview=preview)
    units = [u for u in load_units([root], config) if u.error is None]
    for unit in units:
        unit.module = None  # this measures, it checks nothing: keep memory low
    index = build_index_isolated(units, config, console_scripts(root), {})
    rules = [rule(config) for rule in enabled_rules(config)]
    total = relevant = 0
    for unit in units:
        unit.index = index
        size = len(unit.text)
        total += size
        codes = [rule.code for rule in rules if rule.is_relevant(unit)]
        for code in codes:
            per_rule[code] += size
            files[code] += 1
        if codes:
            relevant += size
            files["any"] += 1
    return total, relevant, len(units)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, help="project folders, one project each")
    parser.add_argument("--preview", action="store_true", help="the preview rules too")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    per_rule: collections.Counter = collections.Counter()
    files: collections.Counter = collections.Counter()
    total = relevant = count = 0
    started = time.process_time()
    for root in args.paths:
        if not root.is_dir():
            continue
        chars, chars_relevant, units = measure(root, args.preview, per_rule, files)
        total, relevant, count = total + chars, relevant + chars_relevant, count + units
    if not total:
        print("no Python source found", file=sys.stderr)
        return 1
    print(f"{len(args.paths)} projects, {count} files, {total:,} chars; relevant to any rule: "
          f"{100 * relevant / total:.1f}% ({files['any']} files)  [{time.process_time() - started:.0f} CPU s]")
    for code, chars in sorted(per_rule.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {code}  {100 * chars / total:5.1f}%  {files[code]:6} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
