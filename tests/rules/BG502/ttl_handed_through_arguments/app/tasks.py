from celery import shared_task

from app.locks import Guard, acquire, acquire_as_told, acquire_for, acquire_later


@shared_task
def sync():
    with acquire("sync"):
        pass


@shared_task
def rebuild():
    with Guard("rebuild", False).lock:
        pass


@shared_task
def export():
    with acquire_for("export"):
        pass


@shared_task
def archive():
    with acquire_for("archive", ttl=600):
        pass


@shared_task
def forward(**options):
    with acquire_as_told("forward", **options):
        pass


@shared_task
def defer(pool):
    pool.submit(acquire_later, "defer")
