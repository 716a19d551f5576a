# Flagged: sigint handler is not enough.
import signal
import threading

def work():
    outbox.commit()

def stop(signum, frame):
    pass

if __name__ == "__main__":  # error: BG404
    signal.signal(signal.SIGINT, stop)
    threading.Thread(target=work).start()
