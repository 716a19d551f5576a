"""Phase 1: what one file contributes to the project index.

One walk over a file's ast (CPython's parser: about ten times cheaper than libcst's, and a
summary needs no whitespace or comments) collects its imports, definitions, module constants,
the calls each function makes and the local names each function binds. Everything is resolved
to qualified names at the end of the module (so a name defined below its use still resolves)
and stored as plain, picklable data: the summary is what crosses process boundaries and what a
cache keeps, never a tree. Phase 2 parses with libcst only the files a rule is relevant to.

Resolution is flow-insensitive and deliberately modest: a local name bound
exactly once keeps its value; bound twice or by a loop, it is unknown (and
shadows any global of the same name).
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
from dataclasses import dataclass, field
from typing import Optional

from bgcheck import knowledge
from bgcheck.syntax import param_guards
from bgcheck.syntax.ast_flow import awaited_calls, awaited_through, calls_beside_a_kept_try, escaping_jumps, exits, handed_tasks, is_endless, keeps_its_cancellation, keeps_its_errors, left_after, locks_rows, returns_own_cancelling, suspension_calls
from bgcheck.syntax.ast_ir import ATTRIBUTE, CALL, NAME, arguments, call_target, call_target_of_value, call_to_ir, dotted_name, name_of, node_kind, to_ir, written_target
from bgcheck.syntax.exits import BREAK, FALL, RAISE, RETURN
from bgcheck.syntax.ir import IR, UNKNOWN_IR, call_name, ref_name
from bgcheck.syntax.newer_nodes import TypeAlias

BUILTIN_NAMES = frozenset(dir(builtins))


@dataclass
class FunctionSummary:
    qualname: str
    name: str
    is_async: bool
    class_qualname: Optional[str]
    decorators: tuple = ()  # IR of each decorator expression
    calls: tuple = ()  # resolved call targets, first appearance order, deduplicated
    # (line, column) of each target's first call, in the order of ``calls``; (0, 0) where the text was
    # not searched or the call not found (see bgcheck.syntax.positions)
    call_sites: tuple = ()
    locals: dict = field(default_factory=dict)  # name -> IR (single bindings only)
    params: tuple = ()
    line: int = 0  # of the ``def`` (0 when unknown)
    # A constant-true ``while`` directly in this function that nothing but an
    # exception can leave (no reachable break or return): it never ends.
    endless_loop: bool = False
    is_generator: bool = False  # contains ``yield``: calling it returns a generator
    calls_after_yield: tuple = ()  # targets called after the first ``yield`` (a lifespan's shutdown half)
    # What its calls hand on (the first positional argument, "" below, or a keyword argument):
    # (parameter name, call target, argument) for a parameter handed on as it is
    # (``def start(coro): create_task(coro)``), and (call target, argument, target of the call that
    # is the argument) for a call's result handed on (``start(self._fetch())``). The execution model
    # sees through project functions that start the coroutine they are given.
    param_handoffs: tuple = ()
    call_handoffs: tuple = ()
    # What calling it returns, as IR: from the return annotation, else the one value every
    # ``return`` gives (``return ThreadPoolExecutor(...)``); UNKNOWN_IR when neither tells.
    returns: IR = UNKNOWN_IR
    # Where calls stand when not simply in the function's body (BG604: is it inside a transaction?),
    # deduplicated: ("with", target, IRs of the items of every enclosing ``with``, whether those blocks
    # lock rows), ("lambda", target) for a call in a lambda (it runs later, if at all), and
    # ("plain", target) for a target also called outside both.
    call_contexts: tuple = ()
    # Indices into ``calls`` of the targets called only under a condition: in an ``if`` (its test
    # too), a loop, an ``except`` handler, a conditional expression, ``and``/``or``, a comprehension or
    # a lambda. Whether calling this function surely makes that call (BG604 through calls).
    conditional_calls: tuple = ()
    # Indices into ``calls`` of the targets called only inside ``finally:`` blocks, or ``except``
    # handlers that always raise, that no loop of this function encloses: cleanup on the way out (BG101: a coroutine run only as such cleanup).
    cleanup_calls: tuple = ()
    # (call target, argument, the qualified name it denotes) for a name handed on that is not a
    # parameter (``enqueue(send_receipt, order_id)``): a function given to the project's own
    # job-starting helper becomes a job (the job model's call wrappers).
    ref_handoffs: tuple = ()
    # Its body is one ``try`` that takes every Exception and never raises (ast_flow.keeps_its_errors):
    # no exception leaves it, so a future of it loses none (BG605).
    keeps_its_errors: bool = False
    # Parameters of a coroutine function whose only use is ``return await param``
    # (ast_flow.awaited_through): started as a task, it is the given coroutine's run.
    awaits_through: tuple = ()
    # (parameter, container path) for each parameter stored into a container: ``TASKS[name] = fn``,
    # ``HOOKS.append(fn)``, ``registry.setdefault(name, fn)`` (a registry a decorator fills).
    param_stores: tuple = ()
    # Container paths whose items this function calls: ``TASKS[name](...)``, ``TASKS.get(name)(...)``,
    # ``handler = TASKS[name]`` then ``handler(...)``, ``for hook in HOOKS: hook()`` (a registry's runner).
    item_calls: tuple = ()
    # A body that is a ``try`` keeping every error (as keeps_its_errors) beside statements of one
    # call each (``log.debug(...)``: ast_flow.calls_beside_a_kept_try): those calls' targets. When
    # none of them can raise (logging), no exception leaves it either: the index's to say.
    calls_beside_kept_try: tuple = ()
    # Indices into ``calls`` of the targets this coroutine function awaits only as its last step:
    # ``return await f()`` anywhere, or ``await f()`` as the statement its body ends on (through
    # ``with``, ``if`` and ``try`` blocks). Once that call returns, this function does too (BG101:
    # a coroutine whose stop ends every run it is part of).
    tail_calls: tuple = ()
    # (parameter, ``pkg.mod.Cls().attr``) for each ``self.attr = parameter`` of a method: where an
    # object handed to the constructor is kept (BG301: a queue made as a local and handed on).
    param_attrs: tuple = ()
    # The targets of the calls at an async function's suspension points when each is ``await f()``
    # or ``async for _ in f()`` (ast_flow.suspension_calls; () when it has none); None when one is
    # anything else, and for plain functions and stubs. Whether those calls suspend is the index's
    # to say (ProjectIndex.never_suspending): if none does, the function never lets the loop run
    # anything else (BG602: its task runs to its end in one step; BG101: no cancellation can arrive).
    suspends_only_at: Optional[tuple] = None
    # The targets of the calls at an async function's suspension points, each with whether an
    # error it raises stays inside (a catch-all ``try`` around it that does not re-raise:
    # ast_flow.awaited_calls); "?" for a call bgcheck cannot name; None for plain functions and
    # stubs. Whether such an error reaches the task that runs the function is the index's to say
    # (ProjectIndex.losing_io: BG602's sure case, a dropped task whose failure nobody sees).
    awaited_io: Optional[tuple] = None
    # Constants through arguments (bgcheck.syntax.param_guards): (index into ``calls``, guards) for
    # the targets called only where parameters hold given values (``if start_scheduler: ...``; every
    # call of that target under them); (index into ``calls``, ((key, value), ...)) for the targets
    # every call of which hands on no ``*args``/``**kwargs``: what each keyword or position gets, a
    # parameter left out getting its default; (parameter, truthy, is_none) of constant defaults; how
    # many parameters can be passed by position. ProjectIndex._callees_as prunes the calls a chain's
    # constants rule out.
    call_guards: tuple = ()
    call_arguments: tuple = ()
    param_defaults: tuple = ()
    positional_params: int = 0
    # The parameters a condition of the function tests and that it never binds again: a guard on
    # one may hold a single call out of several of the same target (``if test_message: msg.send()``
    # beside an unguarded ``msg.send()``), which ``call_guards`` (per target) cannot say; a rule
    # asks for the guards of the call it is about to report (FileContext.call_guards).
    guard_params: tuple = ()
    # It returns whether the running task is being cancelled (ast_flow.returns_own_cancelling:
    # ``return task is not None and task.cancelling() > 0``): a handler that re-raises when a call
    # of it says so re-raises every cancellation of its own task (BG101, BG105).
    tests_own_cancelling: bool = False
    # It awaits a task it made and handed to someone else (handed_tasks below; ``task =
    # create_task(coro); counter.track(task); return await task``): a caller's ``except
    # CancelledError`` around an await of this coroutine may be getting that task's (BG101).
    awaits_a_handed_task: bool = False
    # No cancellation can come out of it: its every suspension point is in a ``try`` whose handler of
    # CancelledError never raises (ast_flow.keeps_its_cancellation: ``try: await asyncio.shield(f)
    # except CancelledError: pass``), so a caller's ``except CancelledError`` around an await of it
    # never runs (BG101, BG105).
    keeps_its_cancellation: bool = False
    # The names it binds only to a task it makes and hands to someone else (ast_flow.handed_tasks:
    # stored, passed on, read by a nested function): whoever holds the task can cancel it, so an
    # ``except CancelledError`` around ``await task`` may be getting that task's (BG101, BG105).
    handed_tasks: tuple = ()
    # Its body only raises NotImplementedError (after a docstring), or it is an ``@abstractmethod``:
    # a base class's placeholder, never what runs when a subclass overrides it.
    abstract: bool = False

    def passed_to(self, given: dict, param: str) -> Optional[tuple]:
        """What a call of this function hands ``param`` (``given``: its ``call_arguments`` entry as a
        dict, keyword name or position -> value), by keyword or by position (``self``/``cls`` of a
        method left out); None when the call leaves it out."""
        value = given.get(param)
        if value is None:
            positional = list(self.params[:self.positional_params])
            if self.class_qualname is not None and positional and positional[0] in ("self", "cls"):
                positional = positional[1:]
            if param in positional:
                value = given.get(positional.index(param))
        return value

    def argument_keys(self, param: str) -> set[str]:
        """How a caller passes ``param`` (the keys of the handoffs): by keyword, and as the first
        positional argument ("") when it is the first parameter a caller fills (after ``self`` or
        ``cls`` of a method)."""
        keys = {param}
        params = list(self.params)
        if self.class_qualname and params and params[0] in ("self", "cls"):
            params = params[1:]
        if params and params[0] == param:
            keys.add("")
        return keys


@dataclass
class ClassSummary:
    qualname: str
    name: str
    bases: tuple = ()  # resolved base paths (None where unknown)
    decorators: tuple = ()
    attrs: dict = field(default_factory=dict)  # class-level single bindings: name -> IR
    self_attrs: dict = field(default_factory=dict)  # self.X = ... in methods: name -> IR
    methods: tuple = ()
    line: int = 0
    # Resolved targets of the calls in the class body outside its methods (its decorators, bases and
    # attribute values), resolved as the enclosing function's code (the module's at top level), as
    # ``FunctionSummary.calls``: what phase 2's walk resolves there (the rules' relevance tests).
    calls: tuple = ()

STAR_IMPORT = "*"  # ModuleSummary.imports key prefix of a ``from module import *``


@dataclass
class ModuleSummary:
    path: str
    module: str
    is_package: bool
    imports: dict = field(default_factory=dict)  # local name -> qualified name; STAR_IMPORT + module -> module
    constants: dict = field(default_factory=dict)  # module-level single bindings: name -> IR
    functions: dict = field(default_factory=dict)  # qualname -> FunctionSummary
    classes: dict = field(default_factory=dict)  # qualname -> ClassSummary
    module_calls: tuple = ()  # resolved targets of calls made at import time
    module_call_sites: tuple = ()  # (line, column) of each, as ``FunctionSummary.call_sites``
    # (resolved target path, IR, scope qualname, how many recorded calls come before it in the
    # module: its place in program order among them); an item stored by constant string keys has
    # them in its path: ``proj.settings.DATABASES['default']['ATOMIC_REQUESTS']``
    attr_assignments: tuple = ()
    recorded_calls: tuple = ()  # (IR of a call whose name is in knowledge.RECORDED_CALL_NAMES, scope qualname)
    # Items put into a queue: (receiver path as resolved here, IR of the item, the nearest loop around
    # the put: None, "while", "while-sized" (its condition checks a size, or it drains a queue until
    # that queue is empty), "async for",
    # "requeue" (that loop also takes from the same queue: a consumer putting back what it took) or
    # ("for", IR of what it iterates), scope qualname)
    queue_puts: tuple = ()
    # Globals and attributes handed on as a value (a call's argument, a dict or list item, a return
    # value): resolved paths. An executor passed to a helper is used even if no method is called on it.
    passed_refs: tuple = ()
    has_main_block: bool = False
    # Module-level names bound more than once whose bindings do not agree (``if WINDOWS: now = ...
    # else: now = time.monotonic``): name -> the IR of each binding, in source order (an import as a
    # ref; a definition, loop target and the like as unknown). Up to _MAX_ALTERNATIVES bindings.
    alternatives: dict = field(default_factory=dict)
    # The ``except``/``except*`` clauses and the ``finally:`` blocks a ``return``, ``break`` or
    # ``continue`` leaves (the rules' relevance tests): (qualname of the innermost function, ""
    # at module level; is that function a coroutine; "except" | "except*" | "finally"; what an
    # except clause names, one string per element of its tuple, () for a bare ``except:``:
    # "v:" + the resolved path of a name or attribute, "c:" + the resolved target of a call, the
    # path empty when it does not resolve).
    handlers: tuple = ()

    def global_ref(self, name: str) -> Optional[IR]:
        """Resolve a dotted name at module scope to ("ref", qualified) or None."""
        head, _, rest = name.partition(".")
        suffix = "." + rest if rest else ""
        if head in self.imports:
            return ("ref", self.imports[head] + suffix)
        qualified = f"{self.module}.{head}"
        if head in self.constants or qualified in self.functions or qualified in self.classes:
            return ("ref", qualified + suffix)
        if head in BUILTIN_NAMES:
            return ("ref", name)
        return None

    def resolver(self, function: Optional[FunctionSummary]):
        """A name resolver (see ``ir.to_ir``) for code inside ``function`` (None: module level)."""
        local_scopes = []
        func = function
        while func is not None:
            local_scopes.append(func.locals)
            # closures: the enclosing function's locals are visible too
            parent = func.qualname.rsplit(".<locals>.", 1)
            func = self.functions.get(parent[0]) if len(parent) == 2 else None

        def resolve(name: str) -> Optional[IR]:
            head, _, rest = name.partition(".")
            for scope in local_scopes:
                if head in scope:
                    return _extend(scope[head], rest)
            return self.global_ref(name)

        return resolve


# The fields of a summary that are positions in its file (line, or (line, column)), and nothing
# else is (by name): tests/test_serial.py holds the summary classes to this list.
POSITION_FIELDS = {"FunctionSummary": ("line", "call_sites"), "ClassSummary": ("line",), "ModuleSummary": ("module_call_sites",)}


def summary_positions(summary: ModuleSummary) -> list[tuple[int, int]]:
    """Every position the summary holds, in a fixed order: each function's ``def`` line (as
    (line, 0)) and call sites, each class's line, the module's call sites; (0, 0) where unknown.
    Two summaries of one shape (load/unit.py: shape_digest) pair theirs one to one."""
    spots: list[tuple[int, int]] = []
    for func in summary.functions.values():
        spots.append((func.line, 0))
        spots.extend(func.call_sites)
    spots.extend((cls.line, 0) for cls in summary.classes.values())
    spots.extend(summary.module_call_sites)
    return spots


def with_positions(summary: ModuleSummary, place) -> ModuleSummary:
    """A copy of the summary with each position ``p`` (as ``summary_positions`` gives it) replaced by ``place(p)``."""
    functions = {
        name: dataclasses.replace(func, line=place((func.line, 0))[0], call_sites=tuple(place(site) for site in func.call_sites))
        for name, func in summary.functions.items()
    }
    classes = {name: dataclasses.replace(cls, line=place((cls.line, 0))[0]) for name, cls in summary.classes.items()}
    return dataclasses.replace(
        summary, functions=functions, classes=classes, module_call_sites=tuple(place(site) for site in summary.module_call_sites)
    )


def _with_self(resolve, instance: IR):
    """``resolve`` with ``self`` standing for ``instance`` (a class's self attributes, resolved in its scope)."""

    def resolve_self(name: str) -> Optional[IR]:
        head, _, rest = name.partition(".")
        return _extend(instance, rest) if head == "self" else resolve(name)

    return resolve_self


def _extend(binding: IR, rest: str) -> Optional[IR]:
    """The IR for ``binding.rest`` (rest may be empty)."""
    if not rest:
        return binding
    if ref_name(binding) is not None:
        return ("ref", f"{ref_name(binding)}.{rest}")
    if call_name(binding):
        return ("ref", f"{call_name(binding)}().{rest}")
    return None


# ---------------------------------------------------------------------------


class _Scope:
    """Raw bindings collected while visiting one function (or the module)."""

    def __init__(self, qualname: str, kind: str, module_scope: Optional["_Scope"] = None) -> None:
        self.qualname = qualname
        self.module_scope = module_scope  # where ``global`` names are bound
        self.kind = kind  # "module" | "function" | "class"
        self.bindings: dict[str, list] = {}  # name -> list of raw binding values
        self.calls: list[ast.Call] = []
        self.calls_after_yield: list[ast.Call] = []  # in source order, after the first ``yield``
        self.globals: set[str] = set()
        self.params: set[str] = set()  # a function's parameters
        self.tested: set[str] = set()  # parameters named by a condition (``if p``, ``p and f()``): see param_guards
        self.tested_names: set[str] = set()  # every other name a condition reads (``if settings.SYNC:``)
        self.handoffs: list[tuple] = []  # (call, argument key, the argument: a Name or a Call)
        self.endless_loop = False
        self.is_generator = False
        self.returns: list = []  # the values of this function's own ``return`` statements (None: a bare return)
        self.loops: list = []  # loops around the node being visited, in this scope: "while" | "while-sized" | "async for" | ("for", iter node)
        self.loop_nodes: list = []  # the same loops' nodes
        self.left_after: dict[int, set] = {}  # a loop node's id -> flow.left_after(loop), computed when a put is met in it
        self.withs: list[ast.With] = []  # ``with`` statements around the node being visited, in this scope
        self.in_with_items = 0  # > 0 while visiting the items of the innermost ``with`` (not its body)
        self.lambdas = 0  # lambdas around the node being visited
        self.branches = 0  # conditions, loops and handlers around the node being visited (see conditional_calls)
        self.sure: set[int] = set()  # ids of the calls made whenever the function runs to them
        self.finallies: list[bool] = []  # ``finally:`` blocks around the node being visited: is it outside every loop?
        self.cleanup: set[int] = set()  # ids of the calls in cleanup outside every loop (see cleanup_calls)
        self.placed: list[tuple[ast.Call, tuple, bool]] = []  # calls in a ``with`` body or a lambda: (call, with blocks, in a lambda)
        self.stores: list[tuple[str, ast.expr]] = []  # (parameter, container node): see FunctionSummary.param_stores
        self.param_attrs: list[tuple[str, str]] = []  # (parameter, attribute path): see FunctionSummary.param_attrs
        self.item_calls: list[ast.expr] = []  # container nodes: see FunctionSummary.item_calls
        self.items_of: dict[str, ast.expr] = {}  # a name bound to an item of a container (``for h in HOOKS``, ``h = TASKS[k]``)

    def handed_in(self, name: str) -> bool:
        """Is ``name`` a parameter the caller hands in (not the method's ``self`` or ``cls``)?"""
        return name in self.params and name not in ("self", "cls")

    def bind(self, name: str, value) -> None:
        if name in self.globals:
            # ``global POOL; POOL = ThreadPoolExecutor()``: another binding of the module's name
            if self.module_scope is not None:
                self.module_scope.bindings.setdefault(name, []).append(value)
            return
        self.bindings.setdefault(name, []).append(value)



# raw binding markers
_OPAQUE = "opaque"  # bound by something we do not follow (loop target, except-as, ...)

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class SummaryBuilder:
    """Builds a ModuleSummary in one walk of the module's ast, in source order. Use ``build_summary``.

    The walk visits nodes in the order libcst's visitors meet them (phase 2's rules read libcst
    trees, and what a summary holds is in source order: a function's calls, its handoffs, the
    module's recorded calls): a decorator, a parameter's default or a base class is visited in
    the scope of the function or class it belongs to, before its body, and a call's arguments in
    the order they are written."""

    def __init__(self, path: str, module: str, is_package: bool, text: str) -> None:
        self.path = path
        self.module = module
        self.is_package = is_package
        self.text = text
        self.module_scope = _Scope(module, "module")
        self.scopes: list[_Scope] = [self.module_scope]
        self.imports: dict[str, str] = {}
        self.functions: dict[str, tuple[ast.AST, _Scope, Optional[str]]] = {}
        self.classes: dict[str, tuple[ast.ClassDef, _Scope]] = {}
        self.self_attrs: dict[str, dict[str, list]] = {}  # class qualname -> attr -> raw values
        self.attr_assignments: list[tuple[ast.expr, ast.expr, _Scope, int]] = []
        self.recorded_calls: list[tuple[ast.Call, _Scope]] = []
        self.queue_puts: list[tuple[ast.Call, _Scope, object]] = []
        self.passed: list[tuple[ast.expr, _Scope]] = []
        self.has_main_block = False
        self.function_nodes: list[ast.AST] = []  # the functions around the node being visited
        self.handlers: list[tuple] = []  # (node, its innermost function's scope or None, function node, kind)
        self._lines: Optional[list[str]] = None  # the text's lines, split when a column needs one
        self._may_lock: Optional[bool] = None

    # --- the walk -----------------------------------------------------------
    def walk(self, tree: ast.Module) -> None:
        """Visit every node below ``tree`` in source order (iteratively: however deep CPython's
        parser nests a tree, this walk needs no stack of its own). The stack holds nodes to visit
        and (function, argument) pairs to run when the walk gets there: the leave half of a visit,
        a value handed on."""
        handlers = _VISITS
        stack: list = list(reversed(tree.body))
        pop, extend = stack.pop, stack.extend
        while stack:
            item = pop()
            item_type = type(item)
            if item_type is tuple:
                item[0](self, item[1])
                continue
            visit = handlers.get(item_type)
            if visit is not None:
                children = visit(self, item)
                if children:
                    extend(reversed(children))
                continue
            children = _children(item)
            if children:
                extend(reversed(children))

    # --- scopes -------------------------------------------------------------
    @property
    def scope(self) -> _Scope:
        return self.scopes[-1]

    def _function_scope(self) -> Optional[_Scope]:
        for scope in reversed(self.scopes):
            if scope.kind == "function":
                return scope
        return None

    def _child_qualname(self, name: str) -> str:
        parent = self.scope
        if parent.kind == "function":
            return f"{parent.qualname}.<locals>.{name}"
        return f"{parent.qualname}.{name}"

    def _pop_scope(self, _node) -> None:
        self.scopes.pop()

    def _leave_function(self, _node) -> None:
        self.scopes.pop()
        self.function_nodes.pop()

    def visit_FunctionDef(self, node) -> list:
        qualname = self._child_qualname(node.name)
        enclosing_class = self.scope.qualname if self.scope.kind == "class" else None
        self.scope.bind(node.name, ("def", qualname))
        scope = _Scope(qualname, "function", self.module_scope)
        self._bind_params(node, scope, enclosing_class)
        if qualname not in self.functions:
            self.functions[qualname] = (node, scope, enclosing_class)
        else:  # a redefinition (if/else variants): merge into the first
            scope = self.functions[qualname][1]
        self.scopes.append(scope)
        self.function_nodes.append(node)
        children = list(node.decorator_list)
        children += _parameter_parts(node.args)
        if node.returns is not None:
            children.append(node.returns)
        children += node.body
        children.append((SummaryBuilder._leave_function, node))
        return children

    def visit_ClassDef(self, node: ast.ClassDef) -> list:
        qualname = self._child_qualname(node.name)
        self.scope.bind(node.name, ("def", qualname))
        scope = _Scope(qualname, "class")
        self.classes.setdefault(qualname, (node, scope))
        self.scopes.append(scope)
        children: list = list(node.decorator_list)
        for base in node.bases:  # libcst's Args: each value handed on
            value = base.value if type(base) is ast.Starred else base
            children += [(SummaryBuilder._pass, value), base]
        for keyword in node.keywords:
            children += [(SummaryBuilder._pass, keyword.value), keyword.value]
        children += node.body
        children.append((SummaryBuilder._pop_scope, node))
        return children

    def visit_Lambda(self, node: ast.Lambda) -> list:
        self.scope.lambdas += 1
        return [*_parameter_parts(node.args), node.body, (SummaryBuilder._leave_lambda, node)]

    def _leave_lambda(self, _node) -> None:
        self.scope.lambdas -= 1

    def _leave_branch(self, _node) -> None:
        self.scope.branches -= 1

    # What runs only under a condition (the test of an ``if`` or ``while`` and a loop's iterable
    # too: simpler, and on the safe side).
    def visit_branch(self, node) -> list:
        scope = self.scope
        scope.branches += 1
        if type(node) is ast.BoolOp and scope.params:
            scope.tested.update(v.id for v in node.values if type(v) is ast.Name and v.id in scope.params)
        return [*_children(node), (SummaryBuilder._leave_branch, node)]

    def visit_IfExp(self, node: ast.IfExp) -> list:
        self.scope.branches += 1
        self._note_tested(node.test)
        return [node.body, node.test, node.orelse, (SummaryBuilder._leave_branch, node)]  # as written

    def visit_With(self, node) -> list:
        scope = self.scope
        scope.withs.append(node)
        children: list = []
        for item in node.items:
            children.append((SummaryBuilder._enter_with_item, item))
            children.append(item.context_expr)
            if item.optional_vars is not None:
                children.append(item.optional_vars)
            children.append((SummaryBuilder._leave_with_item, item))
        children += node.body
        children.append((SummaryBuilder._leave_with, node))
        return children

    def _leave_with(self, _node) -> None:
        self.scope.withs.pop()

    def _enter_with_item(self, item: ast.withitem) -> None:
        self.scope.in_with_items += 1
        target = item.optional_vars
        if target is not None:
            if type(target) is ast.Name and type(item.context_expr) is ast.Call:
                # ``with Pool() as p``: most context managers return themselves
                self.scope.bind(target.id, item.context_expr)
            else:
                self._bind_opaque(target)

    def _leave_with_item(self, _item) -> None:
        self.scope.in_with_items -= 1

    def _bind_params(self, node, scope: _Scope, enclosing_class: Optional[str]) -> None:
        params = node.args
        ordered = list(params.posonlyargs) + list(params.args)
        decorator_names = {dotted_name(d) for d in node.decorator_list}
        is_static = "staticmethod" in decorator_names
        is_classmethod = "classmethod" in decorator_names
        for index, param in enumerate(ordered + list(params.kwonlyargs)):
            name = param.arg
            scope.params.add(name)
            if index == 0 and enclosing_class and not is_static and ordered:
                scope.bind(name, ("self", enclosing_class, is_classmethod))
            elif param.annotation is not None:
                scope.bind(name, ("annotated", param.annotation))
            else:
                scope.bind(name, _OPAQUE)
        for star in (params.vararg, params.kwarg):
            if star is not None:
                scope.bind(star.arg, _OPAQUE)

    # --- imports ------------------------------------------------------------
    def _package_base(self, level: int) -> Optional[str]:
        parts = self.module.split(".")
        if not self.is_package:
            parts = parts[:-1]
        if level - 1 > len(parts):
            return None
        return ".".join(parts[: len(parts) - (level - 1)])

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            full = alias.name
            if alias.asname is not None:
                local, target = alias.asname, full
            else:
                local = target = full.split(".")[0]
            self._bind_import(local, target)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        level = node.level
        module = node.module or ""
        if level:
            base = self._package_base(level)
            if base is None:
                return
            module = ".".join(p for p in (base, module) if p)
        for alias in node.names:
            name = alias.name
            if name == "*":
                # ``from .jobs import *``: kept under a key no name can have, so that names it brings in
                # resolve (ProjectIndex.canonical) and the module is in the importers' interface closure
                if self.scope.kind == "module" and module:
                    self.imports.setdefault(STAR_IMPORT + module, module)
                return
            local = alias.asname if alias.asname is not None else name
            self._bind_import(local, f"{module}.{name}" if module else name)

    def _bind_import(self, local: str, target: str) -> None:
        if self.scope.kind == "module":
            self.imports.setdefault(local, target)
        self.scope.bind(local, ("import", target))

    # --- bindings -----------------------------------------------------------
    def visit_Global(self, node: ast.Global) -> None:
        self.scope.globals.update(node.names)

    def visit_Assign(self, node: ast.Assign) -> list:
        scope = self.scope
        for target in node.targets:
            self._bind_target(target, node.value)
            if type(target) is ast.Subscript and type(node.value) is ast.Name and node.value.id in scope.params:
                scope.stores.append((node.value.id, target.value))  # ``TASKS[name] = fn``
            elif (type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == "self"
                  and type(node.value) is ast.Name and node.value.id in scope.params and self._self_class()):
                scope.param_attrs.append((node.value.id, f"{self._self_class()}().{target.attr}"))  # ``self.q = q``
            elif type(target) is ast.Name and _container_item(node.value) is not None:
                scope.items_of[target.id] = _container_item(node.value)  # ``handler = TASKS[name]``
        return [*node.targets, node.value]

    def visit_AnnAssign(self, node: ast.AnnAssign) -> list:
        target_type = type(node.target)
        if _is_none(node.value) and (target_type is ast.Name or target_type is ast.Attribute):
            # ``self.pool: Optional[ThreadPoolExecutor] = None``: the annotation says what it will hold
            self._bind_target(node.target, ("declared", node.annotation))
        elif node.value is not None:
            self._bind_target(node.target, node.value)
        elif target_type is ast.Name and self.scope.kind == "function":
            self.scope.bind(node.target.id, ("annotated", node.annotation))
        return [node.target, node.annotation] + ([node.value] if node.value is not None else [])

    def visit_AugAssign(self, node: ast.AugAssign) -> list:
        if type(node.target) is ast.Name:
            self.scope.bind(node.target.id, _OPAQUE)
        return [node.target, node.value]

    def visit_NamedExpr(self, node: ast.NamedExpr) -> list:
        self.scope.bind(node.target.id, _OPAQUE)
        return [node.target, node.value]

    def visit_For(self, node) -> list:
        scope = self.scope
        scope.branches += 1
        self._bind_opaque(node.target)
        if type(node.target) is ast.Name and _iterated_container(node.iter) is not None:
            scope.items_of[node.target.id] = _iterated_container(node.iter)  # ``for hook in HOOKS``
        scope.loops.append("async for" if type(node) is ast.AsyncFor else ("for", node.iter))
        scope.loop_nodes.append(node)
        return [node.target, node.iter, *node.body, *node.orelse, (SummaryBuilder._leave_loop, node)]

    def visit_While(self, node: ast.While) -> list:
        scope = self.scope
        scope.branches += 1
        if scope.kind == "function" and is_endless(node):
            scope.endless_loop = True
        sized = _tests_a_size(node.test) or _waits_on_a_size(node) or _pops_what_it_tests(node) or self._drains_until_empty(node)
        scope.loops.append("while-sized" if sized else "while")
        scope.loop_nodes.append(node)
        return [node.test, *node.body, *node.orelse, (SummaryBuilder._leave_loop, node)]

    def _drains_until_empty(self, loop: ast.While) -> bool:
        """Is ``loop`` a drain: a ``try`` in it takes from a queue without waiting (``get_nowait()``,
        ``get(block=False)``) and the ``try``'s handler of the queue's empty exception leaves the loop
        (knowledge.QUEUE_EMPTY_EXCEPTIONS)? It runs once per item that queue holds now, items already in
        memory (moving a queue's content to one rebuilt on a new event loop), as a sized loop does."""
        todo = list(loop.body)
        while todo:
            node = todo.pop()
            kind = type(node)
            if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.While, ast.For, ast.AsyncFor):
                continue
            if kind is ast.Try and any(_takes_without_waiting(n) for statement in node.body for n in ast.walk(statement)):
                for handler in node.handlers:
                    if self._catches_queue_empty(handler.type) and exits(handler.body) <= {BREAK, RETURN, RAISE}:
                        return True
            todo.extend(ast.iter_child_nodes(node))
        return False

    def _imported_name(self, dotted: str) -> str:
        """A dotted name as written, through the module's imports (``current_task`` -> ``asyncio.current_task``)."""
        head, _, rest = dotted.partition(".")
        return self.imports.get(head, head) + (f".{rest}" if rest else "")

    def _catches_queue_empty(self, caught: Optional[ast.expr]) -> bool:
        names = caught.elts if type(caught) is ast.Tuple else [caught] if caught is not None else []
        for name in names:
            dotted = dotted_name(name)
            if dotted is None:
                continue
            if self._imported_name(dotted) in knowledge.QUEUE_EMPTY_EXCEPTIONS:
                return True
        return False

    def _leave_loop(self, _node) -> None:
        scope = self.scope
        scope.branches -= 1
        scope.loops.pop()
        scope.loop_nodes.pop()

    def visit_TypeAlias(self, node) -> list:
        """``type X[T] = v``: X is bound to a TypeAliasType, no value a summary follows; ``v`` is read
        as an annotation is. Type parameters are not read (nor are a function's or a class's)."""
        self._bind_opaque(node.name)
        return [node.value]

    def visit_Return(self, node: ast.Return) -> list:
        if self.scope.kind == "function":
            self.scope.returns.append(node.value)
        return [node.value] if node.value is not None else []

    def visit_Try(self, node) -> list:
        star = type(node) is not ast.Try
        children: list = [*node.body]
        for handler in node.handlers:
            children.append((SummaryBuilder._enter_handler, (handler, "except*" if star else "except")))
            if handler.type is not None:
                children.append(handler.type)
            if exits(handler.body) == {RAISE}:
                # ``except BaseException: await stop(); raise``: the exception goes on once the
                # handler is done, as from a ``finally:`` (cleanup on the way out)
                children.append((SummaryBuilder._enter_finally, None))
                children += handler.body
                children.append((SummaryBuilder._leave_finally, None))
            else:
                children += handler.body
            children.append((SummaryBuilder._leave_branch, handler))
        children += node.orelse
        if node.finalbody:
            children.append((SummaryBuilder._enter_finally, node.finalbody))
            children += node.finalbody
            children.append((SummaryBuilder._leave_finally, node.finalbody))
        return children

    def _enter_handler(self, handler_and_kind: tuple) -> None:
        handler, kind = handler_and_kind  # kind: "except" or "except*"
        self.scope.branches += 1
        if handler.name is not None:
            self.scope.bind(handler.name, _OPAQUE)
        self._note_handler(handler, kind)

    def _enter_finally(self, finalbody: Optional[list]) -> None:
        self.scope.finallies.append(not self.scope.loops)
        if finalbody is not None and escaping_jumps(finalbody):
            self._note_handler(finalbody, "finally")

    def _leave_finally(self, _finalbody) -> None:
        self.scope.finallies.pop()

    def _note_handler(self, node, kind: str) -> None:
        function = self.function_nodes[-1] if self.function_nodes else None
        self.handlers.append((node, self._function_scope() if function is not None else None, function, kind))

    def visit_comprehension(self, node) -> list:
        """Each ``for`` of a comprehension is a branch (its calls may not run); libcst nests each in
        the one before it, so all are left at the end. The element comes first, as written, outside them."""
        children = [node.elt] if type(node) is not ast.DictComp else [node.key, node.value]
        for generator in node.generators:
            children += [(SummaryBuilder._enter_branch, generator), generator.target, generator.iter, *generator.ifs]
        children += [(SummaryBuilder._leave_branch, generator) for generator in node.generators]
        return children

    def _enter_branch(self, _node) -> None:
        self.scope.branches += 1

    def _bind_target(self, target: ast.expr, value) -> None:
        target_type = type(target)
        if target_type is ast.Name:
            self.scope.bind(target.id, value)
        elif target_type is ast.Attribute:
            base = dotted_name(target.value)
            func_scope = self._function_scope()
            if base == "self" and func_scope is not None and self._self_class() is not None:
                attrs = self.self_attrs.setdefault(self._self_class(), {})
                attrs.setdefault(target.attr, []).extend(self._self_attr_values(value))
            elif isinstance(value, ast.AST):
                self.attr_assignments.append((target, value, self.scope, len(self.recorded_calls)))
        elif target_type is ast.Subscript and isinstance(value, ast.AST) and _subscript_keys(target) is not None:
            # ``DATABASES["default"]["ATOMIC_REQUESTS"] = True``: a setting filled in key by key
            self.attr_assignments.append((target, value, self.scope, len(self.recorded_calls)))
        else:
            self._bind_opaque(target)

    def _self_attr_values(self, value) -> list:
        """What ``self.x = value`` may bind, for _merge_bindings: each operand of ``given or Default()``
        and each branch of ``Default() if given is None else given``;
        a parameter of the method as its annotation, or, unannotated, as HANDED_IN with the name: an
        object the caller may hand in instead of the one the class makes itself (dependency injection),
        set aside when another binding says what the attribute holds."""
        if type(value) is ast.BoolOp and type(value.op) is ast.Or:
            return [bound for operand in value.values for bound in self._self_attr_values(operand)]
        if type(value) is ast.IfExp:  # ``Client() if client is None else client``
            return [*self._self_attr_values(value.body), *self._self_attr_values(value.orelse)]
        annotated = self._annotated_parameter(value)
        if annotated is not None:
            return [annotated]
        if type(value) is ast.Name and self.scope.handed_in(value.id):
            # ``if client is None: client = Client()`` before it: the parameter or that default
            made = [bound for bound in self.scope.bindings.get(value.id, ()) if isinstance(bound, ast.expr)]
            return [(HANDED_IN, value), *made]
        return [value]

    def _annotated_parameter(self, value):
        """``self.session = session`` of a parameter ``session: Session``: the parameter's
        annotation, which says what the attribute holds (the class scope, where self attributes
        are resolved, does not see the method's parameters)."""
        if type(value) is not ast.Name or value.id not in self.scope.params:
            return None
        bindings = self.scope.bindings.get(value.id, [])
        if len(bindings) == 1 and isinstance(bindings[0], tuple) and bindings[0][:1] == ("annotated",):
            return bindings[0]
        return None

    def _self_class(self) -> Optional[str]:
        """The class whose method we are directly in, if any."""
        if len(self.scopes) >= 2 and self.scopes[-1].kind == "function" and self.scopes[-2].kind == "class":
            return self.scopes[-2].qualname
        return None

    def _bind_opaque(self, target: ast.expr) -> None:
        target_type = type(target)
        if target_type is ast.Name:
            self.scope.bind(target.id, _OPAQUE)
        elif target_type is ast.Tuple or target_type is ast.List:
            for element in target.elts:
                self._bind_opaque(element)
        elif target_type is ast.Starred:
            self._bind_opaque(target.value)

    # --- calls --------------------------------------------------------------
    def visit_Call(self, node: ast.Call) -> list:
        scope = self.scope
        func = node.func
        func_kind = node_kind(func)
        scope.calls.append(node)
        if not scope.branches and not scope.lambdas:
            scope.sure.add(id(node))
        if scope.finallies and any(scope.finallies) and not scope.lambdas:
            scope.cleanup.add(id(node))
        # a call in a ``with``'s items runs before its block opens
        blocks = tuple(scope.withs[:-1] if scope.in_with_items else scope.withs)
        if blocks or scope.lambdas:
            scope.placed.append((node, blocks, scope.lambdas > 0))
        args = arguments(node)
        if scope.kind == "function" and (func_kind == NAME or func_kind == ATTRIBUTE):
            self._note_handoffs(node, args)
        if scope.kind == "function":
            self._note_registry(node, func, func_kind)
        if scope.is_generator:
            scope.calls_after_yield.append(node)
        last = func.attr if func_kind == ATTRIBUTE else name_of(func) if func_kind == NAME else None
        if last is not None:
            self._note_recorded(node, func, func_kind, last, scope)
        children: list = [func]
        for _keyword, _star, value in args:  # libcst's Args: each value handed on, then visited
            children.append((SummaryBuilder._pass, value))
            children.append(value)
        return children

    def _note_registry(self, node: ast.Call, func, func_kind: int) -> None:
        """A parameter stored into a container (``HOOKS.append(fn)``), or an item of a container called
        (``TASKS[name](...)``, ``TASKS.get(name)(...)``, a name bound to one): FunctionSummary.param_stores
        and item_calls."""
        scope = self.scope
        if func_kind == ATTRIBUTE and func.attr in _CONTAINER_STORES and node.args:
            value = node.args[_CONTAINER_STORES[func.attr]] if len(node.args) > _CONTAINER_STORES[func.attr] else None
            if type(value) is ast.Name and value.id in scope.params:
                scope.stores.append((value.id, func.value))
        container = _container_item(func)
        if container is None and func_kind == NAME:
            container = scope.items_of.get(func.id)
        if container is not None:
            scope.item_calls.append(container)

    def _note_recorded(self, node: ast.Call, func, func_kind: int, last: str, scope: _Scope) -> None:
        if last in knowledge.RECORDED_SKIP_ON_STRINGS and func_kind == ATTRIBUTE and _is_string(func.value):
            return
        if last in knowledge.RECORDED_CALL_NAMES or (
            func_kind == ATTRIBUTE and last in knowledge.RECORDED_METHOD_CALLS and dotted_name(func.value) in knowledge.RECORDED_METHOD_CALLS[last]
        ):
            self.recorded_calls.append((node, scope))
        if last in knowledge.QUEUE_PUT_METHODS and func_kind == ATTRIBUTE and (node.args or node.keywords):
            self.queue_puts.append((node, scope, self._repeating_loop(node)))

    def _repeating_loop(self, call: ast.Call):
        """The nearest loop around a call that can make it more than once per run: a loop that is always
        left after the call (``q.put(item)`` then ``raise``: putting back what was taken, on the way
        out) makes it once, and the next loop out is asked. None when no loop repeats it."""
        scope = self.scope
        for kind, loop in zip(reversed(scope.loops), reversed(scope.loop_nodes)):
            once = scope.left_after.get(id(loop))
            if once is None:
                once = scope.left_after[id(loop)] = left_after(loop)
            if id(call) not in once:
                return REQUEUE if _takes_from(loop, call) else kind
        return None

    def site(self, call: ast.Call) -> tuple[int, int]:
        """(line, column), both from 1, where a call's callee is written: its dotted name's start, or
        the method's name after a receiver that is not one (``make().submit``); (0, 0) for any other callee."""
        func = call.func
        kind = node_kind(func)
        if kind == NAME or (kind == ATTRIBUTE and dotted_name(func) is not None):
            return (func.lineno, self._column(func.lineno, func.col_offset) + 1)
        if kind == ATTRIBUTE:
            return (func.end_lineno, self._column(func.end_lineno, func.end_col_offset - len(func.attr.encode("utf-8"))) + 1)
        return (0, 0)

    def _column(self, line: int, offset: int) -> int:
        """A column in characters from ast's offset in UTF-8 bytes."""
        if self._lines is None:
            self._lines = self.text.split("\n")
        text = self._lines[line - 1] if 0 < line <= len(self._lines) else ""
        if text.isascii():
            return offset
        return len(text.encode("utf-8")[:offset].decode("utf-8", "replace"))

    def _note_handoffs(self, node: ast.Call, args: list) -> None:
        """For a call of a name or an attribute: its arguments that are names, attributes or calls of them."""
        for position, (keyword, star, value) in enumerate(args):
            if star or (keyword is None and position > 1):
                continue
            kind = node_kind(value)
            if kind == NAME or kind == ATTRIBUTE or (kind == CALL and 0 <= node_kind(value.func) <= 1):
                # the second positional argument counts only for ``partial(f, x)``, which hands x to f
                self.scope.handoffs.append((node, keyword or ("" if position == 0 else _PARTIAL_SECOND), value))

    def _pass(self, value: ast.expr) -> None:
        if 0 <= node_kind(value) <= 1:  # a name or an attribute
            self.passed.append((value, self.scope))

    def visit_Dict(self, node: ast.Dict) -> list:
        children: list = []
        for key, value in zip(node.keys, node.values):
            if key is not None:  # ``**x`` is no element of its own
                children += [(SummaryBuilder._pass, value), key]
            children.append(value)
        return children

    def visit_elements(self, node) -> list:
        children: list = []
        for element in node.elts:
            children += [(SummaryBuilder._pass, element), element]
        return children

    def visit_Subscript(self, node: ast.Subscript) -> list:
        # ``x[a, b]``: the items of a subscript are no tuple's elements (nothing handed on), as in
        # libcst; ``x[(a, b)]`` holds a tuple (written in parentheses: it starts before its first item)
        index = node.slice
        if type(index) is ast.Tuple and index.elts and (index.lineno, index.col_offset) == (index.elts[0].lineno, index.elts[0].col_offset):
            return [node.value, *index.elts]
        return [node.value, index]

    def visit_Yield(self, node) -> list:
        if self.scope.kind == "function":
            self.scope.is_generator = True
        return [node.value] if node.value is not None else []

    def _note_tested(self, test: ast.expr) -> None:
        scope = self.scope
        for name in (n.id for n in ast.walk(test) if type(n) is ast.Name):
            (scope.tested if name in scope.params else scope.tested_names).add(name)

    def visit_If(self, node: ast.If) -> list:
        self.scope.branches += 1
        self._note_tested(node.test)
        if self.scope.kind == "module" and is_main_test(node.test):
            self.has_main_block = True
        return [node.test, *node.body, *node.orelse, (SummaryBuilder._leave_branch, node)]

    def visit_leaf(self, node) -> None:
        return None

    # --- resolution ---------------------------------------------------------
    def build(self) -> ModuleSummary:
        summary = ModuleSummary(path=self.path, module=self.module, is_package=self.is_package, imports=dict(self.imports))
        # Module constants first: everything else resolves through them.
        summary.constants = {}
        module_resolve = summary.resolver(None)
        resolved_module = _resolve_bindings(self.module_scope, summary, module_resolve, module_level=True)
        summary.constants = resolved_module
        summary.alternatives = _alternatives(self.module_scope, resolved_module, module_resolve)
        self._add_skeletons(summary)
        self._fill_functions(summary)
        self._fill_classes(summary)
        self._fill_module_records(summary)
        return summary

    def _add_skeletons(self, summary: ModuleSummary) -> None:
        """Function and class skeletons, then the functions' locals in definition order (outer
        functions before inner ones), so that closures can see their parents' locals."""
        for qualname, (node, scope, class_qualname) in self.functions.items():
            handed, awaits_handed = handed_tasks(node, self._imported_name)
            summary.functions[qualname] = FunctionSummary(
                qualname=qualname,
                name=node.name,
                is_async=type(node) is ast.AsyncFunctionDef,
                class_qualname=class_qualname,
                params=tuple(p.arg for p in _all_params(node.args)),
                line=node.lineno,
                endless_loop=scope.endless_loop,
                is_generator=scope.is_generator,
                keeps_its_errors=keeps_its_errors(node),
                awaits_through=awaited_through(node),
                tests_own_cancelling=returns_own_cancelling(node, self._imported_name),
                keeps_its_cancellation=keeps_its_cancellation(node, self._imported_name),
                handed_tasks=handed,
                awaits_a_handed_task=awaits_handed,
                abstract=_is_placeholder(node, self._imported_name),
            )
        for qualname, (node, scope) in self.classes.items():
            summary.classes[qualname] = ClassSummary(qualname=qualname, name=node.name, line=node.lineno)
        for qualname, (node, scope, class_qualname) in self.functions.items():
            func = summary.functions[qualname]
            func.locals = _resolve_bindings(scope, summary, None, module_level=False, function=func)

    def _fill_functions(self, summary: ModuleSummary) -> None:
        """Each function's decorators, calls (where, in which contexts, under which conditions), handoffs and return."""
        for qualname, (node, scope, class_qualname) in self.functions.items():
            func = summary.functions[qualname]
            resolve = summary.resolver(func)
            func.decorators = tuple(to_ir(d, resolve) for d in node.decorator_list)
            targets: dict[int, Optional[str]] = {}
            func.calls, func.call_sites = _resolved_calls(scope.calls, resolve, self.site, targets)
            func.param_handoffs, func.call_handoffs, func.ref_handoffs = _handoffs(scope, resolve)
            func.calls_after_yield = _resolved_calls(scope.calls_after_yield, resolve)[0] if scope.is_generator else ()
            func.call_contexts = _call_contexts(scope, resolve, targets, self.may_lock_rows)
            func.conditional_calls = _conditional_calls(scope, func.calls, targets)
            func.cleanup_calls = _cleanup_calls(scope, func.calls, targets)
            func.param_stores = tuple(dict.fromkeys(
                (param, path) for param, container in scope.stores for path in [_receiver_path(container, resolve)] if path
            ))
            func.item_calls = tuple(dict.fromkeys(
                path for container in scope.item_calls for path in [_receiver_path(container, resolve)] if path
            ))
            beside = calls_beside_a_kept_try(node) or ()
            func.calls_beside_kept_try = tuple(call_target(c.func, resolve) or "?" for c in beside)
            if type(node) is ast.AsyncFunctionDef and not scope.is_generator:
                func.tail_calls = _tail_calls(node, scope, func.calls, targets)
            func.param_attrs = tuple(dict.fromkeys(scope.param_attrs))
            suspending = suspension_calls(node)
            if suspending is not None:
                func.suspends_only_at = tuple(dict.fromkeys(targets.get(id(call)) or "?" for call in suspending))
            awaited = awaited_calls(node)
            if awaited is not None:
                func.awaited_io = tuple(
                    (targets.get(id(call)) or call_target(call.func, resolve) or "?", kept) for call, kept in awaited
                )
            if type(node) is not ast.AsyncFunctionDef and not scope.is_generator:
                func.returns = _returned(node, scope, resolve)
            _fill_param_guards(func, node, scope, targets, resolve)

    def _fill_classes(self, summary: ModuleSummary) -> None:
        """Each class's bases, decorators, attributes, methods and ``self.x`` attributes."""
        for qualname, (node, scope) in self.classes.items():
            cls = summary.classes[qualname]
            parent_func = _enclosing_function(summary, qualname)
            resolve = summary.resolver(parent_func)
            cls.bases = tuple(ref_name(to_ir(base.value if type(base) is ast.Starred else base, resolve)) for base in node.bases)
            cls.decorators = tuple(to_ir(d, resolve) for d in node.decorator_list)
            cls.calls = _resolved_calls(scope.calls, resolve)[0]
            cls.attrs = _resolve_bindings(scope, summary, resolve, module_level=False)
            cls.methods = tuple(
                name for name, values in scope.bindings.items() if any(isinstance(v, tuple) and v[0] == "def" for v in values)
            )
            raw_self = self.self_attrs.get(qualname, {})
            cls.self_attrs = {}
            # Resolved in the class's scope, where ``self`` is an instance of the class
            # (``self.client = self._make_client()``: what that method returns).
            resolve_self = _with_self(resolve, ("call", qualname, (), ()))
            for attr, values in raw_self.items():
                merged = _merge_bindings(values, resolve_self)
                if merged is not None:
                    cls.self_attrs[attr] = merged
                elif len(values) == 1:
                    only = values[0][1] if isinstance(values[0], tuple) and values[0][:1] == (HANDED_IN,) else values[0]
                    cls.self_attrs[attr] = to_ir(only, resolve) if isinstance(only, ast.AST) else UNKNOWN_IR
                else:
                    cls.self_attrs[attr] = UNKNOWN_IR

    def _fill_module_records(self, summary: ModuleSummary) -> None:
        """The module's own calls, attribute assignments, recorded calls, queue puts and passed refs."""
        module_resolve = summary.resolver(None)
        summary.module_calls, summary.module_call_sites = _resolved_calls(self.module_scope.calls, module_resolve, self.site)
        summary.attr_assignments = tuple(
            (path, to_ir(value, resolver), scope.qualname, calls_before)
            for target, value, scope, calls_before in self.attr_assignments
            for resolver in [self._resolver_for(summary, scope)]
            for path in [_target_path(target, resolver) or _on_a_parameter(target, scope)]
            if path is not None
        )
        summary.recorded_calls = tuple(
            (call_to_ir(node, self._resolver_for(summary, scope)), scope.qualname) for node, scope in self.recorded_calls
        )
        summary.queue_puts = tuple(
            (path, to_ir(_first_arg(node), resolver), _loop_ir(loop, resolver), scope.qualname)
            for node, scope, loop in self.queue_puts
            for resolver in [self._resolver_for(summary, scope)]
            for path in [_receiver_path(node.func.value, resolver)]
            if path is not None
        )
        passed: dict[str, None] = {}
        for node, scope in self.passed:
            path = _receiver_path(node, self._resolver_for(summary, scope))
            if path is not None:
                passed.setdefault(path, None)
        summary.passed_refs = tuple(passed)
        summary.has_main_block = self.has_main_block
        summary.handlers = tuple(
            (scope.qualname if scope else "", type(function) is ast.AsyncFunctionDef, kind,
             _caught(node, kind, self._resolver_for(summary, scope) if scope else module_resolve))
            for node, scope, function, kind in self.handlers
        )

    def may_lock_rows(self) -> bool:
        """Can anything in this module lock rows? (Asked only of a module with calls in ``with`` blocks.)"""
        if self._may_lock is None:
            self._may_lock = _may_lock_rows(self.text)
        return self._may_lock

    def _resolver_for(self, summary: ModuleSummary, scope: _Scope):
        if scope.kind == "function":
            return summary.resolver(summary.functions.get(scope.qualname))
        return summary.resolver(None)


