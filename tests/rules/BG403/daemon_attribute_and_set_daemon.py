# Flagged: daemon attribute and set daemon.
import threading

def relay(session):
    session.commit()

def start(session):
    t = threading.Thread(target=relay, args=(session,))  # error: BG403
    t.daemon = True
    t.start()
    u = threading.Thread(target=relay, args=(session,))  # error: BG403
    u.setDaemon(True)
    u.start()
