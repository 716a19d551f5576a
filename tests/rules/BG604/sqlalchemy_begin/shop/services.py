from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from shop.tasks import send_receipt

engine = create_engine("sqlite://")

def place(order, session: Session):
    with session.begin():
        session.add(order)
        send_receipt.delay(order.id)  # error: BG604

async def place_async(order, session):
    async with session.begin():
        session.add(order)
        send_receipt.delay(order.id)  # error: BG604

def place_core(order):
    with engine.begin() as conn:
        conn.execute(order.insert())
        send_receipt.delay(order.id)  # error: BG604
