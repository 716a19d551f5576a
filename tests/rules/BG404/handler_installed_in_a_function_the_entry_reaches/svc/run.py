import threading
from svc.signals import install

def work():
    outbox.commit()

if __name__ == "__main__":
    install(lambda signum, frame: None)
    threading.Thread(target=work).start()
