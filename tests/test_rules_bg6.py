"""BG601-BG604: work that must not be lost, and the money model behind them.

Each test is one shape the rule must flag, or one it must not flag (the
rule's page in ``rules/`` lists both: "Example" and "When it stays silent").
Payment SDK names are the ones in ``knowledge.MONEY_CALLS``. Sources start
with a newline, so line 1 is empty and the first line of code is line 2.
"""

from __future__ import annotations

import pytest
from conftest import codes

from bgcheck.model.money import NamePatterns, words

# A small project: one module that moves money through stripe, used by most BG601 tests.
PAY = """
import stripe

def charge_customer(order):
    return stripe.PaymentIntent.create(amount=order.total, currency="usd")

async def charge_async(order):
    return await stripe.PaymentIntent.create_async(amount=order.total, currency="usd")
"""


def with_pay(source: str, **more: str) -> dict:
    files = {"shop/__init__.py": "", "shop/pay.py": PAY, "shop/jobs.py": source}
    files.update(more)
    return files


# ---------------------------------------------------------------------------
# NamePatterns: whole-word matching


def test_words_split_snake_and_camel_case():
    assert words("charge_customer") == ["charge", "customer"]
    assert words("chargeCustomer") == ["charge", "customer"]
    assert words("HTTPChargeClient") == ["http", "charge", "client"]
    assert words("refund2") == ["refund", "2"]


def test_name_patterns_match_whole_words_only():
    patterns = NamePatterns(["charge", "refund"])
    assert patterns.matches("charge_customer")
    assert patterns.matches("refund")
    assert patterns.matches("chargeCustomer")
    assert patterns.matches("auto_refund_order")
    # a pattern inside a longer word does not match, at either end of the word
    assert not patterns.matches("discharge_patient")
    assert not patterns.matches("recharge")
    assert not patterns.matches("chargeback")
    assert not patterns.matches("refunded")


def test_name_patterns_word_longer_than_the_identifier_word():
    patterns = NamePatterns(["pay"])
    assert patterns.matches("pay_invoice")
    assert patterns.matches("payInvoice")
    assert not patterns.matches("payload")
    assert not patterns.matches("payment_status_label")


def test_name_patterns_multi_word_sequence():
    patterns = NamePatterns(["capture_payment"])
    assert patterns.matches("capture_payment")
    assert patterns.matches("capturePaymentNow")
    assert patterns.matches("retry_capture_payment")
    assert not patterns.matches("capture")
    assert not patterns.matches("payment_capture")
    assert not patterns.matches("capture_payments")


def test_name_patterns_ignore_empty_patterns():
    patterns = NamePatterns(["", "_", "refund"])
    assert patterns.sequences == [("refund",)]
    assert not patterns.matches("")


# ---------------------------------------------------------------------------
# BG601 money-in-fire-and-forget: each fire-and-forget form


def test_bg601_asyncio_create_task_and_ensure_future(bg):
    found = bg.files(
        with_pay(
            """
            import asyncio
            from asyncio import ensure_future

            from shop.pay import charge_async

            async def checkout(order):
                asyncio.create_task(charge_async(order))

            async def checkout_old(order):
                ensure_future(charge_async(order))
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 8), ("BG601", 11)]
    assert "`create_task()` runs charge_async() -> stripe.PaymentIntent.create_async" in found[0].explanation
    assert "ensure_future()` runs charge_async()" in found[1].explanation


def test_bg601_loop_create_task(bg):
    found = bg.files(
        with_pay(
            """
            import asyncio

            from shop.pay import charge_async

            async def checkout(order):
                loop = asyncio.get_running_loop()
                loop.create_task(charge_async(order))
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 8)]


def test_bg601_task_group_not_entered_by_the_caller(bg):
    found = bg.files(
        with_pay(
            """
            import asyncio

            from shop.pay import charge_async

            class Worker:
                def __init__(self):
                    self.group = asyncio.TaskGroup()

                async def checkout(self, order):
                    self.group.create_task(charge_async(order))

            async def checkout(order, tg: asyncio.TaskGroup):
                tg.create_task(charge_async(order))
            """
        ),
        select=["BG601"],
    )
    # a group held elsewhere runs the task on after the caller returns
    assert codes(found) == [("BG601", 11), ("BG601", 14)]


def test_bg601_task_group_entered_by_the_caller_is_awaited(bg):
    found = bg.files(
        with_pay(
            """
            import asyncio

            from shop.pay import charge_async

            async def checkout(order):
                async with asyncio.TaskGroup() as tg:
                    tg.create_task(charge_async(order))

            async def checkout_prebuilt(order):
                group = asyncio.TaskGroup()
                async with group:
                    group.create_task(charge_async(order))
            """
        ),
        select=["BG6"],
    )
    assert codes(found) == []


