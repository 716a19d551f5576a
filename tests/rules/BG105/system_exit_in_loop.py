# Flagged: system exit in loop (the SIGTERM handler raises SystemExit, so a stop arrives as one).
import signal
import sys


def stop(signum, frame):
    sys.exit(0)


def serve(jobs):
    signal.signal(signal.SIGTERM, stop)
    for job in jobs:
        try:
            job()
        except SystemExit:  # error: BG105
            continue
