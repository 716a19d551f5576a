"""Splicing an edited statement into the previous module (load/reparse.py): whenever a splice is
taken, it is the module a full parse of the new text gives, node for node."""

from __future__ import annotations

import random
import re

import libcst as cst
import pytest

from bgcheck.load.reparse import Parsed

BASE = (
    "import asyncio\n"
    "\n"
    "# a comment between statements\n"
    "async def worker(queue):\n"
    "    while True:\n"
    "        item = await queue.get()\n"
    "        # inside\n"
    "    # block footer\n"
    "\n"
    "\n"
    "class Jobs:\n"
    "    def run(self):\n"
    "        return 1\n"
    "\n"
    "@decorated\n"
    "def last(a):\n"
    "    return a\n"
)


def _parsed(text: str) -> Parsed:
    parsed = Parsed.of(text, cst.parse_module(text))
    assert parsed is not None
    return parsed


def _assert_same_as_full_parse(spliced: Parsed, text: str) -> None:
    full = cst.parse_module(text)
    assert spliced.module.deep_equals(full)
    assert spliced.module.code == full.code
    reference = _parsed(text)
    spliced._find(len(text))
    reference._find(len(text))
    assert spliced.starts == reference.starts
    assert spliced.first_indented == reference.first_indented


@pytest.mark.parametrize(
    "old, new",
    [
        ("item = await queue.get()", "thing = await queue.get()"),  # one identifier in a function
        ("        return 1\n", "        return 1\n        x = 2\n"),  # a line added to a method
        ("def last(a):\n    return a\n", "def last(a):\n    return a\n\n\ndef more():\n    pass\n"),  # a new statement after the last
        ("    while True:\n", "    while False:\n"),
        ("import asyncio\n", "import asyncio\nimport os\n"),  # a statement added after the first
    ],
)
def test_an_edit_inside_one_statement_is_spliced(old: str, new: str):
    previous = _parsed(BASE)
    text = BASE.replace(old, new, 1)
    spliced = previous.edited(text)
    assert spliced is not None
    _assert_same_as_full_parse(spliced, text)
    kept = [s for s in spliced.module.body if any(s is t for t in previous.module.body)]
    assert len(kept) >= len(previous.module.body) - 1  # the other statements are the same objects


@pytest.mark.parametrize(
    "old, new",
    [
        ("# a comment between statements\n", "# another comment\n"),  # between statements: libcst assigns it by indentation
        ("        item = await queue.get()", "        item = await queue.get("),  # does not parse on its own
        ("class Jobs:\n", "    class Jobs:\n"),  # joins the previous block
        ("    return a\n", "    return a"),  # no line break at the end
        ("async def worker(queue):\n    while True:\n", "async def worker(queue):\n  while True:\n"),  # the first indented line
        ("    # block footer\n", "    # block footer\n  # less\n"),  # after the block: a later statement's lines
    ],
)
def test_an_edit_a_splice_could_get_wrong_is_parsed_in_full(old: str, new: str):
    text = BASE.replace(old, new, 1)
    assert text != BASE
    assert _parsed(BASE).edited(text) is None


def test_an_unchanged_text_is_the_same_parse():
    previous = _parsed(BASE)
    assert previous.edited(BASE) is previous


_PIECES = [
    "import os\n",
    "x = 1\n",
    "\n",
    "# c\n",
    "    # indented\n",
    "  # two\n",
    "def f(a):\n    return a\n",
    "async def g(q):\n    while True:\n        item = await q.get()\n        # inner\n    # tail\n",
    "class C:\n    def m(self):\n        pass\n\n    x = 2\n",
    "if x: pass\nelse:\n    y = 1\n",
    "@dec\ndef h():\n  return 2\n",
    "try:\n    a()\nexcept E:\n    pass\nfinally:\n    b()\n",
    "def t():\n\tpass\n",
    "s = '''\nabc\n'''\n",
]
_INSERTS = ["x", "\n", "    ", "\t", "#", ":", "(", "pass", "'''", "\\\n", "def k():\n    pass\n", "\n    z = 3\n", "# note\n"]
_WORDS = ["foo", "pass", "await", "if", "x"]


def _random_edit(rnd: random.Random, text: str) -> str:
    choice = rnd.random()
    words = [m.span() for m in re.finditer(r"\b[a-z]\w*\b", text)]
    lines = [m.start() for m in re.finditer(r"^", text, re.M)][:-1]
    if choice < 0.35 and words:
        a, b = rnd.choice(words)
        return text[:a] + rnd.choice(_WORDS) + text[b:]
    if choice < 0.6 and lines:
        a = rnd.choice(lines)
        indent = re.match(r"[ \t]*", text[a:]).group()
        line = rnd.choice(["z = 1\n", "# c\n", "\n", "import sys\n", f"def q():\n{indent}    pass\n", f"if a:\n{indent}    b\n"])
        return text[:a] + indent + line + text[a:]
    if choice < 0.7 and lines:
        a = rnd.choice(lines)
        return text[:a] + text[text.index("\n", a) + 1 :]
    a = rnd.randint(0, len(text))
    b = min(len(text), a + rnd.choice([0, 0, 1, 2, 5]))
    return text[:a] + rnd.choice(_INSERTS + [""]) + text[b:]


def test_random_edits_splice_only_what_a_full_parse_gives():
    spliced_count = 0
    for seed in range(150):
        rnd = random.Random(seed)
        text = "".join(rnd.choice(_PIECES) for _ in range(rnd.randint(2, 10)))
        try:
            previous = Parsed.of(text, cst.parse_module(text))
        except cst.ParserSyntaxError:
            continue
        for _ in range(30):
            if previous is None:
                break
            new = _random_edit(rnd, text)
            spliced = previous.edited(new)
            if spliced is not None:
                spliced_count += 1
                _assert_same_as_full_parse(spliced, new)
            try:
                module = cst.parse_module(new)
            except cst.ParserSyntaxError:
                continue  # the next edit is diffed against the last text that parsed
            previous = spliced or Parsed.of(new, module)
            text = new
    assert spliced_count > 300  # the splice is taken often enough for this to test it
