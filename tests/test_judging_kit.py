"""scripts/judging_kit.py: what blind judges are given. A rule page loses what it says of its own
measured precision (nothing else), and a project's findings are cut into packets with the header."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import judging_kit  # noqa: E402

PAGE = """# BG101: cancellation-swallowed

Severity: error · Family: BG1xx, stop requests must propagate · Preview (off by default)

## What it does

This rule is in **preview**: it runs only with `--preview`. On the ecosystem check it was right 9
times and wrong 26.

Flags an `except` clause that catches a cancellation.
"""


def test_a_blind_page_says_nothing_of_its_measured_precision():
    blind = judging_kit.blind_page(PAGE)
    assert "wrong 26" not in blind and "preview" not in blind.lower()
    assert blind == (
        "# BG101: cancellation-swallowed\n\n"
        "Severity: error · Family: BG1xx, stop requests must propagate\n\n"
        "## What it does\n\n"
        "Flags an `except` clause that catches a cancellation.\n"
    )


def test_a_default_rules_figures_paragraph_is_left_out():
    text = ("## What it does\n\nOn the ecosystem check (applications and worker libraries) this rule was right 9\n"
            "times and wrong once.\n\nFlags a publish inside a transaction.\n")
    assert judging_kit.blind_page(text) == "## What it does\n\nFlags a publish inside a transaction.\n"


def test_a_split_rules_figures_are_left_out_and_the_rest_kept():
    text = ("Waits for work on this machine are BG206's, a preview\nrule. On the ecosystem check (applications and "
            "worker libraries) the two were one rule, wrong 19\ntimes: BG203 is the sure part of that\nsplit.\n\nNext.")
    assert judging_kit.blind_page(text) == "Waits for work on this machine are BG206's, a preview\nrule.\n\nNext."


def test_packets_keep_the_header_and_hold_at_most_size_findings():
    text = "# Findings to judge: app\n\nSource: /k/src/app/\n" + "".join(f"\n## app/a.py:{n}:1 BG602 (x)\n\nMessage: m{n}\n" for n in range(5))
    parts = judging_kit.packets(text, 2)
    assert len(parts) == 3
    assert all(part.startswith("# Findings to judge: app\n\nSource: /k/src/app/\n") for part in parts)
    assert [part.count("\n## ") for part in parts] == [2, 2, 1]
    assert "app/a.py:4:1" in parts[2] and "app/a.py:0:1" in parts[0]
