import threading

from app.checkout import checkout

def post(order):
    threading.Thread(target=checkout, args=(order,)).start()  # error: BG601
