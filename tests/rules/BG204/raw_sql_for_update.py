# Flagged: raw sql for update.
from celery import shared_task
from django.db import connection

@shared_task
def ship_orders():
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM orders WHERE state = 'paid' LIMIT 100 FOR UPDATE")  # error: BG204
        cursor.execute(
            "SELECT id FROM orders "  # error: BG204
            "WHERE state = 'paid' FOR NO KEY UPDATE"
        )
