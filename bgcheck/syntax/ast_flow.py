"""Control flow, loop shapes and row locks for CPython ``ast`` trees.

Phase 1 builds summaries from CPython's ``ast`` (about ten times cheaper to parse than libcst),
and those summaries must answer as bgcheck/syntax/flow.py, loops.py and rows.py answer for the
libcst trees phase 2's rules read. This module is their ``ast`` twin, without libcst;
tests/test_ast_flow.py holds the two to the same answers over real code.
"""

from __future__ import annotations

import ast
from operator import attrgetter
from typing import Callable, Optional

from bgcheck import knowledge
from bgcheck.syntax.ast_ir import dotted_name
from bgcheck.syntax.words import says_stop

from bgcheck.syntax.exits import BREAK, CONTINUE, FALL, RAISE, RETURN, loops_for_ever

IsExitCall = Callable[[ast.Call], bool]

_Name, _Attribute, _Call, _Constant = ast.Name, ast.Attribute, ast.Call, ast.Constant
_If, _While, _For, _AsyncFor = ast.If, ast.While, ast.For, ast.AsyncFor
_Try, _TryStar = ast.Try, getattr(ast, "TryStar", ast.Try)
_With, _AsyncWith, _Match = ast.With, ast.AsyncWith, ast.Match
_FunctionDef, _AsyncFunctionDef, _ClassDef, _Lambda = ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda
_Return, _Raise, _Break, _Continue, _Expr = ast.Return, ast.Raise, ast.Break, ast.Continue, ast.Expr

_DEFS = frozenset({_FunctionDef, _AsyncFunctionDef, _ClassDef})
_DEFS_AND_LAMBDA = _DEFS | {_Lambda}
_LOOPS = frozenset({_While, _For, _AsyncFor})
# libcst's compound statements (other than loops): everything else is a BaseSmallStatement there
_COMPOUND = frozenset({_If, _Try, _TryStar, _With, _AsyncWith, _Match}) | _DEFS
_SINGLETONS = {True: "True", False: "False", None: "None"}  # Names in libcst


# --- walking ----------------------------------------------------------------------------------

# Fields that never hold a node (context and operator singletons, identifiers, flags): skipped.
_PLAIN_FIELDS = frozenset(
    {"ctx", "op", "ops", "type_comment", "kind", "conversion", "is_async", "level", "type_ignores"}
    | {"id", "attr", "arg", "asname", "module", "kwd_attrs", "rest", "tag", "simple", "lineno"}
)
_FIELDS: dict[type, tuple] = {}  # node type -> (getter of its child fields, how many)


def _fields_entry(node_type: type) -> tuple:
    skip = set(_PLAIN_FIELDS)
    if node_type in (_Constant, ast.MatchSingleton):
        skip.add("value")
    if node_type in (ast.Global, ast.Nonlocal):
        skip.add("names")
    if node_type.__name__ != "TypeAlias":  # its name is a Name node; everywhere else a str
        skip.add("name")
    fields = tuple(f for f in node_type._fields if f not in skip)
    entry = _FIELDS[node_type] = (attrgetter(*fields) if fields else None, len(fields))
    return entry


def _push_children(node: ast.AST, node_type: type, push, extend) -> None:
    getter, count = _FIELDS.get(node_type) or _fields_entry(node_type)
    if count == 0:
        return
    if count == 1:
        value = getter(node)
        if type(value) is list:
            extend(value)
        elif value is not None:
            push(value)
        return
    for value in getter(node):
        if type(value) is list:
            extend(value)  # may hold None (Dict.keys, kw_defaults): popped and dropped
        elif value is not None:
            push(value)


def _dotted_parts(name: Optional[str]) -> tuple:
    return tuple(name.split(".")) if name else ()


def _alias_names(node: ast.alias) -> tuple:
    # libcst: ``import a.b as c`` holds Names a, b (an Attribute chain) and c; ``*`` is no Name
    parts = _dotted_parts(node.name) if node.name != "*" else ()
    return parts + (node.asname,) if node.asname else parts


