"""Edits the rules' fixes are made of, computed in phase 2 where the node is at hand.

Each returns a ``bgcheck.diagnostics.Edit`` (or None when the change is not clear from the code),
in the file's own text: small insertions and replacements at node positions, so the comments,
line breaks and layout around them are kept byte for byte. ``bgcheck/run/fixes.py`` applies them.
"""

from __future__ import annotations

from typing import Optional

from bgcheck.syntax.lazy import cst

from bgcheck.diagnostics import Edit
from bgcheck.rules.checker import FileContext


def keyword_set(ctx: FileContext, call: cst.Call, keyword: str, value: str) -> Optional[Edit]:
    """``f(a, x=False)`` -> ``f(a, x=True)``; ``f(a)`` -> ``f(a, x=True)``, in the layout of the
    call: one argument per line with a trailing comma gets the new one on a line of its own. None
    when the call spreads ``*args`` / ``**kwargs`` (the keyword may be in there)."""
    if any(arg.star for arg in call.args):
        return None
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return ctx.replace(arg.value, value)
    added = f"{keyword}={value}"
    if not call.args:
        if call.rpar:
            return None  # ``(f())``: the call's own ``)`` is not where the node ends
        end = ctx.position(call).end  # just after ``)``: insert before it
        return Edit(end.line, end.column, end.line, end.column, added)
    last = call.args[-1]
    after = ctx.position(last).end  # after the value and any parentheses around it, before its comma
    indentation = ctx.indentation(last)
    on_own_line = ctx.position(last).start.column == len(indentation)
    if isinstance(last.comma, cst.Comma) and on_own_line:
        text = f",{ctx.module.default_newline}{indentation}{added}"  # the trailing comma now follows ours
    else:
        text = f", {added}"
    return Edit(after.line, after.column + 1, after.line, after.column + 1, text)


def decorator_keyword_set(ctx: FileContext, decorator: cst.Decorator, keyword: str, value: str) -> Optional[Edit]:
    """``@app.task`` -> ``@app.task(x=True)``; ``@app.task(bind=True)`` -> ``@app.task(bind=True, x=True)``."""
    expression = decorator.decorator
    if isinstance(expression, cst.Call):
        return keyword_set(ctx, expression, keyword, value)
    if isinstance(expression, (cst.Name, cst.Attribute)):
        return ctx.insert_after(expression, f"({keyword}={value})")
    return None


def import_edit(ctx, statement: str) -> Optional[Edit]:
    """An edit that adds ``statement`` (``from functools import partial``) on a line of its own after
    the last import of the module's leading block of imports (after its docstring). None when the
    module starts with no import."""
    last = None
    for index, statement_node in enumerate(ctx.module.body):
        if isinstance(statement_node, cst.SimpleStatementLine) and all(
            isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement_node.body
        ):
            last = statement_node
        elif not (index == 0 and _is_docstring(statement_node)):
            break
    if last is None:
        return None
    line = ctx.module_position(last).end.line + 1
    return Edit(line, 1, line, 1, statement + ctx.module.default_newline)


def name_for_import(ctx, dotted: str) -> Optional[tuple[str, Optional[Edit]]]:
    """How the module can spell ``dotted`` (``functools.partial``): (its local name, None) when an
    import already binds it, (the last part, the edit that adds ``from functools import partial``)
    when that name is free in the module, None when another binding takes the name or the module
    starts with no import to add one after."""
    imports = ctx.summary.imports
    for local, target in imports.items():
        if target == dotted and local.isidentifier():  # not a star import's entry
            return local, None
    package, _, name = dotted.rpartition(".")
    module = ctx.summary.module
    if name in imports or name in ctx.summary.constants or f"{module}.{name}" in ctx.summary.functions:
        return None  # the name means something else here
    added = import_edit(ctx, f"from {package} import {name}")
    return (name, added) if added is not None else None


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )
