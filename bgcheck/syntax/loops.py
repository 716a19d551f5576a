"""Loops that never end (BG201, BG202) and polling loops with no deadline (BG203).

Shared by the summary (which records, per function, whether it contains an
endless loop, so a thread target in another module can be judged) and the
rules (which report the loop itself).
"""

from __future__ import annotations

from functools import lru_cache

from bgcheck.syntax.lazy import cst

from bgcheck import knowledge
from bgcheck.syntax.exits import FALL, loops_for_ever
from bgcheck.syntax.flow import exits, is_constant_true
from bgcheck.syntax.cst_ir import dotted_name
from bgcheck.syntax.walk import find_all, walk
from bgcheck.syntax.words import says_stop


class _Words:  # (walked by syntax/walk.py)
    """Collects identifiers and called method names below a node (not into nested defs)."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.methods: list[str] = []

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_ClassDef(self, node) -> bool:
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.names.append(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.names.append(node.attr.value)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute):
            self.methods.append(node.func.attr.value)


def _words(node: cst.CSTNode) -> _Words:
    words = _Words()
    walk(node, words)
    return words


def checks_stop_signal(node: cst.CSTNode) -> bool:
    """Does this expression test a stop signal: ``event.is_set()``, or a name that says stop/shutdown/running/exit?"""
    words = _words(node)
    if any(method in knowledge.STOP_SIGNAL_METHODS for method in words.methods):
        return True
    return any(says_stop(name) for name in words.names)


def exits_on_stop_signal(body: cst.CSTNode) -> bool:
    """Is there an ``if <stop signal>:`` in the body whose block always leaves the loop (raise, exit)?
    (Not inside a nested function: it runs elsewhere.)"""
    return any(
        FALL not in exits(node.body, _looks_like_exit) and checks_stop_signal(node.test) for node in find_all(body, (cst.If,))
    )


def _looks_like_exit(call: cst.Call) -> bool:
    """A process exit as written (the summary has no resolver here): ``sys.exit()``, ``os._exit()``."""
    return dotted_name(call.func) in knowledge.PROCESS_EXIT_CALLS


# A loop's answer depends on its own subtree only, and libcst nodes are immutable and hashed by
# identity: the summary and the rules ask of the same loops, and the language server's next
# edit keeps the statements it did not touch (load/reparse.py). Bounded: a key keeps its loop alive.
@lru_cache(maxsize=512)
def is_endless(loop: cst.While) -> bool:
    """A constant-true ``while`` that nothing but an exception leaves, and that tests no stop signal.

    ``while True`` bodies that always leave on the first pass (retry-once
    shapes) are not endless, nor are drain loops that ``break`` when the
    work runs out.
    """
    if not is_constant_true(loop.test):
        return False
    return loops_for_ever(exits(loop.body)) and not exits_on_stop_signal(loop.body)


def polls_without_deadline(loop: cst.While, sleeps: bool) -> bool:
    """A ``while <condition>:`` that sleeps between checks, with no deadline or try count in sight."""
    if not sleeps or is_constant_true(loop.test):
        return False
    if counts_to_a_bound(loop):
        return False
    words = _words(loop)
    if any(knowledge.DEADLINE_WORDS.search(name) for name in words.names):
        return False
    return not checks_stop_signal(loop.test) and not exits_on_stop_signal(loop.body)


def counts_to_a_bound(loop: cst.While) -> bool:
    """``while n < 24: ... n += 1`` (or ``while left > 0: ... left -= 1``), alone or ``and``-ed with
    other tests: a counter compared with a number and stepped towards it in the loop's own body
    ends the loop after that many rounds."""
    tests = [loop.test]
    while tests:
        test = tests.pop()
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            tests += [test.left, test.right]
            continue
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            continue
        target = test.comparisons[0]
        left, right = test.left, target.comparator
        if isinstance(target.operator, (cst.LessThan, cst.LessThanEqual)):
            counter, bound, step = left, right, cst.AddAssign
        elif isinstance(target.operator, (cst.GreaterThan, cst.GreaterThanEqual)):
            counter, bound, step = left, right, cst.SubtractAssign
        else:
            continue
        if _is_number(counter) and dotted_name(bound):  # ``while 24 > n``: the counter on the right
            counter, bound, step = bound, counter, cst.AddAssign if step is cst.SubtractAssign else cst.SubtractAssign
        name = dotted_name(counter)
        if name and _is_number(bound) and _steps(loop.body, name, step):
            return True
    return False


def _is_number(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float))


def _steps(body: cst.CSTNode, name: str, step) -> bool:
    """A ``name += <positive number>`` (or ``-=``) in ``body``, outside nested functions."""
    for node in find_all(body, (cst.AugAssign,)):
        if isinstance(node.operator, step) and dotted_name(node.target) == name and _is_number(node.value):
            value = node.value
            if not isinstance(value, cst.UnaryOperation) and float(value.value) > 0:
                return True
    return False
