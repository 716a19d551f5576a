"""The job model: which functions run as background work.

"Job code" in the rule catalog is a job's function and everything it
reaches through calls. This module recognises jobs from the project index
and records them on it (``index.job_roots``), once per run.

Recognised so far: Celery tasks (``@app.task``, ``@shared_task``, and
``Task`` subclasses' ``run``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from bgcheck import knowledge
from bgcheck.ir import IR
from bgcheck.project import ProjectIndex


@dataclass
class Job:
    function: str  # qualified name of the function that runs
    name: str  # the name the framework knows it by (Celery task name)
    kind: str  # "queued" | "scheduled" | "thread" | "in-process task"
    framework: str
    path: str  # file that defines it
    options: dict = field(default_factory=dict)  # option name -> IR (decorator kwargs, class attributes)


def find_jobs(index: ProjectIndex) -> list[Job]:
    jobs: list[Job] = []
    for qualname, (summary, func) in sorted(index.functions.items()):
        for decorator in func.decorators:
            target, kwargs = _decorator_call(decorator)
            if index.canonical(target) in knowledge.CELERY_TASK_DECORATORS:
                options = dict(kwargs)
                name = index.fold(options.get("name"))
                jobs.append(
                    Job(
                        function=qualname,
                        name=name if isinstance(name, str) else qualname,
                        kind="queued",
                        framework="celery",
                        path=summary.path,
                        options=options,
                    )
                )
    for qualname, (summary, cls) in sorted(index.classes.items()):
        if "run" in cls.methods and index.class_bases(qualname) & knowledge.CELERY_TASK_BASES:
            options: dict[str, IR] = {}
            for ancestor in reversed(index.mro(qualname)):  # nearest class wins
                options.update(index.classes[ancestor][1].attrs)
            name = index.fold(options.get("name"))
            jobs.append(
                Job(
                    function=f"{qualname}.run",
                    name=name if isinstance(name, str) else qualname,
                    kind="queued",
                    framework="celery",
                    path=summary.path,
                    options=options,
                )
            )
    return jobs


def _decorator_call(decorator: IR) -> tuple[Optional[str], tuple]:
    """(target path, kwargs) of a decorator, called (``@app.task(bind=True)``) or not."""
    if decorator[0] == "ref":
        return decorator[1], ()
    if decorator[0] == "call":
        return decorator[1], tuple(kw for kw in decorator[3] if kw[0] not in ("*", "**"))
    return None, ()


def attach_jobs(index: ProjectIndex) -> list[Job]:
    jobs = find_jobs(index)
    index.job_roots = {}
    for job in jobs:
        index.job_roots.setdefault(job.function, []).append(job)
    index.__dict__.pop("job_code", None)  # recompute the cached reachability
    return jobs
