import stripe

def charge_customer(order_id):
    return stripe.Charge.create(amount=100, currency="usd", source=order_id)
