# Flagged: the job is a subclass whose run() hands over to its base's run() through super(), and
# the base's run() calls self.sync(), which calls self.load(): what runs is the subclass's own
# load(), here a request with no timeout. Not flagged: the base's load() (the job class overrides
# it), and the load() of a class that is not a job.
import requests
from nautobot.apps.jobs import Job


class SyncJob(Job):
    def run(self, *args, **kwargs):
        self.sync()

    def sync(self):
        records = self.load()
        self.save(records)

    def load(self):
        return []

    def save(self, records):
        self.saved = list(records)


class CrmSync(SyncJob):
    def run(self, *args, **kwargs):
        self.started = True
        super().run(*args, **kwargs)

    def load(self):
        return requests.get("https://crm.example.com/accounts").json()  # error: BG203


class Preview(SyncJob.__base__):
    def load(self):
        return requests.get("https://crm.example.com/preview").json()
