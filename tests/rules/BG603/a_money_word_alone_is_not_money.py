# Not flagged: a money word alone is not money: no name patterns by default, so a task named
# refund_order that only updates rows does not move money, however it is acknowledged.
from celery import shared_task


@shared_task
def refund_order(order):
    order.state = "refund requested"
    order.save()


@shared_task(acks_late=False)
def payout_report(seller):
    seller.report.charge_lines = seller.lines()
    seller.report.save()
