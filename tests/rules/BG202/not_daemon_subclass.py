# Not flagged: not daemon subclass.
import threading
import time

class ClassAttribute(threading.Thread):
    daemon = True

    def run(self):
        while True:
            time.sleep(1)

class InInit(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)

    def run(self):
        while True:
            time.sleep(1)
