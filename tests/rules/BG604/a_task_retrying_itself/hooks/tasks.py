import requests
from celery import shared_task
from django.db import transaction

from hooks.models import Call, Delivery

RETRY_INTERVALS = (5, 30, 120)


@shared_task(bind=True)
def send_webhook(self, log_id: int, webhook_id: int, retry_count: int = 0):
    with transaction.atomic():
        response = requests.post("https://hooks.example.com", json={"log": log_id}, timeout=10)
        Call.objects.create(log_id=log_id, webhook_id=webhook_id, status=response.status_code)
        if response.status_code >= 500 and retry_count < len(RETRY_INTERVALS):
            send_webhook.apply_async(
                args=(log_id, webhook_id, retry_count + 1),
                countdown=RETRY_INTERVALS[retry_count],
            )


@shared_task
def deliver(order_id: int, attempt: int = 0):
    with transaction.atomic():
        delivery = Delivery.objects.create(order_id=order_id, attempt=attempt)
        deliver.delay(delivery.order_id, attempt + 1)  # error: BG604
        notify.delay(order_id)  # error: BG604


@shared_task
def notify(order_id: int):
    Delivery.objects.filter(order_id=order_id).update(notified=True)
