# A lambda signal handler may raise SystemExit: a job loop that swallows it keeps running.
import signal
import sys


def serve(jobs):
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    for job in jobs:
        try:
            job()
        except SystemExit:  # error: BG105
            continue
