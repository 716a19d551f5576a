"""A small control-flow question: how can a block of statements end?

``exits(body)`` returns the set of ways control can leave ``body``:
"fall" (off the end), "return", "break", "continue", "raise" (an explicit
``raise`` or a call that ends the process). Implicit exceptions from any
statement are not counted: the question rules ask is "can this handler
carry on as if nothing happened?", and a statement that might raise does
not answer it.

A caller that cares *what* is raised passes ``classify_raise``: given a
``raise`` statement and the except clauses nested between the analysed body
and it (innermost last), it answers "raise" (the exception in flight goes on)
or "convert" (another exception replaces it, as in ``raise ValueError() from
exc``). Loops are followed as Python runs them: a ``for``/``while`` ``else:``
runs when the loop ends without ``break``, and a ``for`` over a non-empty
literal or ``range(<positive int>)`` runs its body at least once.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from bgcheck.syntax.exits import BREAK, CONTINUE, CONVERT, FALL, RAISE, RETURN  # noqa: F401 - the rules read them here
from bgcheck.syntax.lazy import cst
from bgcheck.syntax.walk import walk

# Decides whether a call ends the process (sys.exit, os._exit): given by the
# caller, who can resolve names.
IsExitCall = Callable[["cst.Call"], bool]
# Decides whether a ``raise`` re-raises what is in flight (RAISE) or replaces it (CONVERT),
# given the except clauses between the analysed body and the raise (innermost last).
ClassifyRaise = Callable[["cst.Raise", tuple], str]


class _Flow:
    __slots__ = ("is_exit_call", "classify_raise", "handlers")

    def __init__(self, is_exit_call: Optional[IsExitCall], classify_raise: Optional[ClassifyRaise]) -> None:
        self.is_exit_call = is_exit_call
        self.classify_raise = classify_raise
        self.handlers: tuple = ()


def _flow(is_exit_call) -> "_Flow":
    return is_exit_call if isinstance(is_exit_call, _Flow) else _Flow(is_exit_call, None)


def exits(body, is_exit_call: Optional[IsExitCall] = None, classify_raise: Optional[ClassifyRaise] = None) -> set[str]:
    flow = _Flow(is_exit_call, classify_raise) if classify_raise is not None else _flow(is_exit_call)
    statements = _statements(body)
    current = {FALL}
    for statement in statements:
        if FALL not in current:
            break  # the rest is unreachable
        current.discard(FALL)
        current |= _statement_exits(statement, flow)
    return current


def always_raises(body, is_exit_call: Optional[IsExitCall] = None, classify_raise: Optional[ClassifyRaise] = None) -> bool:
    """True if every way out of ``body`` is an explicit raise (or a process exit)."""
    return exits(body, is_exit_call, classify_raise) <= {RAISE}


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


def is_non_empty_iterable(node: cst.BaseExpression) -> bool:
    """A literal with at least one element (``[1, 2]``, ``"ab"``, ``{1: 2}``, ``(*(), *(1,))``) or
    ``range(n)`` with a positive integer literal: a ``for`` over it runs its body at least once."""
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return any(
            is_non_empty_iterable(e.value) if isinstance(e, cst.StarredElement) else True for e in node.elements
        )
    if isinstance(node, cst.Dict):
        return any(is_non_empty_iterable(e.value) if isinstance(e, cst.StarredDictElement) else True for e in node.elements)
    if isinstance(node, cst.SimpleString):
        try:
            return len(node.evaluated_value) > 0
        except Exception:  # an unusual prefix: not known
            return False
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "range":
        if len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star:
            value = node.args[0].value
            if isinstance(value, cst.Integer):
                try:
                    return int(value.value.replace("_", ""), 0) > 0
                except ValueError:
                    return False
    return False


def left_after(loop: "cst.While | cst.For") -> set[int]:
    """Ids of the calls in a loop's body after which the loop is always left: a ``break``,
    ``return`` or ``raise`` follows them in their block or in an enclosing one (``q.put(item)``
    then ``raise`` in an ``except:`` of the body), or is the statement they are in (``return
    start(item)``). Such a call runs at most once per run of the
    loop, however often the loop turns. A ``raise`` inside a ``try`` that has handlers does not
    count (a handler in the loop may catch it); calls in an ``if`` or ``while`` test, a lambda or a
    nested definition are never included, and a nested loop counts as one statement (all its
    calls or none)."""
    found: set[int] = set()
    _left_after(_flat(_statements(loop.body)), False, True, found)
    return found


def _flat(statements) -> list:
    """Statements with each simple line opened into its small statements (``q.put(x); break``)."""
    flat: list = []
    for statement in statements:
        flat.extend(statement.body if isinstance(statement, cst.SimpleStatementLine) else (statement,))
    return flat


def _left_after(statements: list, leaving: bool, raise_leaves: bool, found: set) -> None:
    ways_out = {BREAK, RETURN, RAISE} if raise_leaves else {BREAK, RETURN}
    for i, statement in enumerate(statements):
        rest = exits(statements[i + 1 :])
        after = rest <= ways_out | {FALL} and (FALL not in rest or leaving)
        if isinstance(statement, (cst.For, cst.While)) or isinstance(statement, cst.BaseSmallStatement):
            # ``return start(x)``, ``raise Stop(f())``: the statement's own calls run, then it leaves
            leaves = isinstance(statement, cst.Return) or (raise_leaves and isinstance(statement, cst.Raise))
            if after or leaves:
                found.update(id(call) for call in _calls_run_here(statement))
            continue
        for block, in_handled_try in _blocks(statement):
            _left_after(_flat(_statements(block)), after, raise_leaves and not in_handled_try, found)


def _blocks(statement) -> list:
    """The blocks of a compound statement, each with whether it is the body of a ``try`` with handlers."""
    if isinstance(statement, cst.If):
        blocks = [(statement.body, False)]
        orelse = statement.orelse
        while isinstance(orelse, cst.If):
            blocks.append((orelse.body, False))
            orelse = orelse.orelse
        return blocks + ([(orelse.body, False)] if orelse is not None else [])
    if isinstance(statement, (cst.Try, cst.TryStar)):
        blocks = [(statement.body, bool(statement.handlers))]
        blocks += [(handler.body, False) for handler in statement.handlers]
        blocks += [(part.body, False) for part in (statement.orelse, statement.finalbody) if part is not None]
        return blocks
    if isinstance(statement, cst.With):
        return [(statement.body, False)]
    if isinstance(statement, cst.Match):
        return [(case.body, False) for case in statement.cases]
    return []  # definitions: their calls do not run here


def _calls_run_here(node: cst.CSTNode) -> list:
    calls: list = []

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_ClassDef(self, node) -> bool:
            return False

        def visit_Lambda(self, node) -> bool:
            return False

        def visit_Call(self, node: cst.Call) -> None:
            calls.append(node)

    walk(node, _Finder())
    return calls


def _loop_exits(statement, flow: "_Flow", may_skip_body: bool) -> set[str]:
    """A loop: its body's ways out, plus the ``else:`` (or falling off) when the loop ends without ``break``.
    The loop ends normally when the body may not run at all, or an iteration can complete."""
    body = exits(statement.body, flow)
    result = body - {BREAK, CONTINUE, FALL}
    if BREAK in body:
        result.add(FALL)
    ends_normally = may_skip_body or bool(body & {FALL, CONTINUE})
    if isinstance(statement, cst.While) and is_constant_true(statement.test):
        ends_normally = False  # ``while True`` ends only by break, return or raise
    if ends_normally:
        result |= exits(statement.orelse.body, flow) if statement.orelse is not None else {FALL}
    return result


def _statement_exits(statement: cst.CSTNode, flow) -> set[str]:
    flow = _flow(flow)
    if isinstance(statement, cst.SimpleStatementLine):
        return exits(list(statement.body), flow) if len(statement.body) > 1 else _small_exits(statement.body[0], flow)
    if isinstance(statement, cst.BaseSmallStatement):
        return _small_exits(statement, flow)
    if isinstance(statement, cst.If):
        result = exits(statement.body, flow)
        orelse = statement.orelse
        if orelse is None:
            result.add(FALL)
        elif isinstance(orelse, cst.If):
            result |= _statement_exits(orelse, flow)
        else:
            result |= exits(orelse.body, flow)
        return result
    if isinstance(statement, cst.While):
        return _loop_exits(statement, flow, may_skip_body=not is_constant_true(statement.test))
    if isinstance(statement, cst.For):
        return _loop_exits(statement, flow, may_skip_body=not is_non_empty_iterable(statement.iter))
    if isinstance(statement, (cst.Try, cst.TryStar)):
        return _try_exits(statement, flow)
    if isinstance(statement, cst.With):
        return exits(statement.body, flow)
    if isinstance(statement, cst.Match):
        result: set[str] = set()
        irrefutable = False
        for case in statement.cases:
            result |= exits(case.body, flow)
            if case.guard is None and isinstance(case.pattern, cst.MatchAs) and case.pattern.pattern is None:
                irrefutable = True
        if not irrefutable:
            result.add(FALL)
        return result
    return {FALL}  # definitions and anything else


def _try_exits(statement, flow: "_Flow") -> set[str]:
    body = exits(statement.body, flow)
    if statement.orelse is not None and FALL in body:
        body = (body - {FALL}) | exits(statement.orelse.body, flow)
    result = set(body)
    for handler in statement.handlers:
        outer = flow.handlers
        flow.handlers = outer + (handler,)
        try:
            result |= exits(handler.body, flow)
        finally:
            flow.handlers = outer
    if statement.finalbody is not None:
        final = exits(statement.finalbody.body, flow)
        if FALL not in final:
            return final  # finally overrides every other way out
        result |= final - {FALL}
    return result


def _small_exits(statement: cst.CSTNode, flow: "_Flow") -> set[str]:
    if isinstance(statement, cst.Raise):
        return {flow.classify_raise(statement, flow.handlers)} if flow.classify_raise is not None else {RAISE}
    if isinstance(statement, cst.Return):
        return {RETURN}
    if isinstance(statement, cst.Break):
        return {BREAK}
    if isinstance(statement, cst.Continue):
        return {CONTINUE}
    if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call) and flow.is_exit_call is not None:
        if flow.is_exit_call(statement.value):
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
