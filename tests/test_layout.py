"""The package's shape: the layers of the pipeline, no import cycles, no private imports,
short functions.

Every module under ``bgcheck/`` is parsed (never imported) and its imports read, at module
level and inside functions alike: an import inside a function is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bgcheck"

# The pipeline, bottom to top: a module imports only from its own layer or a lower one.
LAYERS = (
    ("bgcheck.knowledge", "bgcheck.diagnostics"),  # framework facts as tables; the Diagnostic
    ("bgcheck.syntax",),  # walking libcst trees, the IR of expressions, control flow, loops
    ("bgcheck.load",),  # files, configuration, decoding, parsing, summaries, the cache
    ("bgcheck.model",),  # the project index and the models built on it
    ("bgcheck.rules",),  # the rule families and the phase-2 walk
    ("bgcheck.run",),  # a run: phase 1, the index, phase 2, on one process or several
    ("bgcheck.report",),  # one module per output format
    ("bgcheck.cli", "bgcheck.language_server", "bgcheck.server"),  # the entry points
)
EXEMPT = {"bgcheck", "bgcheck.__main__"}  # the package (its version) and ``python -m bgcheck``

MAX_FUNCTION_LINES = 60
# Functions longer than MAX_FUNCTION_LINES, each with the reason it stays whole. A new long
# function fails the test: split it at a sub-step, or add it here with its reason.
LONG_FUNCTIONS = {
    "bgcheck/cli.py:check": "the click command: one declaration per option, then one call",
    "bgcheck/load/serial.py:decode_rows": "one branch per IR row kind, each checked field by field",
    "bgcheck/load/summary.py:_resolve_bindings": "one fixpoint over module bindings; its steps share the work list",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> list[tuple[int, str, str]]:
    """(line, module imported, name imported from it or "") for every bgcheck import in a module.
    ``from bgcheck.run import check`` imports the module ``bgcheck.run.check``."""
    path = MODULES[name]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, "") for alias in node.names if alias.name.split(".")[0] == "bgcheck"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package, one level up per extra dot
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != "bgcheck":
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.append((node.lineno, submodule, "") if submodule in MODULES else (node.lineno, base, alias.name))
    return found


def layer_of(name: str) -> int:
    for level, prefixes in enumerate(LAYERS):
        if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes):
            return level
    raise AssertionError(f"{name} is in no layer: add its package to LAYERS in {Path(__file__).name}")


def graph() -> dict[str, set[str]]:
    return {
        name: {target for _line, target, _what in imports_of(name) if target not in EXEMPT and target != name}
        for name in MODULES
        if name not in EXEMPT
    }


def test_every_module_is_in_a_layer():
    for name in MODULES:
        if name not in EXEMPT:
            layer_of(name)


def test_no_module_imports_a_higher_layer():
    wrong = [
        f"{name}:{line} imports {target} ({LAYERS[layer_of(target)][0]} is above {LAYERS[layer_of(name)][0]})"
        for name in MODULES
        if name not in EXEMPT
        for line, target, _what in imports_of(name)
        if target not in EXEMPT and layer_of(target) > layer_of(name)
    ]
    assert not wrong, "\n".join(wrong)


def find_cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import cycle (its modules in order, the first repeated at the end), or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(edges):
        if state.get(start):
            continue
        path, stack = [start], [iter(sorted(edges[start]))]
        state[start] = 1
        while stack:
            target = next(stack[-1], None)
            if target is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(target) == 1:
                return path[path.index(target) :] + [target]
            elif not state.get(target) and target in edges:
                state[target] = 1
                path.append(target)
                stack.append(iter(sorted(edges[target])))
    return []


def test_no_import_cycles():
    cycle = find_cycle(graph())
    assert not cycle, "import cycle: " + " -> ".join(cycle)


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_no_private_name_is_imported_from_another_module():
    private = [
        f"{name}:{line} imports {what} from {target}"
        for name in MODULES
        for line, target, what in imports_of(name)
        if what.startswith("_") and not what.startswith("__")
    ]
    assert not private, "\n".join(private)


def long_functions() -> dict[str, int]:
    """``path:qualified.name`` -> lines, for every function (nested ones too) over the limit."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualname = prefix + child.name
                lines = child.end_lineno - child.lineno + 1
                if not isinstance(child, ast.ClassDef) and lines > MAX_FUNCTION_LINES:
                    found[f"{where}:{qualname}"] = lines
                visit(child, qualname + ".", where)
            else:
                visit(child, prefix, where)

    for path in MODULES.values():
        visit(ast.parse(path.read_text(encoding="utf-8")), "", path.relative_to(PACKAGE.parent).as_posix())
    return found


def test_no_new_function_over_the_limit():
    new = {name: lines for name, lines in long_functions().items() if name not in LONG_FUNCTIONS}
    assert not new, (
        f"functions over {MAX_FUNCTION_LINES} lines: split them at a sub-step, or list them in LONG_FUNCTIONS with the reason: "
        + ", ".join(f"{name} ({lines} lines)" for name, lines in sorted(new.items()))
    )


def test_long_functions_list_is_current():
    """An entry whose function is gone or short again is removed, so the list stays the truth."""
    stale = sorted(set(LONG_FUNCTIONS) - set(long_functions()))
    assert not stale, "remove from LONG_FUNCTIONS (now short or gone): " + ", ".join(stale)


@pytest.mark.parametrize("line, expected", [
    ("from bgcheck.run import check", ("bgcheck.run.check", "")),
    ("from bgcheck.run.noqa import DIRECTIVE", ("bgcheck.run.noqa", "DIRECTIVE")),
    ("import bgcheck.load.unit", ("bgcheck.load.unit", "")),
])
def test_imports_are_read_as_modules_and_names(tmp_path, monkeypatch, line, expected):
    module = tmp_path / "probe.py"
    module.write_text(f"def f():\n    {line}\n")
    monkeypatch.setitem(MODULES, "bgcheck.probe", module)
    assert imports_of("bgcheck.probe") == [(2, *expected)]
