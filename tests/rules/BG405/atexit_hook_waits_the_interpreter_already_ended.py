# Not flagged: atexit hooks run after the interpreter has joined every non-daemon thread and the
# workers of every concurrent.futures executor: these waits are over before the hook starts.
import atexit
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

EXECUTOR = ThreadPoolExecutor(max_workers=4)
PROCESSES = ProcessPoolExecutor()
WORKER = threading.Thread(target=print)


class Poller:
    def __init__(self):
        self._running = False
        self._thread = None

    def start(self):
        self._running = True
        self._thread = threading.Thread(target=self._run)
        self._thread.start()

    def _run(self):
        while self._running:
            pass

    def stop(self):
        self._running = False
        self._thread.join()


@atexit.register
def at_exit():
    EXECUTOR.shutdown()
    PROCESSES.shutdown(True)
    WORKER.join()


poller = Poller()
atexit.register(poller.stop)
