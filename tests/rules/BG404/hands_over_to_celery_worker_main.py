# Not flagged: hands over to celery worker main.
import threading
from celery import Celery

app = Celery("shop")

def work():
    outbox.commit()

if __name__ == "__main__":
    threading.Thread(target=work).start()
    app.worker_main(["worker", "--loglevel=info"])
