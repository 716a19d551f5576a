from sqlalchemy import create_engine
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from flask_sqlalchemy import SQLAlchemy

from shop.tasks import send_receipt

engine = create_engine("sqlite://")
db = SQLAlchemy()

def place(order, session: Session):
    with session.begin():
        session.add(order)
        send_receipt.delay(order.id)  # error: BG604

async def place_async(order, session: AsyncSession):
    async with session.begin():
        session.add(order)
        send_receipt.delay(order.id)  # error: BG604

async def place_untyped(order, session):
    # Not flagged: a receiver bgcheck cannot type is not known to open a transaction, whatever its name.
    async with session.begin():
        session.add(order)
        send_receipt.delay(order.id)

def place_flask(order):
    with db.session.begin():
        db.session.add(order)
        send_receipt.delay(order.id)  # error: BG604

def place_core(order):
    with engine.begin() as conn:
        conn.execute(order.insert())
        send_receipt.delay(order.id)  # error: BG604
