"""The Celery configuration a project sets, wherever it lives.

Celery settings can be set on the app (``app.conf.x = ...``,
``app.conf.update(x=...)``), loaded from a module
(``app.config_from_object("proj.celeryconfig")``), or read from Django
settings under a namespace (``config_from_object("django.conf:settings",
namespace="CELERY")`` reads ``CELERY_TASK_ACKS_LATE``). This module finds
all of them once per run and answers "what does setting X hold, and where
was it set?".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Mapping, Optional

from bgcheck import knowledge
from bgcheck.syntax.ir import IR, UNKNOWN, as_call, dict_entries, ref_name, string_literal
from bgcheck.load.summary import ModuleSummary
from bgcheck.model.project import ProjectIndex

_APP_INSTANCES = tuple(f"{cls}()" for cls in knowledge.CELERY_APP_CLASSES)


@dataclass(frozen=True)
class Setting:
    value: object  # folded value, or UNKNOWN
    where: str  # "proj/celery.py: app.conf.update(task_acks_late=...)"
    ir: tuple = ()  # the unfolded expression (beat_schedule entries hold crontab() calls)


@dataclass(frozen=True)
class CeleryConfig:
    """Built once by build_celery_config; nothing changes it afterwards."""

    settings: Mapping[str, Setting] = field(default_factory=dict)  # setting name -> where it is set

    def get(self, setting: str) -> Optional[Setting]:
        return self.settings.get(setting)


def build_celery_config(index: ProjectIndex) -> CeleryConfig:
    """Every Celery setting the project sets. Settings made on the app (``app.conf.x = ...``,
    ``app.conf.update(...)``) apply in program order, the later wins; Celery applies them over
    the configuration object it loads (``config_from_object``), whatever their order, so that
    object gives only the settings the app does not make. Which of two modules runs last is
    not known: the first (and, between objects, the first loaded) keeps a setting."""
    settings: dict[str, Setting] = {}
    sources: list[tuple[str, Optional[str]]] = []  # (config module or "django", namespace)
    for summary in index.modules.values():
        in_module: dict[str, Setting] = {}
        for key, value, where in _set_on_the_app(index, summary):
            setting = _setting_for(key)
            if setting is not None:
                in_module[setting] = Setting(index.fold(value), where, value)
        for setting, value in in_module.items():
            settings.setdefault(setting, value)
        for call in (as_call(ir) for ir, _scope in summary.recorded_calls):
            if call is not None and _app_member(index, call.target) == "config_from_object" and call.args:
                source = _config_source(call.first_arg)
                namespace = index.fold(call.keyword("namespace"))
                if source:
                    sources.append((source, namespace if isinstance(namespace, str) else None))
    for source, namespace in sources:
        for key, value, where in _set_by_object(index, source, namespace):
            setting = _setting_for(key)
            if setting is not None and setting not in settings:
                settings[setting] = Setting(index.fold(value), where, value)
    return CeleryConfig(settings)


def _app_member(index: ProjectIndex, path: Optional[str]) -> Optional[str]:
    """``celery.Celery().conf.update`` -> "conf.update"; None if not on a Celery app."""
    name = index.canonical(path)
    if not name:
        return None
    for app in _APP_INSTANCES:
        if name.startswith(app + "."):
            return name[len(app) + 1 :]
    return None


def _set_on_the_app(index: ProjectIndex, summary: ModuleSummary) -> Iterator[tuple[str, IR, str]]:
    """(key, value, where) of each setting a module makes on a Celery app, in program order:
    ``app.conf.x = ...``, ``app.conf.update({"x": ...}, x=...)`` (the keywords after the dict)."""
    assignments: dict[int, list[tuple[str, IR]]] = {}  # how many recorded calls come before -> settings
    for path, value, _scope, calls_before in summary.attr_assignments:
        member = _app_member(index, path)
        if member and member.startswith("conf.") and member.count(".") == 1:
            assignments.setdefault(calls_before, []).append((member[5:], value))
    calls = summary.recorded_calls
    for place in range(len(calls) + 1):
        for key, value in assignments.get(place, ()):
            yield key, value, f"{summary.path}: app.conf.{key}"
        call = as_call(calls[place][0]) if place < len(calls) else None
        if call is None or _app_member(index, call.target) != "conf.update":
            continue
        for arg in call.args:
            for key_ir, value in dict_entries(arg) or ():
                key = string_literal(key_ir)
                if key is not None:
                    yield key, value, f"{summary.path}: app.conf.update({{{key!r}: ...}})"
        for key, value in call.kwargs:
            if key not in ("*", "**"):
                yield key, value, f"{summary.path}: app.conf.update({key}=...)"


def _set_by_object(index: ProjectIndex, source: str, namespace: Optional[str]) -> Iterator[tuple[str, IR, str]]:
    """(key, value, where) of each setting a configuration object holds (``config_from_object(source)``)."""
    if source == "django.conf:settings" or source == "django.conf.settings":
        modules = list(index.modules.values())  # whichever module is the settings module
    else:
        module = index.modules.get(source.split(":")[0])
        modules = [module] if module else []
    prefix = f"{namespace}_" if namespace else ""
    for summary in modules:
        for name, value in summary.constants.items():
            if prefix:
                if name.startswith(prefix):
                    yield name[len(prefix) :].lower(), value, f"{summary.path}: {name}"
            elif name.isupper() or name.islower():
                yield name, value, f"{summary.path}: {name}"


def _config_source(arg: IR) -> Optional[str]:
    """The module ``config_from_object`` loads: named by a string, or a module object passed directly."""
    return string_literal(arg) or ref_name(arg)


_ALIASES = {alias: setting for setting, aliases in knowledge.CELERY_SETTINGS.items() for alias in aliases}


def _setting_for(key: str) -> Optional[str]:
    return _ALIASES.get(key) or (key if key in knowledge.CELERY_SETTINGS else None)


def truthy(setting: Optional[Setting]) -> bool:
    return setting is not None and setting.value is not UNKNOWN and bool(setting.value)