# Identifiers that are Name nodes in libcst but plain strings on these ast nodes.
_OWN_NAMES: dict[type, Callable] = {
    _Attribute: lambda n: (n.attr,),
    ast.keyword: lambda n: (n.arg,) if n.arg else (),
    ast.arg: lambda n: (n.arg,),
    ast.alias: _alias_names,
    ast.ImportFrom: lambda n: _dotted_parts(n.module),
    ast.Global: lambda n: tuple(n.names),
    ast.Nonlocal: lambda n: tuple(n.names),
    ast.ExceptHandler: lambda n: (n.name,) if n.name else (),
    ast.MatchAs: lambda n: (n.name,) if n.name else (),
    ast.MatchStar: lambda n: (n.name,) if n.name else (),
    ast.MatchMapping: lambda n: (n.rest,) if n.rest else (),
    ast.MatchClass: lambda n: tuple(n.kwd_attrs),
    ast.MatchSingleton: lambda n: (_SINGLETONS[n.value],),  # ``case None:``: a Name in libcst
    _FunctionDef: lambda n: (n.name,),
    _AsyncFunctionDef: lambda n: (n.name,),
    _ClassDef: lambda n: (n.name,),
}
for _type_param in ("TypeVar", "ParamSpec", "TypeVarTuple"):  # Python 3.12+
    if hasattr(ast, _type_param):
        _OWN_NAMES[getattr(ast, _type_param)] = lambda n: (n.name,)


def _nodes(roots, skip: frozenset):
    """Every node below ``roots`` (a node or a list of them), themselves included, not entering a
    node whose type is in ``skip`` (nor yielding it). Order is of no concern to the callers."""
    stack = list(roots) if isinstance(roots, (list, tuple)) else [roots]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        if node is None:  # a list field's placeholder (Dict.keys, kw_defaults)
            continue
        node_type = type(node)
        if node_type in skip:
            continue
        yield node
        _push_children(node, node_type, push, extend)


# --- flow.py ----------------------------------------------------------------------------------


def exits(body, is_exit_call: Optional[IsExitCall] = None) -> set[str]:
    """flow.exits: the ways control can leave ``body`` (a list of statements)."""
    current = {FALL}
    if not body:
        return current
    for statement in body:
        if FALL not in current:
            break  # the rest is unreachable
        current.discard(FALL)
        current |= _statement_exits(statement, is_exit_call)
    return current


def is_constant_true(test: ast.AST) -> bool:
    if type(test) is _Constant:
        value = test.value
        if value is True:
            return True
        value_type = type(value)
        if value_type is int:  # a bool is not: False is a Name in libcst
            return value != 0
        if value_type is str or value_type is bytes:
            return len(value) > 0
        return False
    if type(test) in (ast.Tuple, ast.List):
        return len(test.elts) > 0
    return False


def is_non_empty_iterable(node: ast.AST) -> bool:
    """flow.is_non_empty_iterable: a literal with an element, or ``range(<positive int>)``."""
    node_type = type(node)
    if node_type in (ast.List, ast.Tuple, ast.Set):
        return any(is_non_empty_iterable(e.value) if type(e) is ast.Starred else True for e in node.elts)
    if node_type is ast.Dict:  # a None key is ``**mapping``
        return any(is_non_empty_iterable(v) if k is None else True for k, v in zip(node.keys, node.values))
    if node_type is _Constant:
        value = node.value
        return (type(value) is str or type(value) is bytes) and len(value) > 0
    if node_type is _Call and type(node.func) is _Name and node.func.id == "range":
        if len(node.args) == 1 and not node.keywords and type(node.args[0]) is not ast.Starred:
            value = node.args[0]
            return type(value) is _Constant and type(value.value) is int and value.value > 0
    return False


def _loop_exits(statement, is_exit_call, may_skip_body: bool) -> set[str]:
    body = exits(statement.body, is_exit_call)
    result = body - {BREAK, CONTINUE, FALL}
    if BREAK in body:
        result.add(FALL)
    ends_normally = may_skip_body or bool(body & {FALL, CONTINUE})
    if type(statement) is _While and is_constant_true(statement.test):
        ends_normally = False  # ``while True`` ends only by break, return or raise
    if ends_normally:
        result |= exits(statement.orelse, is_exit_call)
    return result


def _try_exits(statement, is_exit_call) -> set[str]:
    body = exits(statement.body, is_exit_call)
    if statement.orelse and FALL in body:
        body = (body - {FALL}) | exits(statement.orelse, is_exit_call)
    result = set(body)
    for handler in statement.handlers:
        result |= exits(handler.body, is_exit_call)
    if statement.finalbody:
        final = exits(statement.finalbody, is_exit_call)
        if FALL not in final:
            return final  # finally overrides every other way out
        result |= final - {FALL}
    return result


