from flask import Blueprint

from shop.models import db, Order
from shop.services import (
    announce,
    record_and_commit,
    record_for_a_caller_that_commits_first,
    record_for_a_caller_that_rolls_back,
    record_on_a_session_handed_in,
    record_order,
)

orders = Blueprint("orders", __name__)


@orders.post("/orders")
def create_order():
    order = Order()
    record_order(order)
    db.session.commit()
    return "created"


@orders.post("/orders/now")
def create_order_now():
    order = Order()
    record_and_commit(order)
    return "created"


@orders.post("/orders/announce")
def announce_order():
    order = Order()
    announce(order)
    db.session.commit()
    return "announced"


@orders.post("/orders/late")
def create_order_late():
    order = Order()
    db.session.commit()
    record_for_a_caller_that_commits_first(order)
    return "created"


@orders.post("/orders/undo")
def undo_order():
    order = Order()
    record_for_a_caller_that_rolls_back(order)
    db.session.rollback()
    db.session.commit()
    return "undone"


@orders.post("/orders/handed")
def create_order_handed():
    order = Order()
    record_on_a_session_handed_in(order, db.session)
    db.session.commit()
    return "created"