def _is_placeholder(node, imported_name) -> bool:
    """Is this function a base class's placeholder: ``@abstractmethod``, or a body that only raises
    NotImplementedError (beside a docstring or other bare constants, which do nothing)?"""
    for decorator in node.decorator_list:
        written = dotted_name(decorator)
        if written and imported_name(written) in knowledge.ABSTRACT_METHOD_DECORATORS:
            return True
    body = [stmt for stmt in node.body if not (type(stmt) is ast.Expr and type(stmt.value) is ast.Constant)]
    if len(body) != 1 or type(body[0]) is not ast.Raise or body[0].exc is None:
        return False
    raised = body[0].exc.func if type(body[0].exc) is ast.Call else body[0].exc
    return type(raised) is ast.Name and raised.id == "NotImplementedError"


def _children(node: ast.AST) -> list:
    """A node's child nodes in field order (source order for the nodes the builder does not visit itself)."""
    children: list = []
    for name in node._fields:
        value = getattr(node, name)
        if type(value) is list:
            # names are strings in some lists (``case Point(x=0)``'s kwd_attrs, ``nonlocal a, b``)
            children += [item for item in value if isinstance(item, ast.AST)]
        elif isinstance(value, ast.AST):
            children.append(value)
    return children


def _parameter_parts(params: ast.arguments) -> list:
    """Each parameter's annotation then default, in the order they are written."""
    positional = [*params.posonlyargs, *params.args]
    defaults = [None] * (len(positional) - len(params.defaults)) + list(params.defaults)
    written = [*zip(positional, defaults), (params.vararg, None), *zip(params.kwonlyargs, params.kw_defaults), (params.kwarg, None)]
    parts: list = []
    for param, default in written:
        if param is not None and param.annotation is not None:
            parts.append(param.annotation)
        if default is not None:
            parts.append(default)
    return parts