def _statement_exits(statement: ast.stmt, is_exit_call) -> set[str]:
    statement_type = type(statement)
    if statement_type is _Raise:
        return {RAISE}
    if statement_type is _Return:
        return {RETURN}
    if statement_type is _Break:
        return {BREAK}
    if statement_type is _Continue:
        return {CONTINUE}
    if statement_type is _Expr:
        if is_exit_call is not None and type(statement.value) is _Call and is_exit_call(statement.value):
            return {RAISE}
        return {FALL}
    if statement_type is _If:
        result = exits(statement.body, is_exit_call)
        # an ``elif`` is a one-If orelse: exits([If]) is what libcst's elif branch computes
        if statement.orelse:
            result |= exits(statement.orelse, is_exit_call)
        else:
            result.add(FALL)
        return result
    if statement_type is _While:
        return _loop_exits(statement, is_exit_call, may_skip_body=not is_constant_true(statement.test))
    if statement_type is _For or statement_type is _AsyncFor:
        return _loop_exits(statement, is_exit_call, may_skip_body=not is_non_empty_iterable(statement.iter))
    if statement_type is _Try or statement_type is _TryStar:
        return _try_exits(statement, is_exit_call)
    if statement_type is _With or statement_type is _AsyncWith:
        return exits(statement.body, is_exit_call)
    if statement_type is _Match:
        result: set[str] = set()
        irrefutable = False
        for case in statement.cases:
            result |= exits(case.body, is_exit_call)
            if case.guard is None and type(case.pattern) is ast.MatchAs and case.pattern.pattern is None:
                irrefutable = True
        if not irrefutable:
            result.add(FALL)
        return result
    return {FALL}  # simple statements, definitions


def left_after(loop: "ast.While | ast.For | ast.AsyncFor") -> set[int]:
    """flow.left_after: ids of the ``ast.Call`` nodes in the loop's body after which the loop is
    always left (a break, return or raise follows them, or is the statement they are in)."""
    found: set[int] = set()
    _left_after(loop.body, False, True, found)
    return found


def _left_after(statements: list, leaving: bool, raise_leaves: bool, found: set) -> None:
    ways_out = {BREAK, RETURN, RAISE, FALL} if raise_leaves else {BREAK, RETURN, FALL}
    # exits(statements[i + 1:]) for each i, built from the end: flow.py recomputes each suffix
    rest = {FALL}
    rests = [rest] * len(statements)
    for i in range(len(statements) - 1, 0, -1):
        own = _statement_exits(statements[i], None)
        rest = (own - {FALL}) | rest if FALL in own else own
        rests[i - 1] = rest
    for statement, rest in zip(statements, rests):
        after = rest <= ways_out and (FALL not in rest or leaving)
        statement_type = type(statement)
        if statement_type not in _COMPOUND:  # a loop or a simple statement: one unit
            leaves = statement_type is _Return or (raise_leaves and statement_type is _Raise)
            if after or leaves:
                _calls_run_here(statement, found)
            continue
        for block, in_handled_try in _blocks(statement):
            _left_after(block, after, raise_leaves and not in_handled_try, found)


def _blocks(statement) -> list:
    statement_type = type(statement)
    if statement_type is _If:
        # flow.py flattens an elif chain into blocks at one level; here an elif is an orelse
        # holding one If, which _left_after reaches with the same ``leaving``: the same calls
        return [(statement.body, False), (statement.orelse, False)]
    if statement_type is _Try or statement_type is _TryStar:
        blocks = [(statement.body, bool(statement.handlers))]
        blocks += [(handler.body, False) for handler in statement.handlers]
        return blocks + [(statement.orelse, False), (statement.finalbody, False)]
    if statement_type is _With or statement_type is _AsyncWith:
        return [(statement.body, False)]
    if statement_type is _Match:
        return [(case.body, False) for case in statement.cases]
    return []  # definitions: their calls do not run here


def _calls_run_here(statement: ast.AST, found: set) -> None:
    """Adds the ids of the calls below ``statement``, not in a nested def, class or lambda."""
    found.update(id(node) for node in _nodes(statement, _DEFS_AND_LAMBDA) if type(node) is _Call)


def escaping_jumps(finalbody: list) -> list[ast.stmt]:
    """flow.escaping_jumps: ``return``/``break``/``continue`` statements that leave a ``finally``
    block (its list of statements), in source order. Inside a loop of the block (its ``else:``
    too, as libcst's visitor counts it) a break or continue stays; nested defs do not count."""
    found: list = []
    _escaping(finalbody, 0, found)
    return found


def _escaping(statements: list, loop_depth: int, found: list) -> None:
    for statement in statements:
        statement_type = type(statement)
        if statement_type is _Return:
            found.append(statement)
        elif statement_type is _Break or statement_type is _Continue:
            if loop_depth == 0:
                found.append(statement)
        elif statement_type in _LOOPS:
            _escaping(statement.body, loop_depth + 1, found)
            _escaping(statement.orelse, loop_depth + 1, found)
        elif statement_type in _COMPOUND and statement_type not in _DEFS:
            for block in _statement_blocks(statement):
                _escaping(block, loop_depth, found)


