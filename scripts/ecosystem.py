#!/usr/bin/env python3
"""bgcheck's ecosystem check: findings on real projects, against a judged list.

    python scripts/ecosystem.py                 # fetch if needed, check, compare, write the report
    python scripts/ecosystem.py --project rq    # one project only (the report is not rewritten)
    python scripts/ecosystem.py --unjudged FILE # also write the unjudged findings as TSV rows to fill in

The corpus is the package folders of pinned PyPI source distributions (tests, docs and
examples left out), unpacked into scripts/.ecosystem/ (git-ignored). bgcheck runs on each
project with its default configuration, from this checkout (not an installed copy). Every
finding is looked up in scripts/ecosystem/judged.tsv, where each one was judged by reading
the code as that project's maintainer would:

    real       the failure the rule describes can happen here; a maintainer would change the code
    false      it cannot happen here (the stop cannot arrive, the object is not what the rule thinks,
               a bound or guard the rule did not see, the documented idiom)
    debatable  the letter matches, the harm depends on facts not in the code

Precision = real / (real + false); debatable is shown apart. The report (per-rule and
per-project tables, findings that appeared or disappeared) is printed and written to
scripts/ecosystem/report.md. Exit 1 while any finding is unjudged, so a change to a rule
shows its effect on real code before it lands. Like the benchmark, this is run by hand:
CI does not run it (it needs the network the first time).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WORK = HERE / ".ecosystem"
JUDGED = HERE / "ecosystem" / "judged.tsv"
REPORT = HERE / "ecosystem" / "report.md"
README = REPO / "README.md"
README_START = "<!-- ecosystem table: written by scripts/ecosystem.py -->"
README_END = "<!-- end of ecosystem table -->"

# name==version -> the folder of the sdist that holds the package itself. A mix of
# applications and worker-heavy libraries across asyncio, threads, Celery, RQ,
# Dramatiq, Huey, Django, Kafka, RabbitMQ, NATS and Tornado. Left out on purpose, so that an independent
# measure remains: arq, APScheduler, prefect, OctoPrint, ArchiveBox,
# changedetection.io, pulpcore, zigpy, aioesphomeapi, aiohomekit,
# python-matter-server, uiprotect, lnbits.
PINNED = {
    "celery==5.7.0": "celery",
    "kombu==5.7.0": "kombu",
    "dramatiq==2.2.1": "dramatiq",
    "rq==3.0.0": "rq",
    "huey==3.5.4": "huey",
    "taskiq==0.13.0": "taskiq",
    "saq==0.26.4": "saq",
    "procrastinate==3.10.0": "procrastinate",
    "faust-streaming==0.15.3": "faust",
    "aiokafka==0.14.0": "aiokafka",
    "distributed==2026.8.0": "distributed",
    "flower==2.2.0": "flower",
    "django-celery-beat==2.9.0": "django_celery_beat",
    "django-rq==4.2.0": "django_rq",
    "sentry-sdk==2.75.0": "sentry_sdk",
    "uvicorn==0.54.0": "uvicorn",
    "gunicorn==27.0.1": "gunicorn",
    "channels==4.3.2": "channels",
    "locust==2.47.0": "locust",
    "kopf==1.45.2": "kopf",
    "errbot==6.2.1": "errbot",
    "pretalx==2025.2.2": "src/pretalx",
    "glances==4.5.8": "glances",
    "python-telegram-bot==22.8": "src/telegram",
    "luigi==3.8.1": "luigi",
    "django-q2==1.11.1": "django_q",
    "aio-pika==10.2.1": "aio_pika",
    "nats-py==2.16.0": "src/nats",
    "zeroconf==0.154.0": "src/zeroconf",
    "tornado==6.6.1": "tornado",
    "hypercorn==0.18.0": "src/hypercorn",
    "slack-bolt==1.30.0": "slack_bolt",
    "weblate==2026.10.1": "weblate",
    "label-studio==1.23.2": "label_studio",
    "mailman==3.3.10": "src/mailman",
    "ckan==2.12.0": "ckan",
    "hyperkitty==1.3.12": "hyperkitty",
    "pretix==2026.8.0": "src/pretix",
    "nautobot==3.2.7": "nautobot",
    "apache-superset==6.1.0": "superset",
}

VERDICTS = ("real", "false", "debatable")
TEST_DIRS = {"tests", "test", "testing_tests"}
# A Django app's tests are often one tests.py module beside its models.
TEST_FILES = {"conftest.py", "tests.py"}


@dataclass(frozen=True)
class Finding:
    project: str
    path: str  # relative to the project's folder, with "/"
    line: int
    code: str
    message: str

    @property
    def key(self) -> tuple[str, str, int, str]:
        return (self.project, self.path, self.line, self.code)


@dataclass(frozen=True)
class Verdict:
    project: str
    path: str
    line: int
    code: str
    verdict: str
    reason: str

    @property
    def key(self) -> tuple[str, str, int, str]:
        return (self.project, self.path, self.line, self.code)


# BG000 says a file was not analysed (a syntax error, syntax newer than the running Python): a
# finding of no rule, so it is shown apart and counts in no precision.
NOT_ANALYSED = "BG000"


def project_name(pin: str) -> str:
    return pin.split("==")[0]


# -- fetching ---------------------------------------------------------------------------


def _download_listed_sdist(name: str, version: str, sdists: Path) -> bool:
    """The sdist the package index lists for this version (its JSON simple page), checked against
    its sha256. pip download reads an sdist's metadata by building it, which fails where its build
    requirements conflict (pretix); the file itself is all the ecosystem check needs."""
    page = urllib.request.Request(f"https://pypi.org/simple/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    wanted = f"{name}_{version}.tar.gz".replace("-", "_").lower()
    try:
        with urllib.request.urlopen(page, timeout=60) as response:
            files = json.load(response)["files"]
        listed = next(f for f in files if f["filename"].replace("-", "_").lower() == wanted)
        with urllib.request.urlopen(listed["url"], timeout=600) as response:
            data = response.read()
    except (OSError, ValueError, KeyError, StopIteration):
        return False
    if hashlib.sha256(data).hexdigest() != listed["hashes"]["sha256"]:
        return False
    (sdists / listed["filename"]).write_bytes(data)
    return True


def fetch(pin: str, folder: str, work: Path = WORK, label: str | None = None) -> Path:
    """Unpack the package folder of ``pin`` into <work>/src/<label>/ (once); the label is the
    project's name unless given (scripts/recall.py keeps several versions of one project)."""
    name = project_name(pin)
    dest = work / "src" / (label or name)
    if dest.exists():
        return dest
    sdists = work / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    version = pin.split("==")[1]
    found = _find_sdist(sdists, name, version)
    if found is None:
        done = subprocess.run(
            # --no-binary for the package alone: its build requirements may come as wheels
            # (with :all: pip compiles them from source just to read the metadata).
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", name,
             "--ignore-requires-python", pin, "-d", str(sdists)],
            capture_output=True, text=True, check=False,
        )
        if done.returncode != 0 and not _download_listed_sdist(name, version, sdists):
            sys.exit(f"ecosystem: could not download {pin}: {done.stderr.strip().splitlines()[-1:]}")
        found = _find_sdist(sdists, name, version)
        if found is None:
            sys.exit(f"ecosystem: pip downloaded no sdist for {pin}")
    with tempfile.TemporaryDirectory() as tmp:
        if found.suffix == ".zip":
            with zipfile.ZipFile(found) as archive:
                archive.extractall(tmp)
        else:
            with tarfile.open(found) as archive:
                archive.extractall(tmp, filter="data")
        (top,) = [p for p in Path(tmp).iterdir() if p.is_dir()]
        source = top / folder
        target = dest / Path(folder).name
        shutil.copytree(source, target, ignore=_ignore_tests)
        # A project marker so bgcheck takes this folder as the project root.
        (dest / "pyproject.toml").write_text("[tool.bgcheck]\n", encoding="utf-8")
    return dest


