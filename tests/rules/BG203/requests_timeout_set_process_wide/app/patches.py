import types

from requests.adapters import HTTPAdapter


def default_requests_timeout():
    """requests waits for ever by default: every send without a timeout gets 30 seconds."""
    original_send = HTTPAdapter.send

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        if timeout is None:
            timeout = 30
        return types.MethodType(original_send, self)(request, stream=stream, timeout=timeout, verify=verify, cert=cert, proxies=proxies)

    HTTPAdapter.send = send