def _statement_blocks(statement) -> list:
    """Every list of statements directly inside a compound statement."""
    statement_type = type(statement)
    if statement_type is _Try or statement_type is _TryStar:
        return [statement.body, *(h.body for h in statement.handlers), statement.orelse, statement.finalbody]
    if statement_type is _Match:
        return [case.body for case in statement.cases]
    if statement_type in (_If, _While, _For, _AsyncFor):
        return [statement.body, statement.orelse]
    if statement_type in (_With, _AsyncWith, _ClassDef, _FunctionDef, _AsyncFunctionDef):
        return [statement.body]
    return []


# --- loops.py ---------------------------------------------------------------------------------


def _words(node) -> tuple[list[str], list[str]]:
    """loops._words: (identifiers, called method names) below ``node`` (a node or a list of
    statements), not into nested defs or classes. As in libcst, ``True``/``False``/``None`` are
    names, and so are attribute, keyword, parameter and import names."""
    names: list[str] = []
    methods: list[str] = []
    own_names = _OWN_NAMES
    for current in _nodes(node, _DEFS):
        node_type = type(current)
        if node_type is _Name:
            names.append(current.id)
        elif node_type is _Constant:
            value = current.value
            if value is None or value is True or value is False:
                names.append(_SINGLETONS[value])
        else:
            if node_type is _Call and type(current.func) is _Attribute:
                methods.append(current.func.attr)
            own = own_names.get(node_type)
            if own is not None:
                names.extend(own(current))
    return names, methods


def checks_stop_signal(node: ast.AST) -> bool:
    """loops.checks_stop_signal: does this expression test a stop signal (``event.is_set()``, a
    name that says stop/shutdown/running/exit)?"""
    names, methods = _words(node)
    stop_methods = knowledge.STOP_SIGNAL_METHODS
    if any(method in stop_methods for method in methods):
        return True
    return any(says_stop(name) for name in names)


def _ifs(body: list) -> list:
    """walk.find_all(body, (If,)): every ``if`` (and ``elif``) below, not in nested functions
    (find_all skips FunctionDef and Lambda only: class bodies are searched)."""
    found: list = []
    stack = list(body)
    while stack:
        statement = stack.pop()
        statement_type = type(statement)
        if statement_type is _FunctionDef or statement_type is _AsyncFunctionDef:
            continue
        if statement_type is _If:
            found.append(statement)
        for block in _statement_blocks(statement):
            stack.extend(block)
    return found


def exits_on_stop_signal(body: list) -> bool:
    """loops.exits_on_stop_signal: an ``if <stop signal>:`` in ``body`` whose block always leaves."""
    return any(
        FALL not in exits(node.body, _looks_like_exit) and checks_stop_signal(node.test) for node in _ifs(body)
    )


def _looks_like_exit(call: ast.Call) -> bool:
    """A process exit as written: ``sys.exit()``, ``os._exit()``."""
    return dotted_name(call.func) in knowledge.PROCESS_EXIT_CALLS


def is_endless(loop: ast.While) -> bool:
    """loops.is_endless: a constant-true ``while`` that nothing but an exception leaves, and that
    tests no stop signal. (Not cached as loops.py is: ast nodes are mutable, and phase 1 asks once.)"""
    if type(loop) is not _While or not is_constant_true(loop.test):
        return False
    return loops_for_ever(exits(loop.body)) and not exits_on_stop_signal(loop.body)


# --- rows.py ----------------------------------------------------------------------------------


def locks_rows(body) -> bool:
    """rows.locks_rows: a row-locking method named anywhere under ``body`` (a list of statements
    or a node; nested defs included, as in rows.py), or a str literal saying ``FOR UPDATE``."""
    lock_methods = knowledge.ROW_LOCK_METHODS
    search = knowledge.SQL_FOR_UPDATE.search
    own_names = _OWN_NAMES
    for node in _nodes(body, frozenset()):
        node_type = type(node)
        if node_type is _Name:
            if node.id in lock_methods:
                return True
        elif node_type is _Constant:
            # bytes are skipped, as libcst's evaluated bytes are; an f-string's text parts are
            # Constants here (evaluated, where libcst reads their source text)
            if type(node.value) is str and search(node.value) is not None:
                return True
        else:
            own = own_names.get(node_type)
            if own is not None and any(name in lock_methods for name in own(node)):
                return True
    return False


def _takes_every_error(handler: ast.ExceptHandler) -> bool:
    """``except:``, ``except Exception``, ``except BaseException`` (alone or in a tuple)."""
    if handler.type is None:
        return True
    names = handler.type.elts if type(handler.type) is ast.Tuple else [handler.type]
    return any(dotted_name(n) in knowledge.EXCEPTION or dotted_name(n) in knowledge.BASE_EXCEPTION for n in names)


