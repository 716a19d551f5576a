# Flagged: suppress keyboard interrupt in loop.
from contextlib import suppress

def serve(poll):
    while True:
        with suppress(KeyboardInterrupt):  # error: BG105
            poll()
