"""BG604 through calls: a function that publishes and is called only inside transactions publishes
inside one (reported at the publish, the callers as notes); a call made inside a transaction to a
function that publishes, when other callers call it outside one, is reported at that call (the way
down to the publish as notes). Followed two calls each way; on_commit callbacks, outbox relays and
functions that may be called from where bgcheck cannot see are left alone.

Each publish sends an order the transaction creates: a transaction that writes nothing has nothing
to roll back and is not flagged (tests/rules/BG604/transactions_that_write_nothing)."""

from __future__ import annotations

from conftest import codes

TASKS = """
from celery import shared_task

@shared_task
def send_receipt(order_id):
    pass
"""

NOTIFY = """
from shop.tasks import send_receipt


def notify(order):
    order.notified = True
    send_receipt.delay(Order.objects.create(ref=order.id).id)
"""


def project(**files: str) -> dict:
    found = {
        "shop/__init__.py": "",
        "shop/tasks.py": TASKS,
        "shop/notify.py": NOTIFY,
    }
    found.update(files)
    return found


def test_called_only_inside_atomic_blocks_is_reported_at_the_publish(bg):
    found = bg.files(
        project(
            **{
                "shop/orders.py": """
                    from django.db import transaction

                    from shop.notify import notify

                    def place(order):
                        with transaction.atomic():
                            order.save()
                            notify(order)

                    @transaction.atomic
                    def cancel(order):
                        order.delete()
                        notify(order)
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 7)]
    finding = found[0]
    assert finding.location.path == "shop/notify.py"
    assert finding.message == "`send_receipt.delay()` is sent inside a transaction that may still roll back"
    assert "It runs inside code that runs only inside a transaction" in finding.explanation
    assert [(r.path, r.message) for r in finding.related] == [
        ("shop/orders.py", "-> cancel() is a function decorated with `@transaction.atomic`, and calls notify()"),
    ]


def test_two_callers_up_through_a_view_under_atomic_requests(bg):
    found = bg.files(
        project(
            **{
                "config/__init__.py": "",
                "config/settings.py": """
                    DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "ATOMIC_REQUESTS": True}}
                    """,
                "shop/services.py": """
                    from shop.notify import notify

                    def create_order(data):
                        order = data.save()
                        notify(order)
                        return order
                    """,
                "shop/api.py": """
                    from rest_framework.views import APIView

                    from shop.services import create_order

                    class OrderView(APIView):
                        def post(self, request):
                            return create_order(request.data)
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 7)]
    finding = found[0]
    assert finding.location.path == "shop/notify.py"
    assert [(r.path, r.message) for r in finding.related] == [
        ("shop/api.py", "-> post() is a view (a method of a `APIView` subclass), and ATOMIC_REQUESTS = True wraps every view in a transaction, and calls create_order()"),
        ("shop/services.py", "-> create_order() calls notify()"),
    ]