def suspension_calls(function: "ast.FunctionDef | ast.AsyncFunctionDef") -> Optional[list]:
    """The calls at an async function's suspension points (outside the functions defined in it),
    when every one is ``await f(...)`` or ``async for ... in f(...)``: [] when it has none. None when
    one is anything else (``await`` of a name or attribute, ``async with``, an async comprehension),
    and for a plain function or a stub. A ``yield`` of an async generator hands a value to its
    consumer and is no point where the loop runs other work. Whether the awaited calls themselves
    suspend is the index's to say (ProjectIndex.never_suspending)."""
    if type(function) is not ast.AsyncFunctionDef or _is_stub(function.body):
        return None
    calls = []
    todo = list(function.body)
    while todo:
        node = todo.pop()
        kind = type(node)
        if kind in _DEFS_AND_LAMBDA:
            continue
        if kind is ast.Await:
            if type(node.value) is not _Call:
                return None
            calls.append(node.value)
        elif kind is _AsyncFor:
            if type(node.iter) is not _Call:
                return None
            calls.append(node.iter)
        elif kind is _AsyncWith or (kind is ast.comprehension and node.is_async):
            return None
        todo.extend(ast.iter_child_nodes(node))
    return calls


def awaited_calls(function: "ast.FunctionDef | ast.AsyncFunctionDef") -> Optional[list]:
    """An async function's calls at its suspension points (``await f()``, ``async for _ in f()``,
    ``async with f()``; outside the functions defined in it), each with whether an exception it
    raises stays inside: the call stands in the body of a ``try`` with a handler that takes every
    Exception and has no ``raise`` of its own at its top level, or of ``with suppress(Exception)``.
    An ``await`` of a name or attribute and ``async with lock`` are left out (a future or a lock,
    not a call that talks to anything). None for a plain function or a stub. Whether an error of a
    call can reach the task (a library call, a project coroutine whose own errors escape) is the
    index's to say (ProjectIndex.losing_io)."""
    if type(function) is not ast.AsyncFunctionDef or _is_stub(function.body):
        return None
    found: list = []
    todo = [(node, False) for node in function.body]
    while todo:
        node, kept = todo.pop()
        kind = type(node)
        if kind in _DEFS_AND_LAMBDA:
            continue
        if kind is ast.Await and type(node.value) is _Call:
            found.append((node.value, kept))
        elif kind is _AsyncFor and type(node.iter) is _Call:
            found.append((node.iter, kept))
        elif kind is _AsyncWith:
            found.extend((item.context_expr, kept) for item in node.items if type(item.context_expr) is _Call)
        elif kind is ast.comprehension and node.is_async and type(node.iter) is _Call:
            found.append((node.iter, kept))
        if kind is _Try or kind is _TryStar:
            keeps = kept or any(_takes_every_error(h) and not any(type(s) is _Raise for s in h.body) for h in node.handlers)
            todo.extend((child, keeps) for child in node.body)
            todo.extend((child, kept) for block in ([h for h in node.handlers], node.orelse, node.finalbody) for child in block)
            continue
        if (kind is _With or kind is _AsyncWith) and any(_suppresses_every_error(item.context_expr) for item in node.items):
            todo.extend((child, True) for child in node.body)
            todo.extend((item, kept) for item in node.items)
            continue
        todo.extend((child, kept) for child in ast.iter_child_nodes(node))
    found.sort(key=lambda pair: (pair[0].lineno, pair[0].col_offset))
    return found


def _suppresses_every_error(node: ast.expr) -> bool:
    """``suppress(Exception)`` / ``contextlib.suppress(BaseException, ...)``."""
    if type(node) is not _Call or (dotted_name(node.func) or "").rsplit(".", 1)[-1] != "suppress":
        return False
    return any(dotted_name(a) in knowledge.EXCEPTION or dotted_name(a) in knowledge.BASE_EXCEPTION for a in node.args)


def _is_stub(body: list) -> bool:
    """A body of constants, ``pass`` and ``raise NotImplementedError``: a declaration whose work is
    written elsewhere (an override, a protocol), not a coroutine known to do nothing that waits."""
    for statement in body:
        kind = type(statement)
        if kind is _Expr and type(statement.value) is _Constant or kind is ast.Pass:
            continue
        if kind is _Raise and dotted_name(getattr(statement.exc, "func", statement.exc)) == "NotImplementedError":
            continue
        return False
    return True


def keeps_its_errors(function: "ast.FunctionDef | ast.AsyncFunctionDef") -> bool:
    """Does no exception leave this function? Its body (constant statements aside) is one ``try``
    with a handler that takes every Exception, and no handler, ``else`` or ``finally`` of it
    raises. A future of such a function carries no exception to lose (BG605)."""
    return calls_beside_a_kept_try(function) == []


