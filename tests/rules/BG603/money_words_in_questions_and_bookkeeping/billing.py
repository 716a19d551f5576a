# A name that contains a money word is not money when it asks a question about the money (a
# predicate: ``is_reverse_charge``, ``has_pending_refund``) or books money that moved elsewhere
# (``record_refund``, ``create_external_refund``): tasks that only call those are not flagged.
# A provider's ``execute_refund`` and a project's ``refund_ticket`` still move money.
from celery import shared_task

from vat.rules import tax_rule_for


def record_refund(booking, amount):
    booking.refunds_booked += amount
    booking.save()


@shared_task
def build_statement(booking):
    rule = tax_rule_for(booking)
    if rule.is_reverse_charge(booking.country):
        booking.note = "reverse charge"
    if booking.provider.has_pending_refund(booking):
        booking.note += ", refund pending"
    booking.save()


@shared_task
def import_bank_lines(booking, lines):
    for line in lines:
        if line.amount < 0:
            booking.ledger.create_external_refund(amount=-line.amount)
            record_refund(booking, -line.amount)
        else:
            booking.ledger.log_charge(line.amount)


@shared_task
def refund_booking(booking):  # error: BG603
    if booking.provider.can_refund(booking):
        booking.provider.execute_refund(booking)


@shared_task
def cancel_booking(booking):  # error: BG603
    booking.cancel()
    refund_ticket(booking)


def refund_ticket(booking):
    booking.state = "refunded"
