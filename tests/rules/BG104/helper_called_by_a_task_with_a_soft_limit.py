# Flagged: a function the task calls catches every exception, the soft time limit included, around
# its slow call; its `except Exception` is its own error handling and stays silent.
from celery import shared_task


def fetch_statement(account_id):
    try:
        return download(account_id)
    except:  # error: BG106
        return None


def parse_statement(raw):
    try:
        return parse(raw)
    except Exception:
        return None


@shared_task(soft_time_limit=300)
def import_statement(account_id):
    parse_statement(fetch_statement(account_id))
