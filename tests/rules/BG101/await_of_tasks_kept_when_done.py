# Not BG101: the loop awaits only tasks a comprehension kept because they are done
# (`task.done()`): awaiting one hands back its outcome without suspending, so the CancelledError
# caught is that finished task's own, not the running task's. The wait that can be cancelled is
# outside the try. BG105: a comprehension that keeps the tasks that are not done (tasks the object
# holds, which others may cancel: the CancelledError may be theirs).
import asyncio


class Manager:
    def __init__(self):
        self.tasks = set()

    async def reap_done(self):
        while self.tasks:
            finished = tuple(task for task in self.tasks if task.done())
            for task in finished:
                try:
                    await task
                except asyncio.CancelledError:
                    pass
                finally:
                    self.tasks.discard(task)
            await asyncio.wait(self.tasks, timeout=1)

    async def reap_pending(self):
        while self.tasks:
            waiting = [task for task in self.tasks if not task.done()]
            for task in waiting:
                try:
                    await task
                except asyncio.CancelledError:  # error: BG105
                    pass
                finally:
                    self.tasks.discard(task)
