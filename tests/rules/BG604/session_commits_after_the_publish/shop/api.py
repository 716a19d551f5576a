from fastapi import APIRouter
from fastapi_sqla import Session

from shop.tasks import send_receipt

router = APIRouter()


@router.post("/orders")
def create_order(order, session: Session):
    # fastapi-sqla commits the session after the endpoint returns: the task may run first.
    session.add(order)
    send_receipt.delay(order.id)  # error: BG604
    return order


@router.post("/quotes")
def quote(order, session: Session):
    # Not flagged: nothing written on the session before the message.
    send_receipt.delay(order.id)
    return order
