import dramatiq

from proj.helpers import fetch_all

@dramatiq.actor
def refresh():
    fetch_all()
