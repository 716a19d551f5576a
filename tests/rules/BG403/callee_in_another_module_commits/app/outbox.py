from app.db import save_order

def relay(session, order):
    save_order(session, order)
