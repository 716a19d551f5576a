"""The product stands alone: nothing in the code, the tests, the rule pages, the docs or the README
points at documents outside the repository (a folder next to the checkout, say)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = "shared" + "/"  # spelled in two parts so that this file does not find itself


def test_no_reference_to_documents_outside_the_repository():
    places = [ROOT / "README.md", *(p for d in ("bgcheck", "rules", "tests", "docs") for p in (ROOT / d).rglob("*") if p.is_file())]
    found = []
    for path in places:
        if path.suffix not in (".py", ".md", ".toml", ".txt", ".json", ".tsv") and path.name != "README.md":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            if OUTSIDE in line:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "references to documents outside the repository:\n" + "\n".join(found)