_VISITS = {
    ast.FunctionDef: SummaryBuilder.visit_FunctionDef,
    ast.AsyncFunctionDef: SummaryBuilder.visit_FunctionDef,
    ast.ClassDef: SummaryBuilder.visit_ClassDef,
    ast.Lambda: SummaryBuilder.visit_Lambda,
    ast.IfExp: SummaryBuilder.visit_IfExp,
    ast.BoolOp: SummaryBuilder.visit_branch,
    ast.Match: SummaryBuilder.visit_branch,
    ast.With: SummaryBuilder.visit_With,
    ast.AsyncWith: SummaryBuilder.visit_With,
    ast.Import: SummaryBuilder.visit_Import,
    ast.ImportFrom: SummaryBuilder.visit_ImportFrom,
    ast.Global: SummaryBuilder.visit_Global,
    ast.Assign: SummaryBuilder.visit_Assign,
    ast.AnnAssign: SummaryBuilder.visit_AnnAssign,
    ast.AugAssign: SummaryBuilder.visit_AugAssign,
    ast.NamedExpr: SummaryBuilder.visit_NamedExpr,
    ast.For: SummaryBuilder.visit_For,
    ast.AsyncFor: SummaryBuilder.visit_For,
    ast.While: SummaryBuilder.visit_While,
    ast.Return: SummaryBuilder.visit_Return,
    ast.Try: SummaryBuilder.visit_Try,
    ast.TryStar: SummaryBuilder.visit_Try,
    ast.ListComp: SummaryBuilder.visit_comprehension,
    ast.SetComp: SummaryBuilder.visit_comprehension,
    ast.GeneratorExp: SummaryBuilder.visit_comprehension,
    ast.DictComp: SummaryBuilder.visit_comprehension,
    ast.Call: SummaryBuilder.visit_Call,
    ast.Dict: SummaryBuilder.visit_Dict,
    ast.Tuple: SummaryBuilder.visit_elements,
    ast.List: SummaryBuilder.visit_elements,
    ast.Set: SummaryBuilder.visit_elements,
    ast.Subscript: SummaryBuilder.visit_Subscript,
    ast.Yield: SummaryBuilder.visit_Yield,
    ast.YieldFrom: SummaryBuilder.visit_Yield,
    ast.If: SummaryBuilder.visit_If,
    TypeAlias: SummaryBuilder.visit_TypeAlias,
    # nothing below these (or nothing the builder reads): not walked
    **{leaf: SummaryBuilder.visit_leaf for leaf in (ast.Name, ast.Constant, ast.Pass, ast.Break, ast.Continue, ast.Nonlocal, ast.Load, ast.Store, ast.Del)},
}


