"""Phase 2: one walk per file, every enabled rule at once.

The ``Checker`` is the only visitor that walks a file for the rules. It keeps
the semantic context (ancestors, the function we are in, its summary) in a
``FileContext`` and dispatches each node to the rules that handle its type,
ruff-style. Positions are computed only when a rule reports something.
"""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional, Sequence

from bgcheck.syntax.lazy import cst

from bgcheck.model import execution
from bgcheck import knowledge
from bgcheck.diagnostics import Diagnostic, Edit, Fix, Location, clip
from bgcheck.syntax.ir import IR
from bgcheck.syntax.cst_ir import call_target, call_target_of_value, dotted_name, to_ir
from bgcheck.model.project import ProjectIndex
from bgcheck.load.summary import FunctionSummary, ModuleSummary
from bgcheck.load.unit import python_ast
from bgcheck.syntax import param_guards
from bgcheck.syntax.walk import children


class FileContext:
    """What a rule may ask while looking at one node."""

    def __init__(self, path: str, module: cst.Module, summary: ModuleSummary, index: ProjectIndex, config, text: Optional[str] = None) -> None:
        self.path = path
        self.module = module
        self.summary = summary
        self.index = index
        self.config = config
        self.ancestors: list[cst.CSTNode] = []
        # (node, qualname, summary) for every enclosing function, innermost last
        self.functions: list[tuple[cst.FunctionDef, str, Optional[FunctionSummary]]] = []
        self._scopes: list[tuple[str, str]] = [("module", summary.module)]  # (kind, qualname)
        self._positions = None  # the whole module's positions, once many statements have findings
        self._statement_positions: dict[int, tuple] = {}  # id(top-level statement) -> (positions, line offset)
        self._line_offsets: Optional[dict[int, int]] = None
        self._resolvers: dict[Optional[str], object] = {}
        self._text = text  # the module's source, which is its code (else generated when a line is needed)
        self._lines: Optional[list[str]] = None  # its lines, split when first needed
        self._ast = None  # its ast, parsed when a call's guards are first asked for (call_guards)
        self._guards: Optional[dict] = None  # function qualname -> (line, column) of a call -> its guards
        self.diagnostics: list[tuple[Diagnostic, int]] = []  # with the statement's first line (noqa)

    # --- where are we -------------------------------------------------------
    @property
    def function(self) -> Optional[FunctionSummary]:
        return self.functions[-1][2] if self.functions else None

    @property
    def function_node(self) -> Optional[cst.FunctionDef]:
        return self.functions[-1][0] if self.functions else None

    @property
    def function_qualname(self) -> Optional[str]:
        return self.functions[-1][1] if self.functions else None

    @property
    def in_coroutine(self) -> bool:
        node = self.function_node
        return node is not None and node.asynchronous is not None

    @property
    def thread_context(self) -> str:
        """coroutine | worker thread | signal handler | main thread (see bgcheck.model.execution)."""
        if self.in_coroutine:
            return execution.COROUTINE
        model = self.index.execution
        return model.context(self.function_qualname) if model is not None else execution.MAIN

    @property
    def in_job_code(self) -> bool:
        return self.index.is_job_code(self.function_qualname)

    def job_of(self, qualname: Optional[str] = None) -> Optional[str]:
        """The job function whose code this is (itself or a caller), if any."""
        return self.index.job_code.get(qualname or self.function_qualname or "")

    def job_label(self, job_function: Optional[str], limit: int = 40) -> str:
        """How a short message names a job by its function: ``Class.method`` for a method (a job
        class's ``run`` alone says nothing), the function's own name otherwise."""
        func = self.index.function(job_function or "")
        name = f"{func.class_qualname.rsplit('.', 1)[-1]}.{func.name}" if func is not None and func.class_qualname else (job_function or "").rsplit(".", 1)[-1]
        return clip(name, limit)

    def parent(self, levels: int = 1) -> Optional[cst.CSTNode]:
        # ancestors[-1] is the node being visited
        index = -1 - levels
        return self.ancestors[index] if len(self.ancestors) >= -index else None

    def enclosing(self, *types: type) -> Optional[cst.CSTNode]:
        for node in reversed(self.ancestors[:-1]):
            if isinstance(node, types):
                return node
        return None

    # --- names and values ---------------------------------------------------
    def _resolver(self):
        key = self.function_qualname
        resolver = self._resolvers.get(key)
        if resolver is None:
            resolver = self.summary.resolver(self.function)
            self._resolvers[key] = resolver
        return resolver

    def resolve(self, node: cst.BaseExpression) -> Optional[str]:
        """The canonical qualified name an expression denotes (``Foo()`` -> ``pkg.Foo()``)."""
        if isinstance(node, cst.Call):
            target = call_target(node.func, self._resolver())
            return self.index.canonical(f"{target}()") if target else None
        return self.index.canonical(call_target_of_value(node, self._resolver()))

    def resolve_call(self, node: cst.Call) -> Optional[str]:
        """The canonical name of what a call calls."""
        return self.index.canonical(call_target(node.func, self._resolver()))

    def to_ir(self, node: cst.BaseExpression) -> IR:
        return to_ir(node, self._resolver())

    def fold(self, node: cst.BaseExpression):
        return self.index.fold(self.to_ir(node))

    def is_exit_call(self, node: cst.Call) -> bool:
        """Does this call never return normally (``sys.exit()``, a bound Celery task's ``self.retry()``)?"""
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in knowledge.RAISING_SELF_METHODS:
            if dotted_name(func.value) == "self":
                return True
        return self.resolve_call(node) in knowledge.PROCESS_EXIT_CALLS

    # --- reporting ----------------------------------------------------------
    # Positions cost a code-generation pass over what they cover. A finding's
    # position is computed over its top-level statement alone (shifted by the
    # lines before it); past a few statements with findings, over the module once.
    _MAX_STATEMENT_POSITIONS = 12

    def position(self, node: cst.CSTNode):
        if self._positions is not None:
            return self._positions[node]
        top = self.ancestors[1] if len(self.ancestors) > 1 else None
        if isinstance(top, cst.ClassDef) and self.functions and self.functions[0][2] is not None and len(self.ancestors) > 3 and self.functions[0][0] is self.ancestors[3]:
            # in a method: over the method alone (a class can be most of its module), when that
            # gives the places the text has (see _method_position); else as below
            found = self._method_position(self.functions[0], node)
            if found is not None:
                return found
        if top is None or (id(top) not in self._statement_positions and len(self._statement_positions) >= self._MAX_STATEMENT_POSITIONS):
            self._positions = cst.metadata.MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(cst.metadata.PositionProvider)
            return self._positions[node]
        entry = self._statement_positions.get(id(top))
        if entry is None:
            single = self.module.with_changes(body=[top])
            entry = (cst.metadata.MetadataWrapper(single, unsafe_skip_copy=True).resolve(cst.metadata.PositionProvider), self._line_offset(top))
            self._statement_positions[id(top)] = entry
        positions, offset = entry
        found = positions[node]
        if not offset:
            return found
        return cst.metadata.CodeRange(
            cst.metadata.CodePosition(found.start.line + offset, found.start.column), cst.metadata.CodePosition(found.end.line + offset, found.end.column)
        )

    def _method_position(self, method: tuple, node: cst.CSTNode):
        """The node's position computed over its method alone, wrapped as a module: lines shift by
        where the ``def`` is (the summary's line), columns by the class body's indentation, except
        on lines libcst writes as they are in the text (continuation lines written further left,
        the lines of a string). Each end is checked against the text: its line must be the wrapped
        line, indented or as it is, else None (and the caller computes it over the class)."""
        function, _qualname, summary = method
        entry = self._statement_positions.get(id(function))
        if entry is None:
            single = self.module.with_changes(body=[function])
            positions = cst.metadata.MetadataWrapper(single, unsafe_skip_copy=True).resolve(cst.metadata.PositionProvider)
            def_line = self.line_text(summary.line)
            indent = len(def_line) - len(def_line.lstrip(" \t"))
            wrapped = [line.removesuffix("\r") for line in single.code.split("\n")]  # as line_text gives the file's
            entry = (positions, summary.line - positions[function.name].start.line, indent, wrapped)
            self._statement_positions[id(function)] = entry
        positions, offset, indent, wrapped = entry
        found = positions[node]
        start = self._in_text(found.start, offset, indent, wrapped)
        end = self._in_text(found.end, offset, indent, wrapped)
        if start is None or end is None:
            return None
        return cst.metadata.CodeRange(start, end)

    def _in_text(self, where, offset: int, indent: int, wrapped: list[str]):
        """``where`` (in the wrapped method) moved to the file, if the file's line is the wrapped
        line indented by the class body, or the same line (written as it is), else None."""
        if not 0 < where.line <= len(wrapped):
            return None
        line = where.line + offset
        here = wrapped[where.line - 1]
        text = self.line_text(line)
        if text[indent:] == here and not text[:indent].strip():
            return cst.metadata.CodePosition(line, where.column + indent)
        if text == here:
            return cst.metadata.CodePosition(line, where.column)
        return None

    def _line_offset(self, top: cst.CSTNode) -> int:
        """Lines of the module's code before this top-level statement (after the header)."""
        if self._line_offsets is None:
            offsets: dict[int, int] = {}
            lines = 0
            for statement in self.module.body:
                offsets[id(statement)] = lines
                lines += self.module.code_for_node(statement).count("\n")
            self._line_offsets = offsets
        return self._line_offsets[id(top)]

    def location(self, node: cst.CSTNode, end_node: Optional[cst.CSTNode] = None, message: str = "") -> Location:
        start = self.position(node).start
        end = self.position(end_node or node).end
        return Location(self.path, start.line, start.column + 1, end.line, end.column + 1, message)

    def report(
        self,
        rule,
        node: cst.CSTNode,
        message: str,
        explanation: str = "",
        *,
        end_node: Optional[cst.CSTNode] = None,
        related: Sequence[Location] = (),
        fix: Optional[Fix] = None,
    ) -> None:
        """Report a finding: ``message`` says what is wrong here in at most 120 characters;
        ``explanation`` what a stop or a second replica does to this code, and how to fix it."""
        # noqa also works on the first line of the simple statement a finding is
        # in (a call spread over lines); a compound statement's header line
        # (``try:``, ``def``) does not silence what is reported inside it.
        statement = self.enclosing(cst.SimpleStatementLine) or node
        statement_line = self.position(statement).start.line
        diagnostic = Diagnostic(
            code=rule.code,
            name=rule.name,
            severity=rule.severity,
            message=message,
            location=self.location(node, end_node),
            related=tuple(related),
            fix=fix,
            explanation=explanation,
        )
        self.diagnostics.append((diagnostic, statement_line))

    def silence(self, rule, node: cst.CSTNode, why: str) -> None:
        """Say where ``rule`` matched and a fact of the model stopped it (``why``: that fact, in a
        few words: "the loop's condition is its deadline"). Not a finding: ``--verbose`` lists
        these, so that a user can tell a rule that looked and chose silence from one that never looked."""
        diagnostic = Diagnostic(
            code=rule.code,
            name=rule.name,
            severity=rule.severity,
            message=why,
            location=self.location(node, None),
            silence=True,
        )
        self.diagnostics.append((diagnostic, 0))

    # --- fixes (edits computed where the node is at hand; applied by bgcheck/run/fixes.py) ---------
    def replace(self, node: cst.CSTNode, content: str) -> Edit:
        """An edit that replaces the node's code (its syntactic span) with ``content``."""
        span = self.position(node)
        return Edit(span.start.line, span.start.column + 1, span.end.line, span.end.column + 1, content)

    def insert_before(self, node: cst.CSTNode, content: str) -> Edit:
        start = self.position(node).start
        return Edit(start.line, start.column + 1, start.line, start.column + 1, content)

    def insert_after(self, node: cst.CSTNode, content: str) -> Edit:
        end = self.position(node).end
        return Edit(end.line, end.column + 1, end.line, end.column + 1, content)

    def module_position(self, node: cst.CSTNode):
        """The position of any node of the module (``position`` knows the current statement's):
        for a fix that edits another statement, such as the imports."""
        if self._positions is None:
            self._positions = cst.metadata.MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(cst.metadata.PositionProvider)
        return self._positions[node]

    def call_guards(self, node: cst.Call) -> frozenset:
        """The guards (bgcheck.syntax.param_guards) that must hold for this call of the enclosing
        function's own body to run: ``if test_message: msg.send()`` needs ``test_message`` truthy,
        ``if settings.SYNC:`` a setting ("@" and its path). The summary keeps guards per target
        (FunctionSummary.call_guards); one call among several of the same target is found again
        here, on the function's ``ast``, by its position."""
        func = self.function
        if func is None:
            return frozenset()
        if self._guards is None:
            self._guards = {}
        by_site = self._guards.get(func.qualname)
        if by_site is None:
            by_site = self._guards[func.qualname] = self._guards_by_site(func)
        start = self.position(node).start
        return by_site.get((start.line, start.column), frozenset())

    def _guards_by_site(self, func: FunctionSummary) -> dict:
        if self._ast is None:
            self._ast = python_ast(self._text if self._text is not None else self.module.code)
        found = {}
        for definition in ast.walk(self._ast):
            if type(definition) in (ast.FunctionDef, ast.AsyncFunctionDef) and definition.lineno == func.line and definition.name == func.name:
                read = {n.id for n in ast.walk(definition) if type(n) is ast.Name} - set(func.params) - set(func.locals)
                global_key = param_guards.global_key(read, self.summary.resolver(func))
                for call, guards in _calls_by_id(definition, param_guards.call_guards(definition, set(func.guard_params), global_key)):
                    line = self.line_text(call.lineno).encode("utf-8")
                    found[(call.lineno, len(line[: call.col_offset].decode("utf-8", "replace")))] = guards
                break
        return found

    def line_text(self, line: int) -> str:
        """The text of a 1-based line (without its line break): for indentation a fix must copy."""
        if self._lines is None:  # not splitlines(): a form feed does not end a line
            self._lines = (self._text if self._text is not None else self.module.code).split("\n")
        return self._lines[line - 1].removesuffix("\r") if 0 < line <= len(self._lines) else ""

    def indentation(self, node: cst.CSTNode) -> str:
        """The whitespace that starts the line a statement starts on."""
        text = self.line_text(self.position(node).start.line)
        return text[: len(text) - len(text.lstrip(" \t"))]

    # --- scope tracking (called by the Checker) -----------------------------
    def enter_function(self, node: cst.FunctionDef) -> None:
        kind, parent = self._scopes[-1]
        qualname = f"{parent}.<locals>.{node.name.value}" if kind == "function" else f"{parent}.{node.name.value}"
        self._scopes.append(("function", qualname))
        self.functions.append((node, qualname, self.summary.functions.get(qualname)))

    def leave_function(self) -> None:
        self._scopes.pop()
        self.functions.pop()

    def enter_class(self, node: cst.ClassDef) -> None:
        kind, parent = self._scopes[-1]
        qualname = f"{parent}.<locals>.{node.name.value}" if kind == "function" else f"{parent}.{node.name.value}"
        self._scopes.append(("class", qualname))

    def leave_class(self) -> None:
        self._scopes.pop()

    @property
    def class_qualname(self) -> Optional[str]:
        kind, qualname = self._scopes[-1]
        return qualname if kind == "class" else None