def _find_sdist(folder: Path, name: str, version: str) -> Path | None:
    stem = name.replace("-", "_").lower()
    for path in folder.iterdir():
        lowered = path.name.lower().replace("-", "_")
        if lowered.startswith(f"{stem}_{version}.") or lowered.startswith(f"{stem}_{version}.tar"):
            return path
    return None


def _ignore_tests(directory: str, names: list[str]) -> set[str]:
    return {
        n for n in names
        if n in TEST_DIRS
        or n in TEST_FILES
        or (n.endswith(".py") and (n.startswith("test_") or n.endswith("_test.py")))
    }


def count_lines(root: Path) -> int:
    total = 0
    for path in root.rglob("*.py"):
        with open(path, "rb") as handle:
            total += sum(1 for _ in handle)
    return total


# -- running ----------------------------------------------------------------------------


def check(name: str, root: Path) -> list[Finding]:
    # Preview rules run too: their findings are judged like the others, and the report shows
    # the default rules (what a user gets) apart from them.
    command = [sys.executable, "-m", "bgcheck", "check", "--preview", "--format", "json", "--no-cache", "--exit-zero", "."]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        sys.exit(f"ecosystem: bgcheck failed on {name} (exit {done.returncode}):\n{done.stderr}")
    data = json.loads(done.stdout)
    return [
        Finding(name, d["path"].replace("\\", "/").removeprefix("./"), d["line"], d["code"], d["message"])
        for d in data["diagnostics"]
    ]


