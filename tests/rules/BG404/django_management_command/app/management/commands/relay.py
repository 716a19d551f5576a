import time
from django.core.management.base import BaseCommand

class Command(BaseCommand):
    help = "relay the outbox"

    def handle(self, *args, **options):  # error: BG404
        while True:
            self.relay_once()
            time.sleep(1)

    def relay_once(self):
        outbox.commit()
