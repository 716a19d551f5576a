"""A small control-flow question: how can a block of statements end?

``exits(body)`` returns the set of ways control can leave ``body``:
"fall" (off the end), "return", "break", "continue", "raise" (an explicit
``raise`` or a call that ends the process). Implicit exceptions from any
statement are not counted: the question rules ask is "can this handler
carry on as if nothing happened?", and a statement that might raise does
not answer it.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import libcst as cst
from bgcheck.walk import walk

FALL, RETURN, BREAK, CONTINUE, RAISE = "fall", "return", "break", "continue", "raise"

# Decides whether a call ends the process (sys.exit, os._exit): given by the
# caller, who can resolve names.
IsExitCall = Callable[[cst.Call], bool]


def exits(body, is_exit_call: Optional[IsExitCall] = None) -> set[str]:
    statements = _statements(body)
    current = {FALL}
    for statement in statements:
        if FALL not in current:
            break  # the rest is unreachable
        current.discard(FALL)
        current |= _statement_exits(statement, is_exit_call)
    return current


def always_raises(body, is_exit_call: Optional[IsExitCall] = None) -> bool:
    """True if every way out of ``body`` is an explicit raise (or a process exit)."""
    return exits(body, is_exit_call) <= {RAISE}


def _statements(body) -> Sequence[cst.CSTNode]:
    if body is None:
        return ()
    if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)):
        return body.body
    if isinstance(body, (list, tuple)):
        return body
    return (body,)


def is_constant_true(test: cst.BaseExpression) -> bool:
    if isinstance(test, cst.Name):
        return test.value == "True"
    if isinstance(test, cst.Integer):
        return test.value not in ("0", "0x0", "0o0", "0b0")
    if isinstance(test, cst.SimpleString):
        return len(test.evaluated_value) > 0
    if isinstance(test, (cst.Tuple, cst.List)):
        return len(test.elements) > 0
    return False


def _statement_exits(statement: cst.CSTNode, is_exit_call: Optional[IsExitCall]) -> set[str]:
    if isinstance(statement, cst.SimpleStatementLine):
        return exits(list(statement.body), is_exit_call) if len(statement.body) > 1 else _small_exits(statement.body[0], is_exit_call)
    if isinstance(statement, cst.BaseSmallStatement):
        return _small_exits(statement, is_exit_call)
    if isinstance(statement, cst.If):
        result = exits(statement.body, is_exit_call)
        orelse = statement.orelse
        if orelse is None:
            result.add(FALL)
        elif isinstance(orelse, cst.If):
            result |= _statement_exits(orelse, is_exit_call)
        else:
            result |= exits(orelse.body, is_exit_call)
        return result
    if isinstance(statement, cst.While):
        body = exits(statement.body, is_exit_call)
        result = body - {BREAK, CONTINUE, FALL}
        if BREAK in body or not is_constant_true(statement.test):
            result.add(FALL)
        return result
    if isinstance(statement, cst.For):
        body = exits(statement.body, is_exit_call)
        result = body - {BREAK, CONTINUE, FALL}
        result.add(FALL)  # the iterable may be empty
        return result
    if isinstance(statement, (cst.Try, cst.TryStar)):
        return _try_exits(statement, is_exit_call)
    if isinstance(statement, cst.With):
        return exits(statement.body, is_exit_call)
    if isinstance(statement, cst.Match):
        result: set[str] = set()
        irrefutable = False
        for case in statement.cases:
            result |= exits(case.body, is_exit_call)
            if case.guard is None and isinstance(case.pattern, cst.MatchAs) and case.pattern.pattern is None:
                irrefutable = True
        if not irrefutable:
            result.add(FALL)
        return result
    return {FALL}  # definitions and anything else


def _try_exits(statement, is_exit_call: Optional[IsExitCall]) -> set[str]:
    body = exits(statement.body, is_exit_call)
    if statement.orelse is not None and FALL in body:
        body = (body - {FALL}) | exits(statement.orelse.body, is_exit_call)
    result = set(body)
    for handler in statement.handlers:
        result |= exits(handler.body, is_exit_call)
    if statement.finalbody is not None:
        final = exits(statement.finalbody.body, is_exit_call)
        if FALL not in final:
            return final  # finally overrides every other way out
        result |= final - {FALL}
    return result


def _small_exits(statement: cst.CSTNode, is_exit_call: Optional[IsExitCall]) -> set[str]:
    if isinstance(statement, cst.Raise):
        return {RAISE}
    if isinstance(statement, cst.Return):
        return {RETURN}
    if isinstance(statement, cst.Break):
        return {BREAK}
    if isinstance(statement, cst.Continue):
        return {CONTINUE}
    if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call) and is_exit_call is not None:
        if is_exit_call(statement.value):
            return {RAISE}
    return {FALL}


def escaping_jumps(finalbody: cst.BaseSuite) -> list[cst.CSTNode]:
    """``return``/``break``/``continue`` statements that leave a ``finally`` block.

    A break or continue inside a loop nested in the block stays in it, and
    nothing inside a nested function or class counts.
    """
    found: list[cst.CSTNode] = []

    class _Finder(cst.CSTVisitor):
        def __init__(self) -> None:
            self.loop_depth = 0

        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_ClassDef(self, node) -> bool:
            return False

        def visit_Lambda(self, node) -> bool:
            return False

        def visit_For(self, node) -> bool:
            self.loop_depth += 1
            return True

        def leave_For(self, node) -> None:
            self.loop_depth -= 1

        def visit_While(self, node) -> bool:
            self.loop_depth += 1
            return True

        def leave_While(self, node) -> None:
            self.loop_depth -= 1

        def visit_Return(self, node) -> bool:
            found.append(node)
            return False

        def visit_Break(self, node) -> bool:
            if self.loop_depth == 0:
                found.append(node)
            return False

        def visit_Continue(self, node) -> bool:
            if self.loop_depth == 0:
                found.append(node)
            return False

    walk(finalbody, _Finder())
    return found
