import stripe

def charge_customer(order):
    return stripe.PaymentIntent.create(amount=order.total, currency="usd")

async def charge_async(order):
    return await stripe.PaymentIntent.create_async(amount=order.total, currency="usd")
