import dramatiq
import pika
import redis
from confluent_kafka import Producer
from django.db import transaction
from kafka import KafkaProducer
from rq import Queue

from shop.tasks import app, send_receipt

producer = KafkaProducer()
confluent = Producer({})
r = redis.Redis()
q = Queue(connection=r)
channel = pika.BlockingConnection().channel()

@dramatiq.actor
def notify(order_id): ...

def place(order):
    with transaction.atomic():
        order.save()
        send_receipt.delay(order.id)  # error: BG604
        send_receipt.apply_async(args=(order.id,))  # error: BG604
        app.send_task("shop.tasks.send_receipt", args=(order.id,))  # error: BG604
        q.enqueue(send_receipt, order.id)  # error: BG604
        notify.send(order.id)  # error: BG604
        producer.send("orders", b"x")  # error: BG604
        confluent.produce("orders", b"x")  # error: BG604
        channel.basic_publish(exchange="", routing_key="orders", body=b"x")  # error: BG604
        r.publish("orders", "x")  # error: BG604
    send_receipt.delay(order.id)
