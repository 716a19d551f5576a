#!/usr/bin/env python3
"""bgcheck against its peers, on the peers' own labelled test files.

    python scripts/peers.py            # fetch the peers if needed, compare, print per file
    python scripts/peers.py --verbose  # also list every agreement

flake8-async and ruff publish test files whose expected errors are written down:
flake8-async's ``tests/eval_files`` (``# error: col`` and ``# ASYNCxxx: col`` comments) and
ruff's fixtures with their snapshots (``.snap``). Where their checks overlap bgcheck's
(ASYNC103/ASYNC104 and BG101/BG102, flake8-bugbear's B012 and BG103, ASYNC300 / RUF006 and
BG602), this script runs bgcheck over those files and compares, unit by unit:

* an ``except`` clause that catches a cancellation (bare, BaseException, CancelledError,
  trio.Cancelled, anyio's class): the peer flags it when an ASYNC103 label is on its header
  or an ASYNC104 label lies in its body (innermost such clause); bgcheck when BG101/BG102
  reports its header;
* a ``return`` / ``break`` / ``continue`` inside ``finally:`` (B012 against BG103);
* a ``create_task`` / ``ensure_future`` call (ASYNC300 / RUF006 against BG602).

The peers' synchronous examples are also rewritten into coroutines (``scripts/.peers/work``):
every ``def`` becomes ``async def``, module-level code goes into one coroutine, and a ``try``
whose body cannot suspend gets an ``await`` on its first line, since bgcheck's BG101-BG103
are about the cancellation a coroutine receives at a suspension point (and in plain
synchronous code bgcheck leaves bare excepts to general linters). Line numbers are kept.
Those copies are what is compared for synchronous files.

Every disagreement must carry a verdict in scripts/peers_verdicts.tsv (file, line, unit,
direction, verdict, reason): ``peer-right`` or ``bgcheck-right``. The script prints, per
file, agreements and disagreements with their verdicts, then the totals, and exits 1 while a
disagreement has no verdict.

Pinned peers: flake8-async's sdist ships its eval files. ruff's sdists leave the test fixtures
and snapshots out since 0.0.268 (``[tool.maturin] exclude``), so ruff is pinned at 0.0.267, the
last sdist that has them (RUF006.py and flake8-bugbear's B012.py with their snapshots). Both are
fetched with ``pip download --no-deps --no-binary <name>`` into scripts/.peers/ (git-ignored).
ruff's sdist cannot prepare its metadata without cargo's network, so pip's unpacked tree is kept
(``--no-clean``) when pip stops there. This is a comparison, not a test: CI does not run it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

HERE = Path(__file__).resolve().parent
PEERS = HERE / ".peers"
VERDICTS = HERE / "peers_verdicts.tsv"

FLAKE8_ASYNC = "flake8-async==26.8.1"
RUFF = "ruff==0.0.267"

# flake8-async's eval files that exercise ASYNC103 / ASYNC104 / ASYNC300 (asyncio, trio, anyio).
FLAKE8_ASYNC_FILES = (
    "async103.py",
    "async104.py",
    "async103_104_py311.py",
    "async103_no_104.py",
    "async103_trio.py",
    "async104_trio.py",
    "async104_anyio.py",
    "async103_both_imported.py",
    "async103_all_imported.py",
    "async300.py",
)
# ruff fixture -> its snapshot, by file name (found anywhere in the sdist).
RUFF_FILES = {
    "RUF006.py": "ruff__rules__ruff__tests__RUF006_RUF006.py.snap",
    "B012.py": "ruff__rules__flake8_bugbear__tests__B012_B012.py.snap",
}

HANDLER, FINALLY_JUMP, SPAWN = "handler", "finally-jump", "spawn"
BGCHECK_CODES = {HANDLER: ("BG101", "BG102"), FINALLY_JUMP: ("BG103",), SPAWN: ("BG602",)}
PEER_CODES = {HANDLER: ("ASYNC103", "ASYNC104"), FINALLY_JUMP: ("B012",), SPAWN: ("ASYNC300", "RUF006")}


# --- fetching ------------------------------------------------------------------


def _pip_download(spec: str, dest: Path) -> Optional[Path]:
    """Download ``spec``'s sdist into ``dest``; return the archive, or the tree pip unpacked
    (kept with --no-clean) when pip could not prepare the metadata."""
    name = spec.split("==")[0]
    tmp = PEERS / "tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    env = dict(os.environ, TMPDIR=str(tmp))
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", name, "--no-clean", "-d", str(dest), spec]
    print(f"downloading {spec} ...", file=sys.stderr)
    subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    stem = name.replace("-", "_").lower()
    for archive in dest.iterdir():
        if archive.name.lower().startswith(stem) and archive.name.endswith(".tar.gz"):
            return archive
    trees = sorted(tmp.glob(f"pip-download-*/{stem}_*"))
    return trees[0] if trees else None


def _unpack(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target)
        return
    with tarfile.open(source) as archive:
        staging = target.with_name(target.name + ".unpack")
        if sys.version_info >= (3, 12):
            archive.extractall(staging, filter="data")
        else:
            archive.extractall(staging)
        (inner,) = list(staging.iterdir())
        shutil.move(str(inner), target)
        shutil.rmtree(staging)


def fetch() -> tuple[Path, Path]:
    """The folders holding the peers' files: flake8-async's eval files, ruff's fixtures and snapshots."""
    downloads = PEERS / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    folders = []
    for spec, wanted in ((FLAKE8_ASYNC, FLAKE8_ASYNC_FILES), (RUFF, tuple(RUFF_FILES) + tuple(RUFF_FILES.values()))):
        folder = PEERS / spec.replace("==", "-")
        if not folder.is_dir():
            source = _pip_download(spec, downloads)
            if source is None:
                raise SystemExit(f"cannot download {spec} (pip download failed)")
            tree = PEERS / "tree"
            shutil.rmtree(tree, ignore_errors=True)
            _unpack(source, tree)
            folder.mkdir()
            for name in wanted:
                found = [p for p in tree.rglob(name) if "eval_files" in p.parts or "fixtures" in p.parts or "snapshots" in p.parts]
                if not found:
                    raise SystemExit(f"{spec}: no {name} in its sdist")
                shutil.copy(found[0], folder / name)
            shutil.rmtree(tree, ignore_errors=True)
            shutil.rmtree(PEERS / "tmp", ignore_errors=True)
        folders.append(folder)
    return folders[0], folders[1]


