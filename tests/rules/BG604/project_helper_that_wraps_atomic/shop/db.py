from contextlib import contextmanager

from django.db import transaction

@contextmanager
def unit_of_work():
    with transaction.atomic():
        yield