class Checker:
    """Every rule's handlers in one walk of the module (``run``): a handler for a node type is called
    on the way down, with ``ctx`` knowing the node's ancestors and the function and class it is in."""

    def __init__(self, ctx: FileContext, rules: Iterable) -> None:
        self.ctx = ctx
        self.dispatch: dict[str, list] = {}
        for rule in rules:
            for type_name, method in rule.handlers().items():
                self.dispatch.setdefault(type_name, []).append(getattr(rule, method))

    def run(self, root: cst.CSTNode) -> None:
        """The walk (walk.walk's order, its loop written out here: two calls per node less)."""
        ctx = self.ctx
        ancestors = ctx.ancestors
        dispatch = self.dispatch
        by_type: dict[type, Sequence] = {}
        function_def, class_def = cst.FunctionDef, cst.ClassDef
        stack: list = [root]
        while stack:
            node = stack.pop()
            node_type = type(node)
            if node_type is tuple:  # (node,): on the way up
                node_type = type(node[0])
                if node_type is function_def:
                    ctx.leave_function()
                elif node_type is class_def:
                    ctx.leave_class()
                ancestors.pop()
                continue
            ancestors.append(node)
            # Inside a FunctionDef handler, ctx.function is that function itself.
            if node_type is function_def:
                ctx.enter_function(node)
            elif node_type is class_def:
                ctx.enter_class(node)
            handlers = by_type.get(node_type)
            if handlers is None:
                handlers = by_type[node_type] = dispatch.get(node_type.__name__, ())
            for handler in handlers:
                handler(node, ctx)
            stack.append((node,))
            kids = children(node)
            kids.reverse()
            stack.extend(kids)


def check_module(path: str, module: cst.Module, summary: ModuleSummary, index: ProjectIndex, config, rules, text: Optional[str] = None) -> list:
    """The rules' findings in one module; ``text``: its source (the module's code), when at hand."""
    ctx = FileContext(path, module, summary, index, config, text)
    Checker(ctx, rules).run(module)
    return ctx.diagnostics


def _calls_by_id(definition: ast.AST, guards: dict) -> Iterator[tuple[ast.Call, frozenset]]:
    """(call, its guards) for each guarded call of the function (``guards``: id(call) -> guards)."""
    for node in ast.walk(definition):
        if type(node) is ast.Call and id(node) in guards:
            yield node, guards[id(node)]
