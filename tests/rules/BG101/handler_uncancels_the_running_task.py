# Not flagged: a REPL loop that turns Ctrl-C into a cancel of the current turn and consumes that
# cancel on purpose with `uncancel()` on the running task (asyncio's way for code that suppresses a
# cancellation to say so), then goes back to the prompt.
# Flagged: the same loop with `uncancel()` on another task, which says nothing of this one.
import asyncio


async def interactive(app):
    while True:
        try:
            await app.prompt()
            return
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None:
                while task.uncancel() > 0:
                    pass
            await asyncio.sleep(0)


async def interactive_inline(app):
    while True:
        try:
            await app.prompt()
        except asyncio.CancelledError:
            asyncio.current_task().uncancel()


async def interactive_other(app, worker: asyncio.Task):
    while True:
        try:
            await app.prompt()
        except asyncio.CancelledError:  # error: BG101
            worker.uncancel()
