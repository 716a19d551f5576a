import logging

import requests

log = logging.getLogger(__name__)


def trace_requests():
    original_send = requests.Session.send

    def send(self, request, **kwargs):
        log.info("-> %s %s", request.method, request.url)
        return original_send(self, request, **kwargs)

    requests.Session.send = send