# --- the peers' labels ---------------------------------------------------------------


@dataclass(frozen=True)
class Label:
    code: str
    line: int
    column: Optional[int]  # 0-based, when the label gives one


_LABEL = re.compile(r"(error|ASYNC\d\d\d)(_\w*)?:([^#]*)(?=#|$)")


def flake8_async_labels(path: Path) -> list[Label]:
    """flake8-async's expected errors: ``# error: col`` (the file's own code) and ``# ASYNCxxx: col``."""
    own = "ASYNC" + path.stem.split("_")[0][len("async") :]
    labels = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or "#" not in stripped:
            continue
        for code, _suffix, args in _LABEL.findall(stripped):
            code = own if code == "error" else code
            column = re.match(r"\s*(\d+)", args)
            labels.append(Label(code, number, int(column.group(1)) if column else 0))
    return labels


def ruff_labels(snapshot: Path) -> list[Label]:
    """ruff's snapshot: ``RUF006.py:6:5: RUF006 ...`` (1-based column)."""
    labels = []
    for match in re.finditer(r"^\S+\.py:(\d+):(\d+): (\w+) ", snapshot.read_text(encoding="utf-8"), re.MULTILINE):
        labels.append(Label(match.group(3), int(match.group(1)), int(match.group(2)) - 1))
    return labels


# --- coroutine-wrapped copies -------------------------------------------------------


def _can_suspend(node: cst.CSTNode) -> bool:
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, n) -> bool:
            return False

        def visit_Lambda(self, n) -> bool:
            return False

        def visit_Await(self, n) -> bool:
            nonlocal found
            found = True
            return False

        def visit_For(self, n: cst.For) -> None:
            nonlocal found
            found = found or n.asynchronous is not None

        def visit_With(self, n: cst.With) -> None:
            nonlocal found
            found = found or n.asynchronous is not None

    node.visit(_Finder())
    return found


_SUSPEND = cst.Expr(cst.Await(cst.parse_expression("asyncio.sleep(0)")))


