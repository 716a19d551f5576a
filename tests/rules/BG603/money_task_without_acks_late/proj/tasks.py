from proj.celery import app
from proj.pay import charge_customer

@app.task
def bill(order_id):  # error: BG603
    charge_customer(order_id)

@app.task(acks_late=True)
def bill_late(order_id):
    charge_customer(order_id)

@app.task
def log_order(order_id):
    print(order_id)
