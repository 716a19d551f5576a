# Flagged: raw sql for update.
from celery import shared_task
from django.db import connection

@shared_task
def ship_orders():
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM orders WHERE state = 'paid' LIMIT 100 FOR UPDATE")  # error: BG204
        cursor.execute(
            "SELECT id FROM orders "  # error: BG204
            "WHERE state = 'paid' ORDER BY id FETCH FIRST 10 ROWS ONLY FOR NO KEY UPDATE"
        )
        # Not flagged: every matching row (no LIMIT), locked to serialise with their other writers.
        cursor.execute("SELECT id FROM orders WHERE state = 'paid' FOR UPDATE")
