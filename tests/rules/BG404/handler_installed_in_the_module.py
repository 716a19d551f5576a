# Not flagged: handler installed in the module.
import signal
import threading

def work():
    outbox.commit()

def stop(signum, frame):
    pass

signal.signal(signal.SIGTERM, stop)

if __name__ == "__main__":
    threading.Thread(target=work).start()
