# Flagged: thread subclass.
import threading
import time

class Pump(threading.Thread):  # error: BG202
    def run(self):
        while True:
            time.sleep(1)

def main():
    Pump().start()