# A self attribute bound to a parameter of the method that binds it (see _self_attr_values).
HANDED_IN = "handed-in"


def _is_none(node) -> bool:
    return type(node) is ast.Constant and node.value is None


def _is_string(node) -> bool:
    return (type(node) is ast.Constant and type(node.value) in (str, bytes)) or type(node) is ast.JoinedStr


_SIZE_TESTS = frozenset({"len", "qsize", "full", "empty"})


def _tests_a_size(test: ast.expr, tests: frozenset = _SIZE_TESTS) -> bool:
    """Does a loop condition check a size (``while len(q) < limit``, ``while not q.full()``)? Such a loop
    fills something up to a bound instead of draining a stream."""
    for node in ast.walk(test):
        if type(node) is ast.Call:
            func = node.func
            name = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else None
            if name in tests:
                return True
    return False


def _waits_on_a_size(loop: ast.While) -> bool:
    """``while running: if q.qsize() > limit: wait(1); continue`` ... ``q.put(item)``: one of the
    loop's own statements checks a queue's ``qsize()`` and, when it holds, goes round again (or
    leaves) before anything else runs. The loop fills up to that bound, as one whose condition
    checks it does. (Neither ``len(...)``, as ``if len(batch) == 0: continue`` skips an empty read of
    a stream, nor ``full()``, never true of a queue with no maxsize, is a bound here.)"""
    return any(
        type(statement) is ast.If and _tests_a_size(statement.test, knowledge.QUEUE_SIZE_METHODS) and FALL not in exits(statement.body)
        for statement in loop.body
    )