def _doing(statements: list) -> list:
    """The statements that do something: a docstring, and any other constant alone as a statement
    (``"note"``, ``...``), does nothing."""
    return [s for s in statements if not (type(s) is ast.Expr and type(s.value) is ast.Constant)]


def calls_beside_a_kept_try(function: "ast.FunctionDef | ast.AsyncFunctionDef") -> "Optional[list[ast.Call]]":
    """For a body that is one ``try`` keeping every error (as keeps_its_errors) with, before or
    after it, only statements that are one call of plain arguments (``log.debug(f"start {x}")``):
    those calls (none: the try alone). None for any other body. Whether the calls can raise is
    the model's to say (a logging call cannot: logging reports its own failures)."""
    body = _doing(function.body)
    tries = [s for s in body if type(s) is _Try]
    if len(tries) != 1:
        return None
    statement = tries[0]
    if not (any(_takes_every_error(h) for h in statement.handlers) and all(
        RAISE not in exits(block) for block in [h.body for h in statement.handlers] + [statement.orelse, statement.finalbody] if block
    )):
        return None
    calls = []
    for other in body:
        if other is statement:
            continue
        if not (type(other) is ast.Expr and type(other.value) is ast.Call and _plain_arguments(other.value)):
            return None
        calls.append(other.value)
    return calls


def _plain_arguments(call: ast.Call) -> bool:
    """Arguments that run no code of their own: names, constants, attribute reads and f-strings of them."""
    for node in ast.walk(ast.Module(body=[ast.Expr(a) for a in call.args] + [ast.Expr(k.value) for k in call.keywords], type_ignores=[])):
        if type(node) in (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Lambda, ast.Subscript, ast.BinOp):
            return False
    return True


def awaited_through(function: "ast.FunctionDef | ast.AsyncFunctionDef") -> tuple:
    """The parameters of a coroutine function whose only use is ``return await param``: a wrapper
    (``async def safe(c): try: return await c except Exception: log(...)``) that runs the
    coroutine it is given and ends with it. Run as a task, the task is that coroutine's run: what
    the coroutine does on a stop is what the task does."""
    if type(function) is not ast.AsyncFunctionDef:
        return ()
    names = {a.arg for a in function.args.posonlyargs + function.args.args + function.args.kwonlyargs}
    uses: dict[str, int] = {}
    returned: dict[str, int] = {}
    todo = list(function.body)
    while todo:
        node = todo.pop()
        kind = type(node)
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef):
            continue  # a nested scope's names are its own (a closure reading it is a use: counted below)
        if kind is ast.Name and node.id in names:
            uses[node.id] = uses.get(node.id, 0) + 1
        elif kind is ast.Return and type(node.value) is ast.Await and type(node.value.value) is ast.Name:
            returned[node.value.value.id] = returned.get(node.value.value.id, 0) + 1
        todo.extend(ast.iter_child_nodes(node))
    for node in ast.walk(function):
        if type(node) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda) and node is not function:
            for inner in ast.walk(node):
                if type(inner) is ast.Name and inner.id in names:
                    uses[inner.id] = uses.get(inner.id, 0) + 1
    return tuple(name for name in sorted(names) if returned.get(name) and uses.get(name) == returned[name])


def returns_own_cancelling(function: "ast.FunctionDef | ast.AsyncFunctionDef", resolve) -> bool:
    """Does the function return whether the running task is being cancelled, Python 3.11's test
    written once as a helper: its body (constant statements aside) is names bound to
    ``asyncio.current_task()``, then ``return <test>`` whose test, ``and``-ed with others, asks one
    of them (or ``current_task()`` itself) for ``cancelling()``, alone or compared ``> 0``
    (``task = asyncio.current_task(); return task is not None and task.cancelling() > 0``). A
    parameter that defaults to None and is bound to ``current_task()`` when left out (``if task is
    None: task = asyncio.current_task()``) counts as such a name: the test is of the running task
    when the helper is called with no arguments, which is how a caller asks (BG101 reads only
    such calls). ``resolve``: a dotted name as written -> its canonical name."""
    body = _doing(function.body)
    if not body or type(body[-1]) is not ast.Return or body[-1].value is None:
        return False
    bound = set()
    for statement in body[:-1]:
        guarded = _doing(statement.body) if type(statement) is ast.If else []
        if type(statement) is ast.If and not statement.orelse and len(guarded) == 1:
            parameter = _none_tested(statement.test)
            if parameter is None or parameter not in _parameters_defaulting_to_none(function):
                return False
            statement = guarded[0]
            if not (type(statement) is ast.Assign and [dotted_name(t) for t in statement.targets] == [parameter]):
                return False
        if not (
            type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name
            and _calls_current_task(statement.value, resolve)
        ):
            return False
        bound.add(statement.targets[0].id)
    operands = []
    pending = [body[-1].value]
    while pending:
        node = pending.pop()
        if type(node) is ast.BoolOp:
            if type(node.op) is not ast.And:
                return False
            pending += node.values
        else:
            operands.append(node)
    for node in operands:
        if type(node) is ast.NamedExpr and _calls_current_task(node.value, resolve):
            bound.add(node.target.id)
    for node in operands:
        if type(node) is ast.Compare and len(node.ops) == 1 and type(node.ops[0]) is ast.Gt:
            limit = node.comparators[0]
            if not (type(limit) is ast.Constant and limit.value == 0):
                continue
            node = node.left
        if not (type(node) is ast.Call and not node.args and type(node.func) is ast.Attribute and node.func.attr == knowledge.CANCELLING_METHOD):
            continue
        receiver = node.func.value
        if _calls_current_task(receiver, resolve) or (type(receiver) is ast.Name and receiver.id in bound):
            return True
    return False


