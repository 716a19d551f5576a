from django.db import transaction

from support.models import Status
from support.tasks import recount, schedule_status_update, schedule_status_update_for, status_update


@transaction.atomic
def discovery(request):
    status = Status.objects.select_for_update().get(pk=1)
    status.discoverable = not status.discoverable
    status.save(update_fields=["discoverable"])
    status_update.delay()
    status_update.apply_async(countdown=10)
    status_update.delay(only=request.user.pk)  # error: BG604
    recount.delay()  # error: BG604


@transaction.atomic
def hide(request):
    Status.objects.filter(pk=1).update(discoverable=False)
    schedule_status_update()
    schedule_status_update_for(request.user.pk)  # error: BG604


def show(request):
    schedule_status_update()
    schedule_status_update_for(request.user.pk)
