# Not flagged: the job kills the child process (SIGKILL, which cannot be caught or ignored), then
# waits for it or reads what is left: the wait only collects the exit status (the kill-then-reap
# idiom), also when the kill is a statement of a block around the wait, or made under
# `suppress(OSError)` or in a `try:` (what it raises means the process is already gone).
# Flagged: a wait after terminate() (SIGTERM, which the child may ignore), a wait after a kill
# that only one branch makes, and one after a kill under another context manager.
import os
import signal
import subprocess
from contextlib import suppress

from celery import shared_task


@shared_task
def render(path, budget):
    proc = subprocess.Popen(["render", path], stdout=subprocess.PIPE)
    try:
        out, _ = proc.communicate(timeout=budget)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out


@shared_task
def preview(path):
    proc = subprocess.Popen(["preview", path])
    proc.kill()
    try:
        proc.wait()
    finally:
        proc.stdout = None


@shared_task
def reap(path, lock):
    proc = subprocess.Popen(["reap", path], start_new_session=True)
    with suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with suppress(OSError):
        proc.kill()
    with suppress(OSError, subprocess.SubprocessError):
        proc.wait()
    other = subprocess.Popen(["reap", path])
    try:
        other.kill()
    except ProcessLookupError:
        pass
    other.wait()
    third = subprocess.Popen(["reap", path])
    with lock:
        third.kill()
    third.wait()  # error: BG206


@shared_task
def thumbnail(path, stop):
    proc = subprocess.Popen(["thumbnail", path])
    proc.terminate()
    proc.wait()  # error: BG206
    if stop:
        proc.kill()
    proc.wait()  # error: BG206


# Not flagged: communicate() returns only once the process has ended (the timeout raises instead),
# so the wait after it only collects the exit status.
# Flagged: a wait after communicate() on another process, and a second communicate() with no
# timeout after a first one (a communicate() is judged at its own call).
@shared_task
def convert(path, options):
    proc = subprocess.Popen(["convert", path], stdout=subprocess.PIPE)
    out, err = proc.communicate(timeout=50)
    proc.wait()
    other = subprocess.Popen(["index", path])
    proc.communicate(timeout=5)
    other.wait()  # error: BG206
    proc.communicate()  # error: BG206
    return out
