"""libcst, imported when first used: ``from bgcheck.syntax.lazy import cst``.

Importing libcst costs about 0.2 s (it builds hundreds of node classes). The rule modules need it
only to walk a tree, never to say whether a file is relevant to them (that is read off its
summary), so a warm run whose edited file no rule reads never pays for it. On first use the
module's namespace is copied in: every later ``cst.Name`` is a plain module attribute.
"""

from __future__ import annotations

import types


class _Libcst(types.ModuleType):
    def __getattr__(self, name: str):
        import libcst

        self.__dict__.update(vars(libcst))
        return getattr(libcst, name)


cst = _Libcst("libcst")
