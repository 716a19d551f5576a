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
