"""Which project functions Django runs as views (BG604: under ``ATOMIC_REQUESTS`` each runs in a
transaction).

A view is:

* a handler method (``knowledge.VIEW_HANDLER_METHODS``) or a DRF ``@action`` of a class derived from
  Django's ``View``, a generic view, DRF's ``APIView``, a generic API view or a viewset
  (``knowledge.VIEW_CLASS_BASES``, through the project's own base classes);
* a function decorated with DRF's ``@api_view`` or a django-ninja operation (``@router.post(...)``
  on a ``Router()``, ``@api.get(...)`` on a ``NinjaAPI()``);
* whatever a URL route names (``path("x/", views.fn)``, ``path("x/", OrderView.as_view())``);
* a function with a ``request`` parameter in a ``views`` module.

``@transaction.non_atomic_requests`` on the function, on its class (``method_decorator``) or around
the routed view opts it out. Django refuses ``ATOMIC_REQUESTS`` for ``async def`` views, so a
coroutine is never one.
"""

from __future__ import annotations

from typing import Iterator, Optional

from bgcheck import knowledge
from bgcheck.model.project import ProjectIndex, recorded_calls_to
from bgcheck.syntax.ir import as_call, callee_name, ref_name, sub_nodes


def _refs(ir) -> Iterator[str]:
    """Every name an IR mentions: ``method_decorator(transaction.non_atomic_requests, name=...)``."""
    stack = [ir]
    while stack:
        node = stack.pop()
        if not isinstance(node, tuple) or not node:
            continue
        if ref_name(node) is not None:
            yield ref_name(node)
        elif as_call(node) is not None:
            yield as_call(node).target or ""
        stack.extend(sub_nodes(node))


def _opts_out(index: ProjectIndex, decorators) -> bool:
    return any(index.canonical(name) in knowledge.NON_ATOMIC_REQUESTS for ir in decorators for name in _refs(ir))


def _decorated_by(index: ProjectIndex, func, names) -> bool:
    return any(index.canonical(callee_name(d)) in names for d in func.decorators)


def _is_views_module(module: str) -> bool:
    return module.endswith("views") or ".views." in module + "."


def _view_class(index: ProjectIndex, qualname: str) -> Optional[str]:
    """How a project class is a view class (its library base), or None."""
    for base in sorted(index.class_bases(qualname)):
        if base and knowledge.VIEW_CLASS_BASES.fullmatch(base):
            return base
    return None


def class_opts_out(index: ProjectIndex, qualname: str) -> bool:
    """``@method_decorator(transaction.non_atomic_requests, ...)`` on a view class or a project base of it."""
    return any(_opts_out(index, index.classes[name][1].decorators) for name in index.mro(qualname))


def _routed(index: ProjectIndex) -> tuple[dict[str, str], set[str]]:
    """What URL routes name: function or class qualname -> "routed in urls.py", and the ones a route
    wraps in ``non_atomic_requests(...)``. The view may be wrapped in decorators called as functions
    (``login_required(views.fn)``): the first argument is followed through two of them."""
    routed: dict[str, str] = {}
    opted_out: set[str] = set()
    for _summary, call, _scope in recorded_calls_to(index, knowledge.URL_ROUTES):
        view = call.keyword("view") or call.arg(1)
        wrapped = False
        for _ in range(3):
            wrapper = as_call(view)
            if wrapper is None or not wrapper.target:
                break
            name = index.canonical(wrapper.target) or ""
            if name in knowledge.NON_ATOMIC_REQUESTS:
                wrapped = True
            if name.endswith("." + knowledge.AS_VIEW):
                view = ("ref", name[: -len(knowledge.AS_VIEW) - 1])
                break
            view = wrapper.first_arg
        if ref_name(view) is None:
            continue
        target = index.canonical(ref_name(view))
        found = target if target in index.classes else index.resolve_function(target)
        if found is None:
            continue
        if wrapped:
            opted_out.add(found)
        else:
            routed.setdefault(found, "routed in urls.py")
    return routed, opted_out


def django_views(index: ProjectIndex) -> dict[str, str]:
    """Project functions Django runs as views: qualname -> how bgcheck knows (for messages)."""
    routed, opted_out = _routed(index)
    views: dict[str, str] = {}
    for qualname, (summary, func) in index.functions.items():
        if func.is_async or "<locals>" in qualname or _opts_out(index, func.decorators) or qualname in opted_out:
            continue
        how = None
        owner = func.class_qualname
        if owner is not None:
            if owner in opted_out or class_opts_out(index, owner):
                continue
            handler = func.name in knowledge.VIEW_HANDLER_METHODS or _decorated_by(index, func, knowledge.VIEW_METHOD_DECORATORS)
            base = _view_class(index, owner)
            if handler and base:
                how = f"a method of a `{base.rsplit('.', 1)[-1]}` subclass"
            elif handler and owner in routed:
                how = "a method of a view class routed in urls.py"
        elif _decorated_by(index, func, knowledge.VIEW_FUNCTION_DECORATORS):
            how = "a function decorated with `@api_view`"
        elif any(as_call(d) is not None and knowledge.NINJA_OPERATIONS.fullmatch(index.canonical(as_call(d).target) or "") for d in func.decorators):
            how = "a django-ninja operation"
        elif qualname in routed:
            how = "routed in urls.py"
        if how is None and "request" in func.params and _is_views_module(summary.module):
            how = "a function taking `request` in a views module"
        if how is not None:
            views[qualname] = how
    return views