def test_some_callers_outside_a_transaction_report_the_call_inside_one(bg):
    found = bg.files(
        project(
            **{
                "shop/orders.py": """
                    from django.db import transaction

                    from shop.notify import notify

                    def place(order):
                        with transaction.atomic():
                            order.save()
                            notify(order)

                    def resend(order):
                        notify(order)
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 9)]
    finding = found[0]
    assert finding.location.path == "shop/orders.py"
    assert finding.message == "`notify()` publishes and is called inside a transaction that may still roll back"
    assert "publishes (`notify() -> send_receipt.delay()`) and is called here inside `with transaction.atomic():`" in finding.explanation
    assert [(r.path, r.message) for r in finding.related] == [("shop/notify.py", "-> notify() calls send_receipt.delay()")]
    assert (finding.related[0].line, finding.related[0].column) == (7, 5)  # at the call itself


def test_a_call_two_calls_from_the_publish_is_reported_where_the_transaction_is(bg):
    found = bg.files(
        project(
            **{
                "shop/services.py": """
                    from shop.notify import notify

                    def finish(order):
                        order.state = "done"
                        notify(order)
                    """,
                "shop/orders.py": """
                    from django.db import transaction

                    from shop.services import finish

                    def close(order):
                        with transaction.atomic():
                            finish(order)

                    def close_later(order):
                        finish(order)
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 8)]
    assert found[0].location.path == "shop/orders.py"
    assert "`finish() -> notify() -> send_receipt.delay()`" in found[0].explanation
    assert [r.message for r in found[0].related] == ["-> finish() calls notify()", "-> notify() calls send_receipt.delay()"]


def test_on_commit_callbacks_and_publishes_inside_on_commit_are_not_flagged(bg):
    found = bg.files(
        project(
            **{
                "shop/later.py": """
                    from django.db import transaction

                    from shop.tasks import send_receipt

                    def notify_after_commit(order):
                        transaction.on_commit(lambda: send_receipt.delay(order.id))
                    """,
                "shop/orders.py": """
                    from functools import partial

                    from django.db import transaction

                    from shop.later import notify_after_commit
                    from shop.notify import notify

                    def place(order):
                        with transaction.atomic():
                            order.save()
                            transaction.on_commit(lambda: notify(order))
                            notify_after_commit(order)

                    def cancel(order):
                        with transaction.atomic():
                            order.delete()
                            transaction.on_commit(partial(notify, order))
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == []


def test_callers_outside_transactions_or_too_far_up_are_not_flagged(bg):
    found = bg.files(
        project(
            **{
                "shop/chain.py": """
                    from django.db import transaction

                    from shop.notify import notify

                    def level1(order):
                        notify(order)

                    def level2(order):
                        level1(order)

                    def level3(order):
                        level2(order)

                    def top(order):
                        with transaction.atomic():
                            level3(order)

                    def outside(order):
                        notify(order)
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == []


def test_a_relay_that_locks_rows_and_a_read_replica_are_not_flagged(bg):
    found = bg.files(
        project(
            **{
                "shop/relay.py": """
                    from django.db import transaction

                    from shop.models import Outbox
                    from shop.notify import notify

                    def send_row(row):
                        producer.produce(row.topic, row.payload)

                    def relay():
                        with transaction.atomic():
                            rows = Outbox.objects.select_for_update(skip_locked=True)[:100]
                            for row in rows:
                                send_row(row)
                                row.delete()

                    def report(order):
                        with transaction.atomic(using="replica"):
                            notify(order)
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == []


def test_callers_bgcheck_cannot_see_move_the_finding_to_the_call(bg):
    # ``notify`` is also handed to a signal as a callback and ``Mailer.send_receipt`` overrides a
    # library method: either may run from elsewhere, so the publish is not claimed to be always in a
    # transaction; the call inside one still is.
    found = bg.files(
        project(
            **{
                "shop/mailer.py": """
                    from django.core.mail.backends.base import BaseEmailBackend

                    from shop.tasks import send_receipt

                    class Mailer(BaseEmailBackend):
                        def send_messages(self, messages):
                            send_receipt.delay(len(messages))
                    """,
                "shop/orders.py": """
                    from django.db import transaction
                    from django.db.models.signals import post_save

                    from shop.mailer import Mailer
                    from shop.notify import notify

                    post_save.connect(notify)

                    def place(order, mailer: Mailer):
                        with transaction.atomic():
                            notify(order)
                            mailer.send_messages([order])
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 12), ("BG604", 13)]
    assert all(d.location.path == "shop/orders.py" for d in found)


def test_sqlalchemy_begin_and_a_method_called_through_self(bg):
    found = bg.files(
        project(
            **{
                "shop/billing.py": """
                    from sqlalchemy.orm import Session

                    from shop.tasks import send_receipt

                    class Billing:
                        def __init__(self, session: Session):
                            self.session = session

                        def _announce(self, invoice):
                            send_receipt.delay(Order.objects.create(ref=invoice.id).id)

                        def close(self, invoice):
                            with self.session.begin():
                                invoice.closed = True
                                self._announce(invoice)
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 11)]
    assert [r.message for r in found[0].related] == ["-> close() calls _announce() inside `with session.begin():`"]


def test_a_call_inside_a_transaction_whose_publish_depends_on_a_condition_is_not_flagged(bg):
    # ``save(update_fields=["email"])`` never reaches the publish: bgcheck cannot tell which calls
    # do, so only a publish sure to follow the call is claimed. A publish every caller makes inside a
    # transaction is inside one whatever the condition.
    found = bg.files(
        project(
            **{
                "shop/models.py": """
                    from django.db import transaction

                    from shop.tasks import send_receipt

                    class Profile:
                        def save(self, update_fields=None):
                            if not update_fields or "avatar" in update_fields:
                                send_receipt.delay(Order.objects.create(ref=self.pk).id)

                        def sync(self):
                            for pk in self.pks:
                                send_receipt.delay(Order.objects.create(ref=pk).id)

                        @transaction.atomic
                        def change_email(self, email):
                            self.email = email
                            self.save(update_fields=["email"])

                        def resend(self):
                            self.save()

                    def only_inside(order):
                        if order.paid:
                            send_receipt.delay(Order.objects.create(ref=order.id).id)

                    def close(order, profile: Profile):
                        with transaction.atomic():
                            only_inside(order)
                            profile.sync()

                    def elsewhere(profile: Profile):
                        profile.sync()
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 25)]
    assert "runs only inside a transaction" in found[0].explanation


def test_a_helper_writes_and_publishes_and_its_caller_commits_the_session(bg):
    """A write on a module's SQLAlchemy session begins its transaction; a helper that writes, then
    publishes, and returns leaves it open for the caller's commit: the task can run first."""
    found = bg.files(
        project(
            **{
                "shop/db.py": """
                    from flask_sqlalchemy import SQLAlchemy

                    db = SQLAlchemy()
                    """,
                "shop/services.py": """
                    from shop.db import db
                    from shop.tasks import send_receipt

                    def record(order):
                        db.session.add(order)
                        send_receipt.delay(order.id)

                    def record_quietly(order):
                        db.session.add(order)
                        send_receipt.delay(order.id)
                    """,
                "shop/views.py": """
                    from shop.db import db
                    from shop.services import record, record_quietly

                    def create(order):
                        record(order)
                        db.session.commit()

                    def create_then_discard(order):
                        record_quietly(order)
                        db.session.close()
                        db.session.commit()
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 7)]
    finding = found[0]
    assert finding.location.path == "shop/services.py"
    assert finding.message == "`send_receipt.delay()` is sent inside a transaction that may still roll back"
    assert finding.explanation == (
        "It runs inside the transaction the session began at `db.session.add()`, which `create()` commits after "
        "calling this function: the message is out the moment it is sent, so if the transaction then rolls back, "
        "the consumer acts on data that never existed (or runs before the commit and does not find it). Publish "
        "after the commit, or write an outbox row in the transaction and let a relay send it."
    )
    assert [(r.path, r.line, r.message) for r in finding.related] == [
        ("shop/views.py", 6, "-> create() calls record(), then commits the session"),
    ]
