#!/usr/bin/env python3
"""Choose the next ecosystem batch without running bgcheck: screen PyPI sdists for a rule's shape.

    python scripts/screen.py --names 'bot$|-agent$' --out /tmp/screen      # PyPI names matching a regex
    python scripts/screen.py --names 'mqtt' --since 2025-01 --out /tmp/screen --shape BG101

A batch of scripts/ecosystem.py is chosen before any bgcheck run, by a rule written down beside
it. When a rule has too few judged findings to be placed, the way to more is projects whose code
has the shape that rule reads, found by parsing alone: this script takes PyPI's simple index,
keeps the names that match --names and are in no batch yet, reads each one's JSON metadata
(latest version, its sdist, upload date), keeps those uploaded since --since, downloads each sdist
into memory and parses its Python files (tests, docs and examples left out) with the standard
library's ``ast``. It counts three shapes:

    BG101  in an ``async def``, an ``except`` that catches CancelledError inside a loop of that
           coroutine, whose handler has no ``raise``, ``return`` or ``break``
    BG103  in an ``async def``, a ``finally:`` block with a ``return``, or a ``break`` or
           ``continue`` that leaves it
    BG301  a queue made with no bound (``Queue()``), put into in a loop and taken from in a loop
           that sleeps a fixed time each round (a coroutine's or a thread's): a paced consumer

and writes <out>/hits.tsv (name, version, the counts, lines, upload date, summary) for every sdist
with a hit, biggest first, and keeps those sdists in <out>/sdists/ (scripts/ecosystem.py reads
scripts/.ecosystem/sdists/ first: copy the chosen ones there). Which hits are applications, and
which are copies of projects already in the corpus, is then read by hand and written beside the
batch, as batches 39 and 40 say. The network is needed; nothing of bgcheck is imported.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import io
import json
import re
import sys
import tarfile
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ecosystem  # noqa: E402  (the corpus: names already in a batch are not screened again)

SKIPPED_FOLDERS = {"tests", "test", "testing", "docs", "examples"}
LOOPS = (ast.While, ast.For, ast.AsyncFor)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _catches_cancellation(handler_type) -> bool:
    names = handler_type.elts if isinstance(handler_type, ast.Tuple) else [handler_type]
    return any((n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", "")) == "CancelledError" for n in names)


def _leaves(body: list) -> bool:
    return any(isinstance(node, (ast.Raise, ast.Return, ast.Break)) for statement in body for node in ast.walk(statement))


def _jumps_out(body: list) -> bool:
    """A ``return`` anywhere in ``body``, or a ``break``/``continue`` not inside a loop of its own."""

    def walk(node, in_loop: bool) -> bool:
        if isinstance(node, SCOPES):
            return False
        if isinstance(node, ast.Return) or isinstance(node, (ast.Break, ast.Continue)) and not in_loop:
            return True
        return any(walk(child, in_loop or isinstance(node, LOOPS)) for child in ast.iter_child_nodes(node))

    return any(walk(statement, False) for statement in body)


def shapes(source: str) -> tuple[int, int, int]:
    """(BG101 shapes, BG103 shapes, BG301 shapes) in one module's source; zeros when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return 0, 0, 0
    found = [0, 0]

    def visit(node, in_coroutine: bool, in_loop: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.AsyncFunctionDef):
                visit(child, True, False)
            elif isinstance(child, SCOPES):
                visit(child, False, False)
            elif isinstance(child, LOOPS):
                visit(child, in_coroutine, in_coroutine)
            else:
                if (isinstance(child, ast.ExceptHandler) and in_coroutine and in_loop and child.type is not None
                        and _catches_cancellation(child.type) and not _leaves(child.body)):
                    found[0] += 1
                if isinstance(child, ast.Try) and in_coroutine and child.finalbody and _jumps_out(child.finalbody):
                    found[1] += 1
                visit(child, in_coroutine, in_loop)

    visit(tree, False, False)
    return found[0], found[1], _outrun_queues(tree)


