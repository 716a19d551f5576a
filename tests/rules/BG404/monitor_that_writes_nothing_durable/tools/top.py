import threading
import time

class Display(threading.Thread):  # error: BG202
    def run(self):
        while True:
            print(stats())
            time.sleep(1)

def stats():
    return {}

def capture(receiver):
    while True:
        receiver.poll()

if __name__ == "__main__":
    Display().start()
    capture(object())
