"""Pre-parse guards: shapes of source that would make parsing take minutes or gigabytes.

libcst parses in time that grows with the square of an expression's depth: a chain of 4,000
``+`` takes tens of seconds, 5,000 ``not`` take over a gigabyte, and its native parser holds the
interpreter while it runs, so no timer can stop it. Before phase 2 parses a file with libcst (phase
1 reads CPython's ast, which parses these shapes in milliseconds), the depth is measured, cheaply,
and a file over the limits becomes a BG000 saying where and why. These measures are about the cost of
parsing only (how deep, how long), never about what the code means.

Two tiers: a scan of the text (C-speed regular expressions) finds the logical lines (statements,
with their bracketed continuation lines) long enough to hold a deep expression; only a file with
such lines is parsed by CPython's own parser (fast, in C) to measure each statement's expression
depth exactly.
"""

from __future__ import annotations

import ast
import re
from typing import Optional
from bgcheck.knowledge import LazyPattern

# 200 brackets open at once, nothing between them: CPython refuses this too ("too many nested
# parentheses"); found without any parsing.
# Written as a bracket first (not a repeated group) so that the search skips to brackets at C
# speed: 5x faster, the same matches.
_DEEP_BRACKETS = LazyPattern(r"[(\[{](?:\s*[(\[{]){199}")
MAX_BRACKET_RUN = 200
# An expression nested deeper than this in one statement (a chain of operators, calls,
# subscripts, attributes, ``not``, or nested brackets with items between them) is not parsed:
# at 500 levels libcst already needs about a second.
MAX_DEPTH = 500
# Statements nested more than _DEEP levels count against a budget for the whole file: the sum of
# their squared depths (4 statements 500 deep, or 100 statements 100 deep).
_DEEP = 100
# A level inside brackets (items of a list, tuple, set or dict, a call's arguments, a subscript)
# costs libcst about ten times what a level of an operator or attribute chain costs (measured:
# 400 nested lists 2.4 s, a chain of 400 calls 0.16 s): it counts as this many levels.
_BRACKET_LEVEL = 4
_BRACKETED = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
MAX_DEPTH_COST = 1_000_000
# Tier 1 counts, in each logical line of at least _WEIGHED_FROM characters, the tokens that can
# add a level (operators, ``.``, brackets, ``not``/``if``/``lambda``/``await``; counted inside
# strings too: an overestimate only costs time). A line with MAX_DEPTH of them, or lines whose
# squared counts past _DEEP add up to MAX_DEPTH_COST, send the file to tier 2.
_WEIGHED_FROM = _DEEP // _BRACKET_LEVEL
_LEVEL_TOKENS = LazyPattern(r"[-+*/%@&|^~]|\.(?!\d)|\b(?:not|if|lambda|await)\b")

# What the scan stops at: quotes (strings are skipped, so brackets and ``#`` inside them do not
# count), comments, brackets, line ends and backslashes. An unterminated string is skipped to the
# end of its line: the scan only decides whether to measure more exactly, it decides nothing itself.
_SPECIAL = LazyPattern(r"""['"#()\[\]{}\n\\]""")
_STRING_REST = {
    "'''": re.compile(r"(?:[^\\']|\\.|'(?!''))*(?:'''|\Z)", re.DOTALL),
    '"""': re.compile(r'(?:[^\\"]|\\.|"(?!""))*(?:"""|\Z)', re.DOTALL),
    "'": re.compile(r"(?:[^\\'\n]|\\.)*'?"),
    '"': re.compile(r'(?:[^\\"\n]|\\.)*"?'),
}


def parse_hazard(text: str) -> Optional[tuple[int, str]]:
    """(line, reason) when ``text`` (line ends normalised: see source.normalize_newlines) is too
    deep to parse within the limits, else None."""
    deep = _DEEP_BRACKETS.search(text)
    if deep is not None:
        line = _line_of(text, deep.start())
        return line, f"it is nested too deeply to parse ({MAX_BRACKET_RUN}+ brackets open at once)"
    heavy = _heavy_statement(text)
    if heavy is None:
        return None
    return _measure(text, heavy)


