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
from bgcheck.syntax.ir import IR, UNKNOWN, as_call, kwarg
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
    """Every Celery setting the project sets: on the app first, then from the configuration
    objects it loads (the first value met for a setting is kept)."""
    settings: dict[str, Setting] = {}
    sources: list[tuple[str, Optional[str]]] = []  # (config module or "django", namespace)
    for summary in index.modules.values():
        for key, value, where in _set_on_the_app(index, summary):
            _set(index, settings, key, value, where)
        for call, _scope in summary.recorded_calls:
            if _app_member(index, call[1]) == "config_from_object" and call[2]:
                source = _config_source(as_call(call).first_arg)
                namespace = index.fold(kwarg(call, "namespace"))
                if source:
                    sources.append((source, namespace if isinstance(namespace, str) else None))
    for source, namespace in sources:
        for key, value, where in _set_by_object(index, source, namespace):
            _set(index, settings, key, value, where)
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


def _set(index: ProjectIndex, settings: dict[str, Setting], key: str, value_ir: IR, where: str) -> None:
    setting = _setting_for(key)
    if setting is None or setting in settings:
        return
    settings[setting] = Setting(index.fold(value_ir), where, value_ir)


def _set_on_the_app(index: ProjectIndex, summary: ModuleSummary) -> Iterator[tuple[str, IR, str]]:
    """(key, value, where) of each setting a module sets on a Celery app: ``app.conf.x = ...``,
    then ``app.conf.update(x=...)`` and ``app.conf.update({"x": ...})``."""
    for path, value, _scope in summary.attr_assignments:
        member = _app_member(index, path)
        if member and member.startswith("conf.") and member.count(".") == 1:
            yield member[5:], value, f"{summary.path}: app.conf.{member[5:]}"
    for call, _scope in summary.recorded_calls:
        if _app_member(index, call[1]) != "conf.update":
            continue
        for key, value in call[3]:
            if key not in ("*", "**"):
                yield key, value, f"{summary.path}: app.conf.update({key}=...)"
        for arg in call[2]:
            if arg[0] == "dict":
                for key_ir, value in arg[1]:
                    if key_ir is not None and key_ir[0] == "v" and isinstance(key_ir[1], str):
                        yield key_ir[1], value, f"{summary.path}: app.conf.update({{{key_ir[1]!r}: ...}})"


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
    if arg[0] == "v" and isinstance(arg[1], str):
        return arg[1]
    if arg[0] == "ref":
        return arg[1]  # a module object passed directly
    return None


_ALIASES = {alias: setting for setting, aliases in knowledge.CELERY_SETTINGS.items() for alias in aliases}


def _setting_for(key: str) -> Optional[str]:
    return _ALIASES.get(key) or (key if key in knowledge.CELERY_SETTINGS else None)


def truthy(setting: Optional[Setting]) -> bool:
    return setting is not None and setting.value is not UNKNOWN and bool(setting.value)
