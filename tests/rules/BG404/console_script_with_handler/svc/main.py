import signal
import threading

def work():
    outbox.commit()

def stop(signum, frame):
    pass

def main():
    signal.signal(signal.SIGTERM, stop)
    threading.Thread(target=work).start()
