from celery import Celery

app = Celery("shop")
app.conf.beat_schedule = {"invoices": {"task": "example.send_invoices", "schedule": 300.0}}

@app.task
def send_invoices():
    return 1

@app.on_after_configure.connect
def setup(sender: Celery, **kwargs):
    sender.add_periodic_task(600.0, send_invoices.s(), name="again")
