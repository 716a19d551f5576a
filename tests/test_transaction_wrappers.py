"""BG604 through the project's own transaction wrappers: decorators and context managers that open
``transaction.atomic()`` or SQLAlchemy ``begin()``, defined in one module and used in another; a
read replica's snapshot (``using=`` naming a replica) is no transaction.

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

DB = """
import functools
from contextlib import contextmanager

from django.db import transaction


def in_transaction(func=None, *, using=None):
    def deco(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            with transaction.atomic(using=using):
                return f(*args, **kwargs)
        return wrapper
    if func is not None:
        return deco(func)
    return deco


def atomic_job(f):
    @transaction.atomic
    def inner(*args):
        return f(*args)
    return inner


def logged(f):
    @functools.wraps(f)
    def inner(*args):
        print("calling", f)
        return f(*args)
    return inner


@contextmanager
def write_session(using="default"):
    with transaction.atomic(using=using):
        yield


@contextmanager
def replica_snapshot():
    with transaction.atomic(using="replica"):
        yield


@contextmanager
def timer():
    yield
"""


def project(services: str, **more: str) -> dict:
    files = {
        "shop/__init__.py": "",
        "shop/tasks.py": TASKS,
        "shop/core/__init__.py": "",
        "shop/core/db.py": DB,
        "shop/orders/__init__.py": "",
        "shop/orders/services.py": services,
    }
    files.update(more)
    return files


def test_project_decorators_open_a_transaction_in_another_module(bg):
    found = bg.files(
        project(
            """
            from shop.core.db import atomic_job, in_transaction
            from shop.tasks import send_receipt

            @in_transaction
            def bare(order):
                send_receipt.delay(Order.objects.create(ref=order.id).id)

            @in_transaction(using="default")
            def with_arguments(order):
                send_receipt.delay(Order.objects.create(ref=order.id).id)

            @atomic_job
            def decorated_inner(order):
                send_receipt.delay(Order.objects.create(ref=order.id).id)
            """
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 7), ("BG604", 11), ("BG604", 15)]
    assert "decorated with `@in_transaction` (which opens a transaction)" in found[0].explanation
    assert "`@atomic_job`" in found[2].explanation


def test_project_context_manager_with_arguments_and_as_decorator(bg):
    found = bg.files(
        project(
            """
            from shop.core import db
            from shop.tasks import send_receipt

            def place(order):
                with db.write_session(using="default"):
                    order.save()
                    send_receipt.delay(Order.objects.create(ref=order.id).id)

            @db.write_session()
            def place_decorated(order):
                send_receipt.delay(Order.objects.create(ref=order.id).id)
            """
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 8), ("BG604", 12)]
    assert "`with write_session():`" in found[0].explanation


def test_wrappers_that_open_no_transaction_are_not_flagged(bg):
    found = bg.files(
        project(
            """
            from shop.core.db import logged, timer
            from shop.tasks import send_receipt

            @logged
            def place(order):
                send_receipt.delay(Order.objects.create(ref=order.id).id)

            def later(order):
                with timer():
                    send_receipt.delay(Order.objects.create(ref=order.id).id)

            def after(order):
                from shop.core.db import write_session
                with write_session():
                    order.save()
                send_receipt.delay(Order.objects.create(ref=order.id).id)
            """
        ),
        select=["BG604"],
    )
    assert codes(found) == []


def test_read_replica_snapshot_is_not_a_transaction(bg):
    found = bg.files(
        project(
            """
            from django.db import transaction

            from shop.core.db import in_transaction, replica_snapshot, write_session
            from shop.tasks import send_receipt

            READ_DB = "read_replica"

            @in_transaction(using="replica")
            def report(order):
                send_receipt.delay(Order.objects.create(ref=order.id).id)

            def snapshot(order):
                with replica_snapshot():
                    send_receipt.delay(Order.objects.create(ref=order.id).id)

            def direct(order):
                with transaction.atomic(using=READ_DB):
                    send_receipt.delay(Order.objects.create(ref=order.id).id)

            def helper(order):
                with write_session(using="replica"):
                    send_receipt.delay(Order.objects.create(ref=order.id).id)

            @transaction.atomic(using="reader")
            def decorated(order):
                send_receipt.delay(Order.objects.create(ref=order.id).id)

            def on_primary(order):
                with transaction.atomic(using="default"):
                    send_receipt.delay(Order.objects.create(ref=order.id).id)
            """
        ),
        select=["BG604"],
    )
    # only the block on the primary database writes
    assert codes(found) == [("BG604", 31)]


def test_sqlalchemy_begin_wrappers(bg):
    found = bg.files(
        project(
            """
            from shop.core.sa import transactional, unit_of_work
            from shop.tasks import send_receipt

            @transactional
            def place(session, order):
                session.add(order)
                send_receipt.delay(Order.objects.create(ref=order.id).id)

            def place_with(order):
                with unit_of_work() as session:
                    session.add(order)
                    send_receipt.delay(Order.objects.create(ref=order.id).id)
            """,
            **{
                "shop/core/sa.py": """
                    import functools
                    from contextlib import contextmanager

                    from sqlalchemy.orm import sessionmaker

                    Session = sessionmaker()

                    def transactional(f):
                        @functools.wraps(f)
                        def wrapper(*args):
                            session = Session()
                            with session.begin():
                                return f(session, *args)
                        return wrapper

                    @contextmanager
                    def unit_of_work():
                        session = Session()
                        with session.begin():
                            yield session

                    @contextmanager
                    def plain():
                        yield Session()
                    """
            },
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 8), ("BG604", 13)]
