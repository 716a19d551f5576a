import threading

WORKER = threading.Thread(target=print)

def stop_workers():
    WORKER.join()  # error: BG405
