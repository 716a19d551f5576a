import threading
from app.outbox import relay

def start(session, order):
    threading.Thread(target=relay, args=(session, order), daemon=True).start()  # error: BG403
