#!/usr/bin/env python3
"""Write the README's rule table from the rule registry (`bgcheck rules`).

    python scripts/rule_table.py          # rewrite the table in README.md
    python scripts/rule_table.py --check  # exit 1 if README.md is out of date (the tests do this)

The table sits between two markers in README.md; everything else is left as written.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
START = "<!-- rule table: written by scripts/rule_table.py -->"
END = "<!-- end of rule table -->"


def table() -> str:
    sys.path.insert(0, str(REPO))
    from bgcheck.cli import rule_table

    lines = ["| code | name | severity | summary |", "|---|---|---|---|"]
    for row in rule_table():
        mark = " *(preview)*" if row["preview"] else ""
        lines.append(f"| {row['code']} | {row['name']} | {row['severity']} | {row['summary']}{mark} |")
    return "\n".join(lines)


def render(text: str) -> str:
    head, rest = text.split(START, 1)
    _old, tail = rest.split(END, 1)
    return f"{head}{START}\n{table()}\n{END}{tail}"


def main() -> int:
    text = README.read_text(encoding="utf-8")
    new = render(text)
    if "--check" in sys.argv[1:]:
        if new != text:
            print("README.md's rule table is out of date: run python scripts/rule_table.py", file=sys.stderr)
            return 1
        return 0
    README.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
