from celery import Celery, shared_task

app = Celery("shop")

@shared_task
def send_receipt(order_id): ...
