# Flagged: a REST client keeps the httpx.Client its own factory method makes, or one the caller
# hands in instead (`client=None`, `client or httpx.Client()`, `if rest is None: rest = ...`: the
# dependency-injection idiom): the attribute is an httpx client. A request timeout left None on one branch ("use the client's default") is no default in
# httpx: an explicit timeout=None turns the bound off, so on that path the call waits for ever.
# The poller runs in a child process; a stop ends it mid-wait, but a server that never answers
# still hangs it, and the child then polls no more. Not flagged: the same call when the None is
# replaced after it (also under `if timeout is None:`) or tested before the call, and a timeout on
# every path.
import multiprocessing

import httpx


class RestClient:
    def __init__(self, client=None):
        if client is None:
            self.client = self._default_client()
        else:
            self.client = client

    def _default_client(self) -> httpx.Client:
        return httpx.Client(timeout=httpx.Timeout(60.0, connect=10.0))

    def request(self, method, url, request_timeout=None):
        if request_timeout is not None:
            timeout = httpx.Timeout(request_timeout)
        else:
            timeout = None  # use the client's default
        return self.client.request(method, url, timeout=timeout)  # error: BG203

    def request_replaced(self, method, url, request_timeout=None):
        timeout = None
        if request_timeout is not None:
            timeout = httpx.Timeout(request_timeout)
        timeout = timeout or httpx.Timeout(30.0)
        return self.client.request(method, url, timeout=timeout)

    def request_defaulted(self, method, url, request_timeout=None):
        timeout = None
        if request_timeout:
            timeout = httpx.Timeout(request_timeout)
        if timeout is None:
            timeout = httpx.Timeout(30.0)
        return self.client.request(method, url, timeout=timeout)

    def request_tested(self, method, url, request_timeout=None):
        timeout = httpx.Timeout(request_timeout) if request_timeout else None
        if timeout is not None:
            return self.client.request(method, url, timeout=timeout)
        return self.client.request(method, url)


class StreamClient:
    def __init__(self, client=None):
        self.client = client or httpx.Client(timeout=30.0)

    def stream_events(self, url):
        return self.client.get(url, timeout=None)  # error: BG203


class TaskApi:
    def __init__(self, rest=None):
        if rest is None:
            rest = RestClient()
        self.rest = rest

    def acknowledge(self, url):
        return self.rest.client.post(url, timeout=None)  # error: BG203


def poll(endpoint):
    rest = RestClient()
    events = StreamClient()
    tasks = TaskApi()
    while True:
        rest.request("GET", f"{endpoint}/tasks/poll")
        rest.request_replaced("GET", f"{endpoint}/tasks/poll")
        rest.request_tested("GET", f"{endpoint}/tasks/poll")
        rest.request_defaulted("GET", f"{endpoint}/tasks/poll")
        events.stream_events(f"{endpoint}/events")
        tasks.acknowledge(f"{endpoint}/tasks/ack")


def start_pollers(endpoint, count):
    for _ in range(count):
        multiprocessing.Process(target=poll, args=(endpoint,)).start()
