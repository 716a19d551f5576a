import time

def poll_forever(url):
    while True:  # error: BG201
        time.sleep(10)
