# Not flagged: not daemon attribute set later.
import threading
import time

def ship_metrics():
    while True:
        time.sleep(10)

def main():
    shipper = threading.Thread(target=ship_metrics)
    shipper.daemon = True
    shipper.start()
    legacy = threading.Thread(target=ship_metrics)
    legacy.setDaemon(True)
    legacy.start()
