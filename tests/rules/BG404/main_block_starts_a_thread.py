# Flagged: main block starts a thread.
import threading

def work():
    outbox.commit()

if __name__ == "__main__":  # error: BG404
    threading.Thread(target=work).start()
