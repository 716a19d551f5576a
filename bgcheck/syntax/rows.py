"""Does code lock the rows it reads: ``select_for_update()`` (Django), ``with_for_update()``
(SQLAlchemy), or a SQL literal with ``FOR UPDATE``? An outbox relay does, and what it publishes
from those rows is meant to leave inside the transaction (BG604)."""

from __future__ import annotations

from bgcheck.syntax.lazy import cst

from bgcheck import knowledge
from bgcheck.syntax.walk import walk


def locks_rows(node: cst.CSTNode) -> bool:
    """A row-locking method named anywhere under ``node``, or a string literal whose text (not a
    comment) says ``FOR UPDATE``."""
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            nonlocal found
            found = found or n.value in knowledge.ROW_LOCK_METHODS

        def visit_SimpleString(self, n: cst.SimpleString) -> None:
            nonlocal found
            try:
                value = n.evaluated_value
            except Exception:  # pragma: no cover - an escape libcst cannot evaluate
                return
            found = found or (isinstance(value, str) and knowledge.SQL_FOR_UPDATE.search(value) is not None)

        def visit_FormattedStringText(self, n: cst.FormattedStringText) -> None:
            nonlocal found
            found = found or knowledge.SQL_FOR_UPDATE.search(n.value) is not None

    walk(node, _Finder())
    return found
