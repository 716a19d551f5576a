import threading

def work():
    outbox.commit()

def main():  # error: BG404
    threading.Thread(target=work).start()