def _pops_what_it_tests(loop: ast.While) -> bool:
    """``while pending: item = pending.pop(0)``: a loop that empties a list (or deque) it tests, one
    item per round. It runs once per item the list holds, items already in memory, as a sized loop does."""
    tested = dotted_name(loop.test)
    return tested is not None and _calls_a_method_of(loop.body, _POPS, tested)


_POPS = frozenset({"pop", "popleft"})


def _takes_without_waiting(node: ast.AST) -> bool:
    """``q.get_nowait()``, or ``q.get(block=False)`` / ``q.get(False)`` (knowledge.NON_BLOCKING_TAKES)."""
    if type(node) is not ast.Call or type(node.func) is not ast.Attribute:
        return False
    method = node.func.attr
    if method in knowledge.NON_BLOCKING_TAKES:
        return True
    if method not in knowledge.NON_BLOCKING_TAKE_FLAGS:
        return False
    keyword, position = knowledge.NON_BLOCKING_TAKE_FLAGS[method]
    flag = next((k.value for k in node.keywords if k.arg == keyword), node.args[position] if len(node.args) > position else None)
    return type(flag) is ast.Constant and flag.value is False


# The loop a put repeats in also takes from the same queue (``item = self.q.get()`` ...
# ``self.q.put(item)`` to retry it): the consumer putting back what it took, not a producer.
REQUEUE = "requeue"


