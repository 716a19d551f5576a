import asyncio
from asyncio import current_task


def task_is_cancelling() -> bool:
    """True while the running task is being cancelled."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def being_cancelled() -> bool:
    return current_task().cancelling()


def task_was_cancelled() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelled()


def owner_cancelled(task=None) -> bool:
    """Whether ``task`` (default: the running task) has been asked to cancel."""
    if task is None:
        task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
