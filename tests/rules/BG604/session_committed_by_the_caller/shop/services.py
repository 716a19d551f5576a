from shop.models import db
from shop.tasks import send_receipt


def record_order(order):
    # The add began the session's transaction; the caller commits it after this returns, so the
    # task can run before the commit and not find the order, or run for an order rolled back.
    db.session.add(order)
    db.session.flush()
    send_receipt.delay(order.id)  # error: BG604


def record_and_commit(order):
    # Not flagged: the commit here ends the transaction before the message goes out.
    db.session.add(order)
    db.session.commit()
    send_receipt.delay(order.id)


def announce(order):
    # Not flagged: nothing written on the session here before the message.
    send_receipt.delay(order.id)


def record_for_a_caller_that_commits_first(order):
    # Not flagged: its caller committed before calling it and never after.
    db.session.add(order)
    send_receipt.delay(order.id)


def record_for_a_caller_that_rolls_back(order):
    # Not flagged: its caller rolls the session back before it commits anything.
    db.session.add(order)
    send_receipt.delay(order.id)


def record_on_a_session_handed_in(order, session):
    # Not flagged: a session handed in is not known to be the one the caller commits.
    session.add(order)
    send_receipt.delay(order.id)
