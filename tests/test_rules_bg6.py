"""BG601-BG604: the money model, and the cases a fixture file cannot hold.

The rules' cases are fixture files in ``tests/rules/<CODE>/`` (tests/test_rule_fixtures.py).
What stays here tests the name patterns of the money model, and runs one project over each row
of a table (parametrized): payment SDK calls from ``knowledge.MONEY_CALLS``, Celery settings.
Sources start with a newline, so line 1 is empty and the first line of code is line 2.
"""

from __future__ import annotations

import pytest
from conftest import codes

from bgcheck.model.money import NamePatterns, words

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


def test_name_patterns_skip_predicates_and_bookkeeping_names():
    patterns = NamePatterns(["charge", "refund"])
    # a predicate asks about the money: its first word is a question
    assert not patterns.matches("is_reverse_charge")
    assert not patterns.matches("hasPendingRefund")
    assert not patterns.matches("can_refund")
    # a name that books money moved elsewhere
    assert not patterns.matches("record_refund")
    assert not patterns.matches("create_external_refund")
    assert not patterns.matches("log_charge")
    # the question or bookkeeping word must be a word of its own, and first for a predicate
    assert patterns.matches("execute_refund")
    assert patterns.matches("charge_if_missing")
    assert patterns.matches("this_charge")
    assert patterns.matches("recorder_refund")
    assert patterns.matches("refund_island")


def test_name_patterns_keep_a_configured_pattern_with_those_words():
    patterns = NamePatterns(["record_settlement", "is_charge"])
    assert patterns.matches("record_settlement")
    assert patterns.matches("is_charge_now")
    assert not patterns.matches("log_record_settlement_external")


def test_name_patterns_ignore_empty_patterns():
    patterns = NamePatterns(["", "_", "refund"])
    assert patterns.sequences == [("refund",)]
    assert not patterns.matches("")


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
