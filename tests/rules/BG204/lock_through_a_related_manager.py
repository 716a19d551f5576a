# A query that starts from a related manager of one model instance (``invoice.lines``) holds the
# rows of that one parent: locking them serialises work on that object, and replicas busy with other
# objects never wait for it. Not a batch to split, so not flagged. A model class's manager
# (``Invoice.objects``, ``Invoice._default_manager``, a custom one such as ``Invoice.unpaid``) is a
# whole table: a batch taken from it still is.
from celery import shared_task
from django.db import models, transaction

from billing.models import Invoice


class Ledger(models.Model):
    def newest_entry(self):
        return self.entries.select_for_update().latest("booked_at")


class Exporter:
    def __init__(self):
        self.pending = Invoice.objects

    def next_invoice(self):
        # Flagged: ``self`` is no model instance, its ``pending`` is a class's manager.
        return self.pending.select_for_update().first()  # error: BG204


@shared_task
def settle_invoice(invoice_id, ledger: Ledger):
    with transaction.atomic():
        invoice = Invoice.objects.get(pk=invoice_id)
        last_line = invoice.lines.select_for_update().order_by("position").last()
        open_line = invoice.lines.filter(state="open").select_for_update(of=("self",)).first()
        for reminder in invoice.reminders.exclude(sent=True).select_for_update()[:5]:
            reminder.cancel()
        ledger.newest_entry()
        ledger.entries.select_for_update().earliest("booked_at")
        return last_line, open_line


@shared_task
def claim_invoices():
    with transaction.atomic():
        Invoice.unpaid.select_for_update().first()  # error: BG204
        Invoice._default_manager.filter(state="open").select_for_update()[:20]  # error: BG204
        manager = Invoice
        manager.unpaid.select_for_update().last()  # error: BG204
        Exporter().next_invoice()
