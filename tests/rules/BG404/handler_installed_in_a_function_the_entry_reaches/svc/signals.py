import signal

def install(stop):
    signal.signal(signal.SIGTERM, stop)
