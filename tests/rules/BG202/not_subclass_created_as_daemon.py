# Not flagged: not subclass created as daemon.
import threading
import time

class Pump(threading.Thread):
    def run(self):
        while True:
            time.sleep(1)

def main():
    Pump(daemon=True).start()
