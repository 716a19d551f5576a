# Not flagged: handler installed through a renamed import.
import threading
from signal import SIGTERM
from signal import signal as on_signal

def work():
    outbox.commit()

def stop(signum, frame):
    pass

if __name__ == "__main__":
    on_signal(SIGTERM, stop)
    threading.Thread(target=work).start()