class _Coroutines(cst.CSTTransformer):
    """``def`` -> ``async def``; a ``try`` body that cannot suspend gets an ``await`` on its first
    simple line (same line, joined with ``;``), so that no line moves."""

    def leave_FunctionDef(self, original, updated):
        if updated.asynchronous is None:
            return updated.with_changes(asynchronous=cst.Asynchronous())
        return updated

    def _with_await(self, node):
        if _can_suspend(node.body):
            return node
        done = False

        class _First(cst.CSTTransformer):
            def visit_FunctionDef(self, n) -> bool:
                return False

            def visit_ClassDef(self, n) -> bool:
                return False

            def leave_SimpleStatementLine(self, original, updated):
                nonlocal done
                if done:
                    return updated
                done = True
                return updated.with_changes(body=[_SUSPEND, *updated.body])

        return node.with_changes(body=node.body.visit(_First()))

    def leave_Try(self, original, updated):
        return self._with_await(updated)

    def leave_TryStar(self, original, updated):
        return self._with_await(updated)


def wrap(source: str) -> tuple[str, int, int]:
    """The coroutine copy of a synchronous file, with (first moved line, shift)."""
    module = cst.parse_module(source)
    converted = module.visit(_Coroutines())
    first = MetadataWrapper(converted, unsafe_skip_copy=True).resolve(PositionProvider)[converted.body[0]].start.line if converted.body else 1
    lines = converted.code.splitlines()
    head, rest = lines[: first - 1], lines[first - 1 :]
    body = [("    " + line) if line.strip() else line for line in rest]
    wrapped = "\n".join([*head, "async def _peers_module():  # the module's code, as a coroutine", *body, "import asyncio", ""])
    return wrapped, first, 1


# --- units --------------------------------------------------------------------------


@dataclass
class Unit:
    kind: str
    line: int  # the line the unit is reported on (in the peer's file)
    column: int  # 0-based
    header: tuple[int, int]  # lines that belong to the unit's header (an except clause spans lines)
    body: tuple[int, int]  # lines of an except clause's body
    text: str
    peer: list = field(default_factory=list)
    bgcheck: list = field(default_factory=list)


_CANCEL_NAMES = re.compile(r"\b(CancelledError|Cancelled|BaseException)\b|\bget_cancelled_exc_class\(\)")


def _critical(handler, module: cst.Module) -> bool:
    if handler.type is None:
        return True
    elements = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
    for element in elements:
        node = element.value if isinstance(element, cst.Element) else element
        if _CANCEL_NAMES.search(re.sub(r"#.*", "", module.code_for_node(node))):
            return True
    return False


def units_of(source: str) -> list[Unit]:
    module = cst.parse_module(source)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    found: list[Unit] = []

    class _Finder(cst.CSTVisitor):
        def __init__(self) -> None:
            self.finally_depth = 0
            self.loops: list[int] = []  # finally depth at each enclosing loop
            self.saved: list = []

        def _handler(self, node) -> None:
            if not _critical(node, module):
                return
            start = positions[node].start
            last = node.name or node.type
            end = positions[last].end.line if last is not None else start.line
            header = module.code_for_node(node).splitlines()[0].strip()
            found.append(Unit(HANDLER, start.line, start.column, (start.line, end), (end + 1, positions[node].end.line), header))

        def visit_ExceptHandler(self, node) -> None:
            self._handler(node)

        def visit_ExceptStarHandler(self, node) -> None:
            self._handler(node)

        def visit_Finally(self, node) -> None:
            self.finally_depth += 1

        def leave_Finally(self, node) -> None:
            self.finally_depth -= 1

        def visit_FunctionDef(self, node) -> None:
            # a jump in a nested function never leaves the enclosing finally
            self.saved.append((self.finally_depth, self.loops))
            self.finally_depth, self.loops = 0, []

        def leave_FunctionDef(self, node) -> None:
            self.finally_depth, self.loops = self.saved.pop()

        def visit_For(self, node) -> None:
            self.loops.append(self.finally_depth)

        def leave_For(self, node) -> None:
            self.loops.pop()

        def visit_While(self, node) -> None:
            self.loops.append(self.finally_depth)

        def leave_While(self, node) -> None:
            self.loops.pop()

        def _jump(self, node, loop_bound: bool) -> None:
            if not self.finally_depth:
                return
            if loop_bound and self.loops and self.loops[-1] >= self.finally_depth:
                return  # the loop is inside the finally block
            start = positions[node].start
            found.append(Unit(FINALLY_JUMP, start.line, start.column, (start.line, start.line), (0, 0), module.code_for_node(node).strip()))

        def visit_Return(self, node) -> None:
            self._jump(node, loop_bound=False)

        def visit_Break(self, node) -> None:
            self._jump(node, loop_bound=True)

        def visit_Continue(self, node) -> None:
            self._jump(node, loop_bound=True)

        def visit_Call(self, node) -> None:
            func = node.func
            name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
            if name in ("create_task", "ensure_future"):
                start = positions[node].start
                found.append(Unit(SPAWN, start.line, start.column, (start.line, start.line), (0, 0), module.code_for_node(node).strip()))

    wrapper.module.visit(_Finder())
    return found


