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


class DeduplicatedTask(Task):
    """Hands the send to a deduplication backend, which decides when (and whether) it leaves."""

    backends = {}

    def apply_async(self, args=None, kwargs=None, **options):
        backend = self.backends.get(self.name)
        if backend is None:
            return super().apply_async(args=args, kwargs=kwargs, **options)
        return backend.dispatch(self, args, kwargs, options)


@app.task(base=TransactionAwareTask)
def send_invoice(invoice_id): ...


@app.task(base=LoggedTask)
def send_receipt(order_id): ...


@app.task(base=DeduplicatedTask)
def reindex_order(order_id): ...