def test_bg601_executor_submit_and_map(bg):
    found = bg.files(
        with_pay(
            """
            from concurrent.futures import ThreadPoolExecutor

            from shop.pay import charge_customer

            POOL = ThreadPoolExecutor(max_workers=4)

            def checkout(order):
                POOL.submit(charge_customer, order)

            def checkout_all(orders):
                POOL.map(charge_customer, orders)
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 9), ("BG601", 12)]
    assert "`Executor.submit()` runs charge_customer() -> stripe.PaymentIntent.create" in found[0].explanation
    assert "`Executor.map()`" in found[1].message


def test_bg601_run_in_executor(bg):
    found = bg.files(
        with_pay(
            """
            import asyncio

            from shop.pay import charge_customer

            async def checkout(order):
                loop = asyncio.get_running_loop()
                loop.run_in_executor(None, charge_customer, order)
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 8)]
    assert "`loop.run_in_executor()`" in found[0].message


def test_bg601_thread_target(bg):
    found = bg.files(
        with_pay(
            """
            import functools
            from threading import Thread

            from shop.pay import charge_customer

            def checkout(order):
                Thread(target=charge_customer, args=(order,)).start()

            def checkout_partial(order):
                Thread(target=functools.partial(charge_customer, order), daemon=True).start()

            def checkout_lambda(order):
                Thread(target=lambda: charge_customer(order)).start()
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 8), ("BG601", 11), ("BG601", 14)]
    assert "`threading.Thread(target=...)`" in found[0].message


def test_bg601_fastapi_background_tasks_parameter(bg):
    found = bg.files(
        with_pay(
            """
            from fastapi import BackgroundTasks, FastAPI

            from shop.pay import charge_customer

            app = FastAPI()

            @app.post("/checkout")
            def checkout(order_id: int, tasks: BackgroundTasks):
                tasks.add_task(charge_customer, order_id)
                return {"ok": True}
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 10)]
    assert "`BackgroundTasks.add_task()`" in found[0].message


def test_bg601_starlette_background_task(bg):
    found = bg.files(
        with_pay(
            """
            from starlette.background import BackgroundTask, BackgroundTasks
            from starlette.responses import JSONResponse

            from shop.pay import charge_customer

            async def checkout(request):
                return JSONResponse({"ok": True}, background=BackgroundTask(charge_customer, 1))

            async def checkout_many(request):
                tasks = BackgroundTasks()
                tasks.add_task(charge_customer, 1)
                return JSONResponse({"ok": True}, background=tasks)
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 8), ("BG601", 12)]
    assert "`BackgroundTask()`" in found[0].message


def test_bg601_loop_call_soon(bg):
    found = bg.files(
        with_pay(
            """
            import asyncio

            from shop.pay import charge_customer

            async def checkout(order):
                asyncio.get_running_loop().call_soon(charge_customer, order)
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 7)]
    assert "`loop.call_soon()`" in found[0].message


