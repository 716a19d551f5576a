import threading

WORKER = threading.Thread(target=print)

def stop_workers():
    WORKER.join(timeout=25)
