# Flagged: a merge left conflict markers in the file, so it does not parse and no rule can check it.
from celery import shared_task


@shared_task(acks_late=True)
def invoice_order(order_id: int) -> None:
<<<<<<< HEAD  # error: BG000
    issue_invoice(order_id, send_email=True)
=======
    issue_invoice(order_id, notify=True)
>>>>>>> feature/invoice-notify
