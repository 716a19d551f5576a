"""Small questions rules ask about a call in the CST: shared, so each is answered one way."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from bgcheck import knowledge
from bgcheck.ir import dotted_name


def argument(node: cst.Call, keyword: str, position: Optional[int] = None) -> Optional[cst.BaseExpression]:
    """The argument passed as ``keyword=``, or else at ``position`` among the plain positional ones."""
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    if position is None:
        return None
    positional = [a for a in node.args if a.keyword is None and not a.star]
    return positional[position].value if len(positional) > position else None


def is_executor_receiver(node: cst.Call, ctx) -> bool:
    """``x.submit(...)`` / ``x.map(...)`` on a concurrent.futures executor, or on a name that says executor/pool."""
    receiver = ctx.resolve(node.func.value) or ""
    if any(receiver == f"{cls}()" for cls in knowledge.EXECUTOR_CLASSES):
        return True
    text = (dotted_name(node.func.value) or "").lower()
    return "executor" in text or "pool" in text
