from django.db import transaction

from shop.tasks import rebuild_index


@transaction.atomic
def nested(pk):
    # Nothing written here, but every caller runs this inside its own transaction, which writes.
    rebuild_index.delay(pk)  # error: BG604


def outer(order):
    with transaction.atomic():
        order.save()
        nested(order.pk)
