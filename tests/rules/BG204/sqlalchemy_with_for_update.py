# Flagged: sqlalchemy with for update.
from apscheduler.schedulers.background import BackgroundScheduler
from sqlalchemy import select
from shop.db import Session, Order

scheduler = BackgroundScheduler()

@scheduler.scheduled_job("interval", minutes=1)
def ship_orders():
    with Session() as session, session.begin():
        rows = session.scalars(select(Order).where(Order.state == "paid").limit(100).with_for_update())  # error: BG204
        for order in rows:
            order.ship()
