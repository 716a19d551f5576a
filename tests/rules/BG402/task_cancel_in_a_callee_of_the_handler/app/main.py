import signal
from app.tasks import cancel_all

def handler(signum, frame):
    cancel_all()

signal.signal(signal.SIGTERM, handler)
