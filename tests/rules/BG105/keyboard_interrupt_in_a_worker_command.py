# Flagged: a worker command that swallows Ctrl-C inside its loop goes round again; not flagged: one
# whose outermost handler ends handle() (the command is the program: Ctrl-C ends it).
import time

from django.core.management.base import BaseCommand


def poll_once():
    return None


class DashboardCommand(BaseCommand):
    def handle(self, *args, **options):
        try:
            while True:
                poll_once()
                time.sleep(5)
        except KeyboardInterrupt:
            pass


class StubbornCommand(BaseCommand):
    def handle(self, *args, **options):
        while True:
            try:
                poll_once()
                time.sleep(5)
            except KeyboardInterrupt:  # error: BG105
                continue
