"""The project index and the project-wide models every rule consults, built once per run
from every file's summary."""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

from bgcheck.load.config import Config
from bgcheck.load.summary import ModuleSummary
from bgcheck.load.unit import FileUnit, failed
from bgcheck.model import transactions
from bgcheck.model.celery_config import CeleryConfig
from bgcheck.model.execution import ExecutionModel
from bgcheck.model.jobs import attach_jobs
from bgcheck.model.locks import find_locks
from bgcheck.model.money import build_money_model
from bgcheck.model.project import ProjectIndex
from bgcheck.model.shutdown import build_shutdown_model
from bgcheck.model.views import django_views


def build_index(
    summaries: Iterable[ModuleSummary], config: Config, console_scripts: Optional[dict] = None, runtimes: Optional[dict] = None
) -> ProjectIndex:
    """The index plus the project-wide models every rule consults, built once per run."""
    index = ProjectIndex(summaries)
    index.celery_config = CeleryConfig(index)
    index.jobs = attach_jobs(index, config.job_decorators)
    index.execution = ExecutionModel(index)
    index.shutdown = build_shutdown_model(index, console_scripts or {})
    index.runtimes = runtimes or {}
    index.locks = find_locks(index)
    index.money = build_money_model(index, config)
    index.on_commit_callbacks = transactions.on_commit_callbacks(index)
    index.transaction_helpers = transactions.transaction_helpers(index)
    index.transaction_decorators = transactions.transaction_decorators(index)
    index.atomic_requests = transactions.atomic_requests(index)
    index.views = django_views(index) if index.atomic_requests else {}
    index.transactions = transactions.build_transaction_model(index)
    return index


def build_index_isolated(units: Sequence[FileUnit], config: Config, scripts: Optional[dict], runtimes: Optional[dict]) -> ProjectIndex:
    """build_index over the units' summaries. Should a summary make the project-wide models fail
    (a bug in bgcheck), its file becomes a BG000 and the index is built from the others."""
    try:
        return build_index([u.summary for u in units if u.summary is not None], config, scripts, runtimes)
    except Exception:
        pass
    for unit in units:
        if unit.summary is not None:
            try:
                build_index([unit.summary], config, scripts, runtimes)
            except Exception as exc:
                failed(unit, "modelling the project with", exc)
    return build_index([u.summary for u in units if u.summary is not None], config, scripts, runtimes)
