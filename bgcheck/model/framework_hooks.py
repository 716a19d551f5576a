"""Project functions a framework calls inside a transaction it opens (BG604).

* Django's model-signal receivers: ``m2m_changed`` receivers always run inside the
  ``transaction.atomic()`` Django opens to change the relation (knowledge.DJANGO_MODEL_SIGNALS);
  ``pre_save``/``post_save`` receivers run in the transaction of whoever saves, so they count for a
  model the project saves inside one: registered with the Django admin (its views save inside
  ``transaction.atomic()``), named by a view class derived from a platform's generic edit views
  (knowledge.PLATFORM_EDIT_VIEWS), or, under ATOMIC_REQUESTS, by a Django or DRF editing view.
  Delete receivers run inside Model.delete()'s transaction too but are left out (what they send
  names rows that are going away); ``receivers_left_out`` says why, for --verbose.
* the ``save()`` of a form such a view or a ModelAdmin saves through (``model_form = TaskCSVForm``).

A receiver is connected with ``@receiver(signal, sender=Model)`` or ``signal.connect(f, sender=Model)``;
the sender may be the class, a string (``"shop.Order"``) or ``apps.get_model(...)``.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple, Optional

from bgcheck import knowledge
from bgcheck.model.project import ProjectIndex
from bgcheck.model.views import class_opts_out
from bgcheck.syntax.ir import as_call, callee_name, ref_name, seq_items, string_literal


def _models_of(index: ProjectIndex, ir) -> list[str]:
    """The project classes an IR names: a class, a list or tuple of them, a string ``"app.Model"``,
    ``get_model("app", "Model")``; a ``queryset`` attribute's ``Model.objects.filter(...)``."""
    items = seq_items(ir)
    if items is not None:
        return [model for item in items for model in _models_of(index, item)]
    name = ref_name(ir) or callee_name(ir)
    call = as_call(ir)
    if call is not None and (call.target or "").rsplit(".", 1)[-1] == knowledge.DJANGO_GET_MODEL:
        texts = [string_literal(a) for a in call.args if string_literal(a)]
        return _named(index, texts[-1]) if texts else []
    if string_literal(ir):
        return _named(index, string_literal(ir))
    if not name:
        return []
    canonical = index.canonical(name) or name
    while canonical and canonical not in index.classes:
        head, dot, _tail = canonical.rpartition(".")
        canonical = head if dot else ""
    return [canonical] if canonical else []


def _named(index: ProjectIndex, text: str) -> list[str]:
    """The project class a model label names (``"shop.Order"`` or ``"Order"``), when one class of the
    project has that name (in a package named as the label's app, when it gives one: ``"auth.User"``
    is not a project's own ``accounts.models.User``)."""
    app, _dot, name = text.rpartition(".")
    found = [q for q in index.classes if q.rsplit(".", 1)[-1] == name and (not app or f".{app}." in f".{q}")]
    return found if len(found) == 1 else []


def _admin_site(index: ProjectIndex, target: str) -> bool:
    """Is ``target`` (a call's) the ``register`` of the admin or of a project AdminSite instance?"""
    canonical = index.canonical(target) or target
    if canonical in knowledge.DJANGO_ADMIN_REGISTER:
        return True
    head, dot, method = canonical.rpartition(".")
    if not dot or method != "register":
        return False
    site = index.canonical(head) or head
    if not site.endswith("()"):
        return False
    cls = site[:-2]
    return cls in knowledge.DJANGO_ADMIN_SITES or (cls in index.classes and bool(index.class_bases(cls) & knowledge.DJANGO_ADMIN_SITES))


def _admin_registered(index: ProjectIndex, views: list[EditView]) -> Iterator[tuple[str, str]]:
    """(model, how) for each model a Django admin site edits: registered, or an inline of a ModelAdmin
    (``views``: _edit_views)."""
    for summary in index.modules.values():
        for ir, _scope in summary.recorded_calls:
            call = as_call(ir)
            if call is not None and call.target and _admin_site(index, call.target):
                for item in (call.first_arg, *call.args[1:]) if call.args else ():
                    for model in _models_of(index, item):
                        yield model, f"the Django admin, registered in `{summary.module}`, saves it inside transaction.atomic()"
    for view in views:
        if not view.admin:
            continue
        for inline in _models_of(index, _attr(index, view.qualname, "inlines")):
            inline_cls = index.classes.get(inline, (None, None))[1]
            for model in _models_of(index, inline_cls.attrs.get("model")) if inline_cls else ():
                yield model, f"the Django admin saves it inside transaction.atomic(), as an inline of `{view.qualname.rsplit('.', 1)[-1]}`"


def _platform(index: ProjectIndex, qualname: str) -> Optional[str]:
    """The platform (NetBox, Nautobot) whose generic edit view a project class derives from, or None."""
    for base in sorted(index.class_bases(qualname)):
        found = knowledge.PLATFORM_EDIT_VIEWS.fullmatch(base or "")
        if found:
            return next(knowledge.PLATFORM_NAMES[k] for k, v in found.groupdict().items() if v)
    return None


class EditView(NamedTuple):
    """A project class through which a framework saves models inside a transaction it opens."""

    qualname: str
    subject: str  # who saves through it, as the subject of "save(s) ...": "the Django admin's views"
    model_attrs: tuple  # the class attributes naming what it saves (``queryset``, ``model``)
    form_attrs: tuple  # ... and the form it saves through (``form``, ``model_form``, ``form_class``)
    where: str  # in which transaction: "inside transaction.atomic()"
    admin: bool  # a ModelAdmin (its ``inlines`` are saved too)


