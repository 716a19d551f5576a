from celery import shared_task


@shared_task
def reindex_product(product_id): ...


@shared_task
def purge_images(product_id): ...


@shared_task
def sync_tags(product_id): ...


@shared_task
def log_visit(visit_id): ...
