import time

def ship_metrics():
    while True:
        time.sleep(10)
