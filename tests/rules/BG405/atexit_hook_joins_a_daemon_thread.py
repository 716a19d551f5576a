# Flagged: an atexit hook joins daemon threads: the interpreter does not wait for them, the hook does.
import atexit
import threading

FLUSHER = threading.Thread(target=print, daemon=True)


class Uploader:
    def __init__(self):
        self._thread = threading.Thread(target=self._run)
        self._thread.daemon = True
        self._stop = threading.Event()

    def _run(self):
        while not self._stop.is_set():
            self._stop.wait(5)

    def close(self):
        self._stop.set()
        self._thread.join()  # error: BG405


def flush_at_exit():
    FLUSHER.join()  # error: BG405


def start_uploads():
    uploader = Uploader()
    atexit.register(uploader.close)


atexit.register(flush_at_exit)
