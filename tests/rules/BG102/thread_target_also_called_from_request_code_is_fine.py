# Not flagged: as a job, send_event runs only in the thread started for it; called from the
# request middleware it runs as program code, not as a job. Neither place receives a stop.
import threading

import requests


class EventLog:
    def __call__(self, request):
        if request.sync:
            self.send_event(request)
        else:
            threading.Thread(target=self.send_event, args=(request,)).start()

    def send_event(self, request):
        try:
            requests.post("https://events.example.com", json=request.payload, timeout=3)
        except:  # noqa: E722
            pass
