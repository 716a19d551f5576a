from celery import shared_task
from django.db import transaction
from django.utils import timezone

from outbox.kafka import producer
from outbox.models import OutboxEvent


@shared_task
def relay_outbox(batch_size: int = 100) -> int:
    with transaction.atomic():
        events = list(
            OutboxEvent.objects.select_for_update(skip_locked=True)  # oldest first
            .filter(sent_at__isnull=True)
            .order_by("id")[:batch_size]
        )
        for event in events:
            producer.send(event.topic, key=event.key, value=event.payload).get(timeout=10)
            event.sent_at = timezone.now()
            event.save(update_fields=["sent_at"])
        retried = list(
            OutboxEvent.objects.filter(failed=True).select_for_update(
                of=("self",),
                skip_locked=True,
            )[:batch_size]
        )
        pending = OutboxEvent.objects.select_for_update(
            of=("self",),
            skip_locked=True,
        ).filter(sent_at__isnull=True)[:batch_size]
    return len(events) + len(retried) + pending.count()
