from celery import shared_task


@shared_task
def ship(order_id): ...
