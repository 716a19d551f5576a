# Not flagged: not daemon true.
import threading
import time

def ship_metrics():
    while True:
        time.sleep(10)

def main():
    threading.Thread(target=ship_metrics, daemon=True).start()
