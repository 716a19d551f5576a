# Flagged: base exception in a Dramatiq actor with options.
import dramatiq


@dramatiq.actor(max_retries=3, queue_name="sync")
def sync(account_id):
    try:
        work(account_id)
    except BaseException:  # error: BG102
        log("failed")
