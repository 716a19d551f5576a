import stripe

def settle(order):
    order.validate()
    return stripe.PaymentIntent.create(amount=order.total, currency="usd")
