#!/usr/bin/env python3
"""Write the README's rule table and bgcheck/rules/catalog.py from the rule registry.

    python scripts/rule_table.py          # rewrite the table in README.md and the catalog
    python scripts/rule_table.py --check  # exit 1 if either is out of date (the tests do this)

The table sits between two markers in README.md; everything else is left as written. The
catalog is the rules' metadata as data: `bgcheck rules` and `bgcheck explain` read it and
so never import the rules (nor libcst).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
CATALOG = REPO / "bgcheck" / "rules" / "catalog.py"
START = "<!-- rule table: written by scripts/rule_table.py -->"
END = "<!-- end of rule table -->"


def registry_rows() -> list[dict]:
    """BG000 and every registered rule, from the rule classes themselves."""
    sys.path.insert(0, str(REPO))
    from bgcheck.rules import rule_table

    return rule_table()


def catalog() -> str:
    """bgcheck/rules/catalog.py: the registered rules' metadata (BG000 aside) as a tuple of rows."""
    lines = [
        '"""Every rule\'s code, name, severity, summary, preview flag and fix, as data: what `bgcheck rules`',
        "and `bgcheck explain` need, without importing the rules (which pull in libcst).",
        "",
        "Written by scripts/rule_table.py from the rule registry; a test checks that they agree.",
        '"""',
        "",
        "# (code, name, severity, summary, preview, fix: \"safe\", \"unsafe\" or \"\")",
        "RULES = (",
    ]
    for row in registry_rows()[1:]:
        lines.append(f"    ({row['code']!r}, {row['name']!r}, {row['severity']!r},")
        lines.append(f"     {row['summary']!r},")
        lines.append(f"     {row['preview']!r}, {row['fix']!r}),")
    lines.append(")")
    return "\n".join(lines) + "\n"


def table() -> str:
    lines = ["| code | name | severity | fix | summary |", "|---|---|---|---|---|"]
    for row in registry_rows():
        mark = " *(preview)*" if row["preview"] else ""
        lines.append(f"| {row['code']} | {row['name']} | {row['severity']} | {row['fix'] or '-'} | {row['summary']}{mark} |")
    return "\n".join(lines)


def render(text: str) -> str:
    head, rest = text.split(START, 1)
    _old, tail = rest.split(END, 1)
    return f"{head}{START}\n{table()}\n{END}{tail}"


def main() -> int:
    text = README.read_text(encoding="utf-8")
    new = render(text)
    old_catalog = CATALOG.read_text(encoding="utf-8") if CATALOG.exists() else ""
    new_catalog = catalog()
    if "--check" in sys.argv[1:]:
        stale = [name for name, old, fresh in (("README.md's rule table", text, new), ("bgcheck/rules/catalog.py", old_catalog, new_catalog)) if old != fresh]
        for name in stale:
            print(f"{name} is out of date: run python scripts/rule_table.py", file=sys.stderr)
        return 1 if stale else 0
    README.write_text(new, encoding="utf-8")
    CATALOG.write_text(new_catalog, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
