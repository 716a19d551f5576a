from celery import shared_task


@shared_task
def index_object(label, pk): ...


@shared_task
def unindex_object(label, pk): ...
