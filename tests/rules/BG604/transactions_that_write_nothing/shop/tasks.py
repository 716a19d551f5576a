from celery import shared_task

@shared_task
def rebuild_index(project_id): ...
