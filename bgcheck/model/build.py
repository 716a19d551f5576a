"""The project index and the project-wide models every rule consults, built once per run
from every file's summary."""

from __future__ import annotations

from typing import Iterable, Mapping, Optional, Sequence

from bgcheck.load.config import Config
from bgcheck.load.summary import ModuleSummary
from bgcheck.load.unit import FileUnit, failed
from bgcheck.model import transactions
from bgcheck.model.celery_config import CeleryConfig, build_celery_config
from bgcheck.model.execution import ExecutionModel, build_execution_model
from bgcheck.model.jobs import Job, find_jobs, frameworks_without_jobs, job_roots
from bgcheck.model.locks import LockSite, find_locks
from bgcheck.model.money import MoneyModel, build_money_model
from bgcheck.model.project import ProjectIndex
from bgcheck.model.runtimes import Runtime
from bgcheck.model.shutdown import ShutdownModel, build_shutdown_model
from bgcheck.model.transactions import TransactionModel
from bgcheck.model.views import django_views
from bgcheck.model.framework_hooks import framework_hooks


class Project(ProjectIndex):
    """The index with the project-wide models every rule consults, each set once by build_index."""

    celery_config: CeleryConfig
    jobs: tuple[Job, ...]  # every job the project declares
    job_roots: Mapping[str, tuple[Job, ...]]  # job function qualname -> its jobs
    frameworks_without_jobs: tuple[tuple[str, str], ...]  # (framework, module) imported, no job of it found
    execution: ExecutionModel  # which thread a function runs on
    shutdown: ShutdownModel  # shutdown hooks, shutdown code, entry points
    runtimes: Mapping[str, Runtime]  # job or lock key -> measured runtime
    locks: tuple[LockSite, ...]  # every distributed lock the project takes
    money: MoneyModel  # call chains from project functions to money-moving calls
    on_commit_callbacks: frozenset[str]  # functions run by transaction.on_commit
    transaction_helpers: frozenset[str]  # context managers that open a transaction
    transaction_decorators: frozenset[str]  # decorators whose wrapper opens one
    atomic_requests: bool  # Django ATOMIC_REQUESTS: every view runs in a transaction
    views: Mapping[str, str]  # under ATOMIC_REQUESTS: Django view qualname -> how it was recognised
    hooks_in_transaction: Mapping[str, str]  # functions a framework runs inside its transaction -> how
    receivers_left_out: Mapping[str, str]  # model-signal receivers not counted as in one -> why (--verbose)
    transactions: TransactionModel  # functions run inside transactions, publishes through calls
    MODELS = tuple(__annotations__)


def build_index(
    summaries: Iterable[ModuleSummary], config: Config, console_scripts: Optional[dict] = None, runtimes: Optional[dict] = None
) -> Project:
    """The index plus the project-wide models every rule consults, built once per run, in one
    step: each model is built in the order they depend on each other (the jobs read the Celery
    configuration; the thread context, locks and money chains read the jobs), set once, and the
    index is returned sealed (``config``: the run's Config, for the job decorators and money
    settings; ``console_scripts``: pyproject's [project.scripts]; ``runtimes``: measured runtimes)."""
    index = Project(summaries)
    index.set_model("celery_config", build_celery_config(index))
    jobs = tuple(find_jobs(index, tuple(config.job_decorators)))
    index.set_model("jobs", jobs)
    index.set_model("job_roots", job_roots(jobs))
    index.set_model("frameworks_without_jobs", frameworks_without_jobs(index, jobs))
    index.set_model("execution", build_execution_model(index))
    index.set_model("shutdown", build_shutdown_model(index, dict(console_scripts or {})))
    index.set_model("runtimes", dict(runtimes or {}))
    index.set_model("locks", tuple(find_locks(index)))
    index.set_model("money", build_money_model(index, config))
    index.set_model("on_commit_callbacks", frozenset(transactions.on_commit_callbacks(index)))
    index.set_model("transaction_helpers", frozenset(transactions.transaction_helpers(index)))
    index.set_model("transaction_decorators", frozenset(transactions.transaction_decorators(index)))
    index.set_model("atomic_requests", transactions.atomic_requests(index))
    index.set_model("views", django_views(index) if index.atomic_requests else {})
    hooks, left_out = framework_hooks(index)
    index.set_model("hooks_in_transaction", hooks)
    index.set_model("receivers_left_out", left_out)
    index.set_model("transactions", transactions.build_transaction_model(index))
    return index.seal()


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
