"""How a block of statements can end, as both trees' control flow says it (syntax/flow.py for
libcst, syntax/ast_flow.py for CPython's ast): the kinds of exit, and what they make of a loop."""

from __future__ import annotations

FALL, RETURN, BREAK, CONTINUE, RAISE, CONVERT = "fall", "return", "break", "continue", "raise", "convert"


def loops_for_ever(ways_out: set[str]) -> bool:
    """Given the ways out of a constant-true loop's body: does the loop turn for ever (short of an
    exception or a stop signal)? Not when a ``break`` or ``return`` leaves it, nor when every pass
    raises (it ends on the first one)."""
    if ways_out & {BREAK, RETURN}:
        return False
    return bool(ways_out & {FALL, CONTINUE})