# -- judged list ------------------------------------------------------------------------


def read_judged(path: Path = JUDGED) -> dict[tuple[str, str, int, str], Verdict]:
    verdicts: dict[tuple[str, str, int, str], Verdict] = {}
    if not path.exists():
        return verdicts
    with open(path, encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t"), start=1):
            if not row or row[0].startswith("#") or row[0] == "project":
                continue
            if len(row) != 6 or row[4] not in VERDICTS or not row[5].strip():
                sys.exit(f"ecosystem: {path.name}:{number}: want project, path, line, code, verdict "
                         f"({'/'.join(VERDICTS)}), reason; got {row!r}")
            verdict = Verdict(row[0], row[1], int(row[2]), row[3], row[4], row[5].strip())
            verdicts[verdict.key] = verdict
    return verdicts


# -- report -----------------------------------------------------------------------------


def precision(real: int, false: int) -> str:
    return f"{100 * real / (real + false):.0f}%" if real + false else "n/a"


def build_report(
    findings: list[Finding],
    judged: dict[tuple[str, str, int, str], Verdict],
    projects: list[tuple[str, str, int]],
    checked: set[str],
    preview_codes: set[str],
    rule_codes: frozenset = frozenset(),
) -> tuple[str, list[Finding]]:
    now = {f.key: f for f in findings}
    unjudged = [f for f in findings if f.key not in judged]
    gone = [v for k, v in sorted(judged.items()) if v.project in checked and k not in now]
    lines: list[str] = []
    out = lines.append

    out("# Ecosystem check")
    out("")
    out("bgcheck's findings on the package folders of pinned PyPI sdists, each judged by reading the code")
    out("(`scripts/ecosystem/judged.tsv`). Precision = real / (real + false); debatable is shown apart.")
    out("Produced by `python scripts/ecosystem.py`.")
    out("")
    out("Default rules (what `bgcheck check` reports), then the preview rules' findings apart:")
    out("")
    out("| project | version | lines | findings | real | false | debatable | preview findings |")
    out("|---|---|---:|---:|---:|---:|---:|---:|")
    by_project: dict[str, Counter] = defaultdict(Counter)
    for f in findings:
        v = judged.get(f.key)
        if f.code == NOT_ANALYSED:
            continue  # not a rule's finding: counted apart below
        if f.code in preview_codes:
            by_project[f.project]["preview"] += 1
        else:
            by_project[f.project][v.verdict if v else "unjudged"] += 1
    totals = Counter()
    for name, version, lines_count in projects:
        c = by_project[name]
        n = sum(c[k] for k in ("real", "false", "debatable", "unjudged"))
        totals.update(c)
        totals["lines"] += lines_count
        totals["findings"] += n
        out(f"| {name} | {version} | {lines_count:,} | {n} | {c['real']} | {c['false']} | {c['debatable']} | {c['preview']} |")
    out(f"| **all {len(projects)}** | | {totals['lines']:,} | {totals['findings']} | {totals['real']} | "
        f"{totals['false']} | {totals['debatable']} | {totals['preview']} |")
    out("")
    out("| rule | findings | real | false | debatable | unjudged | precision |")
    out("|---|---:|---:|---:|---:|---:|---:|")
    by_rule: dict[str, Counter] = defaultdict(Counter)
    for f in findings:
        v = judged.get(f.key)
        by_rule[f.code][v.verdict if v else "unjudged"] += 1
    for code in sorted(by_rule):
        c = by_rule[code]
        n = sum(c.values())
        if code == NOT_ANALYSED:
            out(f"| {code} (files not analysed: no rule, no precision) | {n} | {c['real']} | {c['false']} | {c['debatable']} | {c['unjudged']} | n/a |")
            continue
        label = f"{code} (preview)" if code in preview_codes else code
        note = " (too few to measure)" if c["real"] + c["false"] < 5 else ""
        out(f"| {label} | {n} | {c['real']} | {c['false']} | {c['debatable']} | {c['unjudged']} | "
            f"{precision(c['real'], c['false'])}{note} |")
    default = Counter()
    for code, c in by_rule.items():
        if code not in preview_codes and code != NOT_ANALYSED:
            default.update(c)
    out(f"| **default rules** | {sum(default.values())} | {default['real']} | {default['false']} | "
        f"{default['debatable']} | {default['unjudged']} | {precision(default['real'], default['false'])} |")
    preview = Counter()
    for code, c in by_rule.items():
        if code in preview_codes:
            preview.update(c)
    out(f"| **preview rules** | {sum(preview.values())} | {preview['real']} | {preview['false']} | "
        f"{preview['debatable']} | {preview['unjudged']} | {precision(preview['real'], preview['false'])} |")
    out("")
    silent = sorted(set(rule_codes) - set(by_rule))
    if silent:
        default_silent = [code for code in silent if code not in preview_codes]
        preview_silent = [code for code in silent if code in preview_codes]
        out("No finding in the corpus, so precision not measured here (the rule tests and the recall set")
        out(f"cover them): {', '.join(default_silent) or 'none'}; preview: {', '.join(preview_silent) or 'none'}.")
        out("")
    if gone:
        out(f"## Judged findings no longer reported ({len(gone)})")
        out("")
        out("A `real` one gone is lost recall; a `false` one gone is a fixed false alarm.")
        out("")
        for v in gone:
            out(f"- {v.verdict}: {v.project} {v.path}:{v.line} {v.code} ({v.reason})")
        out("")
    if unjudged:
        out(f"## Unjudged findings ({len(unjudged)})")
        out("")
        for f in unjudged:
            out(f"- {f.project} {f.path}:{f.line} {f.code}: {f.message[:160]}")
        out("")
    return "\n".join(lines), unjudged


def write_readme_table(report: str, start: str = README_START, end: str = README_END, tables: int = 2) -> None:
    """Put the report's first tables between the README's markers (for the ecosystem check its
    two tables; scripts/recall.py passes its own markers)."""
    text = README.read_text(encoding="utf-8")
    if start not in text or end not in text:
        return
    blocks = [block for block in report.split("\n\n") if block.startswith("|")]
    head, rest = text.split(start, 1)
    _old, tail = rest.split(end, 1)
    README.write_text(head + start + "\n" + "\n\n".join(blocks[:tables]) + "\n" + end + tail, encoding="utf-8")


def preview_rules() -> set[str]:
    return {code for code, preview in _rules() if preview}


def rule_codes() -> frozenset:
    return frozenset(code for code, _preview in _rules())


def _rules() -> list[tuple[str, bool]]:
    """(code, preview) of every rule of this checkout that checks code (BG0xx say a file could not be read
    or a suppression is unused)."""
    sys.path.insert(0, str(REPO))
    try:
        from bgcheck.rules import all_rules  # type: ignore[attr-defined]
    except ImportError:
        return []
    return [(r.code, bool(getattr(r, "preview", False))) for r in all_rules() if not r.code.startswith("BG0")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", action="append", help="only this project (repeatable)")
    parser.add_argument("--unjudged", type=Path, help="write unjudged findings as TSV rows to this file")
    args = parser.parse_args()

    pins = [p for p in PINNED if not args.project or project_name(p) in args.project]
    if not pins:
        sys.exit(f"ecosystem: no such project; known: {', '.join(project_name(p) for p in PINNED)}")
    findings: list[Finding] = []
    projects: list[tuple[str, str, int]] = []
    for pin in pins:
        root = fetch(pin, PINNED[pin])
        name, version = pin.split("==")
        found = check(name, root)
        findings.extend(found)
        projects.append((name, version, count_lines(root)))
        print(f"{name}: {len(found)} findings", file=sys.stderr)

    judged = read_judged()
    report, unjudged = build_report(
        findings, judged, projects, {project_name(p) for p in pins}, preview_rules(), rule_codes()
    )
    print(report)
    if not args.project:
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        REPORT.write_text(report + "\n", encoding="utf-8")
        write_readme_table(report)
    if args.unjudged:
        with open(args.unjudged, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            for f in unjudged:
                writer.writerow([f.project, f.path, f.line, f.code, "", f.message])
    return 1 if unjudged else 0


if __name__ == "__main__":
    sys.exit(main())
