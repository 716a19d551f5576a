from celery import Celery, Task
from django.db import transaction

app = Celery("shop")


class TransactionAwareTask(Task):
    """Sends the task only once the surrounding transaction commits."""

    def apply_async(self, *args, **kwargs):
        transaction.on_commit(lambda: super(TransactionAwareTask, self).apply_async(*args, **kwargs))


class LoggedTask(Task):
    def apply_async(self, *args, **kwargs):
        print("sending", self.name)
        return super().apply_async(*args, **kwargs)


@app.task(base=TransactionAwareTask)
def send_invoice(invoice_id): ...


@app.task(base=LoggedTask)
def send_receipt(order_id): ...
