from app.orders import process_order

def checkout(order):
    return process_order(order)
