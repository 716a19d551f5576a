import threading
from app.tasks import send_receipt

def flush_orders(session):
    session.commit()

def publish(channel):
    channel.basic_publish(exchange="", routing_key="orders", body=b"x")

def enqueue(order_id):
    send_receipt.delay(order_id)

def start(session, channel):
    threading.Thread(target=flush_orders, args=(session,), daemon=True).start()  # error: BG403
    threading.Thread(target=publish, args=(channel,), daemon=True).start()  # error: BG403
    threading.Thread(target=enqueue, args=(1,), daemon=True).start()  # error: BG403
