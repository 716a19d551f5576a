# Flagged: monitor that also commits is flagged.
import threading

def record(db):
    while True:
        db.session.commit()

if __name__ == "__main__":  # error: BG404
    threading.Thread(target=record, args=(None,)).start()  # error: BG202
