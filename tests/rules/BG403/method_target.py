# Flagged: method target.
import threading

class Relay:
    def __init__(self, session):
        self.session = session
        self.thread = threading.Thread(target=self.run, daemon=True)  # error: BG403

    def run(self):
        self.session.commit()
