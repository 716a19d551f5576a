from app.billing import gateway

def process_order(order):
    return gateway.settle(order)
