# A monitor starts one thread per plugin, each plugin taken from a dict (bgcheck cannot type it):
# the thread's target `plugin.refresh_in_thread` is the one method of that name in the project, the
# base class's, and it calls `self.update()`, which the base does not define: each plugin class
# defines it, so the thread runs one of theirs. Flagged: the request with no timeout in a plugin's
# update(). Not flagged: a plugin's update() that passes a timeout, and the update() of a class
# that is no plugin (no thread runs it).
import threading

import requests


class Plugin:
    def __init__(self, url):
        self.url = url

    def refresh_in_thread(self):
        self.update()
        self.render()

    def render(self):
        return f"<{self.url}>"


class NginxStatus(Plugin):
    def update(self):
        self.status = requests.get(self.url).text  # error: BG203


class HealthPing(Plugin):
    def update(self):
        self.status = requests.get(self.url, timeout=5).text


class Report:
    def update(self):
        return requests.get("https://report.example.com/latest").text


class Monitor:
    def __init__(self, plugins):
        self.plugins = plugins

    def refresh(self):
        for _name, plugin in self.plugins.items():
            threading.Thread(target=plugin.refresh_in_thread).start()
