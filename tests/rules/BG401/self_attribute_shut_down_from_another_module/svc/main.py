from svc.relay import Relay

RELAY = Relay()

def stop():
    RELAY.executor.shutdown(wait=True)