def _edit_views(index: ProjectIndex) -> Iterator[EditView]:
    """Each project ModelAdmin, platform edit view and, under ATOMIC_REQUESTS, Django or DRF editing view."""
    for qualname, (_summary, cls) in index.classes.items():
        bases = index.class_bases(qualname)
        if bases & knowledge.DJANGO_MODEL_ADMINS:
            yield EditView(qualname, "the Django admin's views", (), ("form",), "inside transaction.atomic()", True)
            continue
        platform = _platform(index, qualname)
        if platform:
            yield EditView(qualname, f"{platform}'s edit view `{cls.name}`", knowledge.EDIT_VIEW_MODEL_ATTRS,
                           knowledge.EDIT_VIEW_FORM_ATTRS, "inside transaction.atomic()", False)
        elif index.atomic_requests and any(knowledge.ATOMIC_REQUESTS_EDIT_VIEWS.fullmatch(b or "") for b in bases) and not class_opts_out(index, qualname):
            yield EditView(qualname, f"the view `{cls.name}`", knowledge.EDIT_VIEW_MODEL_ATTRS, ("form_class",),
                           "inside the transaction ATOMIC_REQUESTS opens for every view", False)


def _verb(subject: str, verb: str) -> str:
    return f"{subject} {verb if subject.endswith('views') else verb + 's'}"


def _attr(index: ProjectIndex, qualname: str, name: str):
    """A class attribute, the nearest in the class's project ancestry."""
    for ancestor in index.mro(qualname):
        value = index.classes[ancestor][1].attrs.get(name)
        if value is not None:
            return value
    return None


def saved_in_a_transaction(index: ProjectIndex, views: list[EditView]) -> dict[str, str]:
    """Project models something saves inside a transaction it opens: model qualname -> how
    (``views``: _edit_views)."""
    saved: dict[str, str] = {}
    for model, how in _admin_registered(index, views):
        saved.setdefault(model, how)
    for view in views:
        for name in view.model_attrs:
            for model in _models_of(index, _attr(index, view.qualname, name)):
                saved.setdefault(model, f"{_verb(view.subject, 'save')} it {view.where}")
    return saved


def _connections(index: ProjectIndex) -> Iterator[tuple[str, str, Optional[object]]]:
    """(receiver qualname, canonical signal, sender IR or None) for each model-signal receiver."""
    for qualname, (_summary, func) in index.functions.items():
        for decorator in func.decorators:
            call = as_call(decorator)
            if call is None or index.canonical(call.target) not in knowledge.DJANGO_RECEIVER_DECORATORS or not call.args:
                continue
            signals = seq_items(call.first_arg) or (call.first_arg,)
            for signal in signals:
                yield qualname, index.canonical(ref_name(signal)) or "", call.keyword("sender")
    for summary in index.modules.values():
        for ir, _scope in summary.recorded_calls:
            call = as_call(ir)
            head, dot, method = (call.target or "").rpartition(".") if call is not None else ("", "", "")
            if not dot or method != "connect":
                continue
            receiver = call.keyword("receiver") or call.first_arg
            function = index.resolve_function(ref_name(receiver)) if ref_name(receiver) else None
            if function:
                yield function, index.canonical(head) or head, call.keyword("sender") or call.arg(1)


def framework_hooks(index: ProjectIndex) -> tuple[dict[str, str], dict[str, str]]:
    """Project functions a framework runs inside a transaction it opens: qualname -> how (for
    messages); and the model-signal receivers left out: qualname -> why (for --verbose)."""
    views = list(_edit_views(index))
    saved = saved_in_a_transaction(index, views)
    hooks: dict[str, str] = {}
    left_out: dict[str, str] = {}
    for qualname, signal, sender in sorted(_connections(index), key=repr):
        short = signal.rsplit(".", 1)[-1]
        receiver = f"{'an' if short.startswith('m2m') else 'a'} `{short}` receiver"
        if signal in knowledge.DJANGO_DELETE_SIGNALS:
            left_out.setdefault(qualname, f"{receiver} runs inside the transaction of Model.delete(), but what it sends "
                                          "names rows that are going away: delete receivers are not counted")
            continue
        if signal not in knowledge.DJANGO_MODEL_SIGNALS:
            continue
        opener = knowledge.DJANGO_MODEL_SIGNALS[signal]
        if opener is not None:
            hooks.setdefault(qualname, f"{receiver}, which Django runs inside the transaction.atomic() of {opener}")
            continue
        models = _models_of(index, sender) if sender is not None else []
        for model in models:
            if model in saved:
                name = model.rsplit(".", 1)[-1]
                hooks.setdefault(qualname, f"{receiver} of `{name}`, which runs inside the transaction that saves `{name}` "
                                           f"({saved[model]})")
        if qualname not in hooks:
            of = f"`{models[0].rsplit('.', 1)[-1]}`" if models else "its sender"
            left_out.setdefault(qualname, f"{receiver} runs in the transaction of whatever saves {of}, and bgcheck sees none "
                                          "that does (an admin registration, a platform's edit view, an editing view under "
                                          "ATOMIC_REQUESTS)")
    for view in views:
        for name in view.form_attrs:
            for form in _models_of(index, _attr(index, view.qualname, name)):
                save = next((f"{a}.save" for a in index.mro(form) if index.function(f"{a}.save") is not None), None)
                if save is not None:
                    hooks.setdefault(save, f"the `save()` of the form `{form.rsplit('.', 1)[-1]}`, which "
                                           f"{_verb(view.subject, 'call')} {view.where}")
    return hooks, {q: why for q, why in left_out.items() if q not in hooks}