def test_bg601_to_thread_inside_a_task(bg):
    found = bg.files(
        with_pay(
            """
            import asyncio

            from shop.pay import charge_customer

            async def checkout(order):
                asyncio.create_task(asyncio.to_thread(charge_customer, order))
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 7)]


# ---------------------------------------------------------------------------
# BG601: must not flag


def test_bg601_awaited_before_the_caller_returns(bg):
    found = bg.files(
        with_pay(
            """
            import asyncio
            import threading
            from concurrent.futures import ThreadPoolExecutor

            from shop.pay import charge_async, charge_customer

            POOL = ThreadPoolExecutor(max_workers=4)

            async def a(order):
                await asyncio.create_task(charge_async(order))

            async def b(order):
                task = asyncio.create_task(charge_async(order))
                await asyncio.sleep(0)
                return await task

            async def c(order):
                task = asyncio.ensure_future(charge_async(order))
                await asyncio.gather(task)

            async def d(order):
                t = asyncio.get_running_loop().create_task(charge_async(order))
                await asyncio.wait([t])

            def e(order):
                future = POOL.submit(charge_customer, order)
                return future.result()

            def f(order):
                return POOL.submit(charge_customer, order).result(timeout=30)

            async def g(order):
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(None, charge_customer, order)

            def h(order):
                t = threading.Thread(target=charge_customer, args=(order,))
                t.start()
                t.join()
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == []


def test_bg601_executor_map_results_consumed(bg):
    found = bg.files(
        with_pay(
            """
            from concurrent.futures import ThreadPoolExecutor

            from shop.pay import charge_customer

            POOL = ThreadPoolExecutor(max_workers=4)

            def a(orders):
                return list(POOL.map(charge_customer, orders))

            def b(orders):
                for receipt in POOL.map(charge_customer, orders):
                    print(receipt)

            def c(orders):
                receipts = POOL.map(charge_customer, orders)
                return sorted(receipts)

            def d(orders):
                return [r.id for r in POOL.map(charge_customer, orders)]
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == []


def test_bg601_durable_queue_is_not_its_concern(bg):
    found = bg.files(
        with_pay(
            """
            import asyncio

            from celery import shared_task

            from shop.pay import charge_customer

            @shared_task(acks_late=True)
            def charge_task(order_id):
                charge_customer(order_id)

            def checkout(order):
                charge_task.delay(order.id)
                charge_task.apply_async(args=(order.id,))

            async def checkout_async(order, tasks):
                asyncio.get_running_loop().run_in_executor(None, charge_task.delay, order.id)
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == []


def test_bg601_non_money_work_is_not_flagged(bg):
    found = bg.files(
        with_pay(
            """
            import asyncio
            import threading

            def send_welcome_mail(user): ...

            async def refresh_cache(): ...

            async def main(user):
                asyncio.create_task(refresh_cache())
                threading.Thread(target=send_welcome_mail, args=(user,)).start()
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG601: the money model (chains across modules, names, config)


def test_bg601_chain_of_three_links_across_modules(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/billing/__init__.py": "",
            "app/billing/gateway.py": """
                import stripe

                def settle(order):
                    order.validate()
                    return stripe.PaymentIntent.create(amount=order.total, currency="usd")
                """,
            "app/orders.py": """
                from app.billing import gateway

                def process_order(order):
                    return gateway.settle(order)
                """,
            "app/checkout.py": """
                from app.orders import process_order

                def checkout(order):
                    return process_order(order)
                """,
            "app/web.py": """
                import threading

                from app.checkout import checkout

                def post(order):
                    threading.Thread(target=checkout, args=(order,)).start()
                """,
        },
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 7)]
    assert found[0].location.path == "app/web.py"
    assert "runs checkout() -> process_order() -> settle() -> stripe.PaymentIntent.create," in found[0].explanation
    # the first note at the thread's target, each next one at its call in the link before
    assert [(r.path, r.line, r.column, r.message) for r in found[0].related] == [
        ("app/checkout.py", 4, 1, "-> checkout()"),
        ("app/checkout.py", 5, 12, "-> process_order()"),
        ("app/orders.py", 5, 12, "-> settle()"),
        ("app/billing/gateway.py", 6, 12, "-> stripe.PaymentIntent.create"),
    ]


def test_bg601_shortest_chain_prefers_the_sdk_call(bg):
    found = bg.files(
        with_pay(
            """
            import threading

            from shop.pay import charge_customer

            def checkout(order):
                charge_customer(order)

            def post(order):
                threading.Thread(target=checkout, args=(order,)).start()
            """
        ),
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 10)]
    assert "checkout() -> charge_customer() -> stripe.PaymentIntent.create," in found[0].explanation


def test_bg601_money_by_whole_word_name(bg):
    found = bg.files(
        {
            "names.py": """
                import threading

                def charge_customer(order): ...
                def refund(order): ...
                def issuePayout(order): ...
                def payload(order): ...
                def discharge_patient(patient): ...
                def payment_status_label(payment): ...
                def recharge_battery(battery): ...

                def go(x):
                    threading.Thread(target=charge_customer).start()
                    threading.Thread(target=refund).start()
                    threading.Thread(target=issuePayout).start()
                    threading.Thread(target=payload).start()
                    threading.Thread(target=discharge_patient).start()
                    threading.Thread(target=payment_status_label).start()
                    threading.Thread(target=recharge_battery).start()
                """
        },
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 13), ("BG601", 14), ("BG601", 15)]
    assert "runs charge_customer()," in found[0].explanation


def test_bg601_money_named_method_of_an_unknown_object(bg):
    found = bg.code(
        """
        import threading

        def settle(order, api):
            api.charge_card(order)

        def tidy(order, api):
            api.discharge(order)

        def go(order, api):
            threading.Thread(target=settle, args=(order, api)).start()
            threading.Thread(target=tidy, args=(order, api)).start()
        """,
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 11)]
    assert "settle() -> api.charge_card," in found[0].explanation


def test_bg601_configured_functions(bg):
    found = bg.files(
        {
            "svc.py": """
                import threading

                import acmepay
                from acmepay import settle_invoice

                def book_entry(order): ...

                def close_books(order):
                    book_entry(order)

                def settle(order):
                    settle_invoice(order)

                def settle_later(order):
                    acmepay.Client("key").settle(order)

                def go(order):
                    threading.Thread(target=close_books, args=(order,)).start()
                    threading.Thread(target=settle, args=(order,)).start()
                    threading.Thread(target=settle_later, args=(order,)).start()
                """
        },
        config="""
        [tool.bgcheck.money]
        functions = ["svc.book_entry", "acmepay.settle_invoice", "acmepay.Client.settle"]
        """,
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 19), ("BG601", 20), ("BG601", 21)]
    # a configured project function is a link of its own, at its own place
    assert "runs close_books() -> book_entry()," in found[0].explanation
    assert [(r.path, r.line, r.column) for r in found[0].related] == [("svc.py", 9, 1), ("svc.py", 10, 5)]
    assert "runs settle() -> acmepay.settle_invoice," in found[1].explanation
    assert "runs settle_later() -> acmepay.Client.settle," in found[2].explanation


def test_bg601_configured_name_patterns(bg):
    found = bg.code(
        """
        import threading

        def settle_invoice(invoice): ...
        def settlement_report(day): ...
        def charge_customer(order): ...

        def go(x):
            threading.Thread(target=settle_invoice).start()
            threading.Thread(target=settlement_report).start()
        """,
        config="""
        [tool.bgcheck.money]
        name-patterns = ["settle"]
        """,
        select=["BG601"],
    )
    assert codes(found) == [("BG601", 9)]
    assert "runs settle_invoice()," in found[0].explanation


# ---------------------------------------------------------------------------
# The money model: every payment SDK call in knowledge.MONEY_CALLS

SDK_CALLS = """
import threading

import Adyen
import braintree
import paypalrestsdk
import razorpay
import stripe
from mollie.api.client import Client as MollieClient
from square import Square
from square_legacy.client import Client as LegacySquare

client = stripe.StripeClient("sk_test")
gateway = braintree.BraintreeGateway(braintree.Configuration(braintree.Environment.Sandbox))
adyen = Adyen.Adyen()
square = Square(token="t")
legacy = LegacySquare(access_token="t", environment="sandbox")
rzp = razorpay.Client(auth=("k", "s"))
mollie = MollieClient()

def job():
    {call}

threading.Thread(target=job).start()
"""


@pytest.mark.parametrize(
    "call, chain_end",
    [
        ('stripe.PaymentIntent.create(amount=100, currency="usd")', "stripe.PaymentIntent.create"),
        ('stripe.PaymentIntent.confirm("pi_1")', "stripe.PaymentIntent.confirm"),
        ('stripe.Charge.create(amount=100, currency="usd")', "stripe.Charge.create"),
        ('stripe.Charge.capture("ch_1")', "stripe.Charge.capture"),
        ("stripe.Refund.create(payment_intent='pi_1')", "stripe.Refund.create"),
        ("stripe.Transfer.create(amount=1, destination='acct')", "stripe.Transfer.create"),
        ("stripe.Payout.create(amount=1, currency='usd')", "stripe.Payout.create"),
        ('stripe.Invoice.pay("in_1")', "stripe.Invoice.pay"),
        ('stripe.checkout.Session.create(mode="payment")', "stripe.checkout.Session.create"),
        ("stripe.Refund.create_async(payment_intent='pi_1')", "stripe.Refund.create_async"),
        ('stripe.PaymentIntent.retrieve("pi_1").capture()', "stripe.PaymentIntent.retrieve.capture"),
        ('client.v1.payment_intents.create({"amount": 100})', "stripe.StripeClient.v1.payment_intents.create"),
        ('client.v1.refunds.create({"payment_intent": "pi_1"})', "stripe.StripeClient.v1.refunds.create"),
        ('client.payment_intents.confirm("pi_1")', "stripe.StripeClient.payment_intents.confirm"),
        ('braintree.Transaction.sale({"amount": "10.00"})', "braintree.Transaction.sale"),
        ('braintree.Transaction.refund("tx_1")', "braintree.Transaction.refund"),
        ('braintree.Transaction.submit_for_settlement("tx_1")', "braintree.Transaction.submit_for_settlement"),
        ('gateway.transaction.sale({"amount": "10.00"})', "braintree.BraintreeGateway.transaction.sale"),
        ("adyen.checkout.payments_api.payments({})", "Adyen.Adyen.checkout.payments_api.payments"),
        (
            'adyen.checkout.modifications_api.refund_captured_payment({}, "psp")',
            "Adyen.Adyen.checkout.modifications_api.refund_captured_payment",
        ),
        ("adyen.payment.payments_api.authorise({})", "Adyen.Adyen.payment.payments_api.authorise"),
        ("adyen.payout.instant_payouts_api.payout({})", "Adyen.Adyen.payout.instant_payouts_api.payout"),
        ("adyen.transfers.transfers_api.transfer_funds({})", "Adyen.Adyen.transfers.transfers_api.transfer_funds"),
        ('square.payments.create(source_id="s", idempotency_key="k", amount_money={})', "square.Square.payments.create"),
        ('square.refunds.refund_payment(idempotency_key="k", payment_id="p")', "square.Square.refunds.refund_payment"),
        ("legacy.payments.create_payment({})", "square_legacy.client.Client.payments.create_payment"),
        ("legacy.refunds.refund_payment({})", "square_legacy.client.Client.refunds.refund_payment"),
        ('rzp.payment.capture("pay_1", 100)', "razorpay.Client.payment.capture"),
        ('rzp.payment.refund("pay_1")', "razorpay.Client.payment.refund"),
        ("rzp.refund.create(data={})", "razorpay.Client.refund.create"),
        ("rzp.transfer.create(data={})", "razorpay.Client.transfer.create"),
        ("mollie.payments.create({})", "mollie.api.client.Client.payments.create"),
        ('mollie.payments.get("tr_1").refunds.create({})', "mollie.api.client.Client.payments.get.refunds.create"),
        ("paypalrestsdk.Payment({}).create()", "paypalrestsdk.Payment.create"),
        ('paypalrestsdk.Payment.find("p").execute({"payer_id": "x"})', "paypalrestsdk.Payment.find.execute"),
        ('paypalrestsdk.Authorization.find("a").capture({})', "paypalrestsdk.Authorization.find.capture"),
        ("paypalrestsdk.Payout({}).create()", "paypalrestsdk.Payout.create"),
        ('paypalrestsdk.Sale.find("s").refund({})', "paypalrestsdk.Sale.find.refund"),
    ],
)
def test_payment_sdk_calls_move_money(bg, call, chain_end):
    found = bg.code(SDK_CALLS.replace("{call}", call), select=["BG601"])
    assert codes(found) == [("BG601", 24)]
    assert f"runs job() -> {chain_end}," in found[0].explanation


@pytest.mark.parametrize(
    "call",
    [
        'stripe.PaymentIntent.retrieve("pi_1")',
        "stripe.PaymentIntent.list(limit=3)",
        "stripe.Charge.list()",
        'stripe.Refund.retrieve("re_1")',
        'client.v1.payment_intents.retrieve("pi_1")',
        "client.v1.charges.list()",
        'braintree.Transaction.find("tx_1")',
        "square.payments.list()",
        "mollie.refunds.list()",
        'mollie.payments.get("tr_1")',
        'rzp.payment.fetch("pay_1")',
    ],
)
def test_reading_payment_calls_do_not_move_money(bg, call):
    found = bg.code(SDK_CALLS.replace("{call}", call), select=["BG601"])
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG602 task-result-discarded


def test_bg602_bare_expression_results(bg):
    found = bg.code(
        """
        import asyncio
        from asyncio import create_task
        from concurrent.futures import ThreadPoolExecutor

        executor = ThreadPoolExecutor(max_workers=2)

        async def work(): ...
        def blocking(): ...

        async def main():
            loop = asyncio.get_running_loop()
            asyncio.create_task(work())
            create_task(work())
            asyncio.ensure_future(work())
            loop.create_task(work())
            executor.submit(blocking)
            loop.run_in_executor(None, blocking)
        """,
        select=["BG602"],
    )
    assert codes(found) == [("BG602", line) for line in (13, 14, 15, 16, 17, 18)]
    assert "weak reference" in found[0].explanation
    assert "The future returned by `submit()`" in found[4].message
    assert "The future returned by `run_in_executor()`" in found[5].message


def test_bg602_not_stored_awaited_or_with_done_callback(bg):
    found = bg.code(
        """
        import asyncio
        from concurrent.futures import ThreadPoolExecutor

        executor = ThreadPoolExecutor(max_workers=2)
        background = set()

        async def work(): ...
        def blocking(): ...

        async def main(tg: asyncio.TaskGroup):
            loop = asyncio.get_running_loop()
            t = asyncio.create_task(work())
            background.add(asyncio.create_task(work()))
            asyncio.create_task(work()).add_done_callback(background.discard)
            executor.submit(blocking).add_done_callback(print)
            await asyncio.create_task(work())
            f = executor.submit(blocking)
            await loop.run_in_executor(None, blocking)
            async with asyncio.TaskGroup() as group:
                group.create_task(work())
            tg.create_task(work())
            return t, f
        """,
        select=["BG602"],
    )
    assert codes(found) == []


def test_bg602_other_objects_create_task_and_submit(bg):
    found = bg.code(
        """
        def main(jira, form):
            jira.create_task("fix it")
            form.submit()
        """,
        select=["BG602"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG603 money-task-acks-early

CELERY_PAY = """
import stripe

def charge_customer(order_id):
    return stripe.Charge.create(amount=100, currency="usd", source=order_id)
"""

CELERY_TASKS = """
from proj.celery import app
from proj.pay import charge_customer

@app.task
def bill(order_id):
    charge_customer(order_id)

@app.task(acks_late=True)
def bill_late(order_id):
    charge_customer(order_id)

@app.task
def log_order(order_id):
    print(order_id)
"""


def celery_project(celery: str, **more: str) -> dict:
    files = {"proj/__init__.py": "", "proj/pay.py": CELERY_PAY, "proj/celery.py": celery, "proj/tasks.py": CELERY_TASKS}
    files.update(more)
    return files


def test_bg603_money_task_without_acks_late(bg):
    found = bg.files(
        celery_project(
            """
            from celery import Celery
            app = Celery("proj")
            """
        ),
        select=["BG603"],
    )
    assert codes(found) == [("BG603", 6)]
    assert found[0].location.path == "proj/tasks.py"
    assert "Celery task `proj.tasks.bill` moves money (bill() -> charge_customer() -> stripe.Charge.create)" in found[0].explanation
    assert "acks_late=True" in found[0].explanation
    assert "reject_on_worker_lost" in found[0].explanation
    assert [(r.path, r.line, r.column, r.message) for r in found[0].related] == [
        ("proj/tasks.py", 6, 1, "-> bill()"),
        ("proj/tasks.py", 7, 5, "-> charge_customer()"),
        ("proj/pay.py", 5, 12, "-> stripe.Charge.create"),
    ]


def test_bg603_shared_task_and_money_by_name(bg):
    found = bg.code(
        """
        from celery import shared_task

        @shared_task
        def refund_order(order_id): ...

        @shared_task(bind=True, acks_late=False)
        def payout_seller(self, seller_id): ...
        """,
        select=["BG603"],
    )
    assert codes(found) == [("BG603", 5), ("BG603", 8)]


@pytest.mark.parametrize(
    "celery, more",
    [
        ("from celery import Celery\napp = Celery('proj')\napp.conf.task_acks_late = True\n", {}),
        ("from celery import Celery\napp = Celery('proj')\napp.conf.update(task_acks_late=True, task_reject_on_worker_lost=True)\n", {}),
        ("from celery import Celery\napp = Celery('proj')\napp.conf.update({'task_acks_late': True})\n", {}),
        (
            "from celery import Celery\napp = Celery('proj')\napp.config_from_object('proj.celeryconfig')\n",
            {"proj/celeryconfig.py": "task_acks_late = True\n"},
        ),
        (
            "from celery import Celery\nfrom proj import celeryconfig\napp = Celery('proj')\napp.config_from_object(celeryconfig)\n",
            {"proj/celeryconfig.py": "task_acks_late = True\n"},
        ),
        (
            "from celery import Celery\napp = Celery('proj')\napp.config_from_object('django.conf:settings', namespace='CELERY')\n",
            {"proj/settings.py": "DEBUG = False\nCELERY_TASK_ACKS_LATE = True\n"},
        ),
    ],
    ids=["conf-attribute", "conf-update-kwargs", "conf-update-dict", "config-module-name", "config-module-object", "django-settings"],
)
def test_bg603_app_configuration_acks_late(bg, celery, more):
    found = bg.files(celery_project(celery, **more), select=["BG603"])
    assert codes(found) == []


@pytest.mark.parametrize(
    "settings",
    ["CELERY_TASK_ACKS_LATE = False\n", "TASK_ACKS_LATE = True\n"],
    ids=["false", "without-the-namespace"],
)
def test_bg603_django_settings_that_do_not_set_acks_late(bg, settings):
    celery = "from celery import Celery\napp = Celery('proj')\napp.config_from_object('django.conf:settings', namespace='CELERY')\n"
    found = bg.files(celery_project(celery, **{"proj/settings.py": settings}), select=["BG603"])
    assert codes(found) == [("BG603", 6)]


def test_bg603_task_option_overrides_the_app_setting(bg):
    found = bg.code(
        """
        from celery import Celery
        import stripe

        app = Celery("proj")
        app.conf.task_acks_late = True

        @app.task(acks_late=False)
        def bill(order_id):
            stripe.Charge.create(amount=1, currency="usd")
        """,
        select=["BG603"],
    )
    assert codes(found) == [("BG603", 9)]


# ---------------------------------------------------------------------------
# BG604 publish-inside-transaction

TASKS = """
from celery import shared_task

@shared_task
def send_receipt(order_id): ...
"""


def shop(source: str, **more: str) -> dict:
    files = {"shop/__init__.py": "", "shop/tasks.py": TASKS, "shop/services.py": source}
    files.update(more)
    return files


def test_bg604_every_publishing_call_inside_atomic(bg):
    found = bg.files(
        shop(
            """
            import dramatiq
            import pika
            import redis
            from confluent_kafka import Producer
            from django.db import transaction
            from kafka import KafkaProducer
            from rq import Queue

            from shop.tasks import send_receipt

            producer = KafkaProducer()
            confluent = Producer({})
            r = redis.Redis()
            q = Queue(connection=r)
            channel = pika.BlockingConnection().channel()

            @dramatiq.actor
            def notify(order_id): ...

            def place(order, app):
                with transaction.atomic():
                    order.save()
                    send_receipt.delay(order.id)
                    send_receipt.apply_async(args=(order.id,))
                    app.send_task("shop.tasks.send_receipt", args=(order.id,))
                    q.enqueue(send_receipt, order.id)
                    notify.send(order.id)
                    producer.send("orders", b"x")
                    confluent.produce("orders", b"x")
                    channel.basic_publish(exchange="", routing_key="orders", body=b"x")
                    r.publish("orders", "x")
                send_receipt.delay(order.id)
            """
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", line) for line in range(24, 33)]
    assert found[0].message == "`send_receipt.delay()` is sent inside a transaction that may still roll back"
    assert found[0].explanation.startswith("It runs inside `with transaction.atomic():`")
    assert "transaction.on_commit" in found[0].explanation
    assert "outbox" in found[0].explanation


def test_bg604_atomic_decorator(bg):
    found = bg.files(
        shop(
            """
            from django.db import transaction

            from shop.tasks import send_receipt

            @transaction.atomic
            def place(order):
                send_receipt.delay(order.id)

            @transaction.atomic()
            def place_again(order):
                send_receipt.delay(order.id)
            """
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 8), ("BG604", 12)]
    assert "a function decorated with `@transaction.atomic`" in found[0].explanation


def test_bg604_sqlalchemy_begin(bg):
    found = bg.files(
        shop(
            """
            from sqlalchemy import create_engine
            from sqlalchemy.orm import Session

            from shop.tasks import send_receipt

            engine = create_engine("sqlite://")

            def place(order, session: Session):
                with session.begin():
                    session.add(order)
                    send_receipt.delay(order.id)

            async def place_async(order, session):
                async with session.begin():
                    session.add(order)
                    send_receipt.delay(order.id)

            def place_core(order):
                with engine.begin() as conn:
                    conn.execute(order.insert())
                    send_receipt.delay(order.id)
            """
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 12), ("BG604", 17), ("BG604", 22)]
    assert "inside `with session.begin():`" in found[0].explanation
    assert "inside `async with session.begin():`" in found[1].explanation
    assert "inside `with engine.begin():`" in found[2].explanation


def test_bg604_project_helper_that_wraps_atomic(bg):
    found = bg.files(
        shop(
            """
            from shop.db import unit_of_work
            from shop.tasks import send_receipt

            def place(order):
                with unit_of_work():
                    order.save()
                    send_receipt.delay(order.id)
            """,
            **{
                "shop/db.py": """
                    from contextlib import contextmanager

                    from django.db import transaction

                    @contextmanager
                    def unit_of_work():
                        with transaction.atomic():
                            yield
                    """
            },
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 8)]
    assert "`with unit_of_work():` (which opens a transaction)" in found[0].explanation


def test_bg604_atomic_requests_makes_every_view_transactional(bg):
    found = bg.files(
        shop(
            "",
            **{
                "proj/__init__.py": "",
                "proj/settings.py": """
                    DATABASES = {
                        "default": {"ENGINE": "django.db.backends.postgresql", "NAME": "shop", "ATOMIC_REQUESTS": True},
                    }
                    """,
                "shop/views.py": """
                    from django.db import transaction

                    from shop.tasks import send_receipt

                    def place_order(request):
                        send_receipt.delay(1)

                    @transaction.non_atomic_requests
                    def place_order_fast(request):
                        send_receipt.delay(1)
                    """,
            },
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 7)]
    assert found[0].location.path == "shop/views.py"
    assert "ATOMIC_REQUESTS" in found[0].explanation


def test_bg604_views_without_atomic_requests(bg):
    found = bg.files(
        shop(
            "",
            **{
                "proj/__init__.py": "",
                "proj/settings.py": """
                    DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "ATOMIC_REQUESTS": False}}
                    """,
                "shop/views.py": """
                    from shop.tasks import send_receipt

                    def place_order(request):
                        send_receipt.delay(1)
                    """,
            },
        ),
        select=["BG604"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG604: must not flag


def test_bg604_after_the_block_and_in_on_commit_lambdas(bg):
    found = bg.files(
        shop(
            """
            from functools import partial

            from django.db import transaction

            from shop.tasks import send_receipt

            def place(order):
                with transaction.atomic():
                    order.save()
                    transaction.on_commit(lambda: send_receipt.delay(order.id))
                    transaction.on_commit(partial(send_receipt.delay, order.id))
                send_receipt.delay(order.id)

            @transaction.atomic
            def place_again(order):
                order.save()
                transaction.on_commit(lambda: send_receipt.apply_async(args=(order.id,)))
            """
        ),
        select=["BG604"],
    )
    assert codes(found) == []


def test_bg604_on_commit_callbacks_defined_elsewhere(bg):
    found = bg.files(
        shop(
            "",
            **{
                "proj/__init__.py": "",
                "proj/settings.py": """
                    DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "ATOMIC_REQUESTS": True}}
                    """,
                "shop/notify.py": """
                    from django.db import transaction

                    from shop.tasks import send_receipt

                    @transaction.atomic
                    def announce(order_id):
                        send_receipt.delay(order_id)
                    """,
                "shop/views.py": """
                    from functools import partial

                    from django.db import transaction

                    from shop.notify import announce
                    from shop.tasks import send_receipt

                    def after_commit(request, order_id):
                        send_receipt.delay(order_id)

                    def not_a_callback(request, order_id):
                        send_receipt.delay(order_id)

                    def place_order(request):
                        transaction.on_commit(partial(announce, 1))
                        transaction.on_commit(partial(after_commit, request, 1))
                    """,
            },
        ),
        select=["BG604"],
    )
    # only the function that is not passed to on_commit is flagged (a view under ATOMIC_REQUESTS)
    assert codes(found) == [("BG604", 13)]
    assert found[0].location.path == "shop/views.py"


def test_bg604_outbox_relays(bg):
    found = bg.files(
        shop(
            """
            from django.db import transaction
            from kafka import KafkaProducer
            from sqlalchemy import select

            from shop.models import Outbox, OutboxRow
            from shop.tasks import send_receipt

            producer = KafkaProducer()

            def relay_django():
                with transaction.atomic():
                    for row in Outbox.objects.select_for_update(skip_locked=True).filter(sent=False)[:100]:
                        producer.send(row.topic, row.payload)
                        row.sent = True
                        row.save()

            def relay_sqlalchemy(session):
                with session.begin():
                    rows = session.execute(select(OutboxRow).with_for_update(skip_locked=True).limit(100)).scalars()
                    for row in rows:
                        producer.send(row.topic, row.payload)
                        session.delete(row)

            def relay_sql(connection):
                with transaction.atomic():
                    with connection.cursor() as cursor:
                        cursor.execute("SELECT id, topic, payload FROM outbox FOR UPDATE SKIP LOCKED LIMIT 100")
                        for _id, topic, payload in cursor.fetchall():
                            producer.send(topic, payload)

            @transaction.atomic
            def relay_decorated():
                pending = list(Outbox.objects.select_for_update(skip_locked=True)[:10])
                for row in pending:
                    message = {"order": row.order_id}
                    send_receipt.delay(message)
                    row.delete()
            """
        ),
        select=["BG604"],
    )
    assert codes(found) == []


def test_bg604_locking_a_row_then_publishing_something_else(bg):
    found = bg.files(
        shop(
            """
            from django.db import transaction

            from shop.models import Account
            from shop.tasks import send_receipt

            def debit(account_id, user_id, amount):
                with transaction.atomic():
                    account = Account.objects.select_for_update().get(pk=account_id)
                    account.balance -= amount
                    account.save()
                    send_receipt.delay(user_id)

            @transaction.atomic
            def debit_again(account_id, amount):
                account = Account.objects.select_for_update().get(pk=account_id)
                account.save()
                send_receipt.delay("debited")
            """
        ),
        select=["BG604"],
    )
    # not a relay: what is published was not read from the locked rows
    assert codes(found) == [("BG604", 12), ("BG604", 18)]