def _last_name(node) -> str | None:
    """``q`` of ``q``, ``self.q`` or ``state.inbox.q``."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def _outrun_queues(tree: ast.AST) -> int:
    """The queues of a module that a fast producer can outrun: made with no bound (``Queue()``,
    ``asyncio.Queue(maxsize=0)``, ``queue.Queue(-1)``), put into in a loop of a function, and taken
    from in a loop of a function (a coroutine or a thread's) that also sleeps a fixed time each round
    (``await asyncio.sleep(0.2)``, ``time.sleep(.2)``): the consumer is paced, the producer is not
    (BG301's sure shape)."""
    unbounded = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and _last_name(node.value.func) == "Queue":
            bound = [k.value for k in node.value.keywords if k.arg == "maxsize"] + node.value.args[:1]
            if all(_constant(b) is not None and _constant(b) <= 0 for b in bound):
                unbounded.update(n for n in map(_last_name, node.targets) if n)
    put, paced = set(), set()
    for loop in (n for n in ast.walk(tree) if isinstance(n, LOOPS)):
        calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
        names = {(c.func.attr, _last_name(c.func.value)) for c in calls if isinstance(c.func, ast.Attribute)}
        put.update(q for method, q in names if method in ("put", "put_nowait"))
        if any(_last_name(c.func) == "sleep" and c.args and (_constant(c.args[0]) or 0) > 0 for c in calls):
            paced.update(q for method, q in names if method in ("get", "get_nowait"))
    return len(unbounded & put & paced)


def _constant(node) -> float | None:
    """The number a literal stands for (``-1`` too); None for anything else."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant(node.operand)
        return None if inner is None else -inner
    value = node.value if isinstance(node, ast.Constant) else None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _python_files(data: bytes, filename: str):
    """(path, text) of each Python file of an sdist, tests, docs and examples left out."""
    if filename.endswith(".zip"):
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [(n, lambda n=n: archive.read(n)) for n in archive.namelist()]
    else:
        archive = tarfile.open(fileobj=io.BytesIO(data))
        members = [(m.name, lambda m=m: archive.extractfile(m).read()) for m in archive.getmembers() if m.isfile()]
    for path, read in members:
        parts = path.split("/")
        if path.endswith(".py") and not SKIPPED_FOLDERS & set(parts[:-1]) and not parts[-1].startswith("test_"):
            yield path, read().decode("utf-8", "replace")


def _metadata(name: str) -> dict | None:
    page = f"https://pypi.org/pypi/{name}/json"
    try:
        with urllib.request.urlopen(page, timeout=30) as response:
            data = json.load(response)
    except (OSError, ValueError):
        return None
    files = data.get("urls") or []
    sdists = [f for f in files if f["packagetype"] == "sdist"]
    if not sdists:
        return None
    return {
        "name": name,
        "version": data["info"]["version"],
        "summary": (data["info"].get("summary") or "").replace("\t", " ")[:120],
        "upload": max(f["upload_time"] for f in files),
        "url": urllib.parse.urljoin(page, sdists[0]["url"]),  # a mirror may list it relative to the page
        "filename": sdists[0]["filename"],
    }


def _screen(meta: dict, sdists: Path) -> dict | None:
    try:
        with urllib.request.urlopen(meta["url"], timeout=120) as response:
            data = response.read()
        bg101 = bg103 = bg301 = lines = 0
        for _path, text in _python_files(data, meta["filename"]):
            lines += text.count("\n")
            if "async def" in text and ("CancelledError" in text or "finally" in text) or "Queue(" in text:
                a, b, c = shapes(text)
                bg101, bg103, bg301 = bg101 + a, bg103 + b, bg301 + c
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError):
        return None
    if not bg101 and not bg103 and not bg301:
        return None
    (sdists / meta["filename"]).write_bytes(data)
    return {**meta, "BG101": bg101, "BG103": bg103, "BG301": bg301, "lines": lines}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--names", required=True, help="a regular expression the normalized PyPI name must match")
    parser.add_argument("--since", default="2025-01", help="keep sdists uploaded since this date (YYYY-MM)")
    parser.add_argument("--out", type=Path, required=True, help="folder for hits.tsv and the sdists with a hit")
    parser.add_argument("--shape", choices=("BG101", "BG103", "BG301"), action="append", help="only hits of this shape (repeatable)")
    args = parser.parse_args()

    request = urllib.request.Request("https://pypi.org/simple/", headers={"Accept": "text/html"})
    with urllib.request.urlopen(request, timeout=300) as response:
        index = response.read().decode("utf-8", "replace")
    taken = {_normalized(p.name) for p in ecosystem.PROJECTS}
    pattern = re.compile(args.names)
    names = sorted({_normalized(n) for n in re.findall(r'<a href="[^"]*">([^<]*)</a>', index)} - taken)
    names = [n for n in names if pattern.search(n)]
    print(f"screen: {len(names)} names match", file=sys.stderr)
    sdists = args.out / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(24) as pool:
        metas = [m for m in pool.map(_metadata, names) if m and m["upload"] >= args.since]
        print(f"screen: {len(metas)} sdists uploaded since {args.since}", file=sys.stderr)
        hits = [h for h in pool.map(lambda m: _screen(m, sdists), metas) if h]
    wanted = args.shape or ["BG101", "BG103", "BG301"]
    hits = sorted((h for h in hits if any(h[s] for s in wanted)), key=lambda h: -h["lines"])
    columns = ("name", "version", "BG101", "BG103", "BG301", "lines", "upload", "summary")
    with open(args.out / "hits.tsv", "w", encoding="utf-8") as out:
        out.write("\t".join(columns) + "\n")
        for hit in hits:
            out.write("\t".join(str(hit[c]) for c in columns) + "\n")
    print(f"screen: {len(hits)} sdists with a hit, in {args.out / 'hits.tsv'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
