# Flagged: positional target and method target.
import threading
import time

def ship_metrics():
    while True:
        time.sleep(10)

class Pump:
    def loop(self):
        while True:
            time.sleep(1)

    def start(self):
        threading.Thread(target=self.loop).start()  # error: BG202

def main():
    threading.Thread(None, ship_metrics).start()  # error: BG202