def _none_tested(test: ast.expr) -> Optional[str]:
    """``name is None``: the name; None for any other test."""
    if (type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) is ast.Is and type(test.left) is ast.Name
            and type(test.comparators[0]) is ast.Constant and test.comparators[0].value is None):
        return test.left.id
    return None


def _parameters_defaulting_to_none(function: "ast.FunctionDef | ast.AsyncFunctionDef") -> set[str]:
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(arg, default) for arg, default in zip(args.kwonlyargs, args.kw_defaults) if default is not None]
    return {arg.arg for arg, default in pairs if type(default) is ast.Constant and default.value is None}


def _calls_current_task(node: ast.AST, resolve) -> bool:
    if type(node) is not ast.Call or node.args:
        return False
    name = dotted_name(node.func)
    return name is not None and resolve(name) in knowledge.CURRENT_TASK_CALLS


def keeps_its_cancellation(function: "ast.FunctionDef | ast.AsyncFunctionDef", resolve) -> bool:
    """Can no cancellation come out of this coroutine function: it suspends, and every suspension
    point (``await``, ``async for``, ``async with``, an async comprehension) sits in the body of a
    ``try`` whose first handler that takes asyncio's CancelledError (by name, ``BaseException`` or a
    bare ``except:``) never raises (``try: await asyncio.shield(...) except CancelledError: pass``)?
    An ``await`` of it then hands back normally when the caller's task is cancelled there, so a
    caller's ``except CancelledError`` around it never runs (BG101). An async generator, or a point
    in a handler, an ``else:`` or a ``finally:``, is not covered. ``resolve``: a dotted name as
    written -> its canonical name."""
    if type(function) is not ast.AsyncFunctionDef:
        return False
    found = False
    todo: list = [(statement, False) for statement in function.body]
    while todo:
        node, kept = todo.pop()
        kind = type(node)
        if kind in _DEFS_AND_LAMBDA:
            continue
        if kind in (ast.Yield, ast.YieldFrom):
            return False
        if kind in (ast.Await, _AsyncFor, _AsyncWith) or (kind is ast.comprehension and node.is_async):
            if not kept:
                return False
            found = True
        if kind is _Try or kind is _TryStar:
            covers = kept or _keeps_cancellation(node.handlers, resolve)
            todo.extend((statement, covers) for statement in node.body)
            todo.extend((child, kept) for part in (node.handlers, node.orelse, node.finalbody) for child in part)
            continue
        todo.extend((child, kept) for child in ast.iter_child_nodes(node))
    return found


def _keeps_cancellation(handlers: list, resolve) -> bool:
    """Is the first of ``handlers`` that takes asyncio's CancelledError one with no ``raise`` in it?"""
    for handler in handlers:
        caught = handler.type
        names = caught.elts if type(caught) is ast.Tuple else [caught] if caught is not None else []
        takes = caught is None or any(
            knowledge.CANCELLATION_EXCEPTIONS.get(resolve(dotted_name(name) or "")) == "asyncio.CancelledError"
            or dotted_name(name) in knowledge.BASE_EXCEPTION
            for name in names
        )
        if takes:
            return not any(type(node) is _Raise for statement in handler.body for node in ast.walk(statement))
    return False


