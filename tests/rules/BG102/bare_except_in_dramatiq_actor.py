# Flagged: bare except in a Dramatiq actor: Dramatiq raises TimeLimitExceeded (and, with its
# shutdown notifications, Shutdown) into the actor, and the handler swallows it.
import dramatiq


@dramatiq.actor(time_limit=60_000)
def sync():
    try:
        work()
    except:  # error: BG102
        pass
