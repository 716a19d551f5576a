# Not flagged: the job kills the child process (SIGKILL, which cannot be caught or ignored), then
# waits for it or reads what is left: the wait only collects the exit status (the kill-then-reap
# idiom), also when the kill is a statement of a block around the wait.
# Flagged: a wait after terminate() (SIGTERM, which the child may ignore), and a wait after a kill
# that only one branch makes.
import subprocess

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