def handed_tasks(function: "ast.FunctionDef | ast.AsyncFunctionDef", resolve) -> "tuple[tuple[str, ...], bool]":
    """The tasks a coroutine function makes and hands to someone else, and whether it awaits one
    of them.

    The names are those it binds only to a task it makes itself (``task = asyncio.create_task(coro)``,
    ``ensure_future``, a loop's or task group's ``create_task``) and hands over: passes to a call
    (``self.counter.track(task)``, ``tasks.add(task=task)``, its ``task.cancel`` to a signal
    handler), stores in an attribute or a container (``self.running[name] = task``) or lets a
    nested function read (a signal handler that cancels it).
    Whoever holds the task can cancel it (a watchdog that cancels handlers running too long, a
    sleep task cancelled to wake the loop), and ``await task`` then raises that task's
    CancelledError, not one meant for the running coroutine: an ``except CancelledError`` around the
    await cannot tell the two apart (BG101 leaves such a ``try`` to BG105).
    The flag (FunctionSummary.awaits_a_handed_task) says the same of a whole project coroutine its
    callers await. ((), False) for a plain function. ``resolve``: a dotted name as written -> its
    canonical name."""
    if type(function) is not ast.AsyncFunctionDef:
        return (), False
    uses = _TaskUses(function, resolve)
    if not uses.made:
        return (), False
    made = uses.made
    handed = made & uses.read
    handed |= {
        _handed_task_name(argument)
        for call in uses.calls
        for argument in [*call.args, *(keyword.value for keyword in call.keywords)]
        if _handed_task_name(argument) in made and not _is_pass_through_wait(call, resolve)
    }
    handed |= {
        store.value.id
        for store in uses.stores
        if type(store.value) is ast.Name and store.value.id in made
        and any(type(target) in (ast.Attribute, ast.Subscript) for target in store.targets)
    }

    def awaited_task(value: ast.expr) -> ast.expr:  # ``wait_for(t, 5)`` and ``shield(t)`` await ``t``
        if type(value) is ast.Call and resolve(dotted_name(value.func) or "") in knowledge.TASK_PASS_THROUGH_WAITS and value.args:
            return value.args[0]
        return value

    awaits_one = not uses.yields and any(
        type(task) is ast.Name and task.id in handed for task in map(awaited_task, uses.awaited)
    )
    return tuple(sorted(handed)), awaits_one


class _TaskUses:
    """One walk of a function's own body (handed_tasks): the names bound only to a task it makes,
    what it awaits, its calls and assignments, the names its nested functions read, whether it yields."""

    def __init__(self, function: "ast.AsyncFunctionDef", resolve) -> None:
        self.made: set[str] = set()
        self.awaited: list[ast.expr] = []
        self.calls: list[ast.Call] = []
        self.stores: list[ast.Assign] = []
        self.read: set[str] = set()
        self.yields = False
        other: set[str] = set()  # names also bound to something else
        todo = list(function.body)
        while todo:
            node = todo.pop()
            kind = type(node)
            if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef):
                # a nested scope runs when it is called, not as this function's await; what it reads
                # is handed to it (a signal handler that cancels the task)
                self.read.update(inner.id for inner in ast.walk(node) if type(inner) is ast.Name)
                continue
            if kind in (ast.Yield, ast.YieldFrom):
                self.yields = True
            elif kind is ast.Assign:
                self.stores.append(node)
                for target in node.targets:
                    if type(target) is ast.Name:
                        (self.made if len(node.targets) == 1 and _makes_a_task(node.value, resolve) else other).add(target.id)
            elif kind is ast.Await:
                self.awaited.append(node.value)
            elif kind is ast.Call:
                self.calls.append(node)
            todo.extend(ast.iter_child_nodes(node))
        self.made -= other


def _handed_task_name(argument: ast.expr) -> "str | None":
    """The name an argument hands over: ``task`` itself, or its bound ``task.cancel``
    (``loop.add_signal_handler(SIGINT, task.cancel)``, ``loop.call_later(5, task.cancel)``): whoever
    is given the method can cancel the task as well as whoever is given the task."""
    if type(argument) is ast.Attribute and argument.attr == knowledge.CANCEL_METHOD:
        argument = argument.value
    return argument.id if type(argument) is ast.Name else None


def _makes_a_task(node: ast.expr, resolve) -> bool:
    """``asyncio.create_task(...)``, ``asyncio.ensure_future(...)``, or ``create_task(...)`` of an
    event loop or a task group (of any receiver: this only moves a BG101 finding to BG105)."""
    if type(node) is not ast.Call:
        return False
    func = node.func
    if type(func) is ast.Attribute and func.attr == knowledge.TASK_MAKING_METHOD:
        return True
    name = dotted_name(func)
    return name is not None and resolve(name) in knowledge.TASK_MAKING_CALLS


def _is_pass_through_wait(call: ast.Call, resolve) -> bool:
    name = dotted_name(call.func)
    return name is not None and resolve(name) in knowledge.TASK_PASS_THROUGH_WAITS
