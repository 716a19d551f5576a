# Not flagged: the conflict resolved, the file parses; BG000 is about files, not about code.
from celery import shared_task


@shared_task(acks_late=True)
def invoice_order(order_id: int) -> None:
    issue_invoice(order_id, send_email=True, notify=True)


def issue_invoice(order_id: int, send_email: bool, notify: bool) -> None:
    print(order_id, send_email, notify)
