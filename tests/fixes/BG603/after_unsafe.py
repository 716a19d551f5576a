# file: billing/tasks.py
import stripe

from billing.celery import app
from billing.models import Refund


@app.task(autoretry_for=(stripe.error.APIConnectionError,), retry_backoff=True, max_retries=5, acks_late=True)
def refund_order(refund_id: int) -> None:
    refund = Refund.objects.get(pk=refund_id)
    if refund.stripe_refund_id:
        return  # already refunded
    result = stripe.Refund.create(
        payment_intent=refund.order.stripe_payment_intent_id,
        amount=refund.amount_cents,
        idempotency_key=f"refund-{refund.id}",
    )
    refund.stripe_refund_id = result.id
    refund.save(update_fields=["stripe_refund_id"])


@app.task(acks_late=True)
def pay_out(payout_id: int) -> None:
    stripe.Transfer.create(amount=100, currency="eur", destination="acct", idempotency_key=f"payout-{payout_id}")
