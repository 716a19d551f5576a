from svc.relay import Relay

RELAY = Relay()

def stop():
    RELAY.workers.close()
    RELAY.workers.join()
