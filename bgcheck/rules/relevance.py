"""What the rules' relevance tests (``Rule.is_relevant``) read: a file's calls and handlers as its
summary records them, resolved by the project index as phase 2's walk resolves them.

A relevance test must be a necessary condition of every finding its rule can make in the file
(tests/test_relevance.py runs every fixture and rule page with every rule relevant and demands
the same findings): it asks the model whether the file makes a call, or has a handler, that the
rule's visitor could report on. Text may only narrow that (a word the visitor's match requires
in the source), never widen it.
"""

from __future__ import annotations

from typing import Callable, Iterator, Optional


class FileCalls:
    """Every call a file makes, as phase 2's walk sees it: (scope, canonical name, method) where
    scope is the innermost function's qualname ("" at module level and in module-level class
    bodies), canonical the name ``ctx.resolve_call`` gives (None when the call does not resolve)
    and method the last name of what is called (``x.y.lock`` -> ``lock``; for a plain name's
    call, that name when it resolves: more than the visitor's method, never less)."""

    def __init__(self, unit) -> None:
        summary, index = unit.summary, unit.index
        raw: list[tuple[str, str]] = [("", target) for target in summary.module_calls]
        for qualname, function in summary.functions.items():
            raw.extend((qualname, target) for target in function.calls)
        for qualname, cls in summary.classes.items():
            parts = qualname.rsplit(".<locals>.", 1)
            scope = parts[0] if len(parts) == 2 else ""
            raw.extend((scope, target) for target in cls.calls)
        seen: dict[tuple[str, str], None] = dict.fromkeys(raw)
        self.calls: list[tuple[str, Optional[str], Optional[str]]] = []
        self._plain: set[str] = set()  # the names of plain calls that do not resolve, and builtins'

        self._names: Optional[set[str]] = None
        for scope, target in seen:
            if target.startswith("?"):
                written = target[1:]
                method = written.rsplit(".", 1)[1] if "." in written else None
                if method is None:
                    self._plain.add(written)
                self.calls.append((scope, None, method))
            else:
                method = target.rsplit(".", 1)[1] if "." in target else None
                if method is None:
                    self._plain.add(target)  # a builtin's name
                self.calls.append((scope, index.canonical(target), method))

    def any(self, test: Callable[[Optional[str], Optional[str]], bool], scopes=None) -> bool:
        """Does some call (canonical, method) pass ``test``, in one of ``scopes`` (a container of
        qualnames, "" for the module level) when given?"""
        return any(test(canonical, method) for scope, canonical, method in self.calls if scopes is None or scope in scopes)

    def canonical_names(self) -> Iterator[str]:
        return (canonical for _scope, canonical, _method in self.calls if canonical)

    def called_names(self) -> set[str]:
        """The last name of everything called: a method's name, a plain call's name when it does not
        resolve, and the last name of what a plain call resolves to."""
        if self._names is None:
            self._names = {method for _scope, _canonical, method in self.calls if method} | self._plain
        return self._names


# (summary, index, FileCalls) of the last file asked about: the rules of one file ask in turn. One
# tuple replaced whole, so that a thread never sees another file's calls.
_LAST: list = [None]


def file_calls(unit) -> FileCalls:
    last = _LAST[0]
    if last is None or last[0] is not unit.summary or last[1] is not unit.index:
        last = (unit.summary, unit.index, FileCalls(unit))
        _LAST[0] = last
    return last[2]


def calls_any(unit, test: Callable[[Optional[str], Optional[str]], bool], scopes=None) -> bool:
    return file_calls(unit).any(test, scopes)


def bound_names(unit) -> set[str]:
    """Every name the file binds that a plain call can resolve through (imports, module names,
    functions' and classes' names, locals): a call written ``start(x)`` that resolves keeps
    ``start`` nowhere else in its summary."""
    summary = unit.summary
    names = set(summary.imports) | set(summary.constants)
    for function in summary.functions.values():
        names.add(function.name)
        names.update(function.locals)
    names.update(cls.name for cls in summary.classes.values())
    return names


def handlers(unit, kinds: tuple = ("except", "except*")) -> Iterator[tuple[str, bool, list[Optional[str]]]]:
    """The file's except clauses (or ``finally:`` blocks a jump leaves, with kinds=("finally",)):
    (innermost function's qualname or "", in a coroutine, the canonical names caught as
    ``_caught_names`` gives them: [] for a bare ``except:``, None where a name does not resolve)."""
    index = unit.index
    for scope, in_async, kind, caught in unit.summary.handlers:
        if kind not in kinds:
            continue
        names: list[Optional[str]] = []
        for element in caught:
            how, path = element[:2], element[2:]
            if not path:
                names.append(None)
            elif how == "c:":
                target = index.canonical(path)
                names.append(f"{target}()" if target else None)
            else:
                names.append(index.canonical(path))
        yield scope, in_async, names


def values_caught(unit, kinds: tuple = ("except", "except*")) -> Iterator[Optional[str]]:
    """What each element of every except clause resolves to as ``ctx.resolve`` gives it (a call
    ``E()`` as the canonical name of ``E()``)."""
    index = unit.index
    for _scope, _in_async, kind, caught in unit.summary.handlers:
        if kind in kinds:
            for element in caught:
                how, path = element[:2], element[2:]
                yield index.canonical(f"{path}()" if how == "c:" else path) if path else None