def _takes_from(loop: ast.AST, put: ast.Call) -> bool:
    """Does ``loop`` (outside the functions defined in it) get from the receiver ``put`` puts into?"""
    receiver = dotted_name(put.func.value)
    return receiver is not None and _calls_a_method_of(list(ast.iter_child_nodes(loop)), knowledge.QUEUE_GET_METHODS, receiver)


def _calls_a_method_of(nodes: list, methods: frozenset, receiver: str) -> bool:
    """Is one of ``methods`` called on ``receiver`` (a dotted name as written) in ``nodes``, outside
    the functions and classes defined there?"""
    todo = list(nodes)
    while todo:
        node = todo.pop()
        kind = type(node)
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef):
            continue
        if kind is ast.Call and type(node.func) is ast.Attribute and node.func.attr in methods and dotted_name(node.func.value) == receiver:
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _loop_ir(loop, resolve):
    if isinstance(loop, tuple):
        return ("for", to_ir(loop[1], resolve))
    return loop


def _first_arg(node: ast.Call) -> ast.expr:
    args = arguments(node)
    for keyword, _star, value in args:
        if keyword is None or keyword == "item":
            return value
    return args[0][2]


# Methods that store their argument (at this position) into the container they are called on.
_CONTAINER_STORES = {"append": 0, "add": 0, "appendleft": 0, "insert": 1, "setdefault": 1}


def _container_item(node: ast.expr) -> Optional[ast.expr]:
    """The container an expression takes an item of: ``TASKS[name]`` or ``TASKS.get(name)`` (a dotted
    name), else None."""
    kind = type(node)
    if kind is ast.Subscript and dotted_name(node.value) is not None:
        return node.value
    if kind is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "get" and node.args and dotted_name(node.func.value) is not None:
        return node.func.value
    return None


def _iterated_container(node: ast.expr) -> Optional[ast.expr]:
    """The container a ``for`` takes its items from: ``HOOKS``, ``HOOKS.values()``, ``list(HOOKS)``."""
    if dotted_name(node) is not None:
        return node
    if type(node) is ast.Call and not node.keywords:
        if type(node.func) is ast.Attribute and node.func.attr == "values" and not node.args and dotted_name(node.func.value) is not None:
            return node.func.value
        if type(node.func) is ast.Name and node.func.id in ("list", "tuple") and len(node.args) == 1:
            return _iterated_container(node.args[0])
    return None


def _receiver_path(node: ast.expr, resolve) -> Optional[str]:
    """The path of a receiver as resolved in its module (``pkg.mod.QUEUE``, ``pkg.mod.Cls().queue``), not canonical."""
    return ref_name(to_ir(node, resolve)) if dotted_name(node) is not None else None


def _merge_bindings(values: list, resolve) -> Optional[IR]:
    """One IR for a name bound several times, when the bindings agree on what it holds.

    An annotation naming a class (``pool: Optional[ThreadPoolExecutor] = None``) says it; else
    ``None`` placeholders are set aside when every other binding makes the same kind of instance
    (``self.pool = None`` in ``__init__``, ``self.pool = ThreadPoolExecutor()`` in ``start()``), and
    so are objects handed in by the caller in place of the one the class makes (``self.client =
    client or httpx.Client()``). None when they do not agree (the name is unknown)."""
    for value in values:
        if isinstance(value, tuple) and value[:1] in (("annotated",), ("declared",)):
            declared = _declared_instance(value[1], resolve)
            if declared != UNKNOWN_IR:
                return declared
    nodes = [v for v in values if not _is_none(v) and not (isinstance(v, tuple) and v[:1] in (("declared",), (HANDED_IN,)))]
    if not nodes or not all(isinstance(v, ast.expr) for v in nodes):
        return None
    irs = [to_ir(v, resolve) for v in nodes]
    first = irs[0]
    made_by = call_name(first)
    if not made_by or made_by.startswith("?"):
        return None
    if all(call_name(ir) == made_by for ir in irs):
        return first if len(irs) == 1 else ("call", made_by, (), ())
    return None


