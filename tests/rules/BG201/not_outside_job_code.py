# Not flagged: not outside job code.
import time
import schedule

def report():
    return 1

schedule.every(1).hours.do(report)

def main():
    while True:
        schedule.run_pending()
        time.sleep(1)

def serve_forever(sock):
    while True:
        sock.accept()
