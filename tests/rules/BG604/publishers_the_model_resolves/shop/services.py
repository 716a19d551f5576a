from django.db import transaction

from shop.tasks import reindex_order, send_invoice, send_receipt


class JobResult:
    """The project's own record of a job: its methods are not a broker's."""

    @classmethod
    def enqueue_job(cls, func, *args):
        return cls()

    def delay(self, seconds): ...

    def publish(self): ...


def place(order, app, outbox):
    with transaction.atomic():
        order.save()
        send_receipt.delay(order.id)  # error: BG604
        send_receipt.s(order.id).apply_async()  # error: BG604
        send_invoice.delay(order.id)  # its base sends it from on_commit
        send_invoice.apply_async(args=(order.id,))  # likewise
        reindex_order.delay(order.id)  # its base replaces the send: it may never leave here
        JobResult.enqueue_job(place, order.id)  # the project's own classmethod
        JobResult().delay(5)  # a project method named like a task's
        JobResult().publish()  # likewise
        app.send_task("shop.tasks.send_receipt")  # `app` is a parameter: its type is not known
        outbox.publish(order.id)  # likewise
