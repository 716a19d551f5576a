#!/usr/bin/env python3
"""Write the README's rule table, its list of preview rules and bgcheck/rules/catalog.py from the
rule registry.

    python scripts/rule_table.py          # rewrite the README's generated parts and the catalog
    python scripts/rule_table.py --check  # exit 1 if any is out of date (the tests do this)

Each generated part sits between two markers in README.md; everything else is left as written.
The catalog is the rules' metadata as data: `bgcheck rules` and `bgcheck explain` read it and
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
PREVIEW_START = "<!-- preview rules: written by scripts/rule_table.py -->"
PREVIEW_END = "<!-- end of preview rules -->"


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
    lines += [
        "",
        "# A rule split off another: its code -> the code its findings had before. A suppression, an",
        "# ignore/select entry or a baseline entry of the old code still covers them (former_codes).",
        "SPLIT_FROM = {",
        *(f"    {row['code']!r}: {row['split_from']!r}," for row in registry_rows() if row["split_from"]),
        "}",
        "",
        "",
        "def former_codes(code: str) -> tuple[str, ...]:",
        '    """The codes ``code``\'s findings were reported under before splits, nearest first."""',
        "    found = []",
        "    while code in SPLIT_FROM and SPLIT_FROM[code] not in found:",
        "        code = SPLIT_FROM[code]",
        "        found.append(code)",
        "    return tuple(found)",
    ]
    return "\n".join(lines) + "\n"


def table() -> str:
    lines = ["| code | name | severity | fix | summary |", "|---|---|---|---|---|"]
    for row in registry_rows():
        mark = " *(preview)*" if row["preview"] else ""
        lines.append(f"| {row['code']} | {row['name']} | {row['severity']} | {row['fix'] or '-'} | {row['summary']}{mark} |")
    return "\n".join(lines)


def preview_sentence() -> str:
    """The README's sentence naming the rules in preview now."""
    codes = [row["code"] for row in registry_rows() if row["preview"]]
    if not codes:
        return "Today no rule is in preview."
    if len(codes) == 1:
        return f"Today {codes[0]} is in preview; its page says what its false alarms were."
    listed = ", ".join(codes[:-1]) + f" and {codes[-1]}"
    return f"Today {listed} are in preview; each page says what their false alarms were."


def _replace(text: str, start: str, end: str, body: str) -> str:
    head, rest = text.split(start, 1)
    _old, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def render(text: str) -> str:
    """README.md with its generated parts (the rule table, the preview rules) written afresh."""
    text = _replace(text, START, END, table())
    return _replace(text, PREVIEW_START, PREVIEW_END, preview_sentence())


def main() -> int:
    text = README.read_text(encoding="utf-8")
    new = render(text)
    old_catalog = CATALOG.read_text(encoding="utf-8") if CATALOG.exists() else ""
    new_catalog = catalog()
    if "--check" in sys.argv[1:]:
        stale = [name for name, old, fresh in (("README.md's rule table or preview rules", text, new), ("bgcheck/rules/catalog.py", old_catalog, new_catalog)) if old != fresh]
        for name in stale:
            print(f"{name} is out of date: run python scripts/rule_table.py", file=sys.stderr)
        return 1 if stale else 0
    README.write_text(new, encoding="utf-8")
    CATALOG.write_text(new_catalog, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
