# Not flagged: non daemon threads.
import threading

def relay(session):
    session.commit()

def start(session):
    threading.Thread(target=relay, args=(session,)).start()
    threading.Thread(target=relay, args=(session,), daemon=False).start()
    t = threading.Thread(target=relay, args=(session,))
    t.daemon = False
    t.start()
