import threading

def settle(order, api):
    api.charge_card(order)

def tidy(order, api):
    api.discharge(order)

def go(order, api):
    threading.Thread(target=settle, args=(order, api)).start()  # error: BG601
    threading.Thread(target=tidy, args=(order, api)).start()
