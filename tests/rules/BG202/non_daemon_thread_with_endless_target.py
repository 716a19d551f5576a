# Flagged: non daemon thread with endless target.
import threading
import time

def ship_metrics():
    while True:
        time.sleep(10)

def main():
    threading.Thread(target=ship_metrics).start()  # error: BG202
