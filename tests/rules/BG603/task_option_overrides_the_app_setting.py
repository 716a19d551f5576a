# Flagged: task option overrides the app setting.
from celery import Celery
import stripe

app = Celery("proj")
app.conf.task_acks_late = True

@app.task(acks_late=False)
def bill(order_id):  # error: BG603
    stripe.Charge.create(amount=1, currency="usd")
