# Not flagged: not in a thread target.
# A thread's endless loop is BG202's concern (not a scheduled job or queued task).
import threading
import time

def heartbeat():
    while True:
        time.sleep(5)

threading.Thread(target=heartbeat, daemon=True).start()
