from shop.models import Order

def claim_paid_orders():
    return list(Order.objects.select_for_update().filter(state="paid")[:100])  # error: BG204
