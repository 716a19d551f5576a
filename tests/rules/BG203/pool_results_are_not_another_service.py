# Not flagged: `apply_async(...).get()` on a multiprocessing pool waits for this machine's own
# threads or processes, not for another service (a Celery task's result is BG203's).
# Flagged: the Celery task's result, under the same spelling.
import multiprocessing.pool

from celery import shared_task


def read_stderr(stream):
    return stream.read()


@shared_task
def render(proc):
    with multiprocessing.pool.ThreadPool(processes=1) as pool:
        stderr = pool.apply_async(read_stderr, args=(proc.stderr,)).get()
    totals = multiprocessing.Pool(2).apply_async(sum, ([1, 2],)).get()
    checked = render_check.apply_async().get()  # error: BG203
    return stderr, totals, checked


@shared_task
def render_check():
    return True