def _returned(node: ast.FunctionDef, scope: "_Scope", resolve) -> IR:
    """What a plain function returns: its annotation's class, else the instance every ``return`` makes."""
    if node.returns is not None:
        declared = _declared_instance(node.returns, resolve)
        # ``-> Callable[[], None]`` names no class whose instance it is: what is returned says more
        if declared != UNKNOWN_IR and call_name(declared) not in _CALLABLE_ANNOTATIONS:
            return declared
    values = [v for v in scope.returns if v is not None]
    if not values or len(values) != len(scope.returns):
        return UNKNOWN_IR
    # Speed: only a name, an attribute, a call or +x can stand for an instance: when another
    # value is returned (``return "text"``: reading a string literal's value is costly), the
    # merge cannot agree on one, and is not made (``resolve`` reads finished bindings only, so
    # the IRs not built change nothing else).
    if any(node_kind(v) < 0 and type(v) is not ast.UnaryOp for v in values):
        return UNKNOWN_IR
    return _merge_bindings(values, resolve) or _same_global(values, resolve) or UNKNOWN_IR


_CALLABLE_ANNOTATIONS = frozenset({"typing.Callable", "collections.abc.Callable"})


def _same_global(values: list, resolve) -> Optional[IR]:
    """``return _CONTROLLER`` on every path, a module global (``get_controller()``): a reference
    to that global, whose binding (set at module level or through ``global`` in a function) the
    index resolves, so that ``get_controller().changed()`` is the method of what it holds."""
    if not all(type(v) is ast.Name for v in values):
        return None
    irs = {to_ir(v, resolve) for v in values}
    if len(irs) != 1:
        return None
    (ir,) = irs
    return ir if isinstance(ir, tuple) and ir[:1] == ("ref",) else None


def _caught(node, kind: str, resolve) -> tuple:
    """What an except clause names (see ``ModuleSummary.handlers``), each element of a tuple apart."""
    if kind == "finally" or node.type is None:
        return ()
    elements = node.type.elts if type(node.type) is ast.Tuple else [node.type]
    caught = []
    for value in elements:
        if type(value) is ast.Call:
            caught.append("c:" + (call_target(value.func, resolve) or ""))
        else:
            caught.append("v:" + (call_target_of_value(value, resolve) or ""))
    return tuple(caught)


def _enclosing_function(summary: ModuleSummary, qualname: str) -> Optional[FunctionSummary]:
    parts = qualname.rsplit(".<locals>.", 1)
    return summary.functions.get(parts[0]) if len(parts) == 2 else None


def _all_params(params: ast.arguments):
    yield from params.posonlyargs
    yield from params.args
    if params.vararg is not None:
        yield params.vararg
    yield from params.kwonlyargs
    if params.kwarg is not None:
        yield params.kwarg


def _subscript_keys(target: ast.expr) -> Optional[tuple]:
    """The string keys of ``NAME["a"]["b"]`` (("a", "b")), a dotted name's items by constant keys;
    None for any other target."""
    keys = []
    while type(target) is ast.Subscript:
        key = target.slice
        if type(key) is not ast.Constant or not isinstance(key.value, str):
            return None
        keys.append(key.value)
        target = target.value
    return tuple(reversed(keys)) if keys and dotted_name(target) is not None else None


def _on_a_parameter(target: ast.expr, scope: "_Scope") -> Optional[str]:
    """``settings.DATABASES = {...}`` in ``def setup_settings(settings):``: "?settings.DATABASES", a
    setting set on an object the function is handed, whose type is not known (the "?" says so). Only
    the settings knowledge.SETTINGS_SET_ON_A_HANDED_OBJECT names: other attributes of parameters stay out."""
    if type(target) is not ast.Attribute or target.attr not in knowledge.SETTINGS_SET_ON_A_HANDED_OBJECT:
        return None
    name = dotted_name(target)
    return f"?{name}" if name and scope.handed_in(name.partition(".")[0]) else None


def _target_path(target: ast.expr, resolve) -> Optional[str]:
    """``app.conf.task_acks_late`` -> "proj.celery.app.conf.task_acks_late" (or via an instance);
    ``DATABASES["default"]["ATOMIC_REQUESTS"]`` -> 'proj.settings.DATABASES["default"]["ATOMIC_REQUESTS"]'."""
    keys = _subscript_keys(target)
    if keys is not None:
        while type(target) is ast.Subscript:
            target = target.value
        base = _target_path(target, resolve)
        return base + "".join(f"[{key!r}]" for key in keys) if base is not None else None
    name = dotted_name(target)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    base = resolve(head)
    if base is None:
        return None
    extended = _extend(base, rest)
    return ref_name(extended)




def _call_contexts(scope: _Scope, resolve, targets: dict, may_lock) -> tuple:
    """``FunctionSummary.call_contexts`` for one function's scope (``targets``: id(call) -> target;
    ``may_lock()``: the module's text says something that locks rows somewhere)."""
    if not scope.placed:
        return ()
    placed = {id(call) for call, _blocks, _in_lambda in scope.placed}
    found: dict[tuple, None] = {}
    blocks_seen: dict[int, tuple[tuple, bool]] = {}  # id(with) -> (IRs of its items, whether its body locks rows)
    for call, blocks, in_lambda in scope.placed:
        target = targets.get(id(call))
        if not target:
            continue
        if in_lambda:
            found.setdefault(("lambda", target), None)
            continue
        for block in blocks:
            if id(block) not in blocks_seen:
                blocks_seen[id(block)] = (tuple(to_ir(item.context_expr, resolve) for item in block.items), may_lock() and locks_rows(block.body))
        items = tuple(ir for block in blocks for ir in blocks_seen[id(block)][0])
        found.setdefault(("with", target, items, any(blocks_seen[id(b)][1] for b in blocks)), None)
    called = {entry[1] for entry in found}
    for call in scope.calls:
        target = targets.get(id(call))
        if id(call) not in placed and target in called:
            found.setdefault(("plain", target), None)
    return tuple(found)


def _may_lock_rows(text: str) -> bool:
    """Can anything in this module lock rows (a cheap test on the text before walking ``with`` blocks)?"""
    if any(method in text for method in knowledge.ROW_LOCK_METHODS):
        return True
    # the pattern (case-blind, starting with \b) scans at about 1.5 ms per 2,000 lines; most files
    # never spell "update"
    return "update" in text.lower() and knowledge.SQL_FOR_UPDATE.search(text) is not None


def _conditional_calls(scope: _Scope, calls: tuple, targets: dict) -> tuple[int, ...]:
    """``FunctionSummary.conditional_calls`` for one function's scope (``targets``: id(call) -> target)."""
    sure = {targets.get(id(call)) for call in scope.calls if id(call) in scope.sure}
    return tuple(position for position, target in enumerate(calls) if target not in sure)


def _fill_param_guards(func: FunctionSummary, node, scope: _Scope, targets: dict, resolve) -> None:
    """``FunctionSummary.call_guards``, ``call_arguments``, ``param_defaults`` and ``positional_params``.
    Guards on module constants and settings (``if settings.SYNC:``) are keyed "@" and the resolved
    path; the index reads their values (ProjectIndex._callees_as)."""
    func.param_defaults = param_guards.param_defaults(node.args)
    func.positional_params = param_guards.positional_count(node.args)
    # ``self``/``cls`` are never constants a caller hands on; a parameter bound again (a second
    # binding in the scope, ``global``) no longer holds what the caller passed
    params = set(func.params) - {"self", "cls"}
    usable = {p for p in params if len(scope.bindings.get(p, ())) <= 1 and p not in scope.globals}
    func.guard_params = tuple(sorted(usable & scope.tested))
    read = {name for name in scope.tested_names if name not in scope.bindings and name not in scope.params}
    global_key = param_guards.global_key(read, resolve) if read else None
    guards = param_guards.call_guards(node, usable, global_key) if func.guard_params or global_key else {}
    by_target: dict[str, list] = {}
    for call in scope.calls:
        target = targets.get(id(call))
        if target:
            by_target.setdefault(target, []).append(call)
    found_guards = []
    found_arguments = []
    for position, target in enumerate(func.calls):
        calls = by_target.get(target, ())
        if not calls:
            continue
        common = frozenset.intersection(*(guards.get(id(call), frozenset()) for call in calls))
        if common:
            found_guards.append((position, tuple(sorted(common))))
        given = [param_guards.call_arguments(call, usable) for call in calls]
        if any(g is None for g in given):
            continue
        merged = {}
        for key in {key for g in given for key in g}:
            values = {g.get(key) for g in given}
            merged[key] = values.pop() if len(values) == 1 and None not in values else param_guards.UNKNOWN_VALUE
        found_arguments.append((position, tuple(sorted(merged.items(), key=lambda item: (type(item[0]) is str, str(item[0]))))))
    func.call_guards = tuple(found_guards)
    func.call_arguments = tuple(found_arguments)


def _cleanup_calls(scope: _Scope, calls: tuple, targets: dict) -> tuple[int, ...]:
    """``FunctionSummary.cleanup_calls`` for one function's scope (``targets``: id(call) -> target)."""
    if not scope.cleanup:
        return ()
    elsewhere = {targets.get(id(call)) for call in scope.calls if id(call) not in scope.cleanup}
    inside = {targets.get(id(call)) for call in scope.calls if id(call) in scope.cleanup}
    return tuple(position for position, target in enumerate(calls) if target in inside and target not in elsewhere)


def _tail_calls(node: ast.AsyncFunctionDef, scope: _Scope, calls: tuple, targets: dict) -> tuple[int, ...]:
    """``FunctionSummary.tail_calls`` for one coroutine function (``targets``: id(call) -> target)."""
    tails: set[int] = set()
    _tail_awaits(node.body, tails)
    for inner in _own_nodes(node.body):
        if type(inner) is ast.Return and type(inner.value) is ast.Await and type(inner.value.value) is ast.Call:
            tails.add(id(inner.value.value))
    if not tails:
        return ()
    elsewhere = {targets.get(id(call)) for call in scope.calls if id(call) not in tails}
    inside = {targets.get(id(call)) for call in scope.calls if id(call) in tails}
    return tuple(position for position, target in enumerate(calls) if target in inside and target not in elsewhere)


def _tail_awaits(body: list, found: set) -> None:
    """The calls ``body`` ends on as ``await f()``, through the blocks its last statement opens."""
    if not body:
        return
    last = body[-1]
    kind = type(last)
    if kind is ast.Expr and type(last.value) is ast.Await and type(last.value.value) is ast.Call:
        found.add(id(last.value.value))
    elif kind is ast.With or kind is ast.AsyncWith:
        _tail_awaits(last.body, found)
    elif kind is ast.If:
        _tail_awaits(last.body, found)
        _tail_awaits(last.orelse, found)
    elif kind is ast.Try or kind is ast.TryStar:
        _tail_awaits(last.orelse or last.body, found)
        for handler in last.handlers:
            _tail_awaits(handler.body, found)


