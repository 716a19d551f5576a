"""syntax/flow.py's left_after: the calls after which a loop is always left (BG301's puts made
once per run of the loop, BG303's tasks started on the way out)."""

from __future__ import annotations

import textwrap

import libcst as cst

from bgcheck.syntax.flow import left_after


def _left(source: str) -> list[str]:
    """The names of the calls left_after finds in the module's first loop."""
    module = cst.parse_module(textwrap.dedent(source))
    loop = next(s for s in module.body if isinstance(s, (cst.While, cst.For)))
    found = left_after(loop)
    names: list[str] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if id(node) in found and isinstance(node.func, cst.Name):
                names.append(node.func.value)

    loop.visit(_Calls())
    return names


def test_a_call_before_a_break_or_inside_a_leaving_statement_is_left_after():
    assert _left(
        """
        while True:
            item = take()
            if item is None:
                stop(item)
                break
            if item == "last":
                return finish(item)
            if item == "bad":
                raise Failed(describe(item))
            handle(item)
        """
    ) == ["stop", "finish", "Failed", "describe"]


def test_a_raise_a_handler_in_the_loop_may_catch_does_not_leave():
    assert _left(
        """
        for item in stream:
            try:
                raise Failed(describe(item))
            except Failed:
                log(item)
        """
    ) == []
