from celery import shared_task


@shared_task
def reindex_product(product_id): ...


@shared_task
def notify_warehouse(product_id): ...
