#!/usr/bin/env python3
"""Build the kit blind judges work from: what each helper session is given, and nothing of bgcheck.

    python scripts/judging_kit.py DIR                  # every project with findings that want a verdict
    python scripts/judging_kit.py DIR --project zou    # only these projects (repeatable)

DIR gets:
    INSTRUCTIONS.md    how to judge and how to write a verdict (scripts/ecosystem/judges.md)
    rules/             the rule pages, without the paragraphs that give a rule's measured precision
    src/<project>/     a copy of each project's code folders (judges are told to read nothing else)
    p/<packet>.md      the findings to judge (scripts/ecosystem.py's packets, sources as absolute
                       paths), at most --size findings each: one packet per judge
    out/               where each judge appends its verdict rows (<label>.tsv)

Each packet wants two judges who work apart. Once every finding has two rows, append the rows of
out/*.tsv to scripts/ecosystem/verdicts.tsv (never edit a row) and run scripts/ecosystem.py again.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ecosystem  # noqa: E402  (running, packets and verdicts are the ecosystem check's)

INSTRUCTIONS = HERE / "ecosystem" / "judges.md"
PAGES = ecosystem.REPO / "rules"
# What a page says of its own measured precision (the preview paragraph, a default rule's figures
# paragraph, a split's figures): a judge who reads "wrong 26 times" judges differently.
_MEASURED = re.compile(r"This rule is in \*\*preview\*\*|On the ecosystem check \(applications")
_SPLIT_FIGURES = re.compile(r" On the ecosystem check \(applications.*?split\.", re.S)


def blind_page(text: str) -> str:
    """A rule page without what it says of its own measured precision."""
    paragraphs = [p for p in text.split("\n\n") if not _MEASURED.match(p)]
    text = "\n\n".join(paragraphs).replace(" · Preview (off by default)", "")
    return _SPLIT_FIGURES.sub("", text)


def packets(text: str, size: int) -> list[str]:
    """A project's packet cut into packets of at most ``size`` findings, each with the header."""
    head, *findings = text.split("\n## ")
    findings = ["## " + f for f in findings]
    return [head + "\n".join(findings[i : i + size]) for i in range(0, len(findings), size)] or [head]


def build(folder: Path, projects: list[str], size: int) -> int:
    for sub in ("rules", "src", "p", "out"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    shutil.copyfile(INSTRUCTIONS, folder / "INSTRUCTIONS.md")
    for page in PAGES.glob("BG*.md"):
        (folder / "rules" / page.name).write_text(blind_page(page.read_text(encoding="utf-8")), encoding="utf-8")
    chosen = [p for p in ecosystem.PROJECTS if not projects or p.name in projects]
    findings = []
    for project in chosen:
        root = ecosystem.fetch(project.pin, project.folders)
        with tempfile.TemporaryDirectory() as cache:
            findings.extend(ecosystem.check(project.name, root, Path(cache)))
    verdicts = ecosystem.read_verdicts()
    with tempfile.TemporaryDirectory() as raw:
        count = ecosystem.write_packets(findings, verdicts, Path(raw))
        for written in sorted(Path(raw).glob("*.md")):
            name = written.stem
            source = ecosystem.WORK / "src" / name
            shutil.rmtree(folder / "src" / name, ignore_errors=True)
            # the code only: a cache a run inside the project left there is the analyzer's output
            shutil.copytree(source, folder / "src" / name, ignore=shutil.ignore_patterns(".bgcheck_cache"))
            text = written.read_text(encoding="utf-8").replace(f"scripts/.ecosystem/src/{name}/", f"{folder.resolve()}/src/{name}/")
            parts = packets(text, size)
            for number, part in enumerate(parts, start=1):
                label = name if len(parts) == 1 else f"{name}-{number}"
                (folder / "p" / f"{label}.md").write_text(part, encoding="utf-8")
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--project", action="append", default=[], help="only this project (repeatable)")
    parser.add_argument("--size", type=int, default=14, help="findings per packet (default 14)")
    args = parser.parse_args()
    count = build(args.folder, args.project, args.size)
    print(f"judging kit: {count} findings to judge, packets in {args.folder / 'p'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