def _own_nodes(body: list):
    """The nodes of a function's body, not those of the functions, lambdas and classes it defines."""
    stack = list(body)
    while stack:
        current = stack.pop()
        yield current
        for child in ast.iter_child_nodes(current):
            if type(child) not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef):
                stack.append(child)


_PARTIAL_SECOND = "\x00partial"  # a handoff key: the second positional argument, kept for ``partial(f, x)``


def _handoffs(scope: _Scope, resolve) -> tuple[tuple, tuple, tuple]:
    """A function's handoffs (see ``FunctionSummary.param_handoffs``, ``call_handoffs`` and
    ``ref_handoffs``), deduplicated; a parameter bound again in the body is not handed on as it came."""
    params: dict[tuple, None] = {}
    calls: dict[tuple, None] = {}
    refs: dict[tuple, None] = {}
    for node, key, value in scope.handoffs:
        for target in _handoff_targets(node, scope, resolve):
            _note_handoff(node, key, value, target, scope, resolve, params, calls, refs)
    return tuple(params), tuple(calls), tuple(refs)


def _handoff_targets(node: ast.Call, scope: _Scope, resolve) -> tuple[str, ...]:
    """What a handing call calls: its target, or, for a call through a local name bound more than
    once (``send = queue.enqueue`` then maybe ``send = partial(...)``), each method or function it
    may hold (a partial's arguments shift: that binding is left out)."""
    target = _call_target_or_written(node, resolve)
    if target is None:
        return ()
    if target.startswith("?") and type(node.func) is ast.Name and node.func.id not in scope.params:
        held = [call_target(v, resolve) for v in scope.bindings.get(node.func.id, ()) if type(v) in (ast.Attribute, ast.Name)]
        if held and all(held):
            return tuple(dict.fromkeys(held))
    return (target,)


def _note_handoff(node: ast.Call, key: str, value, target: str, scope: _Scope, resolve, params: dict, calls: dict, refs: dict) -> None:
    """Record one handoff of ``value`` (argument ``key`` of ``node``) to ``target``, by what is handed."""
    if target in knowledge.PARTIALS and key != "":
        # ``partial(queue.enqueue, func, job=job)``: func and job are handed to queue.enqueue
        inner = node.args[0] if node.args and 0 <= node_kind(node.args[0]) <= 1 else None
        target = _call_target_or_written(ast.Call(func=inner, args=[], keywords=[]), resolve) if inner is not None else None
        if target is None:
            return
        key = "" if key == _PARTIAL_SECOND else key
    elif key == _PARTIAL_SECOND:
        return
    if type(value) is ast.Name and value.id in scope.params:
        # handed on as it came: bound once (the parameter), or bound again only to what this
        # very call returns (``job = enqueue(job)``), after the call has it
        if len([v for v in scope.bindings.get(value.id, ()) if v is not node]) == 1:
            params.setdefault((value.id, target, key), None)
    elif type(value) is ast.Call:
        inner = _call_target_or_written(value, resolve)
        if inner is not None:
            calls.setdefault((target, key, inner), None)
    elif not target.startswith("?"):
        denoted = ref_name(to_ir(value, resolve))
        if denoted and "." in denoted:  # a module's name or an import, not a builtin or an unknown
            refs.setdefault((target, key, denoted), None)


def _call_target_or_written(call: ast.Call, resolve) -> Optional[str]:
    """A call's resolved target, or as written marked with a leading "?" (see ``_resolved_calls``)."""
    return call_target(call.func, resolve) or written_target(call.func)


def _resolved_calls(calls: list[ast.Call], resolve, site=None, targets: Optional[dict] = None) -> tuple[tuple[str, ...], tuple]:
    """Resolved call targets and where each is first called (``site``: call -> (line, column); none
    given, (0, 0));
    a call that does not resolve is kept as written, marked with a leading "?" (``?session.commit``),
    so that name-based facts ("commits a transaction") still see it while it never matches a
    qualified name. ``targets``, when given, keeps each call's target (id(call) -> target or None)."""
    seen: dict[str, tuple[int, int]] = {}
    for call in calls:
        target = _call_target_or_written(call, resolve)
        if targets is not None:
            targets[id(call)] = target
        if target and target not in seen:
            seen[target] = site(call) if site is not None else (0, 0)
    return tuple(seen), tuple(seen.values())


def _resolve_bindings(scope: _Scope, summary: ModuleSummary, outer_resolve, module_level: bool, function=None) -> dict:
    """Turn a scope's raw bindings into IR. Names bound more than once are unknown."""
    raw = scope.bindings
    result: dict[str, IR] = {}
    if function is not None:
        function.locals = result  # visible to the resolver while we fill it (inner names)
        resolve_outer = summary.resolver(function)
    else:
        resolve_outer = outer_resolve
    in_progress: set[str] = set()

    def resolve(name: str) -> Optional[IR]:
        head, _, rest = name.partition(".")
        if head in raw and head not in result:
            if head in in_progress:
                return None
            in_progress.add(head)
            result[head] = convert(head)
            in_progress.discard(head)
        if head in result:
            if module_level or scope.kind == "class":
                # globals and class attributes are referred to by qualified name
                if scope.kind == "module":
                    values = raw.get(head, ())
                    if values and all(isinstance(v, tuple) and v[0] == "import" for v in values):
                        return _extend(result[head], rest)  # an imported name: its own qualified name
                    return ("ref", f"{summary.module}.{name}")
            return _extend(result[head], rest)
        if resolve_outer is not None:
            return resolve_outer(name)
        return summary.global_ref(name)

    def convert(name: str) -> IR:
        values = raw[name]
        imports = [v for v in values if isinstance(v, tuple) and v[0] == "import"]
        if len(values) != 1:
            if imports and len(imports) == len(values):
                return ("ref", imports[0][1])  # try/except ImportError fallbacks
            return _merge_bindings(values, resolve) or UNKNOWN_IR
        value = values[0]
        if value == _OPAQUE:
            return UNKNOWN_IR
        if isinstance(value, tuple):
            kind = value[0]
            if kind == "import":
                return ("ref", value[1])
            if kind == "def":
                return ("ref", value[1])
            if kind == "self":
                _kind, class_qualname, is_classmethod = value
                return ("ref", class_qualname) if is_classmethod else ("call", class_qualname, (), ())
            if kind == "annotated":
                return _annotation_instance(value[1], resolve)
            if kind == "declared":
                declared = _declared_instance(value[1], resolve)
                return declared if declared != UNKNOWN_IR else ("v", None)
            return UNKNOWN_IR
        return to_ir(value, resolve)

    for name in raw:
        if name not in result:
            in_progress.add(name)
            result[name] = convert(name)
            in_progress.discard(name)
    # resolve and convert call each other: a reference cycle through their closures, kept (with
    # the scope's nodes) until the cyclic collector runs, which phase 1 makes rare (run/process.py)
    resolve = convert = None  # noqa: F841
    return result


_MAX_ALTERNATIVES = 8


def _alternatives(scope: _Scope, constants: dict, resolve) -> dict:
    """Module names bound several times to things that do not agree: each binding's IR (see
    ModuleSummary.alternatives). What one of them is, the name may be: a rule asks whether any
    binding reads a clock, say, never which one runs."""
    found: dict[str, tuple] = {}
    for name, values in scope.bindings.items():
        if len(values) < 2 or len(values) > _MAX_ALTERNATIVES or constants.get(name) != UNKNOWN_IR:
            continue
        irs = []
        for value in values:
            if isinstance(value, tuple) and value[0] == "import":
                irs.append(("ref", value[1]))
            elif isinstance(value, ast.expr):
                irs.append(to_ir(value, resolve))
            else:
                irs.append(UNKNOWN_IR)
        found[name] = tuple(irs)
    return found


_OPTIONAL = frozenset({"typing.Optional", "typing_extensions.Optional", "Optional"})
_UNION = frozenset({"typing.Union", "typing_extensions.Union", "Union"})


def _annotation_instance(annotation: ast.expr, resolve, depth: int = 0) -> IR:
    """``x: Foo`` -> an instance of Foo. Looks through ``Optional[Foo]``, ``Foo | None``,
    ``Union[Foo, None]``, ``"Foo"`` and generics (``asyncio.Queue[int]`` is an asyncio.Queue).
    A union of two real types, builtins and anything else are unknown."""
    if depth > 5:
        return UNKNOWN_IR
    annotation_type = type(annotation)
    if annotation_type is ast.Constant and type(annotation.value) is str:
        try:
            annotation = ast.parse(annotation.value.strip(), mode="eval").body
        except Exception:
            return UNKNOWN_IR
        return _annotation_instance(annotation, resolve, depth + 1)
    if annotation_type is ast.BinOp and type(annotation.op) is ast.BitOr:
        sides = [s for s in (annotation.left, annotation.right) if not _is_none(s)]
        return _annotation_instance(sides[0], resolve, depth + 1) if len(sides) == 1 else UNKNOWN_IR
    if annotation_type is ast.Subscript:
        base = _annotation_instance(annotation.value, resolve, depth + 1)
        written = dotted_name(annotation.value) or ""
        base_name = call_name(base)
        elements = annotation.slice.elts if type(annotation.slice) is ast.Tuple else [annotation.slice]
        members = [e for e in elements if type(e) is not ast.Slice and not _is_none(e)]
        if written in _OPTIONAL or written in _UNION or base_name in _OPTIONAL or base_name in _UNION:
            return _annotation_instance(members[0], resolve, depth + 1) if len(members) == 1 else UNKNOWN_IR
        return base
    name = dotted_name(annotation)
    if name is None:
        return UNKNOWN_IR
    ref = ref_name(resolve(name))
    if ref is None:
        return UNKNOWN_IR
    return ("call", ref, (), ())


def _declared_instance(annotation: ast.expr, resolve) -> IR:
    """``x: Optional[Foo] = None``: an instance of a library or project class Foo; builtins stay unknown."""
    declared = _annotation_instance(annotation, resolve)
    return declared if "." in (call_name(declared) or "") else UNKNOWN_IR


def is_main_test(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.ops[0]) is not ast.Eq:
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if type(s) is ast.Name and s.id == "__name__"]
    strings = [s for s in sides if type(s) is ast.Constant and s.value == "__main__"]
    return bool(names and strings)


def build_summary(tree: ast.Module, path: str, module_name: str, is_package: bool, text: str) -> ModuleSummary:
    """The summary of a module, from its ast and its text (the columns of calls count characters of it)."""
    builder = SummaryBuilder(path, module_name, is_package, text)
    builder.walk(tree)
    return builder.build()