def _heavy_statement(text: str) -> Optional[int]:
    """Tier 1: the line where a logical line starts that has enough level-adding tokens to be
    past the limits (alone or with the ones before it), or None."""
    depth = 0
    start = 0  # where the current logical line started
    cost = 0
    search = _SPECIAL.search
    position = 0
    while True:
        match = search(text, position)
        if match is None:
            break
        char = match.group()
        position = match.end()
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth:
                depth -= 1
        elif char == "\n":
            if depth == 0:
                end = match.start()
                if end - start >= _WEIGHED_FROM:
                    weight = _weight(text, start, end)
                    if weight > _DEEP:
                        cost += weight * weight
                        if weight > MAX_DEPTH or cost > MAX_DEPTH_COST:
                            return _line_of(text, start)
                start = position
        elif char == "#":
            newline = text.find("\n", position)
            position = len(text) if newline < 0 else newline
        elif char == "\\":
            position += 1  # an escaped line end continues the logical line
        else:  # a quote
            quote = char * 3 if text.startswith(char * 3, match.start()) else char
            position = _STRING_REST[quote].match(text, match.start() + len(quote)).end()
    if len(text) - start >= _WEIGHED_FROM:  # the last line, without a line end
        weight = _weight(text, start, len(text))
        if weight > MAX_DEPTH or (weight > _DEEP and cost + weight * weight > MAX_DEPTH_COST):
            return _line_of(text, start)
    return None


def _weight(text: str, start: int, end: int) -> int:
    """An upper bound of the depth of what ``text[start:end]`` can hold, in levels."""
    brackets = text.count("(", start, end) + text.count("[", start, end) + text.count("{", start, end)
    if end - start + (_BRACKET_LEVEL - 1) * brackets <= _DEEP:
        return 0  # cannot hold more than _DEEP levels: not worth counting exactly
    return len(_LEVEL_TOKENS.findall(text, start, end)) + _BRACKET_LEVEL * brackets


def _measure(text: str, heavy_line: int) -> Optional[tuple[int, str]]:
    """Tier 2: each statement's expression depth, measured on CPython's tree."""
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        message = str(exc.msg)
        if "too many nested" in message or "nested too deeply" in message or "too many statically" in message:
            return exc.lineno or heavy_line, f"it is nested too deeply to parse ({message})"
        return None  # a plain syntax error: the parser reports it with its position
    except (RecursionError, MemoryError):  # CPython builds its tree recursively: thousands of levels
        return heavy_line, _too_deep_reason(heavy_line)
    except ValueError:
        return None
    cost = 0
    deepest = (0, 1)  # (depth, line)
    # (node, depth below the statement it is in, that statement); iterative: depth is the measure
    stack: list = [(tree, 0, None)]
    statement_depth: dict[int, int] = {}
    while stack:
        node, depth, statement = stack.pop()
        if isinstance(node, ast.stmt):
            statement, depth = node, 0
        else:
            known = statement_depth.get(id(statement), 0)
            if depth > known:
                statement_depth[id(statement)] = depth
                line = getattr(statement, "lineno", 1)
                if depth > MAX_DEPTH:
                    return line, _too_deep_reason(line)
                if depth > deepest[0]:
                    deepest = (depth, line)
                if depth > _DEEP:
                    cost += depth * depth - (known * known if known > _DEEP else 0)
                    if cost > MAX_DEPTH_COST:
                        return deepest[1], (
                            f"it holds many deeply nested expressions (the deepest {deepest[0]} levels or more, at line "
                            f"{deepest[1]}): parsing them would take minutes (the sum of the squares of the depths past "
                            f"{_DEEP} levels is over the limit of {MAX_DEPTH_COST:,})"
                        )
        children = list(ast.iter_child_nodes(node))
        kind = type(node)
        for child in reversed(children):  # popped in source order: the first deep statement is reported
            if kind in _BRACKETED or (kind is ast.Call and child is not node.func) or (kind is ast.Subscript and child is not node.value):
                stack.append((child, depth + _BRACKET_LEVEL, statement))
            else:
                stack.append((child, depth + 1, statement))
    return None


def _too_deep_reason(line: int) -> str:
    return (
        f"the expression at line {line} is nested more than {MAX_DEPTH} levels deep (a chain of operators, calls, "
        f"subscripts, attributes or brackets): parsing it would take minutes and gigabytes"
    )


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
