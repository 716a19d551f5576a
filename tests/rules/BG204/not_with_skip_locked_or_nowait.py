# Not flagged: not with skip locked or nowait.
from celery import shared_task
from sqlalchemy import select, text
from shop.db import Order, session
from shop.models import DjangoOrder

@shared_task
def ship_orders():
    DjangoOrder.objects.select_for_update(skip_locked=True).filter(state="paid")[:100]
    DjangoOrder.objects.select_for_update(nowait=True).get(pk=1)
    session.scalars(select(Order).with_for_update(skip_locked=True))
    session.query(Order).with_for_update(nowait=True).first()
    session.execute(text("SELECT id FROM orders WHERE state = 'paid' FOR UPDATE SKIP LOCKED"))
    session.execute(text("SELECT id FROM orders WHERE id = 1 FOR UPDATE NOWAIT"))
