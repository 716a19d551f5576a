# Flagged: shared task and money by name.
from celery import shared_task

@shared_task
def refund_order(order_id): ...  # error: BG603

@shared_task(bind=True, acks_late=False)
def payout_seller(self, seller_id): ...  # error: BG603
