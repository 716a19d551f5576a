# Not flagged: handler installed through from imports.
import threading
from signal import SIGTERM, signal

def work():
    outbox.commit()

def stop(signum, frame):
    pass

if __name__ == "__main__":
    signal(SIGTERM, stop)
    threading.Thread(target=work).start()
