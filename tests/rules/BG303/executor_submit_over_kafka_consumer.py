# Flagged: executor submit over kafka consumer.
from concurrent.futures import ThreadPoolExecutor
from kafka import KafkaConsumer

POOL = ThreadPoolExecutor(max_workers=8)

def handle(record):
    return record

def consume():
    consumer = KafkaConsumer("orders")
    for record in consumer:
        POOL.submit(handle, record)  # error: BG303  error: BG605

def consume_inline():
    for record in KafkaConsumer("refunds"):
        POOL.submit(handle, record)  # error: BG303  error: BG605
