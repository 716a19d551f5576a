"""The ast node classes of syntax newer than some Pythons bgcheck runs on: the ast's own where it
has them, else stand-ins with the same fields, which load/newer_syntax.py builds when libcst reads
a file for this Python (and the summary builder visits alike)."""

from __future__ import annotations

import ast


def _node_class(name: str, fields: tuple, base: type) -> type:
    return getattr(ast, name, None) or type(name, (base,), {"_fields": fields, "__module__": __name__})


TypeAlias = _node_class("TypeAlias", ("name", "type_params", "value"), ast.stmt)  # 3.12: ``type X[T] = v``
TemplateStr = _node_class("TemplateStr", ("values",), ast.expr)  # 3.14: ``t"..."``
Interpolation = _node_class("Interpolation", ("value", "str", "conversion", "format_spec"), ast.expr)
