# Flagged: the poll thread reaches the requests call through a getter of a module global that is
# set under `global` in another function (get_controller() returns _CONTROLLER, a Controller).
# Not flagged: the same call given a timeout.
import threading
import time

import requests

_CONTROLLER = None


def init_controller(url):
    global _CONTROLLER
    if _CONTROLLER is None:
        _CONTROLLER = Controller(url)
        _CONTROLLER.start()
    return _CONTROLLER


def get_controller():
    return _CONTROLLER


class Controller:
    def __init__(self, url):
        self.url = url
        self.registry = Registry()

    def changed(self):
        return requests.get(self.url).json()  # error: BG203

    def changed_in_time(self):
        return requests.get(self.url, timeout=10).json()

    def start(self):
        self.registry.start()


class Registry:
    def start(self):
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def _poll(self):
        while True:
            controller = get_controller()
            controller.changed()
            controller.changed_in_time()
            time.sleep(1)
