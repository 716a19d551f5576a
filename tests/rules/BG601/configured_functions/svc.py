import threading

import acmepay
from acmepay import settle_invoice

def book_entry(order): ...

def close_books(order):
    book_entry(order)

def settle(order):
    settle_invoice(order)

def settle_later(order):
    acmepay.Client("key").settle(order)

def go(order):
    threading.Thread(target=close_books, args=(order,)).start()  # error: BG601
    threading.Thread(target=settle, args=(order,)).start()  # error: BG601
    threading.Thread(target=settle_later, args=(order,)).start()  # error: BG601
