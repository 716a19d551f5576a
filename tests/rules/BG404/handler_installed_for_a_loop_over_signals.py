# Not flagged: handler installed for a loop over signals.
import signal
import threading

def work():
    outbox.commit()

def stop(signum, frame):
    pass

def install():
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, stop)

if __name__ == "__main__":
    install()
    threading.Thread(target=work).start()
