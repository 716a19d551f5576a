import dramatiq

from proj import helpers

@dramatiq.actor
def refresh():
    helpers.fetch_all()