def attach_peer_labels(units: list[Unit], labels: list[Label], source: str) -> list[Label]:
    """Attach each label to its unit; return the labels that fit no unit."""
    handlers = sorted((u for u in units if u.kind == HANDLER), key=lambda u: u.line)
    unplaced = []
    for label in labels:
        target = None
        if label.code == "ASYNC103":
            target = next((u for u in handlers if u.header[0] <= label.line <= u.header[1]), None)
        elif label.code == "ASYNC104":
            target = _innermost_handler(handlers, label.line)
        elif label.code == "B012":
            target = next((u for u in units if u.kind == FINALLY_JUMP and u.line == label.line), None)
        elif label.code in ("ASYNC300", "RUF006"):
            candidates = [u for u in units if u.kind == SPAWN and u.line == label.line]
            target = next((u for u in candidates if u.column == label.column), candidates[0] if len(candidates) == 1 else None)
        if target is None:
            unplaced.append(label)
        elif label not in target.peer:
            target.peer.append(label)
    return unplaced


def _innermost_handler(handlers: list[Unit], line: int) -> Optional[Unit]:
    """The innermost critical except clause whose body holds ``line``."""
    inside = [u for u in handlers if u.body[0] <= line <= u.body[1]]
    return max(inside, key=lambda u: u.body[0]) if inside else None


# --- running bgcheck ----------------------------------------------------------------


