# Not flagged: background work outside entry points.
import threading

def work():
    outbox.commit()

def start():
    threading.Thread(target=work).start()
