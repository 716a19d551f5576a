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