def run_bgcheck(folder: Path) -> list[dict]:
    config = PEERS / "bgcheck.toml"
    config.write_text("", encoding="utf-8")
    codes = ",".join(c for group in BGCHECK_CODES.values() for c in group)
    done = subprocess.run(
        [sys.executable, "-m", "bgcheck", "check", ".", "--format", "json", "--no-cache", "--exit-zero", "--select", codes, "--config", str(config)],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"bgcheck failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)["diagnostics"]


# --- verdicts -----------------------------------------------------------------------


def load_verdicts() -> dict:
    verdicts = {}
    if not VERDICTS.exists():
        return verdicts
    for number, line in enumerate(VERDICTS.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 6 or parts[4] not in ("peer-right", "bgcheck-right"):
            raise SystemExit(f"{VERDICTS.name}:{number}: expected file, line, unit, direction, peer-right|bgcheck-right, reason")
        verdicts[(parts[0], int(parts[1]), parts[2], parts[3])] = (parts[4], parts[5])
    return verdicts


# --- main ---------------------------------------------------------------------------


@dataclass
class Compared:
    name: str
    checked_as: str  # "as is" | "as coroutines"
    source: str
    labels: list
    shift: tuple = (10**9, 0)  # (first moved line, shift) from the peer's file to the checked copy


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="also list agreements")
    args = parser.parse_args(argv)
    flake8_async_dir, ruff_dir = fetch()

    work = PEERS / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    compared: list[Compared] = []
    sources = [(flake8_async_dir / n, flake8_async_labels(flake8_async_dir / n)) for n in FLAKE8_ASYNC_FILES]
    sources += [(ruff_dir / n, ruff_labels(ruff_dir / snap)) for n, snap in RUFF_FILES.items()]
    for path, labels in sources:
        source = path.read_text(encoding="utf-8")
        is_async = re.search(r"^\s*async\s+def\b", source, re.MULTILINE) is not None
        about_tasks = any(label.code in PEER_CODES[SPAWN] for label in labels)
        if is_async or about_tasks:
            (work / path.name).write_text(source, encoding="utf-8")
            compared.append(Compared(path.name, "as is", source, labels))
        else:
            wrapped, first, shift = wrap(source)
            name = path.stem + "_as_coroutines.py"
            (work / name).write_text(wrapped, encoding="utf-8")
            compared.append(Compared(name, "as coroutines", source, labels, (first, shift)))

    diagnostics = run_bgcheck(work)
    verdicts = load_verdicts()
    used: set = set()
    totals = {"units": 0, "agree_flag": 0, "agree_silent": 0, "miss_peer_right": 0, "miss_bgcheck_right": 0, "extra_bgcheck_right": 0, "extra_peer_right": 0, "unjudged": 0}
    print(f"bgcheck against {FLAKE8_ASYNC} and {RUFF} (their labelled test files)\n")
    for item in compared:
        units = units_of(item.source)
        unplaced = attach_peer_labels(units, item.labels, item.source)
        first, shift = item.shift
        for diagnostic in diagnostics:
            if Path(diagnostic["path"]).name != item.name:
                continue
            line = diagnostic["line"] - (shift if diagnostic["line"] >= first + shift else 0)
            for unit in units:
                if diagnostic["code"] in BGCHECK_CODES[unit.kind] and unit.header[0] <= line <= unit.header[1]:
                    if unit.kind != SPAWN or unit.column == diagnostic["column"] - 1:
                        unit.bgcheck.append(diagnostic["code"])
                        break
        rows = []
        counts = {"agree": 0, "miss": 0, "extra": 0}
        for unit in units:
            totals["units"] += 1
            peer, ours = bool(unit.peer), bool(unit.bgcheck)
            if peer == ours:
                counts["agree"] += 1
                totals["agree_flag" if peer else "agree_silent"] += 1
                if args.verbose:
                    rows.append(f"  agree  {unit.line:>4}  {unit.kind:<12} {'both flag' if peer else 'both silent'}: {unit.text[:70]}")
                continue
            direction = "miss" if peer else "extra"
            counts[direction] += 1
            key = (item.name.replace("_as_coroutines", ""), unit.line, unit.kind, direction)
            verdict = verdicts.get(key)
            used.add(key)
            who = ",".join(sorted({label.code for label in unit.peer})) if peer else ",".join(sorted(set(unit.bgcheck)))
            if verdict is None:
                totals["unjudged"] += 1
                rows.append(f"  {direction:<5}  {unit.line:>4}  {unit.kind:<12} {who}: {unit.text[:60]}  UNJUDGED")
                continue
            judged, reason = verdict
            totals[f"{direction}_{judged.replace('-', '_')}"] += 1
            rows.append(f"  {direction:<5}  {unit.line:>4}  {unit.kind:<12} {who}: {judged}: {reason}")
        for label in unplaced:
            rows.append(f"  label  {label.line:>4}  {label.code} fits no unit (not compared)")
        print(f"{item.name} ({item.checked_as}): {len(units)} units, {counts['agree']} agree, {counts['miss']} missed by bgcheck, {counts['extra']} found by bgcheck only")
        print("\n".join(rows) if rows else "  (no disagreement)")
    stale = sorted(set(verdicts) - used)
    if stale:
        print("\nverdicts kept as the record of disagreements that are gone (fixed, or the peer changed):")
        for key in stale:
            print(f"  {key[0]}:{key[1]} {key[2]} {key[3]}: was {verdicts[key][0]}")
    peer_flags = totals["agree_flag"] + totals["miss_peer_right"] + totals["miss_bgcheck_right"]
    print(
        f"\nTotal: {totals['units']} units; agreements {totals['agree_flag'] + totals['agree_silent']} "
        f"({totals['agree_flag']} both flag, {totals['agree_silent']} both silent); peer labels {peer_flags}, "
        f"bgcheck finds {totals['agree_flag']} of them.\n"
        f"Misses where the peer is right: {totals['miss_peer_right']}; misses where bgcheck is right: {totals['miss_bgcheck_right']}.\n"
        f"bgcheck-only findings that are false (peer right): {totals['extra_peer_right']}; that are right: {totals['extra_bgcheck_right']}.\n"
        f"Unjudged disagreements: {totals['unjudged']}."
    )
    return 1 if totals["unjudged"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
