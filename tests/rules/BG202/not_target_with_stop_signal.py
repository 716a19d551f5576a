# Not flagged: not target with stop signal.
import threading
import time

stop = threading.Event()

def ship_metrics():
    while not stop.is_set():
        time.sleep(10)

def ship_logs():
    while True:
        if stop.is_set():
            return
        time.sleep(10)

def main():
    threading.Thread(target=ship_metrics).start()
    threading.Thread(target=ship_logs).start()
